//! Receivers built from rfgraph blocks, and generators of the signals they
//! receive.
//!
//! Each receiver is a set of reusable blocks (each with its own tests)
//! plus a function that assembles them into a flowgraph, so the same
//! receiver runs from Rust, from the command line (`rfgraph fm`,
//! `rfgraph adsb`, `rfgraph spectrum`) and from flowgraph files, on every
//! scheduler. Inputs are files (raw or SigMF) or a device (`rfgraph-hw`);
//! metadata (centre frequency, sample rate) arrives as SigMF tags.
//!
//! - [`fm`]: FM broadcast: channel filter and decimation, quadrature
//!   demodulation, stereo (19 kHz pilot PLL, 38 kHz L−R), de-emphasis,
//!   resampling to audio.
//! - [`rds`]: the Radio Data System on FM's 57 kHz subcarrier: symbol
//!   recovery, block sync, error correction, group decoding (PI, PS,
//!   RadioText), and its encoder for the generator.
//! - [`modes`]: Mode S / ADS-B at 1090 MHz: preamble detection, bit
//!   decisions, CRC-24 and error correction, message decoding (CPR
//!   positions, velocity, identity), aircraft table, dump1090-compatible
//!   network outputs.
//! - [`spectrum`]: averaged power spectra and waterfalls.
//! - [`generate`]: realistic test signals with known contents: FM stereo
//!   with RDS at a chosen CNR, Mode S frames at chosen levels.
//!
//! How the crates fit together and the project's rules:
//! `docs/architecture.md` in the repository.

#![warn(missing_docs)]

pub mod fm;
pub mod generate;
pub mod modes;
pub mod rds;
pub mod registry;
pub mod spectrum;
