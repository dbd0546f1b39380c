//! Registry entries for blocks made of `rfgraph-dsp` kernels run by
//! [`DspBlock`](crate::DspBlock): FIR filters and their GNU Radio designs,
//! resamplers, demodulators, level control, the FFT. One file per family;
//! this module owns what they share (the tap types the kernels take from
//! the complex taps parameters carry, the window names).

mod demod;
mod fft;
mod fir;
mod firdes_filters;
mod level;
mod resamplers;

pub use demod::{AmDemodParams, FmDeemphParams, QuadratureDemodParams};
pub(crate) use demod::{am_demod_spec, fm_deemph_spec, quadrature_demod_spec};
pub(crate) use fft::fft_spec;
pub use fft::{FftParams, FftWindow};
pub use fir::{FirFilterParams, FreqXlatingParams, InterpFirFilterParams};
pub(crate) use fir::{fft_filter_spec, fir_filter_spec, freq_xlating_spec, interp_fir_filter_spec};
pub use firdes_filters::{
    BandEdges, BandPassParams, BandRejectParams, Design, DesignParams, HighPassParams,
    LowPassParams,
};
pub(crate) use firdes_filters::{band_pass_spec, band_reject_spec, high_pass_spec, low_pass_spec};
pub use level::{AgcParams, IirDcBlockerParams, MovingAverageParams, RotatorParams};
pub(crate) use level::{agc_spec, iir_dc_blocker_spec, moving_average_spec, rotator_spec};
pub use resamplers::{PfbArbResamplerParams, RationalResamplerParams};
pub(crate) use resamplers::{pfb_arb_resampler_spec, rational_resampler_spec};

use num_complex::Complex32;
use rfgraph::BoxError;

/// A tap type the FIR kernels take, from the complex taps parameters
/// carry.
pub(crate) trait Tap: Sized {
    /// The taps, or why they cannot be of this type.
    fn from_taps(taps: &[Complex32]) -> Result<Vec<Self>, BoxError>;
}

impl Tap for f32 {
    fn from_taps(taps: &[Complex32]) -> Result<Vec<f32>, BoxError> {
        if complex(taps) {
            return Err("complex taps on a filter built with real ones: rebuild it \
                        with complex taps"
                .into());
        }
        Ok(taps.iter().map(|t| t.re).collect())
    }
}

impl Tap for Complex32 {
    fn from_taps(taps: &[Complex32]) -> Result<Vec<Complex32>, BoxError> {
        Ok(taps.to_vec())
    }
}

/// True when some tap has an imaginary part.
pub(crate) fn complex(taps: &[Complex32]) -> bool {
    taps.iter().any(|t| t.im != 0.0)
}

/// The window names the designs take (GNU Radio's `WIN_*` in lower case).
pub(crate) const WINDOWS: [&str; 16] = [
    "hamming",
    "hann",
    "blackman",
    "rectangular",
    "kaiser",
    "blackman_harris",
    "bartlett",
    "flattop",
    "nuttall",
    "nuttall_cfd",
    "welch",
    "parzen",
    "exponential",
    "riemann",
    "gaussian",
    "tukey",
];

/// The window `name` names (one of [`WINDOWS`], any case).
pub(crate) fn win_type(name: &str) -> Option<rfgraph_dsp::firdes::WinType> {
    rfgraph_dsp::firdes::WinType::from_gr_name(&format!("WIN_{}", name.to_ascii_uppercase()))
}
