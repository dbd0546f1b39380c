//! The `rfgraph` command line: benchmarks now; `run`, `blocks` and
//! `inspect` later. Library crates hold all logic worth testing; this file
//! only parses arguments and dispatches.
//!
//! How the crates fit together, the runtime contract and the project's
//! rules: `docs/architecture.md` in the repository.

mod bench;

use clap::{Parser, Subcommand};

/// rfgraph: a fast software-defined-radio runtime.
#[derive(Parser)]
#[command(name = "rfgraph", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Reproducible runtime benchmarks (one JSON object per run on stdout).
    Bench {
        #[command(subcommand)]
        experiment: bench::Experiment,
    },
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench { experiment } => bench::run(experiment),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rfgraph: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
