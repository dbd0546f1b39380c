//! The Radio Data System (RDS, IEC 62106 / EN 50067) on FM broadcast's
//! 57 kHz subcarrier: the decoder as two blocks, and the encoder the
//! signal generator uses.
//!
//! # The receiver's interface
//!
//! ```text
//! FM demodulator ──f32 MPX──▶ RdsDemod ──f32 soft bits──▶ RdsDecoder ──▶ messages
//! ```
//!
//! - [`RdsDemod::new`]`(mpx_rate)`: input `in` is the FM demodulator's
//!   multiplex, `f32`, at any rate from 128 kHz to 10 MHz, any scale (the
//!   level is normalised); the rate is the constructor's argument, not a
//!   tag: a rate-changing block upstream passes `core:sample_rate` tags
//!   on unchanged, so a tag may name another stage's rate. Output `out`:
//!   one soft value per bit, 1187.5 per second.
//! - [`RdsDecoder::new`]`()`: input `in` the soft bits; message output
//!   `out`: a `Pmt::Map` each time a confirmed field changes, always with
//!   `"pi"`, plus the fields that changed:
//!
//!   | key | `Pmt` | from |
//!   |---|---|---|
//!   | `pi` | `String` `"0x1234"` | block 1 (and C' of B groups) |
//!   | `ps` | `String`, 8 characters | 0A/0B |
//!   | `rt`, `rt_ab` | `String` (to the carriage return, trailing spaces trimmed), `"A"`/`"B"` | 2A/2B |
//!   | `pty`, `tp` | `U64` 0..=31, `Bool` | every group |
//!   | `ta`, `ms` | `Bool`, `Bool` (true: music) | 0A/0B |
//!   | `di` | `Map` of `stereo`, `artificial_head`, `compressed`, `dynamic_pty` (`Bool`) | 0A/0B |
//!
//!   [`json_line`] prints one as `{"pi":"0x1234","ps":"RFGRAPH "}`. Its
//!   counters (`rds_groups`, `rds_blocks_corrected`, `rds_sync_losses`,
//!   ...) appear in the statistics (`--stats`). Its reading `rds` is the
//!   station as known now, every message so far merged ([`RdsState`]),
//!   with the reception's quality.
//! - [`connect_receiver`] adds both to a flowgraph behind a multiplex
//!   output.
//!
//! Both blocks are deterministic: the same input gives the same messages
//! on every scheduler, however the stream is split.
//!
//! # Modules
//!
//! - [`demod`], [`symbol_sync`]: 57 kHz mix-down, decimation, matched
//!   filter, timing and carrier recovery.
//! - [`sync`]: differential decoding, block synchronisation, error
//!   correction.
//! - [`groups`]: group assembly and the fields, confirmed before they are
//!   shown.
//! - [`code`]: the (26,16) block code, offset words, syndromes, burst
//!   correction.
//! - [`charset`]: the RDS character table.
//! - [`RdsState`], [`pty_name`]: the decoder's reading.
//! - [`content`]: what a station sends ([`RdsContent`]).
//! - [`encoder`]: content → groups → bits ([`RdsEncoder`]), for the
//!   generator.
//! - [`pulse`]: the physical layer's rates and shaping pulse.

pub mod charset;
pub mod code;
pub mod content;
mod decoder_block;
pub mod demod;
mod demod_block;
pub mod encoder;
mod error;
pub mod groups;
mod json;
mod pty;
pub mod pulse;
mod state;
pub mod symbol_sync;
pub mod sync;

pub use content::{DecoderId, RdsContent, RdsContentError, Version};
pub use decoder_block::{MAX_BURST, RdsDecoder, RdsDecoderParams};
pub use demod::RdsDemodulator;
pub use demod_block::{RdsDemod, RdsDemodParams};
pub use encoder::{EncodedGroup, RdsEncoder};
pub use error::RdsError;
pub use json::json_line;
pub use pty::pty_name;
pub use state::RdsState;
pub(crate) use {decoder_block::spec as decoder_spec, demod_block::spec as demod_spec};

use rfgraph::{BlockId, Flowgraph};

/// The two blocks [`connect_receiver`] added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RdsReceiver {
    /// The [`RdsDemod`].
    pub demod: BlockId,
    /// The [`RdsDecoder`]: connect its message output `out`.
    pub decoder: BlockId,
}

/// Adds an [`RdsDemod`] (named `rds_demod`) and an [`RdsDecoder`]
/// (`rds_decoder`) to `fg`, fed by `source`'s stream output `port` (the
/// multiplex at `mpx_rate` Hz). Connect the decoder's message output
/// `out` to whatever takes the fields.
///
/// ```
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::{MessageSink, VectorSource};
/// use rfgraph_radio::rds::connect_receiver;
///
/// let mut fg = Flowgraph::new();
/// let mpx = fg.add(VectorSource::new(vec![0.0f32; 1000]));
/// let rds = connect_receiver(&mut fg, mpx, "out", 240e3).unwrap();
/// let sink = fg.add(MessageSink::new());
/// fg.connect_message(rds.decoder, "out", sink, "in").unwrap();
/// ```
///
/// Errors: [`RdsError::Param`] for a rate outside 128 kHz to 10 MHz, or
/// the flowgraph's refusal.
pub fn connect_receiver(
    fg: &mut Flowgraph,
    source: BlockId,
    port: &str,
    mpx_rate: f64,
) -> Result<RdsReceiver, RdsError> {
    let demod = fg.add_named("rds_demod", RdsDemod::new(mpx_rate)?);
    let decoder = fg.add_named("rds_decoder", RdsDecoder::new());
    fg.connect(source, port, demod, "in")?;
    fg.connect(demod, "out", decoder, "in")?;
    Ok(RdsReceiver { demod, decoder })
}
