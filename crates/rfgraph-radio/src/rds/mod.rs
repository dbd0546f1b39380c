//! The Radio Data System (RDS, IEC 62106 / EN 50067) on FM broadcast's
//! 57 kHz subcarrier: the block code, the group encoder that the signal
//! generator uses, and (in the decoder's modules) symbol recovery, block
//! synchronisation, error correction and group decoding.
//!
//! - [`code`]: the (26,16) block code, offset words, syndromes, burst
//!   correction.
//! - [`charset`]: the RDS character table.
//! - [`content`]: what a station sends ([`RdsContent`]).
//! - [`encoder`]: content → groups → bits ([`RdsEncoder`]).
//! - [`pulse`]: the physical layer's rates and shaping pulse.

pub mod charset;
pub mod code;
pub mod content;
pub mod encoder;
pub mod pulse;

pub use content::{DecoderId, RdsContent, RdsContentError, Version};
pub use encoder::{EncodedGroup, RdsEncoder};
