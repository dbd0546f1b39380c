//! `Running::wait_finished`: waiting for a run's end a slice at a time
//! (as the Python package's `wait` does between its Ctrl-C checks) sees a
//! finished run as done and leaves a running one running.

use rfgraph::Flowgraph;
use rfgraph::scheduler::Tpb;
use rfgraph_blocks::{Head, NullSink, NullSource};
use std::time::Duration;

/// A bound far beyond what these runs take; only a broken wait reaches it.
const WATCHDOG: Duration = Duration::from_secs(60);

#[test]
fn a_finite_run_is_seen_done_and_then_waits_cleanly() {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let head = fg.add(Head::<f32>::new(100_000));
    let sink = fg.add(NullSink::<f32>::new());
    fg.chain(&[src, head, sink]).unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    assert!(running.wait_finished(WATCHDOG));
    // Done stays done, and the run is still there to be waited for.
    assert!(running.wait_finished(Duration::ZERO));
    let done = running.wait_timeout(WATCHDOG).unwrap();
    assert_eq!(done.stats()[sink.0].items_consumed, 100_000);
}

#[test]
fn an_endless_run_is_not_done_until_stopped() {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let sink = fg.add(NullSink::<f32>::new());
    fg.chain(&[src, sink]).unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    assert!(!running.wait_finished(Duration::from_millis(20)));
    assert!(!running.is_finished());
    running.handle().stop();
    assert!(running.wait_finished(WATCHDOG));
    running.wait_timeout(WATCHDOG).unwrap();
}
