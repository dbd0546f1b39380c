//! The control port's REST routes against a real server on an ephemeral
//! localhost port, with a real HTTP client: every route answers, a call
//! reaches its handler and returns the reply, a parameter set over HTTP
//! changes what the block computes, counters rise, variables set through
//! the file's controller reach their blocks, a token is enforced when
//! one is set, and bad requests get 4xx with a message, never a panic.

use rfgraph::{Running, scheduler::Tpb};
use rfgraph_control::{ControlOptions, ControlPort, ServedGraph};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const WATCHDOG: Duration = Duration::from_secs(60);

fn local() -> ControlOptions {
    ControlOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: None,
    }
}

/// A client that reads 4xx and 5xx answers as answers.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

struct Server {
    port: ControlPort,
    agent: ureq::Agent,
}

impl Server {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.port.local_addr())
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let mut r = self.agent.get(&self.url(path)).call().unwrap();
        (
            r.status().as_u16(),
            r.body_mut().read_json().unwrap_or(Value::Null),
        )
    }

    fn send(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let req = match method {
            "PUT" => self.agent.put(&self.url(path)),
            _ => self.agent.post(&self.url(path)),
        };
        let mut r = req
            .header("content-type", "application/json")
            .send(body)
            .unwrap();
        (
            r.status().as_u16(),
            r.body_mut().read_json().unwrap_or(Value::Null),
        )
    }
}

/// A repeating source (settable values) into a null sink, and a
/// message sink, built from a file as `rfgraph run` builds it.
const GRAPH: &str = r#"format = 1
connections = ["src -> sink"]

[blocks.src]
kind = "vector_source"
type = "f32"
values = [1.0, 1.0, 1.0, 1.0]
repeat = true

[blocks.sink]
kind = "null_sink"
type = "f32"

[blocks.msgs]
kind = "message_sink"
"#;

fn build(text: &str) -> rfgraph_flowfile::build::Built {
    let doc = rfgraph_flowfile::toml::parse(text, Arc::new("t.toml".into())).unwrap();
    rfgraph_flowfile::build::build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &Default::default(),
    )
    .unwrap()
}

fn start_graph() -> Running {
    build(GRAPH).flowgraph.start(Tpb::new()).unwrap()
}

fn serve(running: &Running) -> Server {
    let port = ControlPort::start(local()).unwrap();
    port.serve(ServedGraph::new("g", running.handle()));
    Server {
        port,
        agent: agent(),
    }
}

