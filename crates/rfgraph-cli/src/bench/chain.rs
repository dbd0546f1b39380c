//! The `chain` experiment (GRCon'19 Fig. 7/8): B independent branches of S
//! copies, N items each, on a scheduler, or `--fused` with no runtime: one
//! thread per branch pushing L1-sized chunks through S real buffers.
//!
//! On a scheduler, `seconds` is the span of [`super::stream`] (the whole
//! `Flowgraph::run`, as GNU Radio's `tb.run()`). `--fused` is a roofline
//! with no runtime: its timer covers spawning one thread per branch, each
//! allocating its S + 1 chunk buffers and running the loop, and joining
//! them; there is no set-up beyond that to include, which is the point of
//! a roofline, so its `run_seconds` equals `seconds`.

use super::setup::GraphOpts;
use super::stream::{StreamArgs, measure_pipes};
use super::{Record, Span, fused, setup};
use anyhow::bail;
use clap::Args;
use std::time::Instant;

/// Options of `rfgraph bench chain`.
#[derive(Args, Debug, Clone)]
pub struct ChainArgs {
    /// Independent branches.
    #[arg(long, default_value_t = 4)]
    pub branches: usize,
    /// Copy stages per branch.
    #[arg(long, default_value_t = 20)]
    pub stages: usize,
    /// Items per branch.
    #[arg(long, default_value_t = 10_000_000)]
    pub items: u64,
    /// Run the no-runtime roofline instead of a flowgraph.
    #[arg(long, conflicts_with = "scheduler")]
    pub fused: bool,
    /// Chunk size of the fused roofline, items (default: half the L1 cache).
    #[arg(long)]
    pub chunk: Option<usize>,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

fn run_fused(args: &ChainArgs, run: usize) -> Record {
    let chunk = args.chunk.unwrap_or_else(fused::l1_chunk_items);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.branches {
            scope.spawn(|| {
                let mut total = 0f32;
                fused::copy_chain(
                    args.items,
                    args.stages,
                    chunk,
                    |_, buf| buf.fill(0.0),
                    |out| total += out[0],
                );
                std::hint::black_box(total);
            });
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    Record::new("chain", "fused", run, Span::whole(seconds)).field("chunk_items", chunk)
}

/// Runs the experiment.
pub fn run(args: &ChainArgs) -> anyhow::Result<()> {
    if args.branches == 0 || args.items == 0 {
        bail!("--branches and --items must be positive");
    }
    let total = args.items as f64 * args.branches as f64;
    let counted = args.stages + 2;
    for run in 0..args.run.repeat {
        let (record, done) = if args.fused {
            (run_fused(args, run), None)
        } else {
            let stream = StreamArgs {
                pipes: args.branches,
                stages: args.stages,
                items: args.items,
                run: GraphOpts {
                    repeat: 1,
                    ..args.run.clone()
                },
            };
            let (record, done) = measure_pipes("chain", &stream, run)?;
            (record, Some(done))
        };
        let seconds = record.seconds();
        let record = record
            .field("branches", args.branches)
            .field("stages", args.stages)
            .field("items", args.items)
            .field("blocks_counted_per_branch", counted)
            .field("items_per_s", total / seconds)
            .field("block_items_per_s", total * counted as f64 / seconds);
        record.print();
        record.summary();
        if let (true, Some(done)) = (args.run.stats, done) {
            setup::print_block_stats(&done, "chain", &args.run.scheduler, run);
        }
    }
    Ok(())
}
