//! `vco` (GNU Radio `blocks_vco_f`, `blocks_vco_c`).

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::analog::{Vco, VcoOutput};

/// A voltage-controlled oscillator: writes `amplitude·cos(phase)` (`f32`)
/// or `amplitude·e^{j·phase}` (`Complex32`), then advances the phase by
/// `sensitivity/sample_rate` times the input (GNU Radio's `vco_f`,
/// `vco_c`).
///
/// # Stream Inputs
/// - `in`: `f32` control
///
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`)
///
/// # Parameters
/// - `sample_rate`: Hz.
/// - `sensitivity`: rad/s per unit of input.
/// - `amplitude`: output amplitude.
///
/// # Usage
/// ```
/// let vco = rfgraph_blocks::analog::vco::<f32>(48e3, 2.0 * std::f64::consts::PI * 1e3, 1.0)?;
/// # let _ = vco;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn vco<T: VcoOutput + rfgraph::Item>(
    sample_rate: f64,
    sensitivity: f64,
    amplitude: f32,
) -> Result<DspBlock<Vco<T>>, DspError> {
    Ok(DspBlock::new(Vco::new(
        sample_rate,
        sensitivity,
        amplitude,
    )?))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("vco", "Modulators", "Voltage-controlled oscillator: the input steers the frequency.", |p| {
        let (fs, k, a) = (p.f64("sample_rate")?, p.f64("sensitivity")?, p.f32("amplitude")?);
        let refuse = |e: DspError| p.refused(e);
        rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T
            => vco::<T>(fs, k, a).map_err(refuse)?)
    })
    .doc("GNU Radio's `blocks_vco_f` (cosine) and `blocks_vco_c` (phasor): output at the current phase, then `phase += sensitivity/sample_rate · in`.")
    .param(ParamSpec::float("sample_rate").default(48000.0).unit("Hz").doc("sample rate"))
    .param(ParamSpec::float("sensitivity").default(1.0).unit("rad/s per unit").doc("frequency per unit of input"))
    .param(ParamSpec::float("amplitude").default(1.0).doc("output amplitude"))
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::OfType))
}
