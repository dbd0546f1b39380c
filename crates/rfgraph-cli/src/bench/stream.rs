//! The `stream` experiment: P independent pipes of null source → head(N) →
//! S copies → null sink. Measures the runtime's cost per block and item.

use super::Record;
use anyhow::{Context, bail};
use clap::Args;
use rfgraph::Flowgraph;
use rfgraph::scheduler::by_name;
use rfgraph_blocks::{Copy, Head, NullSink, NullSource};

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
    /// Scheduler: tpb or single (pool and chain are planned).
    #[arg(long, default_value = "tpb")]
    pub scheduler: String,
    /// Runs to measure.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
    /// Minimum ring size per edge, bytes.
    #[arg(long, default_value_t = rfgraph::flowgraph::DEFAULT_BUFFER_BYTES)]
    pub buffer_bytes: usize,
    /// Also print one JSON object per block with its statistics.
    #[arg(long)]
    pub stats: bool,
}

/// Items are `f32`, as in the paper's float pipes.
type Sample = f32;

/// Builds the topology; returns the flowgraph.
pub fn build(args: &StreamArgs) -> anyhow::Result<Flowgraph> {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(args.buffer_bytes);
    for _ in 0..args.pipes {
        let mut chain = vec![
            fg.add(NullSource::<Sample>::new()),
            fg.add(Head::<Sample>::new(args.items)),
        ];
        for _ in 0..args.stages {
            chain.push(fg.add(Copy::<Sample>::new()));
        }
        chain.push(fg.add(NullSink::<Sample>::new()));
        fg.chain(&chain)?;
    }
    Ok(fg)
}

/// Runs the experiment `args.repeat` times, printing one record per run.
pub fn run(args: &StreamArgs) -> anyhow::Result<()> {
    if args.pipes == 0 || args.items == 0 {
        bail!("--pipes and --items must be positive");
    }
    for run in 0..args.repeat {
        let scheduler = by_name(&args.scheduler).map_err(anyhow::Error::msg)?;
        let fg = build(args)?;
        let done = fg
            .run(scheduler)
            .with_context(|| format!("stream run {run} failed"))?;
        let seconds = done.run_time().as_secs_f64();
        let sinks_total: u64 = done
            .stats()
            .iter()
            .filter(|s| s.type_name.contains("NullSink"))
            .map(|s| s.items_consumed)
            .sum();
        let expected = args.items * args.pipes as u64;
        if sinks_total != expected {
            bail!("sinks received {sinks_total} items, expected {expected}");
        }
        // Blocks that process samples: head, the copies and the sink.
        let counted = args.stages + 2;
        let block_items = expected as f64 * counted as f64;
        Record::new("stream", &args.scheduler, run, seconds)
            .field("pipes", args.pipes)
            .field("stages", args.stages)
            .field("items", args.items)
            .field("buffer_bytes", args.buffer_bytes)
            .field("blocks_counted_per_pipe", counted)
            .field("items_per_s", expected as f64 / seconds)
            .field("block_items_per_s", block_items / seconds)
            .print();
        eprintln!(
            "stream {}x{} {} items/pipe on {}: {:.3} s, {:.3e} block-items/s",
            args.pipes,
            args.stages,
            args.items,
            args.scheduler,
            seconds,
            block_items / seconds
        );
        if args.stats {
            for s in done.stats() {
                let mut value = s.to_json();
                if let Some(obj) = value.as_object_mut() {
                    obj.insert("experiment".into(), "stream".into());
                    obj.insert("record".into(), "block_stats".into());
                    obj.insert("runtime".into(), "rfgraph".into());
                    obj.insert("scheduler".into(), args.scheduler.clone().into());
                    obj.insert("run".into(), run.into());
                }
                println!("{value}");
            }
        }
    }
    Ok(())
}
