//! `frequency_modulator` (GNU Radio `analog_frequency_modulator_fc`).

use crate::DspBlock;
use crate::digital::params::dsp_error;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::analog::FrequencyModulator;

/// The parameters of `frequency_modulator`, GNU Radio's
/// `analog_frequency_modulator_fc`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct FrequencyModulatorParams {
    /// phase step per unit of input (`2π·deviation/sample_rate`); the
    /// phase goes on when it changes
    #[param(default = 1.0, unit = "rad/sample", settable)]
    pub sensitivity: f32,
}

/// The block [`frequency_modulator`] builds.
pub type FrequencyModulatorBlock = DspBlock<FrequencyModulator, FrequencyModulatorParams>;

/// Frequency modulation: `phase += sensitivity·x`, `out = e^{j·phase}`
/// (GNU Radio's `frequency_modulator_fc`). The sensitivity may change
/// while it runs.
///
/// # Parameters
/// [`FrequencyModulatorParams`].
///
/// # Stream Inputs
/// - `in`: `f32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, unit magnitude
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::{FrequencyModulatorParams, frequency_modulator};
/// let fm = frequency_modulator(FrequencyModulatorParams {
///     sensitivity: 2.0 * std::f32::consts::PI * 5e3 / 48e3,
/// })?;
/// # let _ = fm;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn frequency_modulator(
    params: FrequencyModulatorParams,
) -> Result<FrequencyModulatorBlock, ParamError> {
    params.validate()?;
    let kernel = FrequencyModulator::new(params.sensitivity).map_err(dsp_error(
        "frequency_modulator",
        "sensitivity",
        &[],
    ))?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        Ok(kernel.set_sensitivity(p.sensitivity)?)
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<FrequencyModulatorParams>(
        "frequency_modulator",
        "Modulators",
        "Frequency modulator: phase advances by sensitivity times the input.",
        |p| Ok(Box::new(frequency_modulator(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `analog_frequency_modulator_fc`: `phase += sensitivity·in` (kept in \
         [−π, π)), `out = cos(phase) + j·sin(phase)`. The sensitivity may change while it \
         runs (GNU Radio's `set_sensitivity`), phase-continuously.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
