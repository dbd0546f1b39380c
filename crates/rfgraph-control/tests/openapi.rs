//! The OpenAPI document (`GET /api/openapi.json`) against the real
//! routes: every route in the router's table is documented with exactly
//! its methods, every documented path is a route, each documented
//! path parameter is declared, and every documented operation, asked of
//! a running server with sample values, reaches a handler (an API answer,
//! never the router's own 404 or 405), while other methods get 405.

mod common;

use rfgraph::scheduler::Tpb;
use rfgraph_control::routes::ROUTES;
use rfgraph_control::{ControlOptions, ControlPort, ServedGraph};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

const METHODS: [&str; 4] = ["GET", "PUT", "POST", "DELETE"];

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// The status and JSON body (null if none) of `method path`.
fn request(agent: &ureq::Agent, base: &str, method: &str, path: &str) -> (u16, Value) {
    let url = format!("{base}{path}");
    let response = match method {
        "GET" => agent.get(&url).call(),
        "DELETE" => agent.delete(&url).call(),
        "PUT" => agent
            .put(&url)
            .header("content-type", "application/json")
            .send("1"),
        _ => agent
            .post(&url)
            .header("content-type", "application/json")
            .send("1"),
    };
    let mut r = response.unwrap();
    let status = r.status().as_u16();
    (status, r.body_mut().read_json().unwrap_or(Value::Null))
}

/// `path` with sample values for its parameters: the served graph, its
/// display block, and names no block has (an API 404, not a router one).
fn sample(path: &str) -> String {
    path.replace("{fg}", "g")
        .replace("{block}", "scope")
        .replace("{name}", "nothing")
        .replace("{port}", "nothing")
}

#[test]
fn the_document_and_the_router_agree() {
    let running = common::scope_graph().start(Tpb::new()).unwrap();
    let port = ControlPort::start(ControlOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: None,
    })
    .unwrap();
    port.serve(ServedGraph::new("g", running.handle()));
    let base = format!("http://{}", port.local_addr());
    let agent = agent();

    let (code, doc) = request(&agent, &base, "GET", "/api/openapi.json");
    assert_eq!(code, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.0"), "{doc}");

    // The documented paths and methods are the router's.
    let documented: BTreeMap<String, BTreeSet<String>> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(path, ops)| {
            let methods = ops
                .as_object()
                .unwrap()
                .keys()
                .map(|m| m.to_uppercase())
                .collect();
            (path.clone(), methods)
        })
        .collect();
    let routed: BTreeMap<String, BTreeSet<String>> = ROUTES
        .iter()
        .map(|r| {
            (
                r.path.to_string(),
                r.methods.iter().map(|m| m.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(documented, routed);

    // Every path parameter is declared on each of its operations.
    for (path, ops) in doc["paths"].as_object().unwrap() {
        let names: Vec<&str> = path
            .split('/')
            .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
            .collect();
        for (method, op) in ops.as_object().unwrap() {
            let declared: Vec<&str> = op["parameters"]
                .as_array()
                .map(|ps| {
                    ps.iter()
                        .filter(|p| p["in"] == "path")
                        .filter_map(|p| p["name"].as_str())
                        .collect()
                })
                .unwrap_or_default();
            assert_eq!(declared, names, "{method} {path}");
            assert!(op["responses"].is_object(), "{method} {path}");
        }
    }

    // The router's own 404 has no JSON body, unlike the API's.
    let (code, body) = request(&agent, &base, "GET", "/api/no/such/route");
    assert_eq!((code, body), (404, Value::Null));

    // Each documented operation reaches its handler; other methods are
    // refused by the router. `stop` goes last: it ends the graph.
    let mut routes: Vec<_> = ROUTES.iter().collect();
    routes.sort_by_key(|r| r.path.ends_with("/stop"));
    for r in routes {
        let path = sample(r.path);
        for method in METHODS {
            let (code, body) = request(&agent, &base, method, &path);
            if r.methods.contains(&method) {
                assert_ne!(code, 405, "{method} {path}");
                assert!(
                    code != 404 || body["error"].is_string(),
                    "{method} {path}: the router's 404"
                );
            } else {
                assert_eq!(code, 405, "{method} {path}: {body}");
            }
        }
    }
    running.wait_timeout(common::WATCHDOG).unwrap();
}
