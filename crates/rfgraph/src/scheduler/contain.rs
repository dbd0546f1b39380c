//! [`contain_panic`]: keeps a panic in rfgraph's own code on a scheduler
//! thread from hanging the run (a run never hangs on a failure).
//!
//! Blocks' own code (`work`, handlers, `init`, `deinit`, kernels) is caught
//! where it is called and fails the run naming the block. What remains is
//! the runtime around those calls: the runner's bookkeeping, the poll
//! loops, segment lanes. A panic there is a bug in rfgraph, but without
//! this it would kill one scheduler thread while the others wait for ever
//! on the blocks that thread held. Each scheduler thread runs its loop
//! through [`contain_panic`] instead: the run fails with
//! [`RunError::Scheduler`] naming the thread and the panic, every other
//! block stops, the blocks that thread held are finished (their inboxes
//! close, so calls to them fail at once) and the scheduler hands every
//! runner back for `deinit`.

use crate::control::RunControl;
use crate::error::RunError;
use crate::runner::{BlockRunner, panic_message};
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// Runs `f`, catching a panic. The state `f` touched may be inconsistent
/// after one: callers only drop it or hand it back for `deinit`, never run
/// it again.
pub(crate) fn contain_panic<T>(f: impl FnOnce() -> T) -> Result<T, ContainedPanic> {
    catch_unwind(AssertUnwindSafe(f)).map_err(ContainedPanic)
}

/// A panic caught by [`contain_panic`].
pub(crate) struct ContainedPanic(Box<dyn Any + Send>);

impl ContainedPanic {
    /// Fails the run through `control` (which stops every block) with the
    /// panic and `place`, what was running (e.g. "the thread of block
    /// `x`"). Without a `control` (a thread that held no block) the panic
    /// goes on unwinding.
    pub(crate) fn fail_run(self, control: Option<&RunControl>, place: &str) {
        let Some(control) = control else {
            resume_unwind(self.0)
        };
        control.fail(RunError::Scheduler(format!(
            "{place} panicked (a bug in rfgraph): {}",
            panic_message(&*self.0)
        )));
    }

    /// [`fail_run`](Self::fail_run) for a thread that held one block,
    /// `runner`, which is then finished (best effort: its state may be
    /// inconsistent) so that its readers and callers are not left waiting.
    pub(crate) fn fail_block(self, runner: &mut BlockRunner, place: &str) {
        self.fail_run(Some(&runner.control), place);
        let _ = contain_panic(|| runner.finish());
    }
}

/// Blocks whose instance name starts with this make the runtime's own code
/// panic around them (test builds only; see [`inject_fault`]).
#[cfg(test)]
pub(crate) const FAULTY: &str = "faulty-runtime-around";

/// Test builds: panics, standing in for a bug in rfgraph, in the runtime's
/// code after a call of a block named [`FAULTY`]… that moved items.
#[cfg(test)]
pub(crate) fn inject_fault(block: &str, moved: u64) {
    if moved > 0 && block.starts_with(FAULTY) {
        panic!("injected runtime fault after `{block}`");
    }
}

