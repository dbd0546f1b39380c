//! Generators of realistic test signals with known contents.
//!
//! - [`adsb`]: Mode S / ADS-B traffic (aircraft on known tracks, known
//!   frames at chosen levels, noise, overlaps), with its frame builders
//!   in [`adsb_frames`].

pub mod adsb;
pub mod adsb_frames;
