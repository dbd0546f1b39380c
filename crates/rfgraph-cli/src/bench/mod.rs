//! `rfgraph bench`: the papers' experiments as flowgraphs, each run printed
//! as one JSON object on stdout (DESIGN §6) with a human summary on stderr.

mod accel;
mod bare;
mod chain;
mod dsp;
mod fused;
mod load;
mod msg;
mod plot;
mod record;
mod saxpy;
mod setup;
mod stream;
mod suite;
mod summary;
mod workload;

use clap::Subcommand;
pub use record::Record;

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
    /// Throttled source → workload split inside one block or over T blocks (multicore paper).
    Load(load::LoadArgs),
    /// Generator → 5 OpenCL gain blocks → sink, host copies between blocks or not (SCA/OpenCL Table 1).
    Accel(accel::AccelArgs),
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
        Experiment::Load(args) => load::run(&args),
        Experiment::Dsp(args) => dsp::run(&args),
        Experiment::Accel(args) => accel::run(&args),
        Experiment::Plot(args) => plot::run(&args),
        Experiment::Suite(args) => suite::run(&args),
        Experiment::Table(args) => suite::run_table(&args),
    }
}
