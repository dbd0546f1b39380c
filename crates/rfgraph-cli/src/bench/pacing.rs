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
//! The graph is built from flowgraph text through the standard registry,
//! the blocks a `.grc` of this graph would give, and its output checked:
//! the file holds exactly `seconds · rate` items.

use super::setup::GraphOpts;
use super::{Record, setup};
use anyhow::{Context, bail};
use clap::Args;
use rfgraph::stats::CpuTime;
use rfgraph_flowfile::build::{BuildOptions, build};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
        let result = setup::run_timed(
            fg,
            || setup::scheduler(&args.run.scheduler, None, &[], args.run.explain),
            &format!("pacing run {run}"),
        );
        let used = CpuTime::now().since(before);
        let (done, span) = result?;
        let written = std::fs::metadata(&path)
            .with_context(|| format!("reading {}", path.display()))?
            .len();
        let _ = std::fs::remove_file(&path);
        if written != items * 8 {
            bail!(
                "the file sink wrote {written} bytes, expected {} ({items} items)",
                items * 8
            );
        }
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
            .field("work_calls", serde_json::Value::Object(calls))
            .field("items_per_s", items as f64 / span.seconds)
            .field("block_items_per_s", 5.0 * items as f64 / span.seconds);
        record.print();
        crate::console::errln!(
            "pacing [{}] run {run}: {items} items at {} /s: {:.3} s wall, {:.1} ms CPU \
             ({:.1} % of a core), throttle work calls {throttle_calls}",
            args.run.scheduler,
            args.rate,
            span.seconds,
            cpu * 1e3,
            100.0 * cpu / span.seconds
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