#[test]
fn every_route_answers_for_a_running_graph() {
    let running = start_graph();
    let s = serve(&running);

    let (code, list) = s.get("/api/flowgraphs");
    assert_eq!(code, 200);
    assert_eq!(
        list,
        json!([{"name": "g", "scheduler": "tpb", "state": "running"}])
    );

    let (code, g) = s.get("/api/flowgraphs/g");
    assert_eq!(code, 200, "{g}");
    let names: Vec<&str> = g["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["src", "sink", "msgs"]);
    assert_eq!(g["streams"][0]["output"], "out");
    assert_eq!(g["blocks"][0]["outputs"][0]["item"], "f32");
    let src_params = g["blocks"][0]["params"].as_array().unwrap();
    assert!(
        src_params
            .iter()
            .any(|p| p["name"] == "values" && p["settable"] == true),
        "{g}"
    );

    // Counters rise between two looks.
    let consumed = |s: &Server| {
        let (code, st) = s.get("/api/flowgraphs/g/stats");
        assert_eq!(code, 200);
        assert!(st["edges"][0]["capacity"].as_u64().unwrap() > 0, "{st}");
        st["blocks"][1]["items_consumed"].as_u64().unwrap()
    };
    let first = consumed(&s);
    let deadline = Instant::now() + WATCHDOG;
    while consumed(&s) <= first {
        assert!(Instant::now() < deadline, "the counters never rose");
        std::thread::sleep(Duration::from_millis(5));
    }

    let (code, b) = s.get("/api/flowgraphs/g/blocks/src");
    assert_eq!(code, 200, "{b}");
    assert_eq!(b["params"][1]["name"], "repeat");
    assert_eq!(
        b["params"][1]["value"],
        json!({"type": "bool", "value": true})
    );
    assert!(b["stats"]["work_calls"].as_u64().unwrap() > 0);

    // Set a parameter, read it back.
    let (code, v) = s.send(
        "PUT",
        "/api/flowgraphs/g/blocks/src/params/values",
        "[2.0, 3.0]",
    );
    assert_eq!(code, 200, "{v}");
    let (code, v) = s.get("/api/flowgraphs/g/blocks/src/params/values");
    assert_eq!(code, 200);
    assert_eq!(
        v["value"],
        json!({"type": "vec_f32", "value": [2.0, 3.0]}),
        "{v}"
    );

    // A call reaches the handler and returns its reply; a post is taken.
    let (code, r) = s.send(
        "POST",
        "/api/flowgraphs/g/blocks/msgs/call/in",
        r#"{"type": "u64", "value": 5}"#,
    );
    assert_eq!(code, 200, "{r}");
    // The sink's handler replies with the count of messages it has had.
    assert_eq!(r, json!({"reply": {"type": "u64", "value": 1}}));
    let (code, _) = s.send(
        "POST",
        "/api/flowgraphs/g/blocks/msgs/post/in",
        r#""hello""#,
    );
    assert_eq!(code, 202);
    let h = running.handle();
    let msgs = h.block_id("msgs").unwrap();
    let deadline = Instant::now() + WATCHDOG;
    while h.stats()[msgs.0].messages_handled < 2 {
        assert!(Instant::now() < deadline, "the post never arrived");
        std::thread::sleep(Duration::from_millis(2));
    }

    // No variables without a file's controller.
    assert_eq!(s.get("/api/flowgraphs/g/variables"), (200, json!([])));

    let (code, _) = s.send("POST", "/api/flowgraphs/g/stop", "");
    assert_eq!(code, 202);
    running.wait_timeout(WATCHDOG).unwrap();
    let (_, list) = s.get("/api/flowgraphs");
    assert_eq!(list[0]["state"], "finished");
}

#[test]
fn bad_requests_get_4xx_with_a_message() {
    let running = start_graph();
    let s = serve(&running);
    let cases: &[(&str, &str, &str, u16, &str)] = &[
        (
            "GET",
            "/api/flowgraphs/nope",
            "",
            404,
            "no flowgraph `nope`",
        ),
        (
            "GET",
            "/api/flowgraphs/g/blocks/nope",
            "",
            404,
            "no block `nope`",
        ),
        (
            "GET",
            "/api/flowgraphs/g/blocks/src/params/nope",
            "",
            404,
            "no parameter `nope`",
        ),
        (
            "GET",
            "/api/flowgraphs/g/blocks/src/readings/level",
            "",
            404,
            "no reading `level`",
        ),
        (
            "PUT",
            "/api/flowgraphs/g/blocks/src/params/repeat",
            "false",
            400,
            "fixed once the block is built",
        ),
        (
            "PUT",
            "/api/flowgraphs/g/blocks/src/params/values",
            "\"loud\"",
            400,
            "values",
        ),
        (
            "PUT",
            "/api/flowgraphs/g/blocks/src/params/values",
            "{not json",
            400,
            "",
        ),
        (
            "POST",
            "/api/flowgraphs/g/blocks/sink/call/in",
            "1",
            404,
            "no message input `in`",
        ),
        (
            "POST",
            "/api/flowgraphs/g/blocks/msgs/call/in",
            r#"{"type": "f64", "value": "x"}"#,
            400,
            "not a tagged PMT",
        ),
        (
            "PUT",
            "/api/flowgraphs/g/variables/x",
            "1",
            404,
            "no settable variables",
        ),
        ("GET", "/api/nothing", "", 404, ""),
    ];
    for &(method, path, body, want, says) in cases {
        let (code, v) = if method == "GET" {
            s.get(path)
        } else {
            s.send(method, path, body)
        };
        assert_eq!(code, want, "{method} {path} {body}: {v}");
        assert!(
            v["error"].as_str().unwrap_or("").contains(says),
            "{method} {path}: {v}"
        );
    }
    // A body past the limit is refused, and the server goes on.
    // The server may answer 413 while the client still writes, and close:
    // the client then sees its write fail instead of the answer.
    let big = format!("[{}1]", "1,".repeat(rfgraph_control::MAX_BODY));
    let url = s.url("/api/flowgraphs/g/blocks/src/params/values");
    match s
        .agent
        .put(&url)
        .header("content-type", "application/json")
        .send(&big)
    {
        Ok(r) => assert_eq!(r.status().as_u16(), 413),
        Err(ureq::Error::Io(e)) => assert!(
            matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
            ),
            "{e}"
        ),
        Err(e) => panic!("{e}"),
    }
    assert_eq!(s.get("/api/flowgraphs").0, 200);
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
}

