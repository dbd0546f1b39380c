//! The `accel` experiment (SCA/OpenCL paper, Table 1): generator → 5 gain
//! components on one OpenCL device → sink, one buffer at a time (or
//! `--in-flight N` at a time), for each buffer size.
//!
//! - `enhanced`: the 5 gain blocks share one context, so the flowgraph
//!   keeps the data on the device between them (2 transfers per buffer).
//! - `baseline`: each gain block has a context of its own, as the paper's
//!   components in separate process spaces do, so the flowgraph copies
//!   every buffer to the host and back between components (10 transfers).
//!
//! The same blocks, kernels and transfer code run in both modes; only
//! locality differs. Latency is measured per buffer from the generator
//! handing it on to the sink receiving its last sample (the paper's "input
//! of Comp1 to output of Comp5", plus one host hop at each end in both
//! modes). One warm-up buffer is sent first and not counted.
//!
//! `seconds` (which `buffers_per_s` divides) is [`setup::run_timed`]'s span,
//! as for every flowgraph experiment: the OpenCL contexts, kernels and the
//! graph are made first; the timer covers the scheduler's creation and the
//! whole `Flowgraph::run` (rings, `init`, threads, every buffer including
//! the warm-up one, `deinit`). There is no GNU Radio counterpart; the
//! latencies (`mean_us`, `p50_us`, `p99_us`) are per buffer and do not
//! depend on the span.

use super::setup::GraphOpts;
use super::summary::Estimate;
use super::{Record, Span, setup};
use crate::console::errln;
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use rfgraph::{Block, BoxError, Flowgraph, Ports, StreamInput, StreamOutput, Waker, WorkIo};
use rfgraph_opencl::{DeviceSelector, Elementwise, OclContext};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Gain of each component; five of them multiply by 32, exactly.
const GAIN: f32 = 2.0;

/// Which locality the run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Copy to the host and back between components.
    Baseline,
    /// Stay on the device between components.
    Enhanced,
    /// Both, then a table with the ratio.
    Both,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Baseline => "baseline",
            Mode::Enhanced => "enhanced",
            Mode::Both => "both",
        }
    }
}

/// Options of `rfgraph bench accel`.
#[derive(Args, Debug, Clone)]
pub struct AccelArgs {
    /// Buffer sizes in KB (1 KB = 1024 bytes of f32 samples).
    #[arg(long, value_delimiter = ',', default_value = "2,4,32,64,256,1024,4096")]
    pub sizes: Vec<usize>,
    /// Buffers per size and mode (after one warm-up buffer).
    #[arg(long, default_value_t = 1000)]
    pub buffers: u64,
    /// baseline, enhanced, or both with a ratio table on stderr.
    #[arg(long, value_enum, default_value_t = Mode::Both)]
    pub mode: Mode,
    /// Buffers in the application at once (1: the paper's "one at a time").
    #[arg(long, default_value_t = 1)]
    pub in_flight: usize,
    /// Gain components in the chain.
    #[arg(long, default_value_t = 5)]
    pub components: usize,
    /// OpenCL device: a case-insensitive substring of its name (default:
    /// the first GPU, else the first CPU device).
    #[arg(long)]
    pub device: Option<String>,
    /// OpenCL platform: a case-insensitive substring of its name.
    #[arg(long)]
    pub platform: Option<String>,
    /// Scheduler, repeats, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// Per-buffer timestamps shared by the generator and the sink.
struct Timeline {
    epoch: Instant,
    /// Nanoseconds since `epoch` when buffer k left the generator / reached the sink.
    sent: Vec<AtomicU64>,
    received: Vec<AtomicU64>,
    /// Buffers fully received.
    done: AtomicU64,
    /// Wakes the generator when a buffer completes.
    generator: OnceLock<Waker>,
}

impl Timeline {
    fn new(buffers: usize) -> Arc<Self> {
        Arc::new(Self {
            epoch: Instant::now(),
            sent: (0..buffers).map(|_| AtomicU64::new(0)).collect(),
            received: (0..buffers).map(|_| AtomicU64::new(0)).collect(),
            done: AtomicU64::new(0),
            generator: OnceLock::new(),
        })
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// Latencies in µs of buffers `skip..`.
    fn latencies_us(&self, skip: usize) -> Vec<f64> {
        self.sent
            .iter()
            .zip(&self.received)
            .skip(skip)
            .map(|(s, r)| {
                r.load(Ordering::Acquire)
                    .saturating_sub(s.load(Ordering::Acquire)) as f64
                    / 1e3
            })
            .collect()
    }
}

/// Emits whole buffers of `samples` floats, at most `in_flight` ahead of
/// the sink. Buffer k holds `k % 1024` everywhere.
struct Generator {
    output: StreamOutput<f32>,
    samples: usize,
    next: u64,
    in_flight: u64,
    timeline: Arc<Timeline>,
}

impl Block for Generator {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }
    fn attach_waker(&mut self, waker: Waker) {
        let _ = self.timeline.generator.set(waker);
    }
    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let total = self.timeline.sent.len() as u64;
        while self.next < total
            && self.next - self.timeline.done.load(Ordering::Acquire) < self.in_flight
        {
            let out = self.output.slice();
            if out.len() < self.samples {
                break;
            }
            out[..self.samples].fill((self.next % 1024) as f32);
            self.timeline.sent[self.next as usize].store(self.timeline.now(), Ordering::Release);
            self.output.produce(self.samples);
            self.next += 1;
        }
        if self.next == total {
            io.finish();
        }
        Ok(())
    }
}

