//! `msgpair_to_var` (GNU Radio's `blocks_msgpair_to_var`) in a built
//! graph: a message pair's value sets a settable variable through the
//! graph's controller, as the CLI's run loop drains the requests; a
//! variable that cannot change is refused by name.

mod common;

use common::TIMEOUT;
use rfgraph_flowfile::build::{BuildOptions, build};
use rfgraph_flowfile::expr::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

const GRAPH: &str = r#"format = 1
connections = ["strobe.strobe => set.inpair", "strobe.strobe => fixed.inpair"]

[variables]
level = { value = 1, settable = true }
still = 3

[blocks.strobe]
kind = "message_strobe"
message = "pmt.cons(pmt.intern('x'), pmt.from_long(7))"
count = 1
period = 1

[blocks.set]
kind = "msgpair_to_var"
target = "level"

[blocks.fixed]
kind = "msgpair_to_var"
target = "still"
"#;

#[test]
fn a_message_pair_sets_a_settable_variable() {
    let doc = rfgraph_flowfile::toml::parse(GRAPH, Arc::new(PathBuf::from("pair.toml"))).unwrap();
    let built = build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &BuildOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut control = built.control;
    let requests = built.variable_requests;
    let running = built
        .flowgraph
        .start(rfgraph::scheduler::Tpb::new())
        .unwrap();
    let handle = running.handle();
    let deadline = Instant::now() + TIMEOUT;
    let mut said = Vec::new();
    while said.len() < 2 {
        assert!(Instant::now() < deadline, "no request came: {said:?}");
        said.extend(requests.apply(&mut control, &handle));
        std::thread::sleep(Duration::from_millis(2));
    }
    handle.stop();
    running.wait_timeout(TIMEOUT).unwrap();
    assert_eq!(control.value("level"), Some(&Value::Int(7)), "{said:?}");
    assert_eq!(control.value("still"), Some(&Value::Int(3)));
    assert!(said.iter().any(|s| s.starts_with("set ")), "{said:?}");
    assert!(
        said.iter()
            .any(|s| s.starts_with("error") && s.contains("still")),
        "{said:?}"
    );
}
