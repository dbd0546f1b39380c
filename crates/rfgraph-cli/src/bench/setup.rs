//! What every experiment shares: choosing a scheduler by name (with an
//! optional core budget), and running a flowgraph into a timed result over
//! the span GNU Radio's `tb.run()` covers (see [`run_timed`]).

use super::Span;
use crate::console::outln;
use anyhow::Context;
use clap::Args;
use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb, by_name};
use rfgraph::{BlockId, Finished, Flowgraph, Running};
use std::time::Instant;

/// Options every flowgraph experiment shares.
#[derive(Args, Debug, Clone)]
pub struct GraphOpts {
    /// Scheduler: tpb, single, pool or chain.
    #[arg(long, default_value = "tpb")]
    pub scheduler: String,
    /// Runs to measure.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
    /// Minimum ring size per edge, bytes (default: the scheduler's choice).
    #[arg(long)]
    pub buffer_bytes: Option<usize>,
    /// Print how the `chain` scheduler partitions the graph (stderr).
    #[arg(long)]
    pub explain: bool,
    /// Also print one JSON object per block with its statistics.
    #[arg(long)]
    pub stats: bool,
}

/// Builds the scheduler `name`. With a core budget, `groups` lists blocks
/// that should share a core: `tpb` pins group `g` to core `g % cores`;
/// `single` pins itself to core 0; `pool` and `chain` use `cores` pinned
/// workers (`chain` partitions by itself). `explain` makes `chain` print
/// its partition.
pub fn scheduler(
    name: &str,
    cores: Option<usize>,
    groups: &[Vec<BlockId>],
    explain: bool,
) -> anyhow::Result<Box<dyn Scheduler>> {
    let Some(cores) = cores.filter(|&c| c > 0) else {
        return Ok(match name {
            "chain" => Box::new(Chain::new().explain(explain)),
            other => by_name(other).map_err(anyhow::Error::msg)?,
        });
    };
    match name {
        "pool" => Ok(Box::new(Pool::new().workers(cores).pinned())),
        "chain" => Ok(Box::new(Chain::new().workers(cores).explain(explain))),
        "tpb" => {
            let mut tpb = Tpb::new();
            for (g, blocks) in groups.iter().enumerate() {
                for &b in blocks {
                    tpb = tpb.pin(b, &[g % cores]);
                }
            }
            Ok(Box::new(tpb))
        }
        "single" => Ok(Box::new(Single::new().pin(&[0]))),
        other => by_name(other).map_err(anyhow::Error::msg),
    }
}

/// Creates the scheduler with `scheduler` and runs the built `fg` to
/// completion, timing the span every experiment reports as `seconds`: from
/// just before the scheduler is created (GNU Radio creates its scheduler
/// inside `tb.start()`, FutureSDR's benchmarks inside their timer) until
/// `Flowgraph::run` returned, so it holds validation, buffer planning, the
/// rings, every block's `init`, the scheduler's threads, the run, every
/// `deinit` and the joins. Building the graph (blocks, their data, the
/// connections) comes before it, as GNU Radio's scripts build the top block
/// before `tb.run()`. The span's `run_seconds` is the run phase alone.
pub fn run_timed(
    fg: Flowgraph,
    scheduler: impl FnOnce() -> anyhow::Result<Box<dyn Scheduler>>,
    what: &str,
) -> anyhow::Result<(Finished, Span)> {
    // `Flowgraph::run` is `start` then `wait`; timing the two halves keeps
    // one code path with `load`, which observes the graph between them.
    let (start, running) = start_timed(fg, scheduler, what)?;
    wait_timed(running, start, what)
}

/// [`run_timed`]'s start for flowgraphs observed while they run (`load`):
/// the instant the span starts, and the started graph.
pub fn start_timed(
    fg: Flowgraph,
    scheduler: impl FnOnce() -> anyhow::Result<Box<dyn Scheduler>>,
    what: &str,
) -> anyhow::Result<(Instant, Running)> {
    let start = Instant::now();
    let scheduler = scheduler()?;
    let running = fg
        .start(scheduler)
        .with_context(|| format!("{what} failed to start"))?;
    Ok((start, running))
}

/// [`run_timed`]'s end for a graph from [`start_timed`]: waits for it and
/// returns the finished graph and the span since `start`.
pub fn wait_timed(
    running: Running,
    start: Instant,
    what: &str,
) -> anyhow::Result<(Finished, Span)> {
    let done = running.wait().with_context(|| format!("{what} failed"))?;
    let seconds = start.elapsed().as_secs_f64();
    let span = Span {
        seconds,
        run_seconds: done.run_time().as_secs_f64(),
    };
    Ok((done, span))
}

/// Items consumed by blocks whose type name contains `type_fragment`.
pub fn consumed_by(done: &Finished, type_fragment: &str) -> u64 {
    done.stats()
        .iter()
        .filter(|s| s.type_name.contains(type_fragment))
        .map(|s| s.items_consumed)
        .sum()
}

/// Prints one JSON object per block (the `--stats` option).
pub fn print_block_stats(done: &Finished, experiment: &str, scheduler: &str, run: usize) {
    for s in done.stats() {
        let mut value = s.to_json();
        if let Some(obj) = value.as_object_mut() {
            obj.insert("experiment".into(), experiment.into());
            obj.insert("record".into(), "block_stats".into());
            obj.insert("runtime".into(), "rfgraph".into());
            obj.insert("scheduler".into(), scheduler.into());
            obj.insert("run".into(), run.into());
        }
        outln!("{value}");
    }
}

/// Splits `items` into `parts` contiguous groups of near-equal size.
pub fn split_groups<T: Clone>(items: &[T], parts: usize) -> Vec<Vec<T>> {
    let parts = parts.max(1);
    (0..parts)
        .map(|g| {
            let start = g * items.len() / parts;
            let end = (g + 1) * items.len() / parts;
            items[start..end].to_vec()
        })
        .collect()
}

/// The median of the finite values (the upper one of an even count);
/// `None` when there is none.
pub fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| v[v.len() / 2])
}

/// `value` of every record of `mode` whose `runtime` starts with
/// `runtime_prefix` (the records of one side of a comparison).
pub fn values_of(
    records: &[serde_json::Value],
    runtime_prefix: &str,
    mode: &str,
    value: impl Fn(&serde_json::Value) -> Option<f64>,
) -> Vec<f64> {
    records
        .iter()
        .filter(|r| {
            r["mode"] == mode
                && r["runtime"]
                    .as_str()
                    .is_some_and(|s| s.starts_with(runtime_prefix))
        })
        .filter_map(value)
        .collect()
}

/// The mean of `values`, if any.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Where a benchmark writes its input files: `dir` when given, else
/// /dev/shm (memory), else the temporary folder.
pub fn files_dir(dir: Option<&std::path::Path>) -> std::path::PathBuf {
    dir.map(std::path::Path::to_path_buf).unwrap_or_else(|| {
        let shm = std::path::PathBuf::from("/dev/shm");
        if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        }
    })
}
