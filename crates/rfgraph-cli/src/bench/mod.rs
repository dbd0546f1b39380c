//! `rfgraph bench`: the papers' experiments as flowgraphs, each run printed
//! as one JSON object on stdout (`record`) with a human summary on stderr.
//!
//! # What `seconds` covers
//!
//! A benchmark's timer must cover the same span as the peer it is compared
//! with. GNU Radio's script (`bench/gnuradio/gr_bench.py`) builds a fresh
//! top block and times `tb.run()`, which is `tb.start()` (flattening,
//! buffer allocation, scheduler and thread creation, each block's `start`
//! on its thread) then `tb.wait()` (the run, each block's `stop`, the
//! joins). FutureSDR's benchmarks likewise time `Runtime::run` (init, run,
//! deinit). So every flowgraph experiment here reports, in `seconds`, the
//! span of [`setup::run_timed`]: the graph is built first, then the timer
//! runs from just before the scheduler is created until `Flowgraph::run`
//! returned (validation, buffer planning, rings, every block's `init`, the
//! scheduler's threads, the run, every `deinit`, the joins). Dropping the
//! finished graph comes after it, as GNU Radio frees its buffers at
//! `del tb`. `run_seconds` keeps the run phase alone
//! ([`rfgraph::Finished::run_time`]), which `seconds` was before. Every rate
//! (`items_per_s`, `block_items_per_s`, `messages_per_s`, `hop_ns`,
//! `buffers_per_s`) divides by `seconds`.
//!
//! | experiment | before the timer, both sides | rfgraph's `seconds` | GNU Radio's `seconds` |
//! |---|---|---|---|
//! | `stream`, `chain` | the P (B) pipes of source → head → S copies → sink | scheduler + `Flowgraph::run` | `tb.run()` |
//! | `msg` | the pipes; the messages (rfgraph: K blobs per pipe in `MessageBurst`; GNU Radio: one shared PDU posted K times into each first forwarder) | scheduler + `Flowgraph::run`, the source's K posts included | `tb.run()` |
//! | `saxpy` | the chain and its core groups (GNU Radio: processor affinities) | scheduler (with pinning) + `Flowgraph::run` | `tb.run()` |
//! | `dsp` | source data, taps, kernel, graph | scheduler + `Flowgraph::run` | `tb.run(65536)` |
//! | `latency` | the graph (paced source, N copies, latency sink) | scheduler + `Flowgraph::run` (about K·T); `cpu_seconds` over the same span | `tb.run()` |
//! | `load` | the graph | scheduler + `start` … `stop` + `wait`; `quality` over the window only | – |
//! | `accel` | OpenCL contexts, kernels, graph | scheduler + `Flowgraph::run` | – |
//! | `io` | the files (made and read once), the graph (the file blocks open their files) | scheduler + `Flowgraph::run` | `tb.run()` |
//! | `fm` | the recording (made once, read once), the receiver's graph | scheduler + `Flowgraph::run` | `tb.run()` |
//! | `adsb` | the files (made and read once), the graph | scheduler + `Flowgraph::run` | – (dump1090: process start to exit) |
//! | `wlan` | the captures (made and read once), the graph | scheduler + `Flowgraph::run` | – |
//! | `pacing` | the graph (the file sink creates its file) | scheduler + `Flowgraph::run`; `cpu_seconds` over the same span | `tb.run()`, `resource.getrusage` around it |
//! | `net` `zmq`, `zmq_tags` | the graph, both ends (a free port chosen) | scheduler + `Flowgraph::run`: the bind and connect in `init`, the run, the pulling head's finish stopping the `ZmqSource`, every `deinit` | `tb.start()` until a 0.5 ms poll sees the N-th item at the sink (its `pull_source` never ends, so `tb.run()` would not return); the `tb.stop()` + `tb.wait()` after it is `stop_seconds`, outside the span |
//! | `net` `udp` | the graph, both ends (a free port chosen) | scheduler + `Flowgraph::run`, until the source sees the sink's end-of-stream datagrams | – |
//! | `control` | the graph | per phase, scheduler + `start` … `stop` + `wait` (the loaded phase's in `seconds`); the throughputs over a window inside each | – |
//! | `pyblock` | the Python process, the graph (`bench/pyblock.py`) | `fg.run()` from Python: the flowgraph text built, started, waited for | `tb.start()` + `tb.wait()` |
//! | `file` | the generated text | parse + build + scheduler + `start` + `stop` + `wait` | – |
//! | `chain --fused`, `saxpy --fused` | nothing | spawn the threads, allocate the chunks, the loops, join | – |
//! | `saxpy --bare` | nothing | allocate the ring and blocks, the round-robin loop | – |
//!
//! Before this, rfgraph's `seconds` was the run phase only (the
//! scheduler's `execute`: no validation, rings, `init`, `deinit` or the
//! run thread's spawn and join), shorter than GNU Radio's `tb.run()`.
//! The one asymmetry left is `msg`'s first hop: see [`msg`]. The rooflines
//! have no runtime to set up, which is what makes them rooflines; their
//! `run_seconds` equals `seconds`.

