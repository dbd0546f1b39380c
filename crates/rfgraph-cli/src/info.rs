//! `rfgraph info FILE`: what a raw or SigMF recording holds (type, rate,
//! samples, duration, captures, annotations). `RecordingInfo` in the block
//! library does the work; this file parses arguments and prints.

use crate::console::out;
use anyhow::Context;
use clap::Args;
use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::RecordingInfo;
use std::path::PathBuf;

/// How many captures and annotations are listed without `--all`.
const LISTED: usize = 20;

/// `rfgraph info` arguments.
#[derive(Args)]
pub struct InfoArgs {
    /// A SigMF recording (`x.sigmf-meta`, `x.sigmf-data` or `x`) or a raw
    /// one (`.cu8`, `.cs8`, `.cs16`, `.cf32`, ..., or any name with `--format`).
    file: PathBuf,
    /// Read the file as raw samples of this format (cu8, cs16, cf32, or
    /// any SigMF datatype).
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// A raw file's sample rate, for its duration.
    #[arg(long, value_name = "HZ")]
    rate: Option<f64>,
    /// List every capture and annotation (default: the first 20 of each).
    #[arg(long)]
    all: bool,
}

/// Runs `rfgraph info`.
pub fn run(args: InfoArgs) -> anyhow::Result<()> {
    let format = args
        .format
        .as_deref()
        .map(SampleFormat::parse)
        .transpose()
        .context("--format")?;
    let info =
        RecordingInfo::probe(&args.file, format, args.rate).map_err(crate::with_format_hint)?;
    out!(
        "{}",
        info.summary(if args.all { usize::MAX } else { LISTED })
    );
    Ok(())
}
