//! Stalls: a flowgraph whose blocks all wait on each other ends with an
//! error naming them, while blocks that wait for something outside the
//! graph (a timer, a waker, messages from the handle) are left waiting.

use crate::support::{AddU32, TIMEOUT, run, wait_within};
use rfgraph::{
    Block, BoxError, Flowgraph, Ports, RunError, Scheduler, StreamInput, StreamOutput, StreamWait,
    Waker, WorkIo,
};
use rfgraph_blocks::{Copy, MessageForward, MessageSink, Throttle, VectorSink, VectorSource};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Drops its first `skip` items, then passes the rest: one branch of a
/// diamond that must read far ahead of the other before the join moves.
struct SkipHead {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    skip: usize,
}

impl SkipHead {
    fn new(skip: usize) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            skip,
        }
    }
}

impl Block for SkipHead {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let available = self.input.slice().len();
        if self.skip > 0 {
            let n = available.min(self.skip);
            self.input.consume(n);
            self.skip -= n;
            return Ok(());
        }
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// Adds the diamond `src -> {copy, skip} -> add -> sink` with 4 KiB
/// rings: `skip` must drop 100 000 items before `add` sees one on `b`, but
/// `src` can get only a ring ahead of `copy`, whose output fills while
/// `add` waits on `b`.
fn add_stuck_diamond(fg: &mut Flowgraph) {
    let src = fg.add_named("src", VectorSource::new((0..300_000u32).collect()));
    let copy = fg.add_named("copy", Copy::<u32>::new());
    let skip = fg.add_named("skip", SkipHead::new(100_000));
    let add = fg.add_named("add", AddU32::new());
    let sink = fg.add_named("sink", VectorSink::<u32>::new());
    fg.connect_with_buffer(src, "out", copy, "in", 4096)
        .unwrap();
    fg.connect_with_buffer(src, "out", skip, "in", 4096)
        .unwrap();
    fg.connect_with_buffer(copy, "out", add, "a", 4096).unwrap();
    fg.connect_with_buffer(skip, "out", add, "b", 4096).unwrap();
    fg.connect_with_buffer(add, "out", sink, "in", 4096)
        .unwrap();
}

/// The stuck diamond alone: every block waits on another.
pub fn a_finite_buffer_diamond_is_reported_as_a_stall(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    add_stuck_diamond(&mut fg);
    check_diamond_stall(run(fg, s));
}

/// The stuck diamond beside an unrelated branch that runs on a timer (a
/// throttle, as most GNU Radio simulation graphs have): the watch finds
/// the stuck set while the rest of the graph still moves, and names only
/// the set's blocks.
pub fn a_stuck_diamond_is_found_while_a_timer_branch_runs(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    add_stuck_diamond(&mut fg);
    let noise = fg.add_named("noise", rfgraph_blocks::NullSource::<u32>::new());
    let throttle = fg.add_named("throttle", Throttle::<u32>::new(20_000.0).unwrap());
    let drop = fg.add_named("drop", rfgraph_blocks::NullSink::<u32>::new());
    fg.chain(&[noise, throttle, drop]).unwrap();
    let error = check_diamond_stall(run(fg, s));
    for b in &error.blocks {
        assert!(
            ["src", "copy", "skip", "add", "sink"].contains(&b.block.as_str()),
            "`{}` runs on a timer branch, not in the stuck set: {error:?}",
            b.block
        );
    }
}

/// The stall the diamond reports: each block and what it waits on.
fn check_diamond_stall(result: Result<rfgraph::Finished, RunError>) -> Box<rfgraph::Stall> {
    let error = match result {
        Err(RunError::Stalled(stall)) => stall,
        Err(other) => panic!("expected a stall, got {other}"),
        Ok(_) => panic!("the diamond cannot finish, yet it did"),
    };
    let waits = |name: &str| {
        &error
            .blocks
            .iter()
            .find(|b| b.block == name)
            .unwrap_or_else(|| panic!("`{name}` is missing from {error:?}"))
            .waits
    };
    assert!(
        waits("add")
            .iter()
            .any(|w| matches!(w, StreamWait::Input { port, writer, .. } if port == "b" && writer == "skip")),
        "{error:?}"
    );
    assert!(
        waits("copy")
            .iter()
            .any(|w| matches!(w, StreamWait::Room { port, readers, .. } if port == "out" && readers == &["add"])),
        "{error:?}"
    );
    assert!(
        waits("skip")
            .iter()
            .any(|w| matches!(w, StreamWait::Input { port, .. } if port == "in")),
        "{error:?}"
    );
    assert!(
        waits("src")
            .iter()
            .any(|w| matches!(w, StreamWait::Room { .. }))
    );
    let message = RunError::Stalled(error.clone()).to_string();
    assert!(
        message.contains("`copy`.out -> `add`.a"),
        "the advice names the edge to grow: {message}"
    );
    error
}

/// The same diamond with room on the short branch for what the long one
/// skips finishes: the watch must not stop a graph that is merely slow to
/// fill.
pub fn the_same_diamond_with_enough_buffer_finishes(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("src", VectorSource::new((0..30_000u32).collect()));
    let copy = fg.add_named("copy", Copy::<u32>::new());
    let skip = fg.add_named("skip", SkipHead::new(10_000));
    let add = fg.add_named("add", AddU32::new());
    let sink = fg.add_named("sink", VectorSink::<u32>::new());
    fg.connect(src, "out", copy, "in").unwrap();
    fg.connect(src, "out", skip, "in").unwrap();
    fg.connect_with_buffer(copy, "out", add, "a", 64 * 1024)
        .unwrap();
    fg.connect(skip, "out", add, "b").unwrap();
    fg.connect(add, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), 20_000);
    assert!(
        items
            .iter()
            .enumerate()
            .all(|(i, &x)| x == 2 * i as u32 + 10_000)
    );
}

