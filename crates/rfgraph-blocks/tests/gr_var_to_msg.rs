//! `var_to_msg` against GNU Radio 3.10's `blocks.var_to_msg_pair` (GRC's
//! `blocks_var_to_msg`): the script `gr_var_to_msg/reference.py` calls
//! GNU Radio's `variable_changed` with an int, a float, a bool, a str and
//! a negative int and writes every pair posted; here the same values are
//! set on rfgraph's block, built through the registry, through its
//! `target` setting (what a changed flowgraph variable does), and the
//! pairs must match in name, type and value. Nothing is posted before a
//! change, and any value set comes back unchanged.

mod common;

use common::cases::registry;
use common::gr_reference::gr_reference;

use common::WATCHDOG;
use proptest::prelude::*;
use rfgraph::{Flowgraph, Pmt};
use rfgraph_blocks::MessageSink;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// GNU Radio's outputs, written once per test process by
/// `gr_var_to_msg/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_var_to_msg", "gnuradio.blocks, pmt")
}

/// Builds `var_to_msg` named `name` through the registry, sets `target`
/// to each of `values` while it runs, and gives the messages it posted.
fn run(name: &str, values: &[Pmt]) -> Vec<Pmt> {
    let params: BTreeMap<String, Pmt> = [("msgname".to_string(), Pmt::from(name))].into();
    let block = registry().build("var_to_msg", params).unwrap();
    let mut fg = Flowgraph::new();
    let b = fg.add_boxed("dut", "var_to_msg", block);
    let store = fg.add(MessageSink::new());
    fg.connect_message(b, "msgout", store, "in").unwrap();
    let running = fg.start(rfgraph::scheduler::Tpb::new()).unwrap();
    let handle = running.handle();
    for v in values {
        handle
            .call(b, "target", v.clone(), Duration::from_secs(10))
            .unwrap();
    }
    // Every pair was posted before its setting's reply; let them land.
    let deadline = std::time::Instant::now() + WATCHDOG;
    while handle.stats()[store.0].messages_handled < values.len() as u64 {
        assert!(std::time::Instant::now() < deadline, "messages lost");
        std::thread::sleep(Duration::from_millis(2));
    }
    handle.stop();
    let done = running.wait_timeout(WATCHDOG).unwrap();
    done.block::<MessageSink>(store)
        .unwrap()
        .messages()
        .to_vec()
}

/// `name<TAB>type<TAB>value` as the reference script writes a pair.
fn line(m: &Pmt) -> String {
    let Pmt::Pair(p) = m else {
        panic!("not a pair: {m:?}")
    };
    let (Pmt::String(name), value) = &**p else {
        panic!("no name: {m:?}")
    };
    let (ty, v) = match value {
        Pmt::Bool(b) => ("bool", if *b { "True" } else { "False" }.to_string()),
        Pmt::I64(v) => ("long", v.to_string()),
        Pmt::F64(v) => ("double", format!("{v:?}")),
        Pmt::String(s) => ("symbol", s.clone()),
        other => ("other", format!("{other:?}")),
    };
    format!("{name}\t{ty}\t{v}")
}

#[test]
fn pairs_match_gnu_radio() {
    let Some(dir) = reference() else { return };
    let want = std::fs::read_to_string(dir.join("messages.txt")).unwrap();
    // The values a flowgraph variable gives the setting: Python's int,
    // float, bool and str as the expressions make them.
    let got = run(
        "freq",
        &[
            Pmt::I64(3),
            Pmt::F64(2.5),
            Pmt::Bool(true),
            Pmt::from("abc"),
            Pmt::I64(-7),
        ],
    );
    let got: Vec<String> = got.iter().map(line).collect();
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(want.len(), 5, "{want:?}");
    assert_eq!(got, want);
}

#[test]
fn nothing_is_posted_before_a_change() {
    assert!(run("x", &[]).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Any value set comes back as the pair's second element, in order.
    #[test]
    fn any_value_comes_back_unchanged(
        values in proptest::collection::vec(
            prop_oneof![
                any::<i64>().prop_map(Pmt::I64),
                any::<f64>().prop_filter("NaN is not equal", |v| !v.is_nan()).prop_map(Pmt::F64),
                ".{0,8}".prop_map(Pmt::String),
                any::<bool>().prop_map(Pmt::Bool),
                Just(Pmt::Null),
            ],
            0..6,
        ),
        name in "[a-z]{0,5}",
    ) {
        let got = run(&name, &values);
        let want: Vec<Pmt> = values
            .iter()
            .map(|v| Pmt::Pair(Box::new((Pmt::String(name.clone()), v.clone()))))
            .collect();
        prop_assert_eq!(got, want);
    }
}
