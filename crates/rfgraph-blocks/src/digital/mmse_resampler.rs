//! `mmse_resampler`: GNU Radio 3.10's `mmse_resampler_xx` (fractional
//! resampler, `cc` and `ff`) at a fixed, settable ratio.

use super::params::dsp_error;
use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::digital::{MmSample, MmseResampler};

/// The parameters of `mmse_resampler`, GNU Radio's `mmse_resampler_xx`.
/// Like GNU Radio's `set_resamp_ratio`, the ratio may change while it
/// runs.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MmseResamplerParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
    /// initial fractional phase, in samples
    #[param(default = 0.0, min = 0.0, below = 1.0)]
    pub phase_shift: f64,
    /// input samples per output sample
    #[param(default = 1.0, above = 0.0, below = 1e6, settable)]
    pub resamp_ratio: f64,
}

/// The block [`mmse_resampler`] builds.
pub type MmseResamplerBlock<T> = DspBlock<MmseResampler<T>, MmseResamplerParams>;

/// Resamples by `1/resamp_ratio` with the 8-tap MMSE interpolator (GNU
/// Radio's `mmse_resampler_cc` / `_ff`); output `n` is the input at `3 +
/// phase_shift + n·resamp_ratio`. The ratio may change while it runs.
///
/// # Parameters
/// [`MmseResamplerParams`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`, one per `resamp_ratio` inputs
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{MmseResamplerParams, mmse_resampler};
/// let r = mmse_resampler::<f32>(MmseResamplerParams {
///     resamp_ratio: 1.25,
///     ..Default::default()
/// })?;
/// # let _ = r;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn mmse_resampler<T: MmSample + rfgraph::Item>(
    params: MmseResamplerParams,
) -> Result<MmseResamplerBlock<T>, ParamError> {
    params.validate()?;
    let kernel = MmseResampler::new(params.phase_shift, params.resamp_ratio).map_err(dsp_error(
        "mmse_resampler",
        "resamp_ratio",
        &[("phase_shift", "phase_shift"), ("ratio", "resamp_ratio")],
    ))?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        kernel.set_ratio(p.resamp_ratio).map_err(Into::into)
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<MmseResamplerParams>(
        "mmse_resampler",
        "Digital",
        "Fractional resampler: the 8-tap MMSE interpolator at a fixed ratio.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => mmse_resampler::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `mmse_resampler_cc` / `_ff`: the same interpolator, phase and \
         single-precision phase arithmetic. `resamp_ratio` may change while it runs \
         (GNU Radio's `set_resamp_ratio`). Not provided: the optional `rate` stream input \
         and the `msg_in` message input that change the ratio.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
