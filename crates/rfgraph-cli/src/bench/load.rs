//! The `load` experiment (multicore paper): a source throttled to the
//! required real-time rate feeds processing that does `amount` units of
//! work per packet, either in one block on T threads (`intra`) or in T
//! chained blocks doing 1/T each (`inter`). `quality` is the fraction of
//! the required rate that reaches the sink (1.0 = keeps up).
//!
//! # What the timers cover
//!
//! There is no GNU Radio counterpart. As in every experiment, `seconds` is
//! [`setup::run_timed`]'s span: the graph is built first, then the timer
//! covers the scheduler's creation, `Flowgraph::start` (rings, `init`,
//! the processors' helper threads, the scheduler's threads), the run,
//! the stop and `Running::wait` (`deinit`, joins); `run_seconds` is the
//! run phase. `items_processed` counts what the sink consumed over the
//! whole run, and `items_per_s` divides it by `seconds`.
//!
//! `quality` is a real-time criterion and is measured over the window in
//! which the source must deliver `rate`: from `start` returning to the
//! moment the sink's count is read, `window_seconds` long, in which
//! `window_items` reached the sink. Start-up and stopping are outside it
//! on purpose: a graph that keeps up with the rate must score 1.0 however
//! long its set-up takes.
//!
//! The sink counts its items itself ([`CountingSink`]) rather than the
//! window reading the runtime's live statistics: those add a busy block's
//! counts in batches of up to 256 calls, so on a scheduler that runs the
//! sink between other blocks (`single`, `chain`) a live snapshot lagged by
//! up to 256 packets, most of a window's items.

use super::workload::{Processor, Workload};
use super::{Record, setup};
use anyhow::bail;
use clap::{Args, ValueEnum};
use rfgraph::{Block, BoxError, Flowgraph, Ports, StreamInput, WorkIo};
use rfgraph_blocks::{NullSource, Throttle};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A null sink that publishes how many items it consumed after every call,
/// so the count can be read exactly while the graph runs.
struct CountingSink {
    input: StreamInput<f32>,
    consumed: Arc<AtomicU64>,
}

impl Block for CountingSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.available();
        self.input.consume(n);
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(())
    }
}

/// How the work is spread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// One block, T threads inside it.
    Intra,
    /// T blocks in a chain, each 1/T of the work.
    Inter,
}

/// Options of `rfgraph bench load`.
#[derive(Args, Debug, Clone)]
pub struct LoadArgs {
    /// Kind of work.
    #[arg(long, value_enum, default_value = "fpdiv")]
    pub workload: Workload,
    /// Units of work per 1024-sample packet.
    #[arg(long, default_value_t = 10_000)]
    pub amount: u64,
    /// Threads (intra) or blocks (inter).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Where the threads are.
    #[arg(long, value_enum, default_value = "inter")]
    pub mode: Mode,
    /// Required sample rate, samples per second.
    #[arg(long, default_value_t = 1_000_000.0)]
    pub rate: f64,
    /// Wall time of one run, seconds.
    #[arg(long, default_value_t = 2.0)]
    pub duration: f64,
    /// Scheduler: tpb, single, pool or chain.
    #[arg(long, default_value = "tpb")]
    pub scheduler: String,
    /// Runs to measure.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
}

/// Runs the experiment.
pub fn run(args: &LoadArgs) -> anyhow::Result<()> {
    if args.threads == 0 || args.rate <= 0.0 || args.duration <= 0.0 {
        bail!("--threads, --rate and --duration must be positive");
    }
    for run in 0..args.repeat {
        let mut fg = Flowgraph::new();
        let src = fg.add(NullSource::<f32>::new());
        let throttle = fg.add(Throttle::<f32>::new(args.rate)?);
        let mut chain = vec![src, throttle];
        match args.mode {
            Mode::Intra => {
                chain.push(fg.add(Processor::new(args.workload, args.amount, args.threads)))
            }
            Mode::Inter => {
                let share = args.amount / args.threads as u64;
                for t in 0..args.threads {
                    let extra = if t == 0 {
                        args.amount - share * args.threads as u64
                    } else {
                        0
                    };
                    chain.push(fg.add(Processor::new(args.workload, share + extra, 1)));
                }
            }
        }
        let consumed = Arc::new(AtomicU64::new(0));
        let sink = fg.add(CountingSink {
            input: StreamInput::new("in"),
            consumed: consumed.clone(),
        });
        chain.push(sink);
        fg.chain(&chain)?;
        let what = format!("load run {run}");
        let (start, running) = setup::start_timed(
            fg,
            || setup::scheduler(&args.scheduler, None, &[], false),
            &what,
        )?;
        let window_start = Instant::now();
        std::thread::sleep(Duration::from_secs_f64(args.duration));
        let window_items = consumed.load(Ordering::Relaxed);
        let window_seconds = window_start.elapsed().as_secs_f64();
        running.handle().stop();
        let (done, span) = setup::wait_timed(running, start, &what)?;
        let received = consumed.load(Ordering::Relaxed);
        // Once the graph is done, the runtime's count is exact too.
        let counted = done.stats()[sink.0].items_consumed;
        if counted != received {
            bail!("the sink counted {received} items, the runtime {counted}");
        }
        let required = args.rate * window_seconds;
        let record = Record::new("load", &args.scheduler, run, span)
            .field("workload", args.workload.name())
            .field("amount", args.amount)
            .field("threads", args.threads)
            .field(
                "mode",
                match args.mode {
                    Mode::Intra => "intra",
                    Mode::Inter => "inter",
                },
            )
            .field("rate", args.rate)
            .field("items_processed", received)
            .field("items_per_s", received as f64 / span.seconds)
            .field("window_seconds", window_seconds)
            .field("window_items", window_items)
            .field("quality", (window_items as f64 / required).min(1.0));
        record.print();
        record.summary();
    }
    Ok(())
}
