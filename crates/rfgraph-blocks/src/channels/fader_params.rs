//! The parameters both fading models share: how many sinusoids a fader
//! sums, its Doppler spread and its line-of-sight path. Declared once and
//! flattened into [`FadingModelParams`](super::FadingModelParams) and
//! [`SelectiveFadingModelParams`](super::SelectiveFadingModelParams).

use super::flat_fader::FaderShape;

/// The most sinusoids a fader sums (the work per sample grows with it).
pub(crate) const MAX_SINUSOIDS: usize = 4096;

/// How a sum-of-sinusoids fader fades (GNU Radio's `N`, `fDTs`, `LOS`
/// and `K`). `max_doppler` and `k_factor` may change while it runs, as
/// GNU Radio's `set_fDTs` and `set_K` allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct FaderParams {
    /// sinusoids summed per fader (8 is GNU Radio's advice)
    #[param(default = 8, min = 1, max = MAX_SINUSOIDS, alias = "N")]
    pub sinusoids: usize,
    /// normalised maximum Doppler frequency, `fD·Ts` (Doppler in Hz over
    /// the sample rate); a change also restarts the random walks' steps
    #[param(
        default = 0.01,
        min = 0.0,
        unit = "cycles/sample",
        alias = "fDTs",
        settable
    )]
    pub max_doppler: f32,
    /// a line-of-sight path (Rician fading of factor `k_factor`; in the
    /// selective model, on the first ray); otherwise Rayleigh
    #[param(default = false, alias = "LOS")]
    pub los: bool,
    /// Rician factor: power of the line-of-sight path over the scattered
    /// power (with `los` only)
    #[param(
        default = 4.0,
        min = 0.0,
        alias = "K",
        alias = "rician_factor",
        settable
    )]
    pub k_factor: f32,
}

impl FaderParams {
    /// What a running fader takes from these.
    pub(crate) fn shape(&self) -> FaderShape {
        FaderShape {
            fdts: self.max_doppler,
            k: self.k_factor,
        }
    }
}