#[test]
fn a_token_is_required_once_set() {
    let running = start_graph();
    let port = ControlPort::start(ControlOptions {
        token: Some("sesame".into()),
        ..local()
    })
    .unwrap();
    port.serve(ServedGraph::new("g", running.handle()));
    let url = format!("http://{}/api/flowgraphs", port.local_addr());
    let a = agent();
    assert_eq!(a.get(&url).call().unwrap().status().as_u16(), 401);
    let wrong = a
        .get(&url)
        .header("authorization", "Bearer open")
        .call()
        .unwrap();
    assert_eq!(wrong.status().as_u16(), 401);
    let right = a
        .get(&url)
        .header("authorization", "Bearer sesame")
        .call()
        .unwrap();
    assert_eq!(right.status().as_u16(), 200);
    let query = a.get(&format!("{url}?token=sesame")).call().unwrap();
    assert_eq!(query.status().as_u16(), 200);
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
}

#[test]
fn a_non_loopback_address_gets_a_generated_token() {
    // Any address of this machine's own that is not loopback: binding
    // to all of them makes the rule apply without a namespace.
    let port = ControlPort::start(ControlOptions {
        addr: "0.0.0.0:0".parse().unwrap(),
        token: None,
    })
    .unwrap();
    let token = port.token().expect("a token").to_string();
    assert_eq!(token.len(), 32);
    let url = format!(
        "http://127.0.0.1:{}/api/flowgraphs",
        port.local_addr().port()
    );
    let a = agent();
    assert_eq!(a.get(&url).call().unwrap().status().as_u16(), 401);
    let ok = a
        .get(&url)
        .header("authorization", format!("Bearer {token}"))
        .call()
        .unwrap();
    assert_eq!(ok.status().as_u16(), 200);
}

const FILE: &str = r#"format = 1
connections = ["src -> k -> sink"]

[variables]
level = { value = 1.0, settable = true, label = "Level", range = [0, 4, 0.5] }

[blocks.src]
kind = "null_source"
type = "f32"

[blocks.k]
kind = "multiply_const"
type = "f32"
constant = "level * 2"

[blocks.sink]
kind = "null_sink"
type = "f32"
"#;