/// Receives buffers, checks the gain was applied, stamps each buffer's end.
struct Sink {
    input: StreamInput<f32>,
    samples: usize,
    received: u64,
    expected_gain: f32,
    timeline: Arc<Timeline>,
}

impl Block for Sink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let items = self.input.slice();
        let n = items.len();
        for (i, &x) in items.iter().enumerate() {
            let index = self.received + i as u64;
            let buffer = index / self.samples as u64;
            // Check the first and last sample of every buffer.
            let offset = index % self.samples as u64;
            if offset == 0 || offset == self.samples as u64 - 1 {
                let want = (buffer % 1024) as f32 * self.expected_gain;
                if x != want {
                    return Err(
                        format!("buffer {buffer} sample {offset}: got {x}, want {want}").into(),
                    );
                }
            }
            if offset == self.samples as u64 - 1 {
                self.timeline.received[buffer as usize]
                    .store(self.timeline.now(), Ordering::Release);
                self.timeline.done.fetch_add(1, Ordering::AcqRel);
                if let Some(w) = self.timeline.generator.get() {
                    w.wake();
                }
            }
        }
        self.received += n as u64;
        self.input.consume(n);
        Ok(())
    }
}

/// One measured size and mode.
struct Measured {
    latencies_us: Vec<f64>,
    span: Span,
    transfers: usize,
}

fn run_one(
    args: &AccelArgs,
    selector: &DeviceSelector,
    mode: Mode,
    samples: usize,
    run: usize,
) -> anyhow::Result<Measured> {
    let components = args.components.max(1);
    let contexts: Vec<OclContext> = match mode {
        Mode::Enhanced => vec![OclContext::new(selector)?],
        _ => (0..components)
            .map(|_| OclContext::new(selector))
            .collect::<Result<_, _>>()?,
    };
    for c in &contexts {
        c.set_in_flight(args.in_flight);
    }
    let buffers = args.buffers as usize + 1; // one warm-up buffer
    let timeline = Timeline::new(buffers);
    let mut fg = Flowgraph::new();
    // Every edge holds `in_flight + 1` whole buffers.
    fg.set_buffer_bytes((args.in_flight + 1) * samples * 4);
    let src = fg.add_named(
        "generator",
        Generator {
            output: StreamOutput::new("out"),
            samples,
            next: 0,
            in_flight: args.in_flight as u64,
            timeline: timeline.clone(),
        },
    );
    let mut chain = vec![src];
    for c in 0..components {
        let context = &contexts[c % contexts.len()];
        chain.push(fg.add_named(format!("gain{}", c + 1), Elementwise::gain(context, GAIN)?));
    }
    let sink = fg.add_named(
        "sink",
        Sink {
            input: StreamInput::new("in"),
            samples,
            received: 0,
            expected_gain: GAIN.powi(components as i32),
            timeline: timeline.clone(),
        },
    );
    chain.push(sink);
    fg.chain(&chain)?;
    let (done, span) = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, None, &[], args.run.explain),
        &format!("accel {} run {run}", mode.name()),
    )?;
    let received = timeline.done.load(Ordering::Acquire);
    if received != buffers as u64 {
        bail!("the sink received {received} buffers, expected {buffers}");
    }
    if args.run.stats {
        setup::print_block_stats(&done, "accel", &args.run.scheduler, run);
    }
    Ok(Measured {
        latencies_us: timeline.latencies_us(1),
        span,
        transfers: done.stats().iter().filter(|s| s.transfer).count(),
    })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0 * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// Runs the experiment.
