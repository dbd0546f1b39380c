//! Wake-ups between threads are never lost, end to end: many short runs
//! of a small chain on 2-worker `pool`s, two flowgraphs at a time (more
//! threads than cores, so that workers are preempted mid-look), each of
//! which must end. A notification that raced with a worker's look at the
//! block it was about to run once left the block's flag set with no one
//! woken, and the run hung. The race needs the look's load to run ahead
//! of the worker's own store, so this test hit it only sometimes (in
//! release builds, within its 1000 rounds); `signal.rs`'s
//! `a_look_clears_a_notification_its_load_missed` pins the rule itself.
//! Here it guards the whole path: scheduling, looks and wake-ups.

mod common;

use rfgraph::Flowgraph;
use rfgraph::scheduler::Pool;
use rfgraph_blocks::{Copy, NullSink, NullSource};
use std::time::{Duration, Instant};

/// Rounds of two runs; each run hands some fifty chunks through two
/// 4 KiB rings.
const ROUNDS: usize = 1000;
const ITEMS: u64 = 50_000;

#[test]
fn short_pool_runs_all_end() {
    for round in 0..ROUNDS {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                let mut fg = Flowgraph::new();
                fg.set_buffer_bytes(4096);
                let src = fg.add(NullSource::<u32>::limited(ITEMS));
                let copy = fg.add(Copy::<u32>::new());
                let sink = fg.add(NullSink::<u32>::new());
                fg.chain(&[src, copy, sink]).unwrap();
                fg.start(Pool::new().workers(2)).unwrap()
            })
            .collect();
        // A liveness bound, not a timing assertion: a run takes about a
        // millisecond.
        let deadline = Instant::now() + Duration::from_secs(20);
        while !runs.iter().all(|r| r.is_finished()) {
            assert!(
                Instant::now() < deadline,
                "round {round} hung: {:?}",
                runs.iter()
                    .map(|r| r
                        .handle()
                        .stats()
                        .iter()
                        .map(|s| (s.items_consumed, s.items_produced))
                        .collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        for run in runs {
            let done = run.wait_timeout(common::WATCHDOG).unwrap();
            let sunk = done
                .stats()
                .iter()
                .find(|s| s.type_name.contains("NullSink"))
                .map(|s| s.items_consumed);
            assert_eq!(sunk, Some(ITEMS), "round {round}");
        }
    }
}

/// A thread-per-block block that parks as soon as a call drained its input
/// (`Block::idle_when_drained`) first handles every message queued for
/// it: one call takes a bounded share, and the notifications of the rest
/// were spent on the call's look, so a thread that parked with messages
/// left would wait for the next item, here a thousand seconds away. Posts
/// come in bursts of 600, faster than the block's thread takes them, so
/// some of its calls find more than their share queued; an awaited call
/// after every burst must be answered (the timeout is a liveness bound:
/// the reply comes within milliseconds).
#[test]
fn a_drained_block_handles_all_its_messages_before_it_parks() {
    use rfgraph::Pmt;
    use rfgraph::scheduler::Tpb;
    use rfgraph_blocks::Throttle;
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let throttle = fg.add(Throttle::<u32>::new(1e-3).unwrap());
    let copy = fg.add(Copy::<u32>::new());
    let sink = fg.add(NullSink::<u32>::new());
    fg.chain(&[src, throttle, copy, sink]).unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let handle = running.handle();
    let mut replies = Vec::new();
    for _ in 0..40 {
        for _ in 0..600 {
            handle.post(copy, "enabled", Pmt::Bool(true)).unwrap();
        }
        replies.push(handle.call(copy, "enabled", Pmt::Bool(true), Duration::from_secs(20)));
        if replies.last().is_some_and(Result::is_err) {
            break;
        }
    }
    handle.stop();
    let stopped = common::wait_within(running, common::WATCHDOG);
    for (burst, reply) in replies.iter().enumerate() {
        assert!(reply.is_ok(), "the call after burst {burst}: {reply:?}");
    }
    stopped.unwrap();
}
