//! The `msg` experiment (GRCon'19 Fig. 2): P pipes of S message forwarders.
//! Each pipe's source queues K 500-byte blobs and a "done" at start; the
//! sink at the end counts them. Measures messages delivered per second.

use super::{Record, setup};
use anyhow::bail;
use clap::Args;
use rfgraph::{Flowgraph, Pmt};
use rfgraph_blocks::{MessageBurst, MessageForward, MessageSink};

/// Options of `rfgraph bench msg`.
#[derive(Args, Debug, Clone)]
pub struct MsgArgs {
    /// Independent pipes.
    #[arg(long, default_value_t = 10)]
    pub pipes: usize,
    /// Forwarders per pipe.
    #[arg(long, default_value_t = 10)]
    pub stages: usize,
    /// Messages per pipe.
    #[arg(long, default_value_t = 20_000)]
    pub burst: usize,
    /// Scheduler: tpb, single, pool or chain.
    #[arg(long, default_value = "tpb")]
    pub scheduler: String,
    /// Runs to measure.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
    /// Also print one JSON object per block with its statistics.
    #[arg(long)]
    pub stats: bool,
}

/// Bytes per message, as in the paper.
pub const MESSAGE_BYTES: usize = 500;

/// Runs the experiment.
pub fn run(args: &MsgArgs) -> anyhow::Result<()> {
    if args.pipes == 0 || args.burst == 0 {
        bail!("--pipes and --burst must be positive");
    }
    for run in 0..args.repeat {
        let mut fg = Flowgraph::new();
        let mut sinks = Vec::new();
        for _ in 0..args.pipes {
            let blob = Pmt::Blob(vec![0u8; MESSAGE_BYTES]);
            let mut prev = fg.add(MessageBurst::new(blob, args.burst).with_done(Pmt::from("done")));
            for _ in 0..args.stages {
                let f = fg.add(MessageForward::new());
                fg.connect_message(prev, "out", f, "in")?;
                prev = f;
            }
            let sink = fg.add(MessageSink::keeping(0));
            fg.connect_message(prev, "out", sink, "in")?;
            sinks.push(sink);
        }
        let scheduler = setup::scheduler(&args.scheduler, None, &[], false)?;
        let done = setup::run(fg, scheduler, &format!("msg run {run}"))?;
        let received: u64 = sinks
            .iter()
            .filter_map(|&s| done.block::<MessageSink>(s))
            .map(|s| s.received())
            .sum();
        // Every pipe delivers its burst plus the done message.
        let expected = (args.pipes * (args.burst + 1)) as u64;
        if received != expected {
            bail!("sinks received {received} messages, expected {expected}");
        }
        let seconds = done.run_time().as_secs_f64();
        let messages = (args.pipes * args.burst) as f64;
        let hops = messages * (args.stages + 1) as f64;
        let record = Record::new("msg", &args.scheduler, run, seconds)
            .field("pipes", args.pipes)
            .field("stages", args.stages)
            .field("burst", args.burst)
            .field("message_bytes", MESSAGE_BYTES)
            .field("messages_per_s", messages / seconds)
            .field("hop_ns", seconds * 1e9 / hops);
        record.print();
        record.summary();
        if args.stats {
            setup::print_block_stats(&done, "msg", &args.scheduler, run);
        }
    }
    Ok(())
}
