//! `rfgraph gen`: writes test recordings with known contents, made by the
//! generators of `rfgraph_radio::generate` (`fm`: one FM broadcast station
//! with stereo tones and RDS; `adsb`: aircraft on known tracks sending
//! known Mode S frames). Parses arguments and writes files; the
//! generators hold the logic.

mod adsb;
mod fm;

use clap::Subcommand;

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
}

/// Runs `rfgraph gen`.
pub fn run(generator: Generator) -> anyhow::Result<()> {
    match generator {
        Generator::Fm(args) => fm::run(*args),
        Generator::Adsb(args) => adsb::run(*args),
    }
}
