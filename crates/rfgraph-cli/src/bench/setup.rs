//! What every experiment shares: choosing a scheduler by name (with an
//! optional core budget), and running a flowgraph into a timed result.

use anyhow::Context;
use clap::Args;
use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb, by_name};
use rfgraph::{BlockId, Finished, Flowgraph};

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

/// Runs `fg` and returns the finished graph.
pub fn run(fg: Flowgraph, scheduler: Box<dyn Scheduler>, what: &str) -> anyhow::Result<Finished> {
    fg.run(scheduler).with_context(|| format!("{what} failed"))
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
        println!("{value}");
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
