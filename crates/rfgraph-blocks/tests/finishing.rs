//! `Block::finishing` runs exactly once however a block ends (its input
//! drained, its readers gone, a stop), before the runtime hands its input
//! items back to their writer; a panic there fails the run and names the
//! block. Device transfers rely on it: their copies in flight still read
//! the host items.

mod common;
use common::RunBounded;

use common::every_scheduler;
use rfgraph::{Block, BoxError, Flowgraph, Ports, RunError, StreamInput, StreamOutput, WorkIo};
use rfgraph_blocks::{Head, NullSink, NullSource, VectorSink, VectorSource};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Copies `u32` items and counts its `finishing` calls; panics there if
/// asked to.
struct Watched {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    finishing: Arc<AtomicUsize>,
    panic: bool,
}

impl Watched {
    fn new(finishing: &Arc<AtomicUsize>) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            finishing: finishing.clone(),
            panic: false,
        }
    }
}

impl Block for Watched {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }

    fn finishing(&mut self) {
        self.finishing.fetch_add(1, Ordering::SeqCst);
        assert!(!self.panic, "deliberate panic in finishing");
    }
}

const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs `case` on every scheduler with a fresh flowgraph and counter of
/// `finishing` calls; `case` builds the graph around a [`Watched`] block,
/// runs it, and leaves the counter to this check: one call.
fn once_on_every_scheduler(
    case: impl Fn(&str, &Arc<AtomicUsize>, Flowgraph, Box<dyn rfgraph::Scheduler>),
) {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let count = Arc::new(AtomicUsize::new(0));
        case(&name, &count, Flowgraph::new(), s);
        assert_eq!(count.load(Ordering::SeqCst), 1, "{name}");
    }
}

#[test]
fn finishing_runs_once_when_the_input_drains() {
    once_on_every_scheduler(|_, count, mut fg, s| {
        let src = fg.add(VectorSource::new((0..50_000u32).collect()));
        let watched = fg.add(Watched::new(count));
        let sink = fg.add(VectorSink::<u32>::new());
        fg.chain(&[src, watched, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        assert_eq!(
            done.block::<VectorSink<u32>>(sink).unwrap().items().len(),
            50_000
        );
    });
}

#[test]
fn finishing_runs_once_when_the_readers_leave() {
    once_on_every_scheduler(|_, count, mut fg, s| {
        let src = fg.add(NullSource::<u32>::new());
        let watched = fg.add(Watched::new(count));
        let head = fg.add(Head::<u32>::new(10_000));
        let sink = fg.add(NullSink::<u32>::new());
        fg.chain(&[src, watched, head, sink]).unwrap();
        fg.run_bounded(s).unwrap();
    });
}

#[test]
fn finishing_runs_once_when_stopped() {
    once_on_every_scheduler(|name, count, mut fg, s| {
        let src = fg.add(NullSource::<u32>::new());
        let watched = fg.add(Watched::new(count));
        let sink = fg.add(NullSink::<u32>::new());
        fg.chain(&[src, watched, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        let deadline = Instant::now() + TIMEOUT;
        while handle.stats()[sink.0].items_consumed < 100_000 {
            assert!(Instant::now() < deadline, "{name}: items never flowed");
            std::thread::sleep(Duration::from_millis(1));
        }
        handle.stop();
        running.wait_timeout(common::WATCHDOG).unwrap();
    });
}

#[test]
fn a_panic_in_finishing_fails_the_run_and_names_the_block() {
    once_on_every_scheduler(|name, count, mut fg, s| {
        let src = fg.add(VectorSource::new((0..1000u32).collect()));
        let watched = Watched {
            panic: true,
            ..Watched::new(count)
        };
        let watched = fg.add_named("watched", watched);
        let sink = fg.add(VectorSink::<u32>::new());
        fg.chain(&[src, watched, sink]).unwrap();
        match fg.run_bounded(s) {
            Err(RunError::BlockPanicked { block, message }) => {
                assert_eq!(block, "watched", "{name}");
                assert!(
                    message.contains("deliberate panic in finishing"),
                    "{name}: {message}"
                );
            }
            Err(other) => panic!("{name}: wrong error {other}"),
            Ok(_) => panic!("{name}: the run succeeded"),
        }
    });
}

/// Most items one call of [`Holding`] copies.
const BATCH: usize = 100;

/// Copies `u32` items at once, at most [`BATCH`] per call, but consumes
/// each call's input only on the next call that copies more, as a device
/// transfer consumes host items only once their copy completed: after the
/// first call a batch is always "in flight" (and, being smaller than the
/// ring, never holds up its writer). Its `finishing` settles that batch.
struct Holding {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    /// Items copied (produced) but not consumed yet.
    held: usize,
}

impl Block for Holding {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = (i.len() - self.held).min(o.len()).min(BATCH);
        if n > 0 {
            o[..n].copy_from_slice(&i[self.held..self.held + n]);
            self.output.produce(n);
            self.input.consume(self.held);
            self.held = n;
        }
        // Waiting for the batch to "complete", as a transfer would.
        io.in_flight();
        Ok(())
    }

    fn finishing(&mut self) {
        // The batch in flight completed: its items are consumed now.
        self.input.consume(self.held);
        self.held = 0;
    }
}

/// What `finishing` consumes counts: a block ended while it holds items
/// (its readers gone) reports every item it consumed, as many as it
/// produced, on every scheduler. Before, the held batch went uncounted.
#[test]
fn items_consumed_in_finishing_are_counted() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(NullSource::<u32>::new());
        let holding = fg.add(Holding {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            held: 0,
        });
        let head = fg.add(Head::<u32>::new(10_000));
        let sink = fg.add(NullSink::<u32>::new());
        fg.chain(&[src, holding, head, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let stats = &done.stats()[holding.0];
        assert!(stats.items_produced >= 10_000, "{name}: {stats:#?}");
        assert_eq!(
            stats.items_consumed, stats.items_produced,
            "{name}: {stats:#?}"
        );
    }
}
