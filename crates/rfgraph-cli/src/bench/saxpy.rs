//! The `saxpy` experiment (qsdr's benchmark): source → M blocks computing
//! `y = a·x + b` on `f32` → sink, on C cores; `--fused` runs the same
//! arithmetic as plain loops over L1-sized chunks on C threads.
//!
//! As in qsdr's flowgraph, the source produces N items without writing
//! them (its "Dummy Source") and the sink consumes without reading, so all
//! that costs is the M saxpy passes and the runtime, and the fused loop
//! runs only the passes. `--fill` makes the source write zeros (GNU
//! Radio's `null_source` does) and the fused loop fill each chunk first: a
//! heavier workload in which the fill costs as much as a pass. The steps
//! are `StatelessMap` blocks, like qsdr's (no state between calls), which
//! `chain` runs data-parallel when it spreads them over cores;
//! `--stateful` builds them as `Map` blocks, which it cuts between cores
//! instead.
//!
//! # What `seconds` covers
//!
//! - On a scheduler: [`setup::run_timed`]'s span. The graph is built
//!   first; the timer covers the scheduler's creation (with its core
//!   pinning) and the whole `Flowgraph::run`: rings, `init`, threads, run,
//!   `deinit`. `gr_bench.py saxpy` builds its top block (with processor
//!   affinities) and times `tb.run()`, the same span.
//! - `--fused` (the roofline): spawning C threads, each allocating its
//!   chunk and running the passes, and joining them.
//! - `--bare` (the floor): allocating the ring and the `dyn` blocks and
//!   running them round robin on this thread.
//!
//! The two baselines have no runtime to set up or tear down, which is the
//! point of them: they time only the loop and its own minimal set-up, so
//! their `run_seconds` equals `seconds`.

use super::setup::GraphOpts;
use super::{Record, Span, bare, fused, setup};
use anyhow::bail;
use clap::Args;
use rfgraph::{Flowgraph, Map, StatelessMap};
use rfgraph_blocks::{NullSink, NullSource};
use std::time::Instant;

/// The constants of every step.
pub const A: f32 = 0.999;
/// See [`A`].
pub const B: f32 = 0.001;

