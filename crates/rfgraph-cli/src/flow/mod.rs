//! `rfgraph run`, `rfgraph check` and `rfgraph dot`: flowgraph files
//! (rfgraph's TOML, or GNU Radio Companion `.grc`) built through the
//! standard registry by `rfgraph_flowfile::build`. This module holds the
//! arguments and the loading they share; each command is a file. Files
//! with Python blocks run and check in Python (`python`).

mod check;
mod dot;
mod python;
pub mod run;
mod status;

pub use check::check;
pub use dot::dot;
pub use run::run;

use clap::Args;
use rfgraph_flowfile::build::{BuildOptions, Built, build_file};
use std::path::PathBuf;

/// The file and the choices that change what it builds.
#[derive(Args, Debug, Clone)]
pub struct FileArgs {
    /// The flowgraph file (`.toml`, or `.grc` from GNU Radio Companion).
    pub file: PathBuf,
    /// Sets a variable, overriding the file (`--set samp_rate=2e6`); the
    /// value is an expression, or text when it is not one. Repeatable.
    #[arg(long = "set", value_name = "VAR=VALUE")]
    pub set: Vec<String>,
    /// The scheduler: tpb, single, pool or chain (overrides the file).
    #[arg(long)]
    pub scheduler: Option<String>,
    /// Worker threads for the pool and chain schedulers (overrides the
    /// file).
    #[arg(long)]
    pub cores: Option<usize>,
    /// The latency budget (`2ms`, `500us`; overrides the file's
    /// `[scheduler] max_latency`): queues near paced blocks (throttles,
    /// devices) are capped so that an item takes at most this long from
    /// its clock to the sink; the run says where it could not hold.
    #[arg(long, value_parser = rfgraph_flowfile::duration::parse_duration)]
    pub max_latency: Option<std::time::Duration>,
    /// In a flowgraph that spans hosts (`[hosts.NAME]`), the host whose
    /// blocks to run here; the edges to other hosts become network links.
    /// `check` without it checks every host's part.
    #[arg(long)]
    pub host: Option<String>,
}

impl FileArgs {
    /// Loads, checks and builds the file through the standard registry;
    /// `dry_run` stops short of constructing blocks (see
    /// `BuildOptions::dry_run`).
    pub fn build(&self, dry_run: bool) -> anyhow::Result<Built> {
        let registry = rfgraph_flowfile::standard::registry();
        let mut options = BuildOptions {
            scheduler: self.scheduler.clone(),
            cores: self.cores,
            max_latency: self.max_latency,
            dry_run,
            host: self.host.clone(),
            ..BuildOptions::default()
        };
        for s in &self.set {
            options.set(s).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        // The error carries file:line:col already.
        build_file(&self.file, &registry, &options).map_err(|e| anyhow::anyhow!("{e}"))
    }
}
