//! [`HwError`]: everything that can go wrong between rfgraph and a radio.
//!
//! Every variant that comes from the device keeps the driver's own error
//! ([`seify::Error`], which carries SoapySDR's or the native driver's
//! message) and prints it after saying what rfgraph was doing: an `init`
//! failure reads "cannot open device \`driver=rtlsdr\`: " and then the
//! driver's message. This module owns the error type only; it never talks
//! to a device.

use std::fmt;

/// Which way samples flow on a channel, as error messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Receive: the device writes samples, [`SdrSource`](crate::SdrSource).
    Rx,
    /// Transmit: the device reads samples, [`SdrSink`](crate::SdrSink).
    Tx,
}

impl Direction {
    pub(crate) fn seify(self) -> seify::Direction {
        match self {
            Direction::Rx => seify::Direction::Rx,
            Direction::Tx => seify::Direction::Tx,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Rx => "RX",
            Direction::Tx => "TX",
        })
    }
}

/// An error of the hardware blocks: a configuration rejected before
/// anything opens, or a device, driver or stream failure with the
/// driver's message.
#[derive(Debug, thiserror::Error)]
pub enum HwError {
    /// The device argument string does not parse (`key=value,key=value`).
    #[error("device arguments `{args}` do not parse: {cause}")]
    Args {
        /// The argument string as given.
        args: String,
        /// seify's parse error.
        cause: seify::Error,
    },
    /// A parameter outside its declaration (a rate that is not positive, a
    /// number that is not finite, an empty antenna name): what no device
    /// could accept.
    #[error(transparent)]
    Param(#[from] rfgraph::ParamError),
    /// The device could not be opened (unknown driver, no such device,
    /// driver not compiled in, device busy).
    #[error("cannot open device `{args}`: {cause}{hint}")]
    Open {
        /// The device arguments.
        args: String,
        /// The driver's error.
        cause: seify::Error,
        /// What rfgraph adds when seify's message alone does not say what
        /// to do (an unknown driver name: the drivers of this build), with
        /// its leading separator; empty otherwise.
        hint: String,
    },
    /// The device refused a setting (a frequency, rate, gain or antenna it
    /// does not support, a channel it lacks).
    #[error("{direction} channel {channel}: cannot set {what} to {value}: {cause}")]
    Configure {
        /// Receive or transmit.
        direction: Direction,
        /// The channel index.
        channel: usize,
        /// The setting (`"frequency"`, `"gain"`).
        what: &'static str,
        /// The value asked for, with its unit.
        value: String,
        /// The driver's error.
        cause: seify::Error,
    },
    /// Creating, activating, reading or writing the stream failed for a
    /// reason other than an overflow, underflow or timeout (those are
    /// counted, not errors).
    #[error("{direction} channel {channel}: {action} failed: {cause}")]
    Stream {
        /// Receive or transmit.
        direction: Direction,
        /// The channel index.
        channel: usize,
        /// What was being done (`"creating the stream"`, `"read"`).
        action: &'static str,
        /// The driver's error.
        cause: seify::Error,
    },
    /// A `cmd` message that is not a map of known keys.
    #[error("command {0}")]
    Command(String),
}
