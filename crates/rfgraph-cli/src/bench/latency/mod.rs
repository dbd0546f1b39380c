//! The `latency` experiment: how long a burst of samples takes to cross a
//! flowgraph, as a USB radio's transfers do. A [`PacedSource`] releases a
//! burst of B = rate · T numbered items every T (burst k due at
//! start + k·T, waiting on the scheduler's timer in between), N `Copy`
//! blocks pass them on, and a [`LatencySink`] records when each burst's
//! first and last item arrived and checks that every item came, in order.
//!
//! Per run it reports, in µs, p50/p99/max of first-item and last-item
//! latency (arrival − due time) and of the source's own lateness (the
//! floor: when it wrote a burst's first item − its due time), the
//! process's CPU time over the run (`getrusage(RUSAGE_SELF)`, every
//! thread) and `seconds`, the span of [`setup::run_timed`] (about K·T).
//! With `--gnuradio` the same points run on GNU Radio
//! (`gr_bench.py latency`) after rfgraph's. Method and results:
//! `docs/perf/latency.md`.

mod percentiles;
pub mod table;

use super::setup::GraphOpts;
use super::{Record, peer, setup};
use crate::console::errln;
use anyhow::{Context, bail};
use clap::Args;
use percentiles::Percentiles;
use rfgraph::Flowgraph;
use rfgraph::scheduler::SCHEDULERS;
use rfgraph::stats::CpuTime;
use rfgraph_blocks::Copy;
use rfgraph_blocks::timing::{LatencySink, PacedSource, Pacing};
use rfgraph_flowfile::duration::parse_duration;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `rfgraph bench latency`.
#[derive(Args, Debug, Clone)]
pub struct LatencyArgs {
    /// Sample rates, samples/s (a list runs each: `1e6,20e6`).
    #[arg(long, value_delimiter = ',', default_value = "1e6")]
    pub rate: Vec<f64>,
    /// Time between bursts (`1ms`, `500us`).
    #[arg(long, default_value = "1ms", value_parser = parse_duration)]
    pub period: Duration,
    /// Copy blocks between source and sink (a list runs each: `1,10,40`).
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub stages: Vec<usize>,
    /// Bursts per run (default 1000).
    #[arg(long, conflicts_with = "duration")]
    pub bursts: Option<usize>,
    /// Run length instead of --bursts (`2s`, `500ms`): duration / period bursts.
    #[arg(long, value_parser = parse_duration)]
    pub duration: Option<Duration>,
    /// A latency budget for rfgraph's runs (`2ms`): caps batches and
    /// queues (see `rfgraph run --max-latency`); records carry it as
    /// `max_latency_us`, and whether the run reported it exceeded.
    #[arg(long, value_parser = parse_duration)]
    pub max_latency: Option<Duration>,
    /// Scheduler (`--scheduler all` runs each), repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
    /// Also run each point on GNU Radio (`gr_bench.py latency`).
    #[arg(long)]
    pub gnuradio: bool,
    /// GNU Radio's benchmark script (default: bench/gnuradio/gr_bench.py).
    #[arg(long)]
    pub gr_script: Option<PathBuf>,
}

/// Bursts per run when neither --bursts nor --duration is given.
const DEFAULT_BURSTS: usize = 1000;

impl LatencyArgs {
    fn bursts(&self) -> usize {
        match (self.bursts, self.duration) {
            (Some(k), _) => k,
            (None, Some(d)) => (d.as_secs_f64() / self.period.as_secs_f64()).round() as usize,
            (None, None) => DEFAULT_BURSTS,
        }
    }

    fn schedulers(&self) -> Vec<String> {
        if self.run.scheduler == "all" {
            SCHEDULERS.iter().map(|s| s.to_string()).collect()
        } else {
            vec![self.run.scheduler.clone()]
        }
    }
}

/// One point of the experiment.
struct Point {
    pacing: Pacing,
    rate: f64,
    stages: usize,
}

impl Point {
    /// The parameters every record of this point carries.
    fn fields(&self, record: Record) -> Record {
        record
            .field("rate", self.rate)
            .field("period_us", self.pacing.period.as_secs_f64() * 1e6)
            .field("burst", self.pacing.burst)
            .field("bursts", self.pacing.bursts)
            .field("stages", self.stages)
            .field("items", self.pacing.items())
    }
}

/// Latency of each arrival: arrival − the due time of its burst.
fn latencies(arrivals: &[std::time::Instant], source: &PacedSource) -> Vec<Duration> {
    arrivals
        .iter()
        .enumerate()
        .filter_map(|(k, t)| source.due(k).map(|due| t.saturating_duration_since(due)))
        .collect()
}

