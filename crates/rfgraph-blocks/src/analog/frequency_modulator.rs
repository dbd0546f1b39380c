//! `frequency_modulator` (GNU Radio `analog_frequency_modulator_fc`).

use crate::DspBlock;
use rfgraph::Setting;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::analog::FrequencyModulator;

/// Frequency modulation: `phase += sensitivity·x`, `out = e^{j·phase}`
/// (GNU Radio's `frequency_modulator_fc`).
///
/// # Stream Inputs
/// - `in`: `f32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, unit magnitude
///
/// # Message Inputs
/// - `sensitivity`: rad/sample per unit of input.
///
/// # Parameters
/// - `sensitivity`: rad/sample per unit (`2π·deviation/sample_rate`).
///
/// # Usage
/// ```
/// let fm = rfgraph_blocks::analog::frequency_modulator(2.0 * std::f32::consts::PI * 5e3 / 48e3)?;
/// # let _ = fm;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn frequency_modulator(sensitivity: f32) -> Result<DspBlock<FrequencyModulator>, DspError> {
    Ok(
        DspBlock::new(FrequencyModulator::new(sensitivity)?).with_setting(
            Setting::try_new("sensitivity", |k: &mut FrequencyModulator, s: f32| {
                k.set_sensitivity(s)
            })
            .unit("rad/sample"),
        ),
    )
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("frequency_modulator", "Modulators", "Frequency modulator: phase advances by sensitivity times the input.", |p| {
        Ok(Box::new(frequency_modulator(p.f32("sensitivity")?).map_err(|e| p.refused(e))?) as Box<dyn rfgraph::Block>)
    })
    .doc("GNU Radio's `analog_frequency_modulator_fc`: `phase += sensitivity·in` (kept in [−π, π)), `out = cos(phase) + j·sin(phase)`.")
    .param(ParamSpec::float("sensitivity").default(1.0).unit("rad/sample").settable().doc("phase step per unit of input"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
