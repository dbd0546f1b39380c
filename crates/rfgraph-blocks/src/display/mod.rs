//! Web display sinks: the blocks a browser draws as GNU Radio's Qt GUI
//! sinks ([`WebFreqSink`] as `web_freq_sink` and `web_waterfall_sink`,
//! [`WebTimeSink`], [`WebConstSink`], [`WebNumberSink`]) and their
//! registry entries.
//!
//! Every display is a sink that consumes all it is given and declares
//! exactly the readings `display` (a `Map` describing the plot, fixed)
//! and `frame` (a `Map` with `seq`, which grows with every new frame and
//! is 0 before the first, and the latest frame's data). A display keeps
//! only its current frame and what it needs to build the next: frames
//! are never queued, and at most one is built per `update_time`.

mod constellation;
mod frame;
mod freq;
mod number;
mod time;
mod waterfall;

pub use constellation::{ConstSinkParams, WebConstSink};
pub use frame::{DB_FLOOR, DisplayItem};
pub use freq::{DisplayWindow, MAX_FFT_SIZE, SpectrumKind, SpectrumSinkParams, WebFreqSink};
pub use number::{GraphType, NumberSinkParams, WebNumberSink};
pub use time::{MAX_POINTS, TimeSinkParams, WebTimeSink};

pub(crate) use constellation::spec as web_const_sink_spec;
pub(crate) use freq::spec as web_freq_sink_spec;
pub(crate) use number::spec as web_number_sink_spec;
pub(crate) use time::spec as web_time_sink_spec;
pub(crate) use waterfall::spec as web_waterfall_sink_spec;

#[cfg(test)]
mod tests;
