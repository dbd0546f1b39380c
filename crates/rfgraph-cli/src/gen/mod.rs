//! `rfgraph gen`: writes test recordings with known contents, made by the
//! generators of `rfgraph_radio::generate` (`adsb`: aircraft on known
//! tracks sending known Mode S frames). Parses arguments and writes
//! files; the generators hold the logic.

mod adsb;

use clap::Subcommand;

/// What `rfgraph gen` makes.
#[derive(Subcommand)]
pub enum Generator {
    /// Mode S / ADS-B traffic at 1090 MHz: aircraft on known tracks
    /// sending known frames at chosen levels, with noise and overlaps
    /// (`rfgraph gen adsb -o traffic.sigmf-meta --seconds 0.25`).
    Adsb(Box<adsb::AdsbArgs>),
}

/// Runs `rfgraph gen`.
pub fn run(generator: Generator) -> anyhow::Result<()> {
    match generator {
        Generator::Adsb(args) => adsb::run(*args),
    }
}
