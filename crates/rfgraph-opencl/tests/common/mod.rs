//! Shared by the OpenCL integration tests: a context on the default device
//! (or, when no OpenCL platform exists, a failure under CI and one printed
//! line and a skip elsewhere), test signals, CPU-reference comparisons, and
//! small flowgraph builders.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use num_complex::Complex32;
use rfgraph::scheduler::Scheduler;
use rfgraph::{Block, BlockStats, Finished, Flowgraph, Item};
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_opencl::{OclContext, OclError};

/// The one rule for CI ([`rfgraph_testkit::under_ci`]).
pub fn under_ci() -> bool {
    rfgraph_testkit::under_ci()
}

/// What a test without an OpenCL platform does: under CI it fails, naming
/// the test; elsewhere it writes exactly one `SKIPPED` line naming the
/// test to standard error, where the test harness shows it, and the test
/// returns without checking anything (see [`rfgraph_testkit::skip`]).
pub fn skip_without_platform(test: &str, error: &OclError) {
    let why = error.to_string().lines().collect::<Vec<_>>().join(" ");
    rfgraph_testkit::skip(test, &why);
}

/// A context on the default device, or `None` when this machine has no
/// OpenCL platform (see [`skip_without_platform`]: under CI that panics).
/// Any other error fails.
pub fn context_or_skip(test: &str) -> Option<OclContext> {
    match OclContext::any() {
        Ok(c) => Some(c),
        Err(e @ OclError::NoPlatform { .. }) => {
            skip_without_platform(test, &e);
            None
        }
        Err(e) => panic!("OpenCL is present but unusable: {e}"),
    }
}

/// Deterministic test signal in [-5, 5).
pub fn signal(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 100.0 - 5.0)
        .collect()
}

/// Deterministic complex test signal, real and imaginary parts in [-5, 5).
pub fn csignal(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| {
            Complex32::new(
                ((i * 7919) % 1000) as f32 / 100.0 - 5.0,
                ((i * 104_729 + 17) % 997) as f32 / 99.7 - 5.0,
            )
        })
        .collect()
}

/// `n` deterministic, non-symmetric FIR taps whose absolute sum is below 1
/// (so a tap reversal or an off-by-one in the window shows in the output).
pub fn taps(n: usize) -> Vec<f32> {
    (0..n)
        .map(|k| (((k * 37 + 11) % 19) as f32 - 9.0) / (10.0 * n as f32))
        .collect()
}

/// Odd lengths, including shorter than any ring and than the FIR's history.
pub const SIZES: [usize; 4] = [100_003, 65_537, 7, 1];

fn check_len<T>(what: &str, got: &[T], want: &[T]) {
    assert_eq!(
        got.len(),
        want.len(),
        "{what}: got {} items, expected {}",
        got.len(),
        want.len()
    );
}

/// Exact equality (the same IEEE operation on host and device; `0.0` and
/// `-0.0` count as equal, since `0 + (-0)` may or may not be folded).
pub fn assert_exact(what: &str, got: &[f32], want: &[f32]) {
    check_len(what, got, want);
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: item {i} of {} is {}, expected {}",
            got.len(),
            got[i],
            want[i]
        );
    }
}

/// `|got - want| <= 1e-4 + 1e-5·|want|` per item: room for fused
/// multiply-adds and another summation order, far below any real error.
pub fn assert_close(what: &str, got: &[f32], want: &[f32]) {
    check_len(what, got, want);
    if let Some(i) = (0..got.len()).find(|&i| !close(got[i], want[i])) {
        panic!(
            "{what}: item {i} of {} is {}, expected {}",
            got.len(),
            got[i],
            want[i]
        );
    }
}

/// [`assert_close`] on both parts of every item.
pub fn assert_close_c(what: &str, got: &[Complex32], want: &[Complex32]) {
    check_len(what, got, want);
    if let Some(i) =
        (0..got.len()).find(|&i| !close(got[i].re, want[i].re) || !close(got[i].im, want[i].im))
    {
        panic!(
            "{what}: item {i} of {} is {}, expected {}",
            got.len(),
            got[i],
            want[i]
        );
    }
}

fn close(got: f32, want: f32) -> bool {
    (got - want).abs() <= 1e-4 + 1e-5 * want.abs()
}

