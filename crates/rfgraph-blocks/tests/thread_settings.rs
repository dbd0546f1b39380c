//! Scheduler thread settings: CPU pinning and real-time priority must never
//! make a run fail; when the OS refuses, the run goes on with a warning.

mod common;

use common::RunBounded;
use rfgraph::Flowgraph;
use rfgraph::scheduler::{Chain, Pool, RealtimePriority, RtPolicy, Single, Tpb};
use rfgraph_blocks::{Copy, Head, NullSource, VectorSink, VectorSource};

fn graph() -> (Flowgraph, rfgraph::BlockId, rfgraph::BlockId) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u16>::new());
    let head = fg.add(Head::<u16>::new(10_000));
    let copy = fg.add(Copy::<u16>::new());
    let sink = fg.add(VectorSink::<u16>::new());
    fg.chain(&[src, head, copy, sink]).unwrap();
    (fg, copy, sink)
}

#[test]
fn tpb_with_pinning_and_realtime_priority_completes() {
    let (fg, copy, sink) = graph();
    // CPU 0 always exists; priority 10 is refused without CAP_SYS_NICE,
    // which must only warn.
    let tpb = Tpb::new().pin(copy, &[0]).realtime_priority(10);
    let done = fg.run_bounded(tpb).unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
}

#[test]
fn impossible_pinning_only_warns() {
    let (fg, copy, sink) = graph();
    let tpb = Tpb::new().pin(copy, &[100_000]);
    let done = fg.run_bounded(tpb).unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
}

#[test]
fn single_with_settings_completes() {
    let (fg, _, sink) = graph();
    let done = fg
        .run_bounded(Single::new().pin(&[0]).realtime_priority(5))
        .unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
}

#[test]
fn pool_and_chain_take_cpu_sets_and_round_robin_priority() {
    let rr = RealtimePriority {
        policy: RtPolicy::RoundRobin,
        priority: 3,
    };
    let (fg, _, sink) = graph();
    let done = fg
        .run_bounded(Pool::new().workers(2).pinned().realtime_priority(rr))
        .unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
    let (fg, _, sink) = graph();
    let done = fg
        .run_bounded(Chain::new().on_cores(&[1, 0]).realtime_priority(rr))
        .unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
}

#[test]
fn chain_on_no_cores_fails_the_run() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..1000u32).collect()));
    let sink = fg.add(VectorSink::<u32>::new());
    fg.connect(src, "out", sink, "in").unwrap();
    match fg.run_bounded(Chain::new().on_cores(&[])) {
        Err(rfgraph::RunError::Scheduler(message)) => {
            assert!(message.contains("no cores"), "{message}")
        }
        Err(other) => panic!("unexpected error: {other}"),
        Ok(_) => panic!("a run on no cores reported success"),
    }
}
