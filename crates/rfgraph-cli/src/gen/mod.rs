//! `rfgraph gen`: writes test recordings with known contents, made by the
//! generators of `rfgraph_radio::generate` (`fm`: one FM broadcast station
//! with stereo tones and RDS; `adsb`: aircraft on known tracks sending
//! known Mode S frames; `wlan`: IEEE 802.11a/g data frames). Parses arguments and writes files; the
//! generators hold the logic.

mod adsb;
mod fm;
mod wlan;

use anyhow::{Context, bail};
use clap::Subcommand;
use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::{format_from_extension, is_sigmf_name, recording_paths};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `rfgraph gen` makes.
#[derive(Subcommand)]
pub enum Generator {
    /// One FM broadcast station: stereo test tones (or mono), 19 kHz
    /// pilot, RDS with a chosen PI, PS and RadioText, at a chosen CNR
    /// (`rfgraph gen fm -o station.sigmf-meta --rate 240e3 --seconds 4
    /// --cnr 30`).
    Fm(Box<fm::FmArgs>),
    /// Mode S / ADS-B traffic at 1090 MHz: aircraft on known tracks
    /// sending known frames at chosen levels, with noise and overlaps
    /// (`rfgraph gen adsb -o traffic.sigmf-meta --seconds 0.25`).
    Adsb(Box<adsb::AdsbArgs>),
    /// IEEE 802.11a/g data frames at 20 MS/s at chosen rates and lengths,
    /// with noise, carrier offsets and multipath (`rfgraph gen wlan -o
    /// frames.sigmf-meta --frames 64 --snr 20`).
    Wlan(Box<wlan::WlanArgs>),
}

/// Runs `rfgraph gen`.
pub fn run(generator: Generator) -> anyhow::Result<()> {
    match generator {
        Generator::Fm(args) => fm::run(*args),
        Generator::Adsb(args) => adsb::run(*args),
        Generator::Wlan(args) => wlan::run(*args),
    }
}

/// Where a generator writes: `x.sigmf-meta` (or `.sigmf-data`) gives a
/// SigMF recording's metadata and data paths, any other name a raw
/// file's. Refuses to replace existing files (the outputs or `truth`)
/// unless `force`.
pub(crate) fn output_paths(
    output: &Path,
    truth: Option<&PathBuf>,
    force: bool,
) -> anyhow::Result<(Option<PathBuf>, PathBuf)> {
    let (meta, data) = if is_sigmf_name(output) {
        let (m, d) = recording_paths(output)?;
        (Some(m), d)
    } else {
        (None, output.to_path_buf())
    };
    if !force {
        for p in meta.iter().chain([&data]).chain(truth) {
            if p.exists() {
                bail!("{} exists: pass --force to replace it", p.display());
            }
        }
    }
    Ok((meta, data))
}

/// Writes `bytes` to `path`, synced.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut f =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The sample format a generator writes: `--format` when given, else the
/// raw name's extension, else `default` (always for SigMF names); it must
/// be complex (`what` names the recordings in the refusal).
pub(crate) fn complex_format(
    format: Option<&str>,
    output: &Path,
    default: SampleFormat,
    what: &str,
) -> anyhow::Result<SampleFormat> {
    let format = match format {
        Some(name) => SampleFormat::parse(name).context("--format")?,
        None if is_sigmf_name(output) => default,
        None => format_from_extension(output).unwrap_or(default),
    };
    if !format.is_complex() {
        bail!("--format {format}: {what} recordings are complex (cu8, cs8, cs16, cf32, ...)");
    }
    Ok(format)
}
