//! [`SpectrumError`]: what the spectrum blocks' constructors and runs
//! reject.

/// A spectrum block's parameter or input that cannot work.
#[derive(Debug, thiserror::Error)]
pub enum SpectrumError {
    /// The FFT size is out of range.
    #[error("the FFT size must be in 2..={max} bins, not {size}")]
    Size {
        /// The size asked for.
        size: usize,
        /// The largest size allowed.
        max: usize,
    },
    /// A frame count that must be positive is zero.
    #[error("{name} must be at least 1 frame")]
    Frames {
        /// The parameter.
        name: &'static str,
    },
    /// A period, rate or frequency that is not a usable number.
    #[error("{name} must be {expected}, not {value}")]
    Value {
        /// The parameter.
        name: &'static str,
        /// What was given.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
    /// The window cannot be built.
    #[error("window: {0}")]
    Window(#[from] rfgraph_dsp::DspError),
    /// A waterfall period in seconds on frames whose duration is unknown.
    #[error(
        "a period in seconds needs the frames' duration, but they carry no \
         core:sample_rate tag: give the input's rate (PowerSpectrum::with_sample_rate) \
         or keep every n-th frame (Interval::Frames)"
    )]
    NoRate,
}
