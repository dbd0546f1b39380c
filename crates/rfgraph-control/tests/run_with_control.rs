//! `Flowgraph::run_with_control` and `start_with_control`: the graph
//! is served while it runs, a client can stop it, the run's result comes
//! back, and a port that cannot bind leaves the graph unstarted.

mod common;

use rfgraph::scheduler::{Chain, Tpb};
use rfgraph_control::{ControlOptions, ControlPort, ControlRunError, RunWithControl};
use serde_json::Value;
use std::sync::mpsc::channel;

fn local() -> ControlOptions {
    ControlOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: None,
    }
}

#[test]
fn a_started_graph_is_served_until_a_client_stops_it() {
    let (running, port) = common::scope_graph()
        .start_with_control(Tpb::new(), local(), "radio")
        .unwrap();
    let base = format!("http://{}/api/flowgraphs", port.local_addr());
    let list: Value = ureq::get(&base)
        .call()
        .unwrap()
        .body_mut()
        .read_json()
        .unwrap();
    assert_eq!(list[0]["name"], "radio");
    assert_eq!(list[0]["state"], "running");
    let stop = ureq::post(&format!("{base}/radio/stop"))
        .header("content-type", "application/json")
        .send("null")
        .unwrap();
    assert_eq!(stop.status().as_u16(), 202);
    let finished = running.wait_timeout(common::WATCHDOG).unwrap();
    assert!(finished.stats()[0].items_produced > 0);
}

#[test]
fn run_with_control_returns_the_run_or_why_not() {
    let busy = ControlPort::start(local()).unwrap();
    let taken = ControlOptions {
        addr: busy.local_addr(),
        token: None,
    };
    // The address is taken: the port fails first, the graph never runs.
    let refused = common::scope_graph().run_with_control(Chain::new(), taken, "g");
    assert!(
        matches!(refused, Err(ControlRunError::Port(_))),
        "{:?}",
        refused.err()
    );

    // A graph that ends by itself: its run comes back.
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let result = common::finite_graph(10_000).run_with_control(Chain::new(), local(), "g");
        let _ = tx.send(result.map(|f| f.stats()[1].items_consumed));
    });
    let consumed = rx
        .recv_timeout(common::WATCHDOG)
        .expect("the run hung")
        .unwrap();
    assert_eq!(consumed, 10_000);
}
