//! `rfgraph bench`: the papers' experiments as flowgraphs, each run printed
//! as one JSON object on stdout (DESIGN §6) with a human summary on stderr.

mod record;
mod stream;

use clap::Subcommand;
pub use record::Record;

/// One benchmark experiment.
#[derive(Subcommand)]
pub enum Experiment {
    /// P pipes of: null source → head(N) → S × copy → null sink (GRCon'19 Fig. 1/3).
    Stream(stream::StreamArgs),
}

/// Runs an experiment, printing its JSON lines.
pub fn run(experiment: Experiment) -> anyhow::Result<()> {
    match experiment {
        Experiment::Stream(args) => stream::run(&args),
    }
}