pub fn run(args: &AccelArgs) -> anyhow::Result<()> {
    if args.buffers == 0 || args.in_flight == 0 || args.sizes.contains(&0) {
        bail!("--buffers, --in-flight and every size must be positive");
    }
    let selector = DeviceSelector {
        platform: args.platform.clone(),
        device: args.device.clone(),
    };
    let device = rfgraph_opencl::devices()
        .and_then(|all| selector.pick(&all).cloned())
        .context("bench accel needs an OpenCL device")?;
    errln!("accel on {device} ({})", device.version);
    let modes: &[Mode] = match args.mode {
        Mode::Both => &[Mode::Baseline, Mode::Enhanced],
        Mode::Baseline => &[Mode::Baseline],
        Mode::Enhanced => &[Mode::Enhanced],
    };
    let mut records = Vec::new();
    for &size_kb in &args.sizes {
        let samples = size_kb * 1024 / 4;
        for run in 0..args.run.repeat {
            for &mode in modes {
                let m = run_one(args, &selector, mode, samples, run)?;
                let mut sorted = m.latencies_us.clone();
                sorted.sort_by(f64::total_cmp);
                let mean = Estimate::of(&m.latencies_us).mean;
                let record = Record::new("accel", &args.run.scheduler, run, m.span)
                    .field("size_kb", size_kb)
                    .field("samples", samples)
                    .field("mode", mode.name())
                    .field("buffers", args.buffers)
                    .field("in_flight", args.in_flight)
                    .field("components", args.components)
                    .field("transfers", m.transfers)
                    .field("device", device.name.clone())
                    .field("mean_us", mean)
                    .field("p50_us", percentile(&sorted, 50.0))
                    .field("p99_us", percentile(&sorted, 99.0))
                    .field("buffers_per_s", args.buffers as f64 / m.span.seconds);
                record.print();
                records.push(record.value());
                errln!(
                    "accel {} {size_kb} KB run {run}: mean {mean:.1} µs, p50 {:.1}, p99 {:.1} ({} transfers)",
                    mode.name(),
                    percentile(&sorted, 50.0),
                    percentile(&sorted, 99.0),
                    m.transfers
                );
            }
        }
    }
    if args.mode == Mode::Both {
        errln!("\n{}", ratio_table(&records));
    }
    Ok(())
}

/// The paper's Table 1 layout from `accel` records: per buffer size, the
/// mean over runs of each mode's mean µs per buffer, and their ratio.
pub fn ratio_table(records: &[Value]) -> String {
    let mut rows: BTreeMap<u64, (u64, Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for r in records.iter().filter(|r| r["experiment"] == "accel") {
        let (Some(kb), Some(mean)) = (r["size_kb"].as_u64(), r["mean_us"].as_f64()) else {
            continue;
        };
        let row = rows.entry(kb).or_default();
        row.0 = r["samples"].as_u64().unwrap_or(0);
        match r["mode"].as_str() {
            Some("baseline") => row.1.push(mean),
            Some("enhanced") => row.2.push(mean),
            _ => {}
        }
    }
    let mut out = String::from(
        "| KB | samples per buffer | baseline (µs) | enhanced (µs) | baseline / enhanced |\n|---:|---:|---:|---:|---:|\n",
    );
    for (kb, (samples, baseline, enhanced)) in rows {
        let b = Estimate::of(&baseline).mean;
        let e = Estimate::of(&enhanced).mean;
        out.push_str(&format!(
            "| {kb} | {samples} | {b:.0} | {e:.0} | {:.2} |\n",
            b / e
        ));
    }
    out
}
