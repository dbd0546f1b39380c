//! The `rfgraph` command line: benchmarks, `record`, `info`, `gen` and the
//! receivers (`spectrum`, `fm`, `adsb`), the block registry (`blocks`),
//! flowgraph files (`run`, `check`, `dot`); `inspect` later. Library
//! crates hold all logic worth testing; this file
//! only parses arguments and dispatches.
//!
//! How the crates fit together, the runtime contract and the project's
//! rules: `docs/architecture.md` in the repository.

mod console;

mod adsb;
mod bench;
mod blocks;
mod flow;
mod fm;
mod r#gen;
mod info;
mod receiver;
mod record;
mod spectrum;
mod wlan;

use clap::{Parser, Subcommand};
use console::errln;

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
    /// Lists the registered blocks by category, or shows one block's
    /// documentation (`rfgraph blocks low_pass_filter`, `--json`).
    Blocks(blocks::BlocksArgs),
    /// Writes a SigMF recording: converts a raw or SigMF file
    /// (`rfgraph record --from in.cu8 --rate 2.4e6 --to out.sigmf-meta`).
    Record(record::RecordArgs),
    /// Shows what a raw or SigMF recording holds: type, rate, duration,
    /// captures, annotations.
    Info(info::InfoArgs),
    /// Draws the averaged power spectrum and waterfall of a recording or
    /// device as a PNG (`rfgraph spectrum in.sigmf-meta -o out.png`).
    Spectrum(spectrum::SpectrumArgs),
    /// Receives an FM broadcast station (stereo, RDS) from a recording or
    /// device into a WAV file or the sound card
    /// (`rfgraph fm in.cu8 --rate 2.4e6 --offset 300e3 -o out.wav`).
    Fm(fm::FmArgs),
    /// Receives Mode S / ADS-B at 1090 MHz from a recording (cu8 at 2 or
    /// 2.4 MS/s, as dump1090 records) or a device: frames, positions,
    /// the aircraft table, dump1090's network outputs
    /// (`rfgraph adsb examples/adsb/traffic.sigmf-meta --json`).
    Adsb(Box<adsb::AdsbArgs>),
    /// Receives IEEE 802.11a/g (Wi-Fi OFDM) at 20 MS/s from a recording
    /// or device: every frame's MPDU, rate, SNR and carrier offset, as
    /// lines, JSON or a pcap for Wireshark
    /// (`rfgraph wlan testdata/wlan/wlan-25db.cf32 --json`).
    Wlan(Box<wlan::WlanArgs>),
    /// Writes test recordings with known contents (`rfgraph gen fm -o
    /// station.sigmf-meta`, `rfgraph gen adsb -o traffic.sigmf-meta`).
    Gen {
        #[command(subcommand)]
        generator: r#gen::Generator,
    },
    /// Runs a flowgraph file (`.toml`, or `.grc` from GNU Radio
    /// Companion): `rfgraph run fm.toml --set freq=98.5e6 --stats`.
    Run(flow::run::RunArgs),
    /// Checks a flowgraph file without running it and prints what it
    /// holds.
    Check(flow::FileArgs),
    /// Writes a flowgraph file's graph as Graphviz `dot` on stdout.
    Dot(flow::FileArgs),
}

/// A recording whose format its name does not say: point at `--format`.
fn with_format_hint(e: rfgraph_blocks::sigmf::SigmfError) -> anyhow::Error {
    match e {
        rfgraph_blocks::sigmf::SigmfError::Name { .. }
            if e.to_string().contains("give the format") =>
        {
            anyhow::anyhow!("{e} with --format")
        }
        e => e.into(),
    }
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench { experiment } => bench::run(experiment),
        Command::Blocks(args) => blocks::run(args),
        Command::Record(args) => record::run(args),
        Command::Info(args) => info::run(args),
        Command::Spectrum(args) => spectrum::run(args),
        Command::Fm(args) => fm::run(args),
        Command::Adsb(args) => adsb::run(*args),
        Command::Wlan(args) => wlan::run(*args),
        Command::Gen { generator } => r#gen::run(generator),
        Command::Run(args) => flow::run(args),
        Command::Check(args) => flow::check(args),
        Command::Dot(args) => flow::dot(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            errln!("rfgraph: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
