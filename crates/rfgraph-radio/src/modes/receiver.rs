//! The assembled ADS-B receiver: magnitude → demodulator → decoder, added
//! to a flowgraph behind any source, as `rfgraph adsb` and the tests
//! build it.

use crate::modes::{ComplexMagnitude, Cu8Magnitude, ModesDecoder, ModesDemod, ModesError};
use rfgraph::{BlockId, Flowgraph};

/// What the source delivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReceiverInput {
    /// The stored bytes of a `cu8` recording or an rtl-sdr (`u8` items,
    /// two per sample): magnitudes by table lookup.
    Cu8Bytes,
    /// `Complex32` samples (other formats, devices).
    Complex,
}

/// How to build the receiver.
#[derive(Clone, Debug, PartialEq)]
pub struct ReceiverConfig {
    /// Samples per second: 2e6 or 2.4e6.
    pub rate_hz: f64,
    /// The receiver's position (degrees), for local CPR decoding.
    pub position: Option<(f64, f64)>,
    /// Bit repair of DF17/18 (one bit; two for a proven aircraft).
    pub fix: bool,
    /// Messages the decoder keeps for [`ModesDecoder::messages`].
    pub keep: usize,
}

impl ReceiverConfig {
    /// A 2 or 2.4 MS/s receiver with repair on, no position, keeping
    /// nothing.
    pub fn new(rate_hz: f64) -> Self {
        Self {
            rate_hz,
            position: None,
            fix: true,
            keep: 0,
        }
    }
}

/// The receiver's blocks in a flowgraph.
#[derive(Clone, Copy, Debug)]
pub struct ReceiverBlocks {
    /// [`Cu8Magnitude`] or [`ComplexMagnitude`].
    pub magnitude: BlockId,
    /// [`ModesDemod`].
    pub demod: BlockId,
    /// [`ModesDecoder`]: its `messages` output carries the JSON lines.
    pub decoder: BlockId,
}

/// Adds the receiver behind output `port` of `source`.
///
/// Errors: [`ModesError::Rate`] for a rate the demodulator does not
/// slice; [`ModesError::Graph`] when `source` has no such output or it
/// carries the wrong item type.
pub fn add_receiver(
    fg: &mut Flowgraph,
    source: BlockId,
    port: &str,
    input: ReceiverInput,
    config: &ReceiverConfig,
) -> Result<ReceiverBlocks, ModesError> {
    let demod = ModesDemod::new(config.rate_hz)?.with_fix(config.fix);
    let mut decoder = ModesDecoder::new(config.rate_hz).keeping(config.keep);
    if let Some((lat, lon)) = config.position {
        decoder = decoder.with_receiver(lat, lon);
    }
    let magnitude = match input {
        ReceiverInput::Cu8Bytes => fg.add_named("magnitude", Cu8Magnitude::new()),
        ReceiverInput::Complex => fg.add_named("magnitude", ComplexMagnitude::new()),
    };
    let demod = fg.add_named("demod", demod);
    let decoder = fg.add_named("decoder", decoder);
    fg.connect(source, port, magnitude, "in")?;
    fg.connect(magnitude, "out", demod, "in")?;
    fg.connect(demod, "out", decoder, "in")?;
    Ok(ReceiverBlocks {
        magnitude,
        demod,
        decoder,
    })
}
