//! The `msg` experiment (GRCon'19 Fig. 2): P pipes of S message forwarders.
//! Each pipe's source queues K 500-byte blobs and a "done" at start; the
//! sink at the end counts them. Measures messages delivered per second.
//!
//! # What `seconds` covers, against GNU Radio's `msg`
//!
//! Both sides build their messages before the timer and time the whole run
//! with its set-up and teardown:
//!
//! - rfgraph: `MessageBurst::new` makes the K blobs when the graph is
//!   built, before the timer (the paper preallocates its messages). The
//!   timer then covers the scheduler's creation and the whole
//!   `Flowgraph::run`: `init` of every block, the scheduler's threads (one
//!   per block on `tpb`), the burst posting its K messages to the first
//!   forwarder, every hop, and `deinit`.
//! - GNU Radio (`bench/gnuradio/gr_bench.py msg`): one 500-byte PDU, shared
//!   by reference, is posted K times into each pipe's first forwarder before
//!   `tb.run()`; the timer covers `tb.run()`: flattening, scheduler and
//!   thread creation, every hop, the blocks' `stop` and the joins.
//!
//! What stays different is where the first hop's post happens: rfgraph's
//! source posts inside the span; GNU Radio's messages are already queued
//! when its span starts. Queuing them inside GNU Radio's span would time
//! Python's binding (about 0.5 µs a post), not the runtime; rfgraph has no
//! public way to fill an inbox before `start`. So rfgraph's span holds one
//! post more per message (and one block more per pipe) than GNU Radio's,
//! never less: the comparison can only favour GNU Radio.

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
        let (done, span) = setup::run_timed(
            fg,
            || setup::scheduler(&args.scheduler, None, &[], false),
            &format!("msg run {run}"),
        )?;
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
        let seconds = span.seconds;
        let messages = (args.pipes * args.burst) as f64;
        let hops = messages * (args.stages + 1) as f64;
        let record = Record::new("msg", &args.scheduler, run, span)
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