fn measure(
    point: &Point,
    scheduler: &str,
    args: &LatencyArgs,
    run: usize,
) -> anyhow::Result<Record> {
    let opts = &args.run;
    let buffer_bytes = opts.buffer_bytes;
    let mut fg = Flowgraph::new();
    if let Some(bytes) = buffer_bytes {
        fg.set_buffer_bytes(bytes);
    }
    if let Some(budget) = args.max_latency {
        fg.set_max_latency(budget);
    }
    let src = fg.add(PacedSource::new(point.pacing));
    let mut chain = vec![src];
    chain.extend((0..point.stages).map(|_| fg.add(Copy::<u32>::new())));
    let sink = fg.add(LatencySink::new(point.pacing.burst, point.pacing.bursts));
    chain.push(sink);
    fg.chain(&chain)?;
    let cpu = CpuTime::now();
    let (done, span) = setup::run_timed(
        fg,
        || setup::scheduler(scheduler, None, &[], opts.explain),
        &format!("latency run {run}"),
    )?;
    let cpu = CpuTime::now().since(cpu);
    let source = done.block::<PacedSource>(src).context("the source")?;
    let sink = done.block::<LatencySink>(sink).context("the sink")?;
    let (bursts, items) = (point.pacing.bursts, point.pacing.items());
    if sink.received() != items || sink.last_arrivals().len() != bursts {
        bail!(
            "the sink received {} items in {} bursts, expected {items} in {bursts}",
            sink.received(),
            sink.last_arrivals().len()
        );
    }
    let first = Percentiles::of(&latencies(sink.first_arrivals(), source));
    let last = Percentiles::of(&latencies(sink.last_arrivals(), source));
    let late = Percentiles::of(source.lateness());
    let mut record = point.fields(Record::new("latency", scheduler, run, span));
    for (k, v) in first
        .fields("first")
        .into_iter()
        .chain(last.fields("last"))
        .chain(late.fields("source_late"))
    {
        record = record.field(&k, v);
    }
    let cpu_seconds = cpu.total().as_secs_f64();
    if opts.stats {
        setup::print_block_stats(&done, "latency", scheduler, run);
    }
    Ok(record
        .field("cpu_seconds", cpu_seconds)
        .field("cpu_user_seconds", cpu.user.as_secs_f64())
        .field("cpu_system_seconds", cpu.system.as_secs_f64())
        .field("cpu_per_wall", cpu_seconds / span.seconds)
        .field("buffer_bytes", buffer_bytes.map_or(Value::Null, Into::into))
        .field(
            "max_latency_us",
            args.max_latency
                .map_or(Value::Null, |d| (d.as_secs_f64() * 1e6).into()),
        )
        .field("budget_exceeded", done.latency().exceeded()))
}

/// One line on stderr per record (either runtime).
fn summary(r: &Value) {
    let f = |k: &str| r[k].as_f64().unwrap_or(f64::NAN);
    errln!(
        "latency [{}/{}] rate={:e} N={} run {}: first p50 {:.0} p99 {:.0} µs, last p50 {:.0} p99 {:.0} max {:.0} µs, source late p99 {:.0} µs, cpu {:.3} s / {:.3} s",
        r["runtime"].as_str().unwrap_or("?"),
        r["scheduler"].as_str().unwrap_or("?"),
        f("rate"),
        r["stages"],
        r["run"],
        f("first_p50_us"),
        f("first_p99_us"),
        f("last_p50_us"),
        f("last_p99_us"),
        f("last_max_us"),
        f("source_late_p99_us"),
        f("cpu_seconds"),
        f("seconds"),
    );
}

fn print(record: &Value) {
    crate::console::outln!("{record}");
    summary(record);
}

/// Runs every point (rate × stages) on every chosen scheduler, then on GNU
/// Radio with `--gnuradio`, printing one record per run.
pub fn run(args: &LatencyArgs) -> anyhow::Result<()> {
    let bursts = args.bursts();
    if bursts == 0 || args.rate.iter().any(|r| !(*r > 0.0 && r.is_finite())) {
        bail!("--bursts (or --duration) and --rate must be positive");
    }
    let script = if args.gnuradio {
        Some(peer::gr_script(args.gr_script.as_deref())?)
    } else {
        None
    };
    for &rate in &args.rate {
        for &stages in &args.stages {
            let point = Point {
                pacing: Pacing::at_rate(rate, args.period, bursts),
                rate,
                stages,
            };
            for scheduler in args.schedulers() {
                for run in 0..args.run.repeat {
                    print(&measure(&point, &scheduler, args, run)?.value());
                }
            }
            if let Some(script) = &script {
                let gr: Vec<String> = vec![
                    "latency".into(),
                    "--rate".into(),
                    rate.to_string(),
                    "--period".into(),
                    format!("{}ns", args.period.as_nanos()),
                    "--stages".into(),
                    stages.to_string(),
                    "--bursts".into(),
                    bursts.to_string(),
                    "--repeat".into(),
                    args.run.repeat.to_string(),
                ];
                for record in peer::gr_records(script, &gr)? {
                    print(&record);
                }
            }
        }
    }
    Ok(())
}