#[test]
fn variables_are_set_through_the_files_controller() {
    let built = build(FILE);
    let control = Arc::new(Mutex::new(built.control));
    let running = built.flowgraph.start(Tpb::new()).unwrap();
    let port = ControlPort::start(local()).unwrap();
    port.serve(ServedGraph::new("v", running.handle()).with_variables(control));
    let s = Server {
        port,
        agent: agent(),
    };
    assert_eq!(
        s.get("/api/flowgraphs/v/variables"),
        (
            200,
            json!([{"name": "level", "value": "1.0", "label": "Level", "widget": {
                "kind": "range", "style": "counter_slider", "orient": "horizontal",
                "start": 0.0, "stop": 4.0, "step": 0.5, "gui_hint": null
            }}])
        )
    );
    let (code, change) = s.send("PUT", "/api/flowgraphs/v/variables/level", "2.5");
    assert_eq!(code, 200, "{change}");
    assert_eq!(
        change["applied"],
        json!([{"name": "k.constant", "value": "5.0"}]),
        "{change}"
    );
    let (_, k) = s.get("/api/flowgraphs/v/blocks/k/params/constant");
    assert_eq!(k["value"], json!({"type": "f64", "value": 5.0}), "{k}");
    let (code, e) = s.send("PUT", "/api/flowgraphs/v/variables/levle", "1");
    assert_eq!(code, 404, "{e}");
    assert!(e["error"].as_str().unwrap().contains("level"), "{e}");
    // Text that is no expression is a string, which the block refuses:
    // the reply says so, and the block keeps its value.
    let (code, e) = s.send("PUT", "/api/flowgraphs/v/variables/level", "\"nonsense +\"");
    assert_eq!(code, 200, "{e}");
    assert!(
        e["failed"][0].as_str().unwrap().starts_with("k.constant"),
        "{e}"
    );
    let (_, k) = s.get("/api/flowgraphs/v/blocks/k/params/constant");
    assert_eq!(k["value"], json!({"type": "f64", "value": 5.0}), "{k}");
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
}

mod mutated {
    use super::*;
    use proptest::prelude::*;

    /// Requests a client may send, valid ones mutated: every method on
    /// real and made-up paths, with bodies of any bytes.
    fn request() -> impl Strategy<Value = (u8, String, Vec<u8>)> {
        let segment = prop_oneof![
            Just("g".to_string()),
            Just("src".to_string()),
            Just("msgs".to_string()),
            Just("values".to_string()),
            Just("in".to_string()),
            "[a-z%0-9._-]{0,10}",
        ];
        let path = prop::collection::vec(segment, 0..5).prop_map(|segs| {
            let shapes = [
                "/api/flowgraphs/{0}/blocks/{1}/params/{2}",
                "/api/flowgraphs/{0}/blocks/{1}/call/{2}",
                "/api/flowgraphs/{0}/blocks/{1}/post/{2}",
                "/api/flowgraphs/{0}/blocks/{1}/readings/{2}",
                "/api/flowgraphs/{0}/variables/{1}",
                "/api/flowgraphs/{0}/{1}",
            ];
            let pick = segs.len() % shapes.len();
            let mut p = shapes[pick].to_string();
            for (k, s) in segs.iter().enumerate() {
                p = p.replace(&format!("{{{k}}}"), s);
            }
            p.replace(['{', '}'], "")
        });
        let body = prop_oneof![
            Just(b"[1.0, 2.0]".to_vec()),
            Just(br#"{"type": "u64", "value": 5}"#.to_vec()),
            prop::collection::vec(any::<u8>(), 0..64),
            prop::collection::vec(
                prop::sample::select(b"{}[]\":,0123456789.-etruefalsnl type value".to_vec()),
                0..48
            ),
        ];
        (0u8..3, path, body)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        /// No request makes the server fail: every answer is a success
        /// or a 4xx (a 503 only for a block that did not answer), with a
        /// JSON error saying why, and the server answers afterwards.
        #[test]
        fn mutated_requests_get_answers_never_failures(reqs in prop::collection::vec(request(), 1..8)) {
            let running = start_graph();
            let s = serve(&running);
            for (method, path, body) in reqs {
                let url = s.url(&path);
                let r = match method {
                    0 => s.agent.get(&url).call(),
                    1 => s.agent.put(&url).header("content-type", "application/json").send(&body[..]),
                    _ => s.agent.post(&url).header("content-type", "application/json").send(&body[..]),
                };
                let Ok(r) = r else { continue };
                let code = r.status().as_u16();
                prop_assert!(code < 500 || code == 503, "{method} {path}: {code}");
            }
            prop_assert_eq!(s.get("/api/flowgraphs").0, 200);
            running.handle().stop();
            running.wait_timeout(WATCHDOG).unwrap();
        }
    }
}
