//! Generators of realistic test signals with known contents.
//!
//! - [`fm`]: one FM broadcast station (stereo audio, pilot, RDS) as
//!   complex baseband at a chosen CNR.

pub mod fm;
