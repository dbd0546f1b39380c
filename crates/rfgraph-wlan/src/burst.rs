//! What the receiver's two stages hand each other: the synchroniser cuts
//! a [`Burst`] out of the sample stream (every sample passes through it);
//! the decoder turns a burst into a [`Decoded`] frame or a [`Dropped`]
//! reason (only frames pass through it, so it can run on other cores).

use crate::rate::Rate;
use num_complex::Complex32;

/// Samples per OFDM symbol with its guard interval, at 20 MHz.
pub const SYMBOL: usize = 80;
/// Samples of the FFT part of a symbol.
pub const FFT: usize = 64;
/// Samples of the long training field's two symbols (without their
/// 32-sample guard interval).
pub const LTF: usize = 128;
/// Samples of the short training field.
pub const STF: usize = 160;

/// A decoded SIGNAL field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal {
    pub rate: Rate,
    /// PSDU bytes (the MPDU with its FCS), 1…4095.
    pub length: usize,
}

/// What the long training field and the SIGNAL symbol tell.
#[derive(Clone, Debug)]
pub struct Header {
    pub signal: Signal,
    /// The least-squares channel estimate per FFT bin (index 0 = DC,
    /// bins in FFT order), from the two long training symbols; zero on
    /// unused bins.
    pub channel: [Complex32; FFT],
    /// Signal to noise ratio from the two long training symbols, in dB.
    pub snr_db: f32,
}

/// A frame cut from the stream.
#[derive(Clone, Debug)]
pub struct Burst {
    /// The burst's number in its stream, from 0: decoders that run in
    /// parallel give their frames back in this order.
    pub seq: u64,
    /// The stream index of the frame's first sample (the start of its
    /// short training field, as estimated).
    pub start: u64,
    /// The carrier frequency offset removed from `samples`, in radians
    /// per sample (coarse from the short, fine from the long training
    /// field).
    pub cfo: f32,
    /// From the first sample of the first long training symbol (after
    /// the long field's guard interval) to the frame's end:
    /// [`LTF`] + [`SYMBOL`] (SIGNAL) + [`SYMBOL`] per data symbol,
    /// frequency-corrected.
    pub samples: Vec<Complex32>,
    /// The SIGNAL field and channel read from the burst's head.
    pub header: Header,
}

impl Burst {
    /// Samples a burst of `header` holds.
    pub fn len_for(signal: &Signal) -> usize {
        LTF + SYMBOL + SYMBOL * signal.rate.data_symbols(signal.length)
    }
}

/// A frame the decoder finished.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The burst's `seq`.
    pub seq: u64,
    /// The burst's `start`.
    pub start: u64,
    pub rate: Rate,
    /// The PSDU length from SIGNAL, in bytes (FCS included).
    pub length: usize,
    /// The MPDU without its 4-byte FCS.
    pub mpdu: Vec<u8>,
    /// The FCS (CRC-32) matched.
    pub fcs_ok: bool,
    pub snr_db: f32,
    /// The carrier frequency offset, in Hz at 20 MS/s.
    pub cfo_hz: f32,
}

/// Why a detected frame was dropped; counted, never a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Dropped {
    #[error("SIGNAL parity failed")]
    SignalParity,
    #[error("SIGNAL rate bits name no rate")]
    SignalRate,
    #[error("SIGNAL length 0 or above 4095")]
    SignalLength,
    #[error("SIGNAL reserved or tail bits not zero")]
    SignalReserved,
    #[error("the stream ended inside the frame")]
    Truncated,
    #[error("the long training field was not found after the short one")]
    NoLongPreamble,
}
