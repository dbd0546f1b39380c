//! The `stream` experiment: P independent pipes of null source → head(N) →
//! S copies → null sink. Measures the runtime's cost per block and item.
//! The `chain` experiment is the same topology with the paper's naming
//! (branches) plus a fused roofline, so both share [`build_pipes`].
//!
//! `seconds` is [`setup::run_timed`]'s span: the graph is built first, then
//! the timer covers the scheduler's creation and the whole `Flowgraph::run`
//! (rings, `init`, threads, run, `deinit`), as `gr_bench.py stream`/`chain`
//! build the top block and then time `tb.run()`.

use super::setup::GraphOpts;
use super::{Record, setup};
use anyhow::bail;
use clap::Args;
use rfgraph::{BlockId, Flowgraph};
use rfgraph_blocks::{Copy, Head, NullSink, NullSource};

/// Items are `f32`, as in the paper's float pipes.
pub type Sample = f32;

/// Options of `rfgraph bench stream`.
#[derive(Args, Debug, Clone)]
pub struct StreamArgs {
    /// Independent pipes.
    #[arg(long, default_value_t = 1)]
    pub pipes: usize,
    /// Copy blocks per pipe.
    #[arg(long, default_value_t = 10)]
    pub stages: usize,
    /// Items per pipe (the head's N).
    #[arg(long, default_value_t = 10_000_000)]
    pub items: u64,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// Builds `pipes` pipes of source → head(items) → `stages` copies → sink.
/// Returns the graph and each pipe's blocks.
pub fn build_pipes(
    pipes: usize,
    stages: usize,
    items: u64,
    buffer_bytes: Option<usize>,
) -> anyhow::Result<(Flowgraph, Vec<Vec<BlockId>>)> {
    let mut fg = Flowgraph::new();
    if let Some(bytes) = buffer_bytes {
        fg.set_buffer_bytes(bytes);
    }
    let mut all = Vec::new();
    for _ in 0..pipes {
        let mut chain = vec![
            fg.add(NullSource::<Sample>::new()),
            fg.add(Head::<Sample>::new(items)),
        ];
        for _ in 0..stages {
            chain.push(fg.add(Copy::<Sample>::new()));
        }
        chain.push(fg.add(NullSink::<Sample>::new()));
        fg.chain(&chain)?;
        all.push(chain);
    }
    Ok((fg, all))
}

/// One timed run of `pipes` pipes; checks the item count. Returns the record.
pub fn measure_pipes(
    experiment: &str,
    args: &StreamArgs,
    run: usize,
) -> anyhow::Result<(Record, rfgraph::Finished)> {
    if args.pipes == 0 || args.items == 0 {
        bail!("pipes/branches and --items must be positive");
    }
    let (fg, _) = build_pipes(args.pipes, args.stages, args.items, args.run.buffer_bytes)?;
    let (done, span) = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, None, &[], args.run.explain),
        &format!("{experiment} run {run}"),
    )?;
    let seconds = span.seconds;
    let expected = args.items * args.pipes as u64;
    let received = setup::consumed_by(&done, "NullSink");
    if received != expected {
        bail!("sinks received {received} items, expected {expected}");
    }
    // Blocks that process samples: head, the copies and the sink.
    let counted = args.stages + 2;
    let record = Record::new(experiment, &args.run.scheduler, run, span)
        .field("stages", args.stages)
        .field("items", args.items)
        .field(
            "buffer_bytes",
            args.run
                .buffer_bytes
                .map_or(serde_json::Value::Null, Into::into),
        )
        .field("items_per_s", expected as f64 / seconds)
        .field(
            "block_items_per_s",
            expected as f64 * counted as f64 / seconds,
        );
    Ok((record, done))
}

/// Runs the experiment `args.run.repeat` times, printing one record per run.
pub fn run(args: &StreamArgs) -> anyhow::Result<()> {
    for run in 0..args.run.repeat {
        let (record, done) = measure_pipes("stream", args, run)?;
        let record = record
            .field("pipes", args.pipes)
            .field("blocks_counted_per_pipe", args.stages + 2);
        record.print();
        record.summary();
        if args.run.stats {
            setup::print_block_stats(&done, "stream", &args.run.scheduler, run);
        }
    }
    Ok(())
}
