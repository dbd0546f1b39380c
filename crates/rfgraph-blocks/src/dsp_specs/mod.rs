//! Registry entries for blocks made of `rfgraph-dsp` kernels run by
//! [`DspBlock`](crate::DspBlock): FIR filters and their GNU Radio designs,
//! resamplers, demodulators, level control, the FFT. One file per family;
//! this module owns the helpers they share (taps, windows, boxing).

mod demod;
mod fft;
mod fir;
mod firdes_filters;
mod level;
mod resamplers;

pub use demod::QuadratureDemodParams;
pub(crate) use demod::{am_demod_spec, fm_deemph_spec, quadrature_demod_spec};
pub(crate) use fft::fft_spec;
pub use fir::{FirFilterParams, FreqXlatingParams, InterpFirFilterParams};
pub(crate) use fir::{fft_filter_spec, fir_filter_spec, freq_xlating_spec, interp_fir_filter_spec};
pub use firdes_filters::{
    BandEdges, BandPassParams, BandRejectParams, Design, DesignParams, HighPassParams,
    LowPassParams,
};
pub(crate) use firdes_filters::{band_pass_spec, band_reject_spec, high_pass_spec, low_pass_spec};
pub use level::{AgcParams, RotatorParams};
pub(crate) use level::{agc_spec, iir_dc_blocker_spec, moving_average_spec, rotator_spec};
pub(crate) use resamplers::{pfb_arb_resampler_spec, rational_resampler_spec};

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::registry::{BuildError, ParamSpec, Params};
use rfgraph::{Block, Item};
use rfgraph_dsp::{DspError, Kernel};

/// Boxes `kernel` in a [`DspBlock`].
pub(crate) fn boxed<K>(kernel: K) -> Box<dyn Block>
where
    K: Kernel + Send + 'static,
    K::Input: Item,
    K::Output: Item,
{
    Box::new(DspBlock::new(kernel))
}

/// A kernel's construction error as the registry's error.
pub(crate) fn dsp(p: &Params) -> impl Fn(DspError) -> BuildError + '_ {
    move |e| p.refused(e)
}

/// Filter taps: real unless one has an imaginary part.
pub(crate) enum Taps {
    /// Real taps.
    Real(Vec<f32>),
    /// Complex taps.
    Complex(Vec<Complex32>),
}

/// The taps parameter `name`.
pub(crate) fn taps(p: &Params, name: &str) -> Result<Taps, BuildError> {
    let values = p.complexes(name)?;
    if values.is_empty() {
        return Err(p.invalid(name, "needs at least one tap"));
    }
    Ok(if values.iter().all(|v| v[1] == 0.0) {
        Taps::Real(values.iter().map(|v| v[0]).collect())
    } else {
        Taps::Complex(
            values
                .iter()
                .map(|&[re, im]| Complex32::new(re, im))
                .collect(),
        )
    })
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

/// The `beta` parameter of the `firdes` designs.
pub(crate) fn beta_param() -> ParamSpec {
    ParamSpec::float("beta")
        .default(rfgraph_dsp::firdes::DEFAULT_PARAM)
        .doc("window parameter: Kaiser β, exponential decay, Gaussian σ, Tukey α")
}

/// The window `window` names.
pub(crate) fn win_type(p: &Params) -> Result<rfgraph_dsp::firdes::WinType, BuildError> {
    let name = p.string("window")?;
    rfgraph_dsp::firdes::WinType::from_gr_name(&format!("WIN_{}", name.to_ascii_uppercase()))
        .ok_or_else(|| p.invalid("window", format!("unknown window `{name}`")))
}
