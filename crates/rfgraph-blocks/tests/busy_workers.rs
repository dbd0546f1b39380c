//! Blocks that wait on something other than their stream peers (a timer, a
//! state another thread changes) must still run while other blocks keep
//! every worker busy. Each test waits, with a bound far beyond what the
//! run needs, for the waiting block to act: without the fix it never does.

mod common;

use rfgraph::scheduler::{Chain, Pool, Scheduler, Single};
use rfgraph::{Block, BoxError, Flowgraph, Ports, WorkIo};
use rfgraph_blocks::{Copy, MessageSink, NullSink, NullSource, Throttle};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Far longer than any of these waits takes when the runtime is right
/// (milliseconds); only a starved block reaches it.
const NEVER: Duration = Duration::from_secs(20);

/// Polls `seen` until it holds or [`NEVER`] passes; true if it held.
fn eventually(seen: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < NEVER {
        if seen() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// `busy` endless source → (copy →) sink branches, which keep the workers
/// busy: they never park, and each wakes its partner onto its own
/// worker's deque.
fn add_busy_branches(fg: &mut Flowgraph, busy: usize, with_copy: bool) {
    for _ in 0..busy {
        let mut branch = vec![fg.add(NullSource::<u32>::new())];
        if with_copy {
            branch.push(fg.add(Copy::<u32>::new()));
        }
        branch.push(fg.add(NullSink::<u32>::new()));
        fg.chain(&branch).unwrap();
    }
}

#[test]
fn a_throttled_branch_flows_while_busy_branches_fill_the_pool() {
    for busy in [2, 4] {
        let mut fg = Flowgraph::new();
        let src = fg.add(NullSource::<u32>::new());
        // Waits on timers (`call_again_at`) between its items.
        let throttle = fg.add(Throttle::<u32>::new(2_000.0).unwrap());
        let sink = fg.add(NullSink::<u32>::new());
        fg.chain(&[src, throttle, sink]).unwrap();
        add_busy_branches(&mut fg, busy, true);
        let running = fg.start(Pool::new().workers(2)).unwrap();
        let handle = running.handle();
        let flowed = eventually(|| handle.stats()[sink.0].items_consumed >= 50);
        handle.stop();
        running.wait_timeout(common::WATCHDOG).unwrap();
        assert!(flowed, "{busy} busy branches starved the throttled one");
    }
}

/// A message-driven block (so the pollers mark it as polled locally) that
/// records when it sees `flag`, which another thread sets without waking
/// it: what a wake-up lost by its fence-free look leaves behind.
struct Watcher {
    flag: Arc<AtomicBool>,
    seen: Arc<AtomicBool>,
}

impl Block for Watcher {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if self.flag.load(Ordering::Acquire) {
            self.seen.store(true, Ordering::Release);
        }
        Ok(())
    }
}

#[test]
fn a_block_polled_locally_runs_again_on_a_busy_worker() {
    let cases: Vec<(&str, Box<dyn Scheduler>)> = vec![
        ("single", Box::new(Single::new())),
        ("chain, 1 worker", Box::new(Chain::new().workers(1))),
        ("chain, 2 workers", Box::new(Chain::new().workers(2))),
    ];
    for (name, scheduler) in cases {
        let mut fg = Flowgraph::new();
        let flag = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicBool::new(false));
        fg.add(Watcher {
            flag: flag.clone(),
            seen: seen.clone(),
        });
        // Busy branches on every worker.
        add_busy_branches(&mut fg, 2, false);
        let running = fg.start(scheduler).unwrap();
        // Let the watcher go idle first.
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Release);
        let noticed = eventually(|| seen.load(Ordering::Acquire));
        running.handle().stop();
        running.wait_timeout(common::WATCHDOG).unwrap();
        assert!(noticed, "{name}: the watcher never ran again");
    }
}

#[test]
fn a_call_from_outside_reaches_a_pool_kept_busy_by_stream_pairs() {
    for workers in [1, 2] {
        let mut fg = Flowgraph::new();
        let sink = fg.add(MessageSink::new());
        // One endless pair per worker: its deque never empties.
        add_busy_branches(&mut fg, workers, false);
        let running = fg.start(Pool::new().workers(workers)).unwrap();
        let handle = running.handle();
        std::thread::sleep(Duration::from_millis(50));
        let reply = handle.call(sink, "in", "ping", NEVER);
        handle.stop();
        running.wait_timeout(common::WATCHDOG).unwrap();
        assert!(reply.is_ok(), "{workers} workers: {reply:?}");
    }
}