/// Options of `rfgraph bench saxpy`.
#[derive(Args, Debug, Clone)]
pub struct SaxpyArgs {
    /// Saxpy blocks in the chain.
    #[arg(long, default_value_t = 1)]
    pub blocks: usize,
    /// Cores to use.
    #[arg(long, default_value_t = 1)]
    pub cores: usize,
    /// Items through the chain.
    #[arg(long, default_value_t = 100_000_000)]
    pub items: u64,
    /// Build the steps as `Map` blocks (whose closures may keep state)
    /// instead of `StatelessMap`: `chain` then cuts the chain between
    /// cores instead of running it data-parallel.
    #[arg(long)]
    pub stateful: bool,
    /// Make the source write zeros into every item, and the fused loop
    /// fill each chunk, instead of qsdr's source that writes nothing.
    #[arg(long)]
    pub fill: bool,
    /// Run the no-runtime roofline instead of a flowgraph.
    #[arg(long, conflicts_with = "scheduler")]
    pub fused: bool,
    /// Run the bare-runtime floor instead: the flowgraph as plain `dyn`
    /// blocks over one ring, with none of a runtime's per-call duties (1
    /// core; ring of `--buffer-bytes`, default 7/8 of L1, the in-place
    /// chunk `chain` gives this flowgraph).
    #[arg(long, conflicts_with_all = ["scheduler", "fused", "fill"])]
    pub bare: bool,
    /// Make every step the identity map (`|x| x`), whose loop compiles
    /// away: the flowgraph then costs only the runtime, which this
    /// isolates (a diagnostic; the items are unchanged, so their rate
    /// says nothing about arithmetic).
    #[arg(long, conflicts_with_all = ["fused", "bare", "stateful"])]
    pub identity: bool,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

fn run_fused(args: &SaxpyArgs) -> f64 {
    let chunk = fused::l1_chunk_items();
    let cores = args.cores.max(1) as u64;
    let start = Instant::now();
    std::thread::scope(|scope| {
        for c in 0..cores {
            let share = args.items / cores + u64::from(c < args.items % cores);
            scope.spawn(move || {
                let mut total = 0f32;
                fused::saxpy_chain(
                    share,
                    args.blocks,
                    chunk,
                    (A, B),
                    |_, buf| {
                        if args.fill {
                            buf.fill(0.0);
                        }
                    },
                    |out| total += out[0],
                );
                std::hint::black_box(total);
            });
        }
    });
    start.elapsed().as_secs_f64()
}

fn run_bare(args: &SaxpyArgs) -> f64 {
    let bytes = args
        .run
        .buffer_bytes
        .unwrap_or(rfgraph::scheduler::cache::l1_data_bytes() * 7 / 8);
    let ring_items = bytes / std::mem::size_of::<f32>();
    let start = Instant::now();
    std::hint::black_box(bare::saxpy_chain(
        args.items,
        args.blocks,
        ring_items,
        (A, B),
    ));
    start.elapsed().as_secs_f64()
}

/// Runs the experiment.
pub fn run(args: &SaxpyArgs) -> anyhow::Result<()> {
    if args.blocks == 0 || args.items == 0 || args.cores == 0 {
        bail!("--blocks, --cores and --items must be positive");
    }
    if args.bare && args.cores != 1 {
        bail!("--bare runs on one core");
    }
    let scheduler_name = if args.fused {
        "fused"
    } else if args.bare {
        "bare"
    } else {
        &args.run.scheduler
    };
    for run in 0..args.run.repeat {
        let (span, done) = if args.fused {
            (Span::whole(run_fused(args)), None)
        } else if args.bare {
            (Span::whole(run_bare(args)), None)
        } else {
            let mut fg = Flowgraph::new();
            if let Some(bytes) = args.run.buffer_bytes {
                fg.set_buffer_bytes(bytes);
            }
            let src = NullSource::<f32>::limited(args.items);
            let src = fg.add(if args.fill {
                src
            } else {
                src.without_writing()
            });
            let steps: Vec<_> = (0..args.blocks)
                .map(|_| {
                    if args.identity {
                        fg.add(StatelessMap::new(|x: f32| x))
                    } else if args.stateful {
                        fg.add(Map::new(|x: f32| A * x + B))
                    } else {
                        fg.add(StatelessMap::new(|x: f32| A * x + B))
                    }
                })
                .collect();
            let sink = fg.add(NullSink::<f32>::new());
            let mut chain = vec![src];
            chain.extend(&steps);
            chain.push(sink);
            fg.chain(&chain)?;
            let mut groups = setup::split_groups(&steps, args.cores);
            groups[0].push(src);
            groups[args.cores - 1].push(sink);
            let (done, span) = setup::run_timed(
                fg,
                || {
                    setup::scheduler(
                        &args.run.scheduler,
                        Some(args.cores),
                        &groups,
                        args.run.explain,
                    )
                },
                &format!("saxpy run {run}"),
            )?;
            let received = setup::consumed_by(&done, "NullSink");
            if received != args.items {
                bail!("sink received {received} items, expected {}", args.items);
            }
            (span, Some(done))
        };
        let items = args.items as f64;
        let seconds = span.seconds;
        let mut record = Record::new("saxpy", scheduler_name, run, span);
        if args.stateful {
            record = record.field("stateful", true);
        }
        if args.fill {
            record = record.field("fill", true);
        }
        if args.identity {
            record = record.field("identity", true);
        }
        let record = record
            .field("blocks", args.blocks)
            .field("cores", args.cores)
            .field("items", args.items)
            .field("blocks_counted", args.blocks)
            .field("items_per_s", items / seconds)
            .field("block_items_per_s", items * args.blocks as f64 / seconds);
        record.print();
        record.summary();
        if let (true, Some(done)) = (args.run.stats, done) {
            setup::print_block_stats(&done, "saxpy", scheduler_name, run);
        }
    }
    Ok(())
}
