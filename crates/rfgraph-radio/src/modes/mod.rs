//! Mode S / ADS-B reception at 1090 MHz.
//!
//! The receiver is a chain of blocks, each usable on its own:
//!
//! | block | in | out | owns |
//! |---|---|---|---|
//! | [`Cu8Magnitude`] / [`ComplexMagnitude`] | `u8` cu8 bytes / `Complex32` | `u16` magnitude | magnitudes, full scale 65535 (dump1090's table for cu8) |
//! | [`ModesDemod`] | `u16` | [`RawFrame`] | preambles, bit slicing at 2 or 2.4 MS/s, parity, DF17/18 one- and two-bit repair, address recovery through the [`IcaoFilter`] |
//! | [`ModesDecoder`] | [`RawFrame`] | messages: [`Message`] as JSON | fields ([`decode`]), CPR positions and the aircraft table ([`Tracker`]), also as its reading `aircraft` ([`aircraft_reading`]) |
//! | [`LineWriter`] | messages | a writer | JSON lines on standard output |
//! | [`ModesNetOutput`] | messages | TCP | dump1090's raw (30002) and SBS (30003) outputs |
//!
//! [`add_receiver`] assembles the first three behind a source. The
//! pieces without the runtime ([`crc`], [`decode`] with its [`cpr`](decode::cpr),
//! [`Demodulator`], [`Tracker`]) are public for tools and tests.
//! Signals with known frames to test all this come from
//! [`generate::adsb`](crate::generate::adsb).

mod aircraft_reading;
pub mod crc;
pub mod decode;
mod decoder;
mod demod;
pub mod frame;
mod icao_filter;
mod lines;
mod magnitude;
pub mod net;
mod receiver;
mod tracker;

pub use aircraft_reading::{MAX_ROWS, ROW_TTL_S, aircraft_reading, aircraft_row};
pub use decode::{DecodeError, Fields, Kind, Message, PositionSource, decode_fields};
pub use decoder::{ModesDecoder, ModesDecoderParams};
pub use demod::{DemodCounters, DemodRate, Demodulator, ModesDemod, ModesDemodParams};
pub use frame::RawFrame;
pub use icao_filter::IcaoFilter;
pub use lines::LineWriter;
pub use magnitude::{
    ComplexMagnitude, Cu8Magnitude, complex_magnitudes, cu8_magnitudes, cu8_table,
};
pub use net::{ModesNetOutput, NetError};
pub use receiver::{ReceiverBlocks, ReceiverConfig, ReceiverInput, add_receiver};
pub use tracker::{Aircraft, Tracker};
pub(crate) use {
    decoder::spec as decoder_spec, demod::spec as demod_spec,
    magnitude::complex_spec as magnitude_spec, magnitude::cu8_spec as cu8_magnitude_spec,
};

use thiserror::Error;

/// Why a Mode S block or receiver could not be built.
#[derive(Debug, Error)]
pub enum ModesError {
    /// The demodulator slices 2 and 2.4 MS/s only.
    #[error("Mode S needs 2 or 2.4 MS/s, not {hz} samples/s")]
    Rate {
        /// The rate asked for.
        hz: f64,
    },
    /// The flowgraph refused a connection.
    #[error(transparent)]
    Graph(#[from] rfgraph::GraphError),
}
