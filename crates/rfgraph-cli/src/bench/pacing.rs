//! The `pacing` experiment: what a throttled simulation costs in CPU. GNU
//! Radio's usual simulation graph, `sig_source` → `low_pass_filter` →
//! `throttle` → `head` → `file_sink` (complex items), runs for
//! `--seconds` of signal at `--rate` items per second, so its wall time is
//! set by the throttle and what matters is the processor time it takes
//! meanwhile: a throttle that wakes for every item costs far more than
//! the filter.
//!
//! Each record adds `cpu_seconds` (user + system time of the whole
//! process, `getrusage(RUSAGE_SELF)` taken just before the timer starts
//! and just after it stops, so it covers the same span as `seconds`),
//! `cpu_user_seconds`, `cpu_system_seconds`, `cpu_share` (CPU seconds per
//! wall second) and `throttle_work_calls` (the throttle's `work` calls
//! from the run's statistics); `work_calls` holds every block's. GNU
//! Radio's side (`gr_bench.py pacing`, `resource.getrusage` around
//! `tb.run()`) has no work-call counter and reports `null`.
//!
//! Halfway through the signal the source is retuned from 1 kHz to
//! [`RETUNED_HZ`], as a user moving a slider would, and
//! `reaction_seconds` says how long that took to reach the file: the
//! release time of the first sample at the new frequency (its index over
//! the rate, the throttle counting from the start) minus when the change
//! was posted. Everything queued between the source and the throttle is
//! stale by then, so this is the delay a user feels; GNU Radio's side
//! measures it the same way (`src.set_frequency`).
//!
//! The graph is built from flowgraph text through the standard registry,
//! the blocks a `.grc` of this graph would give, and its output checked:
//! the file holds exactly `seconds · rate` items.

use super::setup::GraphOpts;
use super::{Record, setup};
use anyhow::{Context, bail};
use clap::Args;
use rfgraph::stats::CpuTime;
use rfgraph_blocks::{SampleCodec, SampleFormat};
use rfgraph_flowfile::build::{BuildOptions, build};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The source's frequency after the retune, Hz (1 kHz before).
pub const RETUNED_HZ: f64 = 3000.0;

/// How long the retune posted at `changed_at` (seconds since the start)
/// took to reach `samples` (see the module doc); the filter's first 50 ms,
/// its start-up transient, are skipped. `None` when no sample shows it.
pub fn reaction_seconds(
    samples: &[num_complex::Complex32],
    rate: f64,
    changed_at: f64,
) -> Option<f64> {
    let skip = (rate * 0.05) as usize;
    let threshold = (1000.0 + RETUNED_HZ) / 2.0;
    samples
        .windows(2)
        .enumerate()
        .skip(skip)
        .find(|(_, w)| {
            let step = (w[1] * w[0].conj()).arg() as f64 * rate / std::f64::consts::TAU;
            step.abs() > threshold
        })
        .map(|(k, _)| (k + 1) as f64 / rate - changed_at)
}

/// Options of `rfgraph bench pacing`.
#[derive(Args, Debug, Clone)]
pub struct PacingArgs {
    /// Seconds of signal: the head passes `seconds · rate` items.
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    /// The signal's and the throttle's rate, items per second.
    #[arg(long, default_value_t = 32_000.0)]
    pub rate: f64,
    /// The throttle's `chunk` (seconds of signal released at once); the
    /// block's default when not given.
    #[arg(long)]
    pub chunk: Option<f64>,
    /// Folder of the output file (default: /dev/shm, else the temporary
    /// folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// The flowgraph text of the experiment, writing to `path`.
pub fn flowgraph_text(args: &PacingArgs, items: u64, path: &Path) -> String {
    let chunk = args
        .chunk
        .map_or(String::new(), |c| format!("chunk = {c:?}\n"));
    format!(
        r#"format = 1
title = "pacing"
connections = ["src -> lpf -> throttle -> head -> sink"]

[blocks.src]
kind = "sig_source"
type = "c32"
waveform = "cosine"
sample_rate = {rate:?}
frequency = 1000.0
amplitude = 1.0

[blocks.lpf]
kind = "low_pass_filter"
type = "c32"
sample_rate = {rate:?}
cutoff = {cutoff:?}
transition = {transition:?}
window = "hamming"

[blocks.throttle]
kind = "throttle"
type = "c32"
sample_rate = {rate:?}
{chunk}
[blocks.head]
kind = "head"
type = "c32"
items = {items}

[blocks.sink]
kind = "file_sink"
type = "c32"
path = {{ text = {path:?} }}
"#,
        rate = args.rate,
        cutoff = args.rate * 5.0 / 32.0,
        transition = args.rate / 16.0,
        path = path.display().to_string(),
    )
}

fn out_dir(args: &PacingArgs) -> PathBuf {
    args.dir.clone().unwrap_or_else(|| {
        let shm = PathBuf::from("/dev/shm");
        if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        }
    })
}

