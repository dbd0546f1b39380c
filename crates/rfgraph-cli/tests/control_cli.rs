//! `rfgraph run FILE --control ADDR`: the running graph on a control
//! port. A real HTTP client finds the graph where the CLI says it is,
//! sets a variable (the block's product changes in the file it writes),
//! and stops the run, which then ends cleanly; the README's example
//! (`examples/flowgraphs/tone_control.toml`) answers as it says.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GRAPH: &str = r#"format = 1
connections = ["src -> thr -> mul -> snk"]
[variables]
gain = { value = 0, settable = true }
[blocks.src]
kind = "const_source"
type = "f32"
constant = 2.0
[blocks.thr]
kind = "throttle"
type = "f32"
sample_rate = 200000
[blocks.mul]
kind = "multiply_const"
type = "f32"
constant = "10 ** (gain / 20)"
[blocks.snk]
kind = "file_sink"
type = "f32"
path = "out.f32"
"#;

fn written(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// A running `rfgraph run FILE --control 127.0.0.1:0` in `dir`.
struct Run {
    child: std::process::Child,
    id: String,
    url: String,
    agent: ureq::Agent,
}

impl Run {
    fn start(dir: &Path, file: &str, name: &str) -> Run {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
            .args(["run", file, "--control", "127.0.0.1:0"])
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let id = child.id().to_string();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let url = loop {
            let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) else {
                let _ = Command::new("kill").args(["-KILL", &id]).status();
                panic!("the CLI never said where its control port is");
            };
            if let Some(at) = line.strip_prefix("rfgraph: control port: ") {
                break at.trim().to_string();
            }
        };
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into();
        let run = Run {
            child,
            id,
            url,
            agent,
        };
        run.check(|r| {
            assert!(
                r.url.ends_with(&format!("/api/flowgraphs/{name}")),
                "{}",
                r.url
            )
        });
        run
    }

    /// Runs `f`, killing the run if it fails.
    fn check(&self, f: impl FnOnce(&Run)) {
        if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self))) {
            let _ = Command::new("kill").args(["-KILL", &self.id]).status();
            std::panic::resume_unwind(e);
        }
    }

    fn get(&self, path: &str) -> Value {
        let mut r = self
            .agent
            .get(&format!("{}{path}", self.url))
            .call()
            .unwrap();
        r.body_mut().read_json().unwrap()
    }

    fn send(&self, put: bool, path: &str, body: &str) -> (u16, Value) {
        let url = format!("{}{path}", self.url);
        let req = if put {
            self.agent.put(&url)
        } else {
            self.agent.post(&url)
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

    /// Stops the run over HTTP and waits for a clean exit.
    fn stop(mut self) {
        self.check(|r| assert_eq!(r.send(false, "/stop", "").0, 202));
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = Command::new("kill").args(["-KILL", &self.id]).status();
                panic!("the run did not stop");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{status}");
    }
}

#[test]
fn the_control_port_serves_sets_and_stops_a_run() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("control_cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ctl.toml"), GRAPH).unwrap();
    let run = Run::start(&dir, "ctl.toml", "ctl");
    run.check(|r| {
        let graph = r.get("");
        assert_eq!(graph["blocks"].as_array().unwrap().len(), 4, "{graph}");
        assert_eq!(r.get("/variables"), json!([{"name": "gain", "value": "0"}]));
        let out = dir.join("out.f32");
        let wait_for = |value: f32| {
            let deadline = Instant::now() + Duration::from_secs(30);
            while !written(&out).contains(&value) {
                assert!(Instant::now() < deadline, "no {value} written in time");
                std::thread::sleep(Duration::from_millis(20));
            }
        };
        wait_for(2.0);
        let (code, change) = r.send(true, "/variables/gain", "20");
        assert_eq!(code, 200, "{change}");
        assert_eq!(change["applied"][0]["name"], "mul.constant", "{change}");
        wait_for(20.0);
    });
    run.stop();
}

#[test]
fn the_readme_example_answers_as_it_says() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let run = Run::start(
        &dir,
        "examples/flowgraphs/tone_control.toml",
        "tone_control",
    );
    run.check(|r| {
        let names: Vec<String> = r
            .get("/variables")
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["freq", "amplitude", "level"]);
        let (code, change) = r.send(true, "/variables/amplitude", "0.25");
        assert_eq!(code, 200, "{change}");
        assert_eq!(
            change["applied"],
            json!([{"name": "tone.amplitude", "value": "0.25"}])
        );
        let a = r.get("/blocks/tone/params/amplitude");
        assert_eq!(a["value"]["value"], 0.25, "{a}");
        // The probe's level is a sample of the tone, which never leaves
        // its amplitude once the new one has reached the probe.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let level = r.get("/blocks/probe/readings/level");
            let v = level["value"]["value"].as_f64().unwrap_or(f64::NAN);
            assert!(v.abs() <= 0.5 + 1e-6, "{level}");
            let stats = r.get("/stats");
            assert!(
                stats["blocks"][2]["items_consumed"].as_u64().is_some(),
                "{stats}"
            );
            if v != 0.0 && v.abs() <= 0.25 + 1e-6 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the level never followed: {level}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    run.stop();
}
