//! Long bursts of messages: a block handles them a bounded share per call
//! and all of them before a stream rule ends it, and its live statistics
//! count them while the burst is under way, not only once it is over
//! (`chain`'s refinement weighs blocks by their measured time in `work`
//! and handlers, and a monitor reads the same counters).

mod common;

use common::RunBounded;
use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph::{Block, BoxError, Flowgraph, Pmt, Ports, StreamInput, StreamOutput, WorkIo};
use rfgraph_blocks::{Head, MessageBurst, NullSink, NullSource, VectorSink, VectorSource};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Far longer than the wait takes when the runtime is right
/// (microseconds); only statistics held back until the burst ends reach it.
const NEVER: Duration = Duration::from_secs(20);

/// Messages in the burst, and the one whose handler waits for the test.
const BURST: usize = 100;
const GATED: u64 = 40;

/// Handles messages; the handler of message [`GATED`] waits until the
/// test opens the gate.
struct Gate {
    open: Arc<(Mutex<bool>, Condvar)>,
    seen: u64,
}

impl Block for Gate {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        Ok(())
    }

    fn handle_message(&mut self, _: &str, _: Pmt, _: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.seen += 1;
        if self.seen == GATED {
            let (open, opened) = &*self.open;
            let mut open = open.lock().unwrap();
            while !*open {
                open = opened.wait(open).unwrap();
            }
        }
        Ok(Pmt::Null)
    }
}

fn counts_while_the_burst_runs(s: impl Scheduler) {
    let name = s.name().to_string();
    let mut fg = Flowgraph::new();
    let burst = fg.add(MessageBurst::new(Pmt::U64(1), BURST));
    let open = Arc::new((Mutex::new(false), Condvar::new()));
    let gate = fg.add(Gate {
        open: open.clone(),
        seen: 0,
    });
    fg.connect_message(burst, "out", gate, "in").unwrap();
    let running = fg.start(s).unwrap();
    let handle = running.handle();
    let start = Instant::now();
    let mut counted = 0;
    while start.elapsed() < NEVER {
        counted = handle.stats()[gate.0].messages_handled;
        if counted > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let (gate_open, opened) = &*open;
    *gate_open.lock().unwrap() = true;
    opened.notify_all();
    let done = running.wait_timeout(common::WATCHDOG).unwrap();
    assert!(
        counted > 0 && counted < GATED,
        "{name}: {counted} messages counted while message {GATED} waited"
    );
    assert_eq!(
        done.stats()[gate.0].messages_handled,
        BURST as u64,
        "{name}"
    );
}

#[test]
fn live_statistics_count_messages_during_a_long_burst() {
    counts_while_the_burst_runs(Tpb::new());
    counts_while_the_burst_runs(Single::new());
    counts_while_the_burst_runs(Pool::new());
    counts_while_the_burst_runs(Chain::new());
}

/// Passes its stream through once a message has arrived (until then it
/// says it waits on something outside the stream), and counts its
/// messages; for each `work` call, notes how many handlers ran since the
/// last one. A `lossy` one keeps up with its input whatever its output's
/// room and drops what does not fit (like a display).
struct Gated {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    lossy: bool,
    messages: u64,
    since_work: u64,
    per_call: Vec<u64>,
}

impl Gated {
    fn new(lossy: bool) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            lossy,
            messages: 0,
            since_work: 0,
            per_call: Vec::new(),
        }
    }
}

impl Block for Gated {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .message_input("ctl")
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        self.per_call.push(std::mem::take(&mut self.since_work));
        if self.messages == 0 {
            // Waiting on something outside the stream: not stuck.
            io.in_flight();
        } else {
            let available = self.input.available();
            let n = available.min(self.output.free());
            self.output.slice()[..n].copy_from_slice(&self.input.slice()[..n]);
            self.input.consume(if self.lossy { available } else { n });
            self.output.produce(n);
        }
        Ok(())
    }

    fn handle_message(&mut self, _: &str, _: Pmt, _: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.messages += 1;
        self.since_work += 1;
        Ok(Pmt::Null)
    }
}

/// A burst of 1000 messages reaches a block whose stream writer has
/// finished: it handles them a bounded share per call, and all of them
/// before its writer's end finishes it (on one thread the burst is queued
/// whole before the block's next call).
#[test]
fn a_long_burst_is_handled_in_shares_and_in_full() {
    for s in [
        Box::new(Single::new()) as Box<dyn Scheduler>,
        Box::new(Chain::new().workers(1)),
    ] {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new((0..5u32).collect()));
        let burst = fg.add(MessageBurst::new(Pmt::U64(1), 1000));
        let gated = fg.add(Gated::new(false));
        let sink = fg.add(VectorSink::<u32>::new());
        fg.chain(&[src, gated, sink]).unwrap();
        fg.connect_message(burst, "out", gated, "ctl").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let gated = done.block::<Gated>(gated).unwrap();
        assert_eq!(gated.messages, 1000, "{name}: every queued message handled");
        let most = gated.per_call.iter().max().copied().unwrap_or(0);
        assert!(
            most > 0 && most <= 256,
            "{name}: {most} messages in one call"
        );
        let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
        assert_eq!(items, [0, 1, 2, 3, 4], "{name}");
    }
}

/// endless source → lossy block (fed a burst of 1000 messages) → head →
/// sink: once the head has its items the lossy block's readers are gone,
/// which it hears once, in a call that may leave messages queued; the
/// call that empties the queue must still end it (found by a second
/// review: on one thread it kept consuming its endless input for ever).
#[test]
fn a_block_whose_readers_leave_during_a_burst_ends() {
    for head in [1, 1000] {
        for s in [
            Box::new(Single::new()) as Box<dyn Scheduler>,
            Box::new(Chain::new().workers(1)),
            Box::new(Chain::new()),
            Box::new(Pool::new()),
            Box::new(Tpb::new()),
        ] {
            let name = s.name().to_string();
            let mut fg = Flowgraph::new();
            let src = fg.add(NullSource::<u32>::new());
            let lossy = fg.add(Gated::new(true));
            let head_block = fg.add(Head::<u32>::new(head));
            let sink = fg.add(NullSink::<u32>::new());
            fg.chain(&[src, lossy, head_block, sink]).unwrap();
            let burst = fg.add(MessageBurst::new(Pmt::U64(1), 1000));
            fg.connect_message(burst, "out", lossy, "ctl").unwrap();
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(fg.run_bounded(s).map(|_| ()));
            });
            // A bound on liveness, not on speed.
            let result = rx.recv_timeout(NEVER);
            assert!(
                matches!(result, Ok(Ok(()))),
                "{name}, head {head}: {result:?}"
            );
        }
    }
}