mod accel;
mod adsb;
mod bare;
mod chain;
mod control;
mod dsp;
mod dsp_ofdm;
mod dsp_viterbi;
mod file;
mod fm;
mod fused;
mod io;
mod latency;
mod load;
mod msg;
mod net;
mod pacing;
mod peer;
pub(crate) mod plot;
mod pyblock;
mod record;
mod saxpy;
mod setup;
mod stream;
mod suite;
mod summary;
mod wlan;
mod workload;

use clap::Subcommand;
pub use record::{Record, Span};

/// One benchmark experiment.
#[derive(Subcommand)]
pub enum Experiment {
    /// P pipes of: null source → head(N) → S × copy → null sink (GRCon'19 Fig. 1/3).
    Stream(stream::StreamArgs),
    /// P pipes × S message forwarders, K 500-byte messages each (GRCon'19 Fig. 2).
    Msg(msg::MsgArgs),
    /// B branches × S copies, on a scheduler or fused with no runtime (GRCon'19 Fig. 7/8).
    Chain(chain::ChainArgs),
    /// Source → M × (y = a·x + b) → sink on C cores, or fused (qsdr's benchmark).
    Saxpy(saxpy::SaxpyArgs),
    /// One DSP block in source → head → block → sink (GNU Radio's dsp side by side).
    Dsp(dsp::DspArgs),
    /// Paced bursts (B = rate·T every T) → N copies → sink: burst latency p50/p99/max.
    Latency(latency::LatencyArgs),
    /// Throttled source → workload split inside one block or over T blocks (multicore paper).
    Load(load::LoadArgs),
    /// Generator → 5 OpenCL gain blocks → sink, host copies between blocks or not (SCA/OpenCL Table 1).
    Accel(accel::AccelArgs),
    /// Raw files: FileSource cu8/cf32 → null sink, null source → FileSink cf32, and `cat`.
    Io(io::IoArgs),
    /// The FM stereo receiver on a 2.4 MS/s cu8 file, beside GNU Radio's stock chain.
    Fm(fm::FmArgs),
    /// ADS-B: a long Mode S recording decoded from a file, per core, against dump1090-mutability, antirez dump1090 and readsb where present.
    Adsb(adsb::AdsbArgs),
    /// IEEE 802.11a/g: the receiver on generated 20 MS/s captures, on 2 cores and 1 (gr-ieee802-11 beside it when installed).
    Wlan(wlan::WlanArgs),
    /// A generated N-block flowgraph file: parse, build, start, stop (`--blocks 1000`).
    File(file::FileArgs),
    /// A throttled simulation (sig_source → low-pass → throttle → head → file): its CPU time.
    Pacing(pacing::PacingArgs),
    /// GNU Radio-compatible network blocks over loopback: ZeroMQ push ⇒ pull (tags or not), paced UDP with loss counts.
    Net(net::NetArgs),
    /// A CPU-bound graph alone, then with WebSocket clients and REST requests on its control port.
    Control(control::ControlArgs),
    /// A Python 1:1 block (out = in0 * 2.0, and empty work) against GNU Radio's `gr.sync_block`.
    Pyblock(pyblock::PyblockArgs),
    /// Draws a figure from JSONL results (95 % confidence error bars).
    Plot(plot::PlotArgs),
    /// Runs the standard set (GNU Radio too when installed): JSONL, figures, table.
    Suite(suite::SuiteArgs),
    /// Prints the suite's markdown table for JSONL results.
    Table(suite::TableArgs),
}

/// Runs an experiment, printing its JSON lines.
pub fn run(experiment: Experiment) -> anyhow::Result<()> {
    match experiment {
        Experiment::Stream(args) => stream::run(&args),
        Experiment::Msg(args) => msg::run(&args),
        Experiment::Chain(args) => chain::run(&args),
        Experiment::Saxpy(args) => saxpy::run(&args),
        Experiment::Latency(args) => latency::run(&args),
        Experiment::Load(args) => load::run(&args),
        Experiment::Dsp(args) => dsp::run(&args),
        Experiment::Accel(args) => accel::run(&args),
        Experiment::Io(args) => io::run(&args),
        Experiment::Fm(args) => fm::run(&args),
        Experiment::Adsb(args) => adsb::run(&args),
        Experiment::Wlan(args) => wlan::run(&args),
        Experiment::File(args) => file::run(&args),
        Experiment::Pacing(args) => pacing::run(&args),
        Experiment::Net(args) => net::run(&args),
        Experiment::Control(args) => control::run(&args),
        Experiment::Pyblock(args) => pyblock::run(&args),
        Experiment::Plot(args) => plot::run(&args),
        Experiment::Suite(args) => suite::run(&args),
        Experiment::Table(args) => suite::run_table(&args),
    }
}
