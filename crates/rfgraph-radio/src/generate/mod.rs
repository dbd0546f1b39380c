//! Generators of realistic test signals with known contents.
//!
//! - [`fm`]: one FM broadcast station (stereo audio, pilot, RDS) as
//!   complex baseband at a chosen CNR.
//! - [`adsb`]: Mode S / ADS-B traffic (aircraft on known tracks, known
//!   frames at chosen levels, noise, overlaps), with its frame builders
//!   in [`adsb_frames`].

pub mod adsb;
pub mod adsb_frames;
pub mod fm;
