//! `fading_model` (GNU Radio `channels_fading_model`): flat Rayleigh or
//! Rician fading, the stream times one sum-of-sinusoids gain.

use super::flat_fader::{FaderShape, FlatFader};
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, ParamSet};

/// The most sinusoids a fader sums (the work per sample grows with it).
pub(crate) const MAX_SINUSOIDS: usize = 4096;

/// The parameters of [`FadingModel`] (`fading_model`, GNU Radio's
/// `channels_fading_model`). `max_doppler` and `k_factor` may change
/// while it runs, as GNU Radio's `set_fDTs` and `set_K` allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct FadingModelParams {
    /// sinusoids summed (8 is GNU Radio's advice)
    #[param(default = 8, min = 1, max = MAX_SINUSOIDS, alias = "N")]
    pub sinusoids: usize,
    /// normalised maximum Doppler frequency, `fD·Ts` (Doppler in Hz over
    /// the sample rate); a change also restarts the random walk's step
    #[param(
        default = 0.01,
        min = 0.0,
        unit = "cycles/sample",
        alias = "fDTs",
        settable
    )]
    pub max_doppler: f32,
    /// a line-of-sight path: Rician fading of factor `k_factor`;
    /// otherwise Rayleigh
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
    /// seed of the phases (`seed + 1` seeds the random walk)
    #[param(default = 0)]
    pub seed: u32,
}

impl FadingModelParams {
    fn shape(&self) -> FaderShape {
        FaderShape {
            fdts: self.max_doppler,
            k: self.k_factor,
        }
    }
}

/// The arithmetic of [`FadingModel`].
pub struct FadingModelKernel {
    params: FadingModelParams,
    fader: FlatFader,
}

impl FixedRateKernel for FadingModelKernel {
    type In = Complex32;
    type Out = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = x * self.fader.next();
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [Complex32]) {
        for x in data {
            *x *= self.fader.next();
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        self.fader.update(self.params.shape());
        Ok(())
    }
}

/// The block [`fading_model`] builds.
pub type FadingModel = FixedRateBlock<FadingModelKernel>;

/// Flat fading, GNU Radio's `channels.fading_model`, value for value:
/// every sample times the gain of a sum of `sinusoids` sinusoids whose
/// Doppler shifts follow a bounded random walk of their arrival angles
/// (Alimohammad et al., "Compact Rayleigh and Rician fading simulator
/// based on random walk processes", 2008), plus a line-of-sight
/// sinusoid of power `K/(K+1)` when `los` is set (the scattered part
/// then has `1/(K+1)`): average power 1. GNU Radio's random numbers
/// (`std::mt19937` seeded with `seed` and `seed + 1`, libstdc++'s uniform
/// distribution), its cosine table of 8192 entries and its `f32`/`f64`
/// steps are reproduced, so a seed gives GNU Radio's gains to the bit.
/// `max_doppler` and `k_factor` may change while it runs.
///
/// # Parameters
/// [`FadingModelParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`
///
/// # Message Inputs
/// - `max_doppler` (`fDTs`), `k_factor` (`K`)
///
/// # Usage
/// ```
/// use rfgraph_blocks::channels::{FadingModelParams, fading_model};
/// let fading = fading_model(FadingModelParams {
///     max_doppler: 100.0 / 1e6,
///     los: true,
///     seed: 7,
///     ..Default::default()
/// })?;
/// # let _ = fading;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn fading_model(params: FadingModelParams) -> Result<FadingModel, ParamError> {
    params.validate()?;
    let fader = FlatFader::new(params.sinusoids, params.shape(), params.los, params.seed);
    FixedRateBlock::new(FadingModelKernel { params, fader })
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<FadingModelParams>(
        "fading_model",
        "Channels",
        "Flat Rayleigh or Rician fading (sum of sinusoids, random-walk Doppler).",
        |p| Ok(Box::new(fading_model(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `channels_fading_model`, value for value: `out = in · h`, `h` the sum of \
         `sinusoids` sinusoids (amplitude 1/√N per component) whose Doppler shifts \
         (`max_doppler` = fD·Ts) follow a bounded random walk of their arrival angles, plus a \
         line-of-sight sinusoid with `los` (Rician factor `k_factor`); average power 1. GNU \
         Radio's generator (`std::mt19937` seeded with `seed` and `seed + 1`), its 8192-entry \
         cosine table and its float steps are reproduced, so a seed gives GNU Radio's gains \
         to the bit. `max_doppler` and `k_factor` may change while it runs (GNU Radio's \
         `set_fDTs`, `set_K`).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
