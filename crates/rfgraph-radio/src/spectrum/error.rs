//! [`SpectrumError`]: what the spectrum blocks' constructors and runs
//! reject.

/// A spectrum block's parameter or input that cannot work.
#[derive(Debug, thiserror::Error)]
pub enum SpectrumError {
    /// A parameter outside its declaration (an FFT size outside
    /// 2..=2^20, a frame count of zero, a rate that is not positive),
    /// naming it.
    #[error(transparent)]
    Param(#[from] rfgraph::ParamError),
    /// A waterfall period in seconds on frames whose duration is unknown.
    #[error(
        "a period in seconds needs the frames' duration, but they carry no \
         core:sample_rate tag: give the input's rate (PowerSpectrum::with_sample_rate) \
         or keep every n-th frame (Interval::Frames)"
    )]
    NoRate,
}