/// Produces its items only once a thread outside the graph says so
/// through its [`Waker`], idling without a timer until then.
struct GatedSource {
    output: StreamOutput<u32>,
    open: Arc<AtomicBool>,
    waker_out: Arc<std::sync::Mutex<Option<Waker>>>,
    left: u32,
}

impl Block for GatedSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn attach_waker(&mut self, waker: Waker) {
        *self.waker_out.lock().unwrap() = Some(waker);
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if !self.open.load(Ordering::Acquire) {
            return Ok(());
        }
        let o = self.output.slice();
        let n = o.len().min(self.left as usize);
        o[..n].fill(7);
        self.output.produce(n);
        self.left -= n as u32;
        if self.left == 0 {
            io.finish();
        }
        Ok(())
    }
}

/// A source waiting for an outside event (its waker), a throttle waiting
/// for its timer and a message group waiting for the handle are not
/// stalls, however long they wait.
pub fn blocks_waiting_for_the_outside_are_not_a_stall(s: impl Scheduler) {
    let open = Arc::new(AtomicBool::new(false));
    let waker_out = Arc::new(std::sync::Mutex::new(None));
    let mut fg = Flowgraph::new();
    let src = fg.add(GatedSource {
        output: StreamOutput::new("out"),
        open: open.clone(),
        waker_out: waker_out.clone(),
        left: 1000,
    });
    let throttle = fg.add(Throttle::<u32>::new(4000.0).unwrap());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, throttle, sink]).unwrap();
    let fwd = fg.add(MessageForward::new());
    let msink = fg.add(MessageSink::new());
    fg.connect_message(fwd, "out", msink, "in").unwrap();
    let running = fg.start(s).unwrap();
    // Several of the watch's periods with everything idle.
    std::thread::sleep(Duration::from_millis(700));
    assert!(!running.is_finished(), "the run ended while waiting");
    open.store(true, Ordering::Release);
    waker_out.lock().unwrap().as_ref().unwrap().wake();
    // The throttle takes a quarter of a second for the 1000 items.
    let handle = running.handle();
    let deadline = std::time::Instant::now() + TIMEOUT;
    while handle.stats()[sink.0].items_consumed < 1000 {
        assert!(
            std::time::Instant::now() < deadline,
            "the items never arrived"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    handle.stop();
    let done = wait_within(running, TIMEOUT).unwrap();
    assert_eq!(
        done.block::<VectorSink<u32>>(sink).unwrap().items(),
        &[7; 1000][..]
    );
}

/// `wait_timeout` on a run that never ends stops it and names the blocks
/// still running; on a run that ends in time it is `wait`.
pub fn wait_timeout_stops_a_run_that_does_not_end(s: impl Scheduler + Clone) {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("endless", rfgraph_blocks::NullSource::<u32>::new());
    let sink = fg.add_named("sink", rfgraph_blocks::NullSink::<u32>::new());
    fg.chain(&[src, sink]).unwrap();
    match fg
        .start(s.clone())
        .unwrap()
        .wait_timeout(Duration::from_millis(300))
    {
        Err(RunError::Timeout {
            stopped,
            unfinished,
            ..
        }) => {
            assert!(stopped, "an endless source stops when asked");
            assert_eq!(unfinished, "`endless`, `sink`");
        }
        other => panic!("expected a timeout, got {:?}", other.map(|_| ())),
    }
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1u32; 10]));
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, sink]).unwrap();
    let done = fg.start(s).unwrap().wait_timeout(TIMEOUT).unwrap();
    assert_eq!(
        done.block::<VectorSink<u32>>(sink).unwrap().items(),
        &[1; 10]
    );
}