/// The statistics of the transfer blocks the runtime inserted.
pub fn transfers(done: &Finished) -> Vec<BlockStats> {
    done.stats()
        .iter()
        .filter(|s| s.transfer)
        .cloned()
        .collect()
}

/// The inserted transfers whose type is `kind` (`ToDevice` or `ToHost`).
pub fn transfers_of(done: &Finished, kind: &str) -> Vec<BlockStats> {
    transfers(done)
        .into_iter()
        .filter(|s| s.type_name.contains(&format!("::{kind}<")))
        .collect()
}

/// Asserts `done` has exactly `count` transfer blocks, each of which moved
/// all `items` (for graphs where every transfer lies on a single path from
/// a source to a sink).
pub fn assert_transfers(done: &Finished, count: usize, items: usize) {
    let t = transfers(done);
    assert_eq!(t.len(), count, "transfer blocks: {t:#?}");
    for s in &t {
        assert_eq!(s.items_consumed, items as u64, "{} consumed", s.block);
        assert_eq!(s.items_produced, items as u64, "{} produced", s.block);
    }
}

/// Runs `VectorSource(input) → block → VectorSink` with every edge ring
/// `ring_bytes` long; returns the sink's items and the finished graph.
pub fn run_unary<T: Item, B: Block>(
    block: B,
    input: Vec<T>,
    ring_bytes: usize,
    scheduler: impl Scheduler,
) -> (Vec<T>, Finished) {
    run_unary_rings(block, input, ring_bytes, ring_bytes, scheduler)
}

/// [`run_unary`] with rings of `in_bytes` into the block and `out_bytes`
/// out of it (host rings round up to whole pages; device rings do not).
pub fn run_unary_rings<T: Item, B: Block>(
    block: B,
    input: Vec<T>,
    in_bytes: usize,
    out_bytes: usize,
    scheduler: impl Scheduler,
) -> (Vec<T>, Finished) {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(in_bytes.min(out_bytes));
    let src = fg.add(VectorSource::new(input));
    let b = fg.add(block);
    let snk = fg.add(VectorSink::<T>::new());
    fg.connect_with_buffer(src, "out", b, "in", in_bytes)
        .unwrap();
    fg.connect_with_buffer(b, "out", snk, "in", out_bytes)
        .unwrap();
    let done = fg.run_bounded(scheduler).unwrap();
    let got = done.block::<VectorSink<T>>(snk).unwrap().items().to_vec();
    (got, done)
}

/// Runs two sources into inputs `in0` and `in1` of `block` and its output
/// into a sink, every edge ring `ring_bytes` long.
pub fn run_binary<T: Item, B: Block>(
    block: B,
    a: Vec<T>,
    b: Vec<T>,
    ring_bytes: usize,
    scheduler: impl Scheduler,
) -> (Vec<T>, Finished) {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(ring_bytes);
    let src_a = fg.add(VectorSource::new(a));
    let src_b = fg.add(VectorSource::new(b));
    let blk = fg.add(block);
    let snk = fg.add(VectorSink::<T>::new());
    fg.connect_with_buffer(src_a, "out", blk, "in0", ring_bytes)
        .unwrap();
    fg.connect_with_buffer(src_b, "out", blk, "in1", ring_bytes)
        .unwrap();
    fg.connect_with_buffer(blk, "out", snk, "in", ring_bytes)
        .unwrap();
    let done = fg.run_bounded(scheduler).unwrap();
    let got = done.block::<VectorSink<T>>(snk).unwrap().items().to_vec();
    (got, done)
}

/// The most any test flowgraph may take: a hang fails the test instead of
/// eating the suite's time.
#[allow(dead_code)]
pub const WATCHDOG: std::time::Duration = std::time::Duration::from_secs(120);

/// [`Flowgraph::run`](rfgraph::Flowgraph::run) with a watchdog.
#[allow(dead_code)]
pub trait RunBounded {
    /// Runs to completion on `scheduler`, or fails with
    /// `RunError::Timeout` after [`WATCHDOG`].
    fn run_bounded(
        self,
        scheduler: impl rfgraph::Scheduler,
    ) -> Result<rfgraph::Finished, rfgraph::RunError>;
}

impl RunBounded for rfgraph::Flowgraph {
    fn run_bounded(
        self,
        scheduler: impl rfgraph::Scheduler,
    ) -> Result<rfgraph::Finished, rfgraph::RunError> {
        self.start(scheduler)?.wait_timeout(WATCHDOG)
    }
}