/// Runs the experiment.
pub fn run(args: &PacingArgs) -> anyhow::Result<()> {
    if !(args.seconds > 0.0 && args.rate > 0.0) {
        bail!("--seconds and --rate must be positive");
    }
    let items = (args.seconds * args.rate).round() as u64;
    if items == 0 {
        bail!("--seconds · --rate must be at least one item");
    }
    let registry = rfgraph_flowfile::standard::registry();
    let path = out_dir(args).join(format!("rfgraph-bench-pacing-{}.cf32", std::process::id()));
    let text = flowgraph_text(args, items, &path);
    let file = Arc::new(PathBuf::from("pacing.toml"));
    for run in 0..args.run.repeat {
        let doc = rfgraph_flowfile::toml::parse(&text, file.clone())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let built =
            build(&doc, &registry, &BuildOptions::default()).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut fg = built.flowgraph;
        if let Some(bytes) = args.run.buffer_bytes {
            fg.set_buffer_bytes(bytes);
        }
        let before = CpuTime::now();
        let what = format!("pacing run {run}");
        let (start, running) = setup::start_timed(
            fg,
            || setup::scheduler(&args.run.scheduler, None, &[], args.run.explain),
            &what,
        )?;
        let handle = running.handle();
        let src = handle
            .block_id("src")
            .context("the pacing graph has no block `src`")?;
        std::thread::sleep(
            (start + std::time::Duration::from_secs_f64(args.seconds / 2.0))
                .saturating_duration_since(std::time::Instant::now()),
        );
        let posted = handle.post(src, "frequency", rfgraph::Pmt::F64(RETUNED_HZ));
        let changed_at = start.elapsed().as_secs_f64();
        let result = setup::wait_timed(running, start, &what);
        let used = CpuTime::now().since(before);
        let (done, span) = result?;
        // A graph that finished before the retune could not take it.
        let reacted = posted.is_ok();
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let _ = std::fs::remove_file(&path);
        let written = bytes.len() as u64;
        if written != items * 8 {
            bail!(
                "the file sink wrote {written} bytes, expected {} ({items} items)",
                items * 8
            );
        }
        let mut samples = vec![num_complex::Complex32::default(); items as usize];
        SampleCodec::new(SampleFormat::CF32).decode(&bytes, &mut samples);
        let reaction = reacted
            .then(|| reaction_seconds(&samples, args.rate, changed_at))
            .flatten();
        let calls: serde_json::Map<String, serde_json::Value> = done
            .stats()
            .iter()
            .map(|s| (s.block.clone(), s.work_calls.into()))
            .collect();
        let throttle_calls = done
            .stats()
            .iter()
            .find(|s| s.block == "throttle")
            .map(|s| s.work_calls)
            .context("the run's statistics have no block `throttle`")?;
        let (user, sys) = (used.user.as_secs_f64(), used.system.as_secs_f64());
        let cpu = user + sys;
        let record = Record::new("pacing", &args.run.scheduler, run, span)
            .field("items", items)
            .field("rate", args.rate)
            .field("signal_seconds", args.seconds)
            .field(
                "chunk",
                args.chunk.map_or(serde_json::Value::Null, Into::into),
            )
            .field("cpu_seconds", cpu)
            .field("cpu_user_seconds", user)
            .field("cpu_system_seconds", sys)
            .field("cpu_share", cpu / span.seconds)
            .field("throttle_work_calls", throttle_calls)
            .field(
                "reaction_seconds",
                reaction.map_or(serde_json::Value::Null, Into::into),
            )
            .field("work_calls", serde_json::Value::Object(calls))
            .field("items_per_s", items as f64 / span.seconds)
            .field("block_items_per_s", 5.0 * items as f64 / span.seconds);
        record.print();
        crate::console::errln!(
            "pacing [{}] run {run}: {items} items at {} /s: {:.3} s wall, {:.1} ms CPU \
             ({:.1} % of a core), throttle work calls {throttle_calls}, retune reached the \
             file after {}",
            args.run.scheduler,
            args.rate,
            span.seconds,
            cpu * 1e3,
            100.0 * cpu / span.seconds,
            reaction.map_or("(no retune seen)".to_string(), |r| format!("{r:.3} s"))
        );
        if args.run.stats {
            setup::print_block_stats(&done, "pacing", &args.run.scheduler, run);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tone at 1 kHz that jumps to the retuned frequency at sample
    /// 5000 of 32 kS/s: the retune shows there, whatever the phase.
    #[test]
    fn the_reaction_is_the_first_retuned_sample_less_the_change() {
        let rate = 32_000.0;
        let mut phase = 0.7f64;
        let samples: Vec<num_complex::Complex32> = (0..8000)
            .map(|k| {
                let f = if k < 5000 { 1000.0 } else { RETUNED_HZ };
                let s = num_complex::Complex32::from_polar(1.0, phase as f32);
                phase += std::f64::consts::TAU * f / rate;
                s
            })
            .collect();
        // Sample 5001 is the first whose step from its predecessor is
        // at the new frequency; the change was posted at 0.1 s.
        let r = reaction_seconds(&samples, rate, 0.1).unwrap();
        assert!((r - (5001.0 / rate - 0.1)).abs() < 1e-9, "{r}");
        // No retune: no reaction.
        assert_eq!(reaction_seconds(&samples[..5000], rate, 0.1), None);
    }

    #[test]
    fn the_flowgraph_text_builds() {
        let args = PacingArgs {
            seconds: 0.01,
            rate: 32_000.0,
            chunk: None,
            dir: None,
            run: GraphOpts {
                scheduler: "tpb".into(),
                repeat: 1,
                buffer_bytes: None,
                explain: false,
                stats: false,
            },
        };
        let text = flowgraph_text(&args, 320, Path::new("/nonexistent/x.cf32"));
        let doc = rfgraph_flowfile::toml::parse(&text, Arc::new(PathBuf::from("p.toml"))).unwrap();
        let names: Vec<&str> = doc.blocks.iter().map(|b| b.kind.as_str()).collect();
        assert_eq!(
            names,
            [
                "sig_source",
                "low_pass_filter",
                "throttle",
                "head",
                "file_sink"
            ]
        );
        let options = BuildOptions {
            dry_run: true,
            ..BuildOptions::default()
        };
        build(&doc, &rfgraph_flowfile::standard::registry(), &options).unwrap();
    }
}
