//! `fading_model` (GNU Radio `channels_fading_model`): flat Rayleigh or
//! Rician fading, the stream times one sum-of-sinusoids gain.

use super::fader_params::FaderParams;
use super::flat_fader::FlatFader;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, ParamSet};

/// The parameters of [`FadingModel`] (`fading_model`, GNU Radio's
/// `channels_fading_model`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct FadingModelParams {
    /// how it fades
    #[param(flatten)]
    pub fader: FaderParams,
    /// seed of the phases (`seed + 1` seeds the random walk)
    #[param(default = 0)]
    pub seed: u32,
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
        self.fader.update(self.params.fader.shape());
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
/// use rfgraph_blocks::channels::{FaderParams, FadingModelParams, fading_model};
/// let fading = fading_model(FadingModelParams {
///     fader: FaderParams {
///         max_doppler: 100.0 / 1e6,
///         los: true,
///         ..Default::default()
///     },
///     seed: 7,
///     ..Default::default()
/// })?;
/// # let _ = fading;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn fading_model(params: FadingModelParams) -> Result<FadingModel, ParamError> {
    params.validate()?;
    let fader = FlatFader::new(
        params.fader.sinusoids,
        params.fader.shape(),
        params.fader.los,
        params.seed,
    );
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