#[cfg(test)]
mod tests {
    use super::FAULTY;
    use crate::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
    use crate::test_blocks::{Sink, Source};
    use crate::{Flowgraph, HandleError, Pmt, RunError, StatelessMap};
    use std::sync::atomic::Ordering;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    /// Source → `steps` stateless maps → sink, with the runtime failing
    /// around block `faulty` (0: the source; `steps + 1`: the sink, which
    /// is blocking if `blocking_sink`). Runs it on `scheduler` and returns
    /// the run's error; fails the test if the run does not end. Every
    /// block must get its `deinit`, and a call to the sink afterwards must
    /// fail at once as finished (not wait for its timeout).
    fn run_with_fault(
        scheduler: impl Scheduler,
        steps: usize,
        faulty: usize,
        blocking_sink: bool,
    ) -> RunError {
        let mut fg = Flowgraph::new();
        let name = |i: usize, kind: &str| {
            if i == faulty {
                format!("{FAULTY}-{kind}")
            } else {
                format!("{kind}-{i}")
            }
        };
        let mut chain = vec![fg.add_named(name(0, "source"), Source::new(1 << 24))];
        for i in 1..=steps {
            chain.push(fg.add_named(name(i, "step"), StatelessMap::new(|x: f32| x + 1.0)));
        }
        let sink = Sink::new(blocking_sink);
        let deinits = sink.deinits.clone();
        let sink = fg.add_named(name(steps + 1, "sink"), sink);
        chain.push(sink);
        fg.chain(&chain).unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let running = fg.start(scheduler).unwrap();
            let handle = running.handle();
            let result = running.wait().map(|_| ());
            let call = handle.call(sink, "ctl", Pmt::Null, Duration::from_secs(60));
            let _ = tx.send((result, call));
        });
        // A bound on liveness, not on speed: without containment the run
        // never ends.
        let (result, call) = match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(outcome) => outcome,
            Err(_) => panic!("the run hung after a panic in the runtime"),
        };
        assert_eq!(deinits.load(Ordering::Relaxed), 1, "the sink's deinit");
        assert!(matches!(call, Err(HandleError::Finished(_))), "{call:?}");
        match result {
            Err(e) => e,
            Ok(()) => panic!("the run succeeded despite the fault"),
        }
    }

    fn assert_contained(error: RunError, place: &str) {
        let RunError::Scheduler(message) = &error else {
            panic!("expected a scheduler failure, got {error}");
        };
        assert!(message.contains(place), "{message}");
        assert!(message.contains("injected runtime fault"), "{message}");
    }

    #[test]
    fn a_panic_around_the_last_block_finishes_it_on_every_scheduler() {
        let sink = format!("{FAULTY}-sink");
        let e = run_with_fault(Tpb::new(), 1, 2, false);
        assert_contained(e, &format!("the thread of block `{sink}`"));
        let e = run_with_fault(Single::new(), 1, 2, false);
        assert_contained(e, "the `single` scheduler's thread");
        let e = run_with_fault(Pool::new().workers(2), 1, 2, false);
        assert_contained(e, &format!("a `pool` worker running block `{sink}`"));
        let e = run_with_fault(Chain::new().workers(1), 1, 2, false);
        assert_contained(e, "`chain` worker 0");
    }

    #[test]
    fn a_panic_on_a_block_thread_fails_the_run() {
        let e = run_with_fault(Tpb::new(), 2, 1, false);
        assert_contained(e, &format!("the thread of block `{FAULTY}-step`"));
        // A blocking block has a thread of its own under every scheduler.
        let e = run_with_fault(Pool::new(), 2, 3, true);
        assert_contained(e, &format!("the thread of block `{FAULTY}-sink`"));
    }

    #[test]
    fn a_panic_on_the_single_thread_fails_the_run() {
        let e = run_with_fault(Single::new(), 2, 2, false);
        assert_contained(e, "the `single` scheduler's thread");
    }

    #[test]
    fn a_panic_on_a_pool_worker_fails_the_run() {
        let e = run_with_fault(Pool::new().workers(2), 2, 1, false);
        assert_contained(e, &format!("a `pool` worker running block `{FAULTY}-step`"));
    }

    #[test]
    fn a_panic_on_a_chain_worker_fails_the_run() {
        let e = run_with_fault(Chain::new().workers(2), 2, 0, false);
        assert_contained(e, "`chain` worker");
    }

    #[test]
    fn a_panic_in_a_data_parallel_lane_fails_the_run() {
        let chain = Chain::new().workers(2);
        let e = run_with_fault(chain.clone(), 4, 2, false);
        assert_contained(e, "`chain` worker");
        assert!(
            !chain.parallel_segments().is_empty(),
            "the steps must run as a data-parallel segment for this test"
        );
    }
}
