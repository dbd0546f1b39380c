//! `vco` (GNU Radio `blocks_vco_f`, `blocks_vco_c`).

use crate::DspBlock;
use crate::digital::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::analog::{Vco, VcoOutput};

/// The parameters of `vco`, GNU Radio's `blocks_vco_f` / `blocks_vco_c`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct VcoParams {
    /// sample rate
    #[param(default = 48_000.0, unit = "Hz", above = 0.0, alias = "samp_rate")]
    pub sample_rate: f64,
    /// frequency per unit of input
    #[param(default = 1.0, unit = "rad/s per unit")]
    pub sensitivity: f64,
    /// output amplitude
    #[param(default = 1.0)]
    pub amplitude: f32,
    /// output item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
}

impl VcoParams {
    fn check(&self) -> Result<(), ParamError> {
        if !(self.sensitivity / self.sample_rate).is_finite() {
            return Err(ParamError::new(
                "vco",
                "sensitivity",
                format!(
                    "{} rad/s at {} Hz is no finite phase step",
                    self.sensitivity, self.sample_rate
                ),
            ));
        }
        Ok(())
    }
}

/// The block [`vco`] builds.
pub type VcoBlock<T> = DspBlock<Vco<T>, VcoParams>;

/// A voltage-controlled oscillator: writes `amplitude·cos(phase)` (`f32`)
/// or `amplitude·e^{j·phase}` (`Complex32`), then advances the phase by
/// `sensitivity/sample_rate` times the input (GNU Radio's `vco_f`,
/// `vco_c`).
///
/// # Parameters
/// [`VcoParams`]; `T` is the output item type.
///
/// # Stream Inputs
/// - `in`: `f32` control
///
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`)
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::{VcoParams, vco};
/// let vco = vco::<f32>(VcoParams {
///     sensitivity: 2.0 * std::f64::consts::PI * 1e3,
///     ..Default::default()
/// })?;
/// # let _ = vco;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn vco<T: VcoOutput + rfgraph::Item>(params: VcoParams) -> Result<VcoBlock<T>, ParamError> {
    params.validate()?;
    let kernel =
        Vco::new(params.sample_rate, params.sensitivity, params.amplitude).map_err(dsp_error(
            "vco",
            "sensitivity",
            &[("sample_rate", "sample_rate"), ("amplitude", "amplitude")],
        ))?;
    Ok(DspBlock::tuned(kernel, params, |_, _, name| {
        Err(format!("`{name}` cannot change").into())
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<VcoParams>(
        "vco",
        "Modulators",
        "Voltage-controlled oscillator: the input steers the frequency.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => vco::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `blocks_vco_f` (cosine) and `blocks_vco_c` (phasor): output at the \
         current phase, then `phase += sensitivity/sample_rate · in`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::OfType))
}
