//! Averaged power spectra and waterfalls, as blocks: [`PowerSpectrum`]
//! (windowed FFT frames → linear power per bin), [`Average`] (`n` frames →
//! one, in dB) and [`WaterfallDecimator`] (one frame per interval of
//! signal time). `rfgraph spectrum` renders their output as a PNG; a
//! display subscribes to the `frames` message outputs instead. Rendering
//! never happens here.
//!
//! # Frame streams
//!
//! A frame is `size` consecutive `f32` items on a stream, the first frame
//! starting at item 0; blocks read and write whole frames only (their
//! ports declare `min_items = size`), so frames stay aligned however the
//! items are chunked on the way. Bins are fftshifted: bin `size / 2` is the
//! centre frequency, bin 0 is `-rate / 2` from it, bin `k` is
//! `(k - size/2) · rate / size` from it ([`bin_offset`]).
//!
//! What the bins mean travels as tags on a frame's first item, on the
//! first frame and wherever it changes ([`FrameMeta`]):
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `core:frequency` | `F64`, Hz | the centre frequency (bin `size / 2`) |
//! | `core:sample_rate` | `F64`, samples/s | the rate of the signal the frames come from: the span of a frame |
//! | `rfgraph:frame_samples` | `U64` | input samples one frame summarises |
//!
//! [`PowerSpectrum`] takes the first two from its input's tags (SigMF
//! files and devices tag them) or from its defaults (raw files).
//!
//! ```
//! use rfgraph::Flowgraph;
//! use rfgraph_blocks::VectorSink;
//! use rfgraph_dsp::Window;
//! use rfgraph_radio::spectrum::{Average, Interval, PowerSpectrum, Scaling, WaterfallDecimator};
//!
//! let mut fg = Flowgraph::new();
//! let power = fg.add(PowerSpectrum::new(1024, Window::Hann, Scaling::Density)?.with_sample_rate(2.4e6)?);
//! let avg = fg.add(Average::new(1024, 10)?);
//! let lines = fg.add(WaterfallDecimator::new(1024, Interval::Seconds(0.05))?);
//! let sink = fg.add(VectorSink::<f32>::new());
//! fg.chain(&[power, avg, lines, sink])?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod average;
mod error;
mod frame;
mod power;
mod waterfall;

pub use average::{Average, AverageParams, FLOOR_DB};
pub use error::SpectrumError;
pub use frame::{BINS, FRAME_SAMPLES, FrameMeta, MAX_SIZE, bin_offset, offset_bin};
pub use power::{MAX_KAISER_BETA, PowerSpectrum, PowerSpectrumParams, Scaling, SpectrumWindow};
pub use waterfall::{Interval, WaterfallDecimator, WaterfallParams};
pub(crate) use {
    average::spec as average_spec, power::spec as power_spec, waterfall::spec as waterfall_spec,
};
