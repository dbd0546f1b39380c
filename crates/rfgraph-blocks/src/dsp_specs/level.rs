//! `agc`, `iir_dc_blocker`, `moving_average` and `rotator` on their
//! `rfgraph-dsp` kernels. (`complex_to_mag` and `complex_to_mag_squared`
//! are registered with the general math blocks.)

use super::dsp;
use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{BoxError, Item};
use rfgraph_dsp::{Agc, DcBlocker, MovingAverage, Rotator};
use std::f64::consts::TAU;

const TYPES: [ItemKind; 2] = [ItemKind::C32, ItemKind::F32];

/// The parameters of `agc`, GNU Radio's `analog_agc_xx`; all but the item
/// type may change while it runs.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct AgcParams {
    /// adaptation rate: the gain moves by `rate · (reference − |y|)` per item
    #[param(default = 1e-4, above = 0.0, max = 1.0, settable)]
    pub rate: f32,
    /// target output magnitude
    #[param(default = 1.0, above = 0.0, settable)]
    pub reference: f32,
    /// the gain: the starting one, or where it restarts when set
    #[param(default = 1.0, min = 0.0, settable)]
    pub gain: f32,
    /// the largest gain
    #[param(default = 65_536.0, above = 0.0, settable)]
    pub max_gain: f32,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

impl AgcParams {
    fn check(&self) -> Result<(), rfgraph::ParamError> {
        if self.gain > self.max_gain {
            return Err(rfgraph::ParamError::new(
                "agc",
                "gain",
                format!("{} is above max_gain {}", self.gain, self.max_gain),
            ));
        }
        Ok(())
    }
}

/// The registry entry: `agc`.
pub(crate) fn agc_spec() -> BlockSpec {
    fn block<T: rfgraph_dsp::sample::Sample + Item>(
        p: AgcParams,
    ) -> Result<DspBlock<Agc<T>, AgcParams>, BoxError> {
        let kernel = Agc::<T>::new(p.rate, p.reference, p.gain, p.max_gain)?;
        Ok(DspBlock::tuned(kernel, p, |agc, p, name| {
            match name {
                "rate" => agc.set_rate(p.rate),
                "reference" => agc.set_reference(p.reference),
                "gain" => agc.set_gain(p.gain),
                _ => agc.set_max_gain(p.max_gain),
            }
            .map_err(Into::into)
        }))
    }
    BlockSpec::of::<AgcParams>(
        "agc",
        "Level Controllers",
        "Feedback AGC driving the output magnitude towards a reference.",
        |p| rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32 } as T => block::<T>(p)?),
    )
    .doc(
        "GNU Radio's `analog_agc_xx`: `y = gain · x`, then `gain += rate · (reference − |y|)`, \
         the gain held in `[0, max_gain]`. Setting `gain` while it runs restarts the \
         adaptation from that gain, as GNU Radio's `set_gain` does.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The registry entry: `iir_dc_blocker`.
pub(crate) fn iir_dc_blocker_spec() -> BlockSpec {
    BlockSpec::new(
        "iir_dc_blocker",
        "Filters",
        "One-pole, one-zero DC blocker.",
        |p| {
            let pole = p.f32("pole")?;
            rfgraph::for_item_kinds!(p, p.item_type()?, { C32 => Complex32, F32 => f32 } as T => {
                crate::DspBlock::new(DcBlocker::<T>::new(pole).map_err(dsp(p))?)
            })
        },
    )
    .doc(
        "`y[n] = x[n] − x[n−1] + pole · y[n−1]`: removes the DC component, with a −3 dB \
         corner near `(1 − pole) / 2π` cycles per sample. Not GNU Radio's `dc_blocker_xx` \
         (a moving-average design with a delay `D`), hence its own name.",
    )
    .param(
        ParamSpec::float("pole")
            .default(0.999)
            .doc("in (0, 1); closer to 1 is a narrower notch"),
    )
    .param(ParamSpec::item_type(&TYPES))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The registry entry: `moving_average`.
pub(crate) fn moving_average_spec() -> BlockSpec {
    BlockSpec::new(
        "moving_average",
        "Filters",
        "The scaled sum of the last N items.",
        |p| {
            let (length, scale) = (p.usize("length")?, p.f32("scale")?);
            rfgraph::for_item_kinds!(p, p.item_type()?, { C32 => Complex32, F32 => f32 } as T => {
                crate::DspBlock::new(MovingAverage::<T>::new(length, scale).map_err(dsp(p))?)
            })
        },
    )
    .doc(
        "GNU Radio's `blocks_moving_average_xx` (one item per vector): \
         `y[n] = scale · Σ x[n−k]` over `k < length`, starting from zeros.",
    )
    .param(
        ParamSpec::uint("length")
            .default(1000u64)
            .doc("items summed"),
    )
    .param(
        ParamSpec::float("scale")
            .default(1.0)
            .doc("factor applied to the sum (1/length averages)"),
    )
    .param(ParamSpec::item_type(&TYPES))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The parameters of `rotator`, GNU Radio's `blocks_rotator_cc`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct RotatorParams {
    /// phase step per sample (`2π f / fs` shifts by `f` Hz);
    /// phase-continuous when it changes
    #[param(default = 0.0, unit = "rad/sample", settable)]
    pub phase_inc: f64,
}

/// The registry entry: `rotator`.
pub(crate) fn rotator_spec() -> BlockSpec {
    BlockSpec::of::<RotatorParams>(
        "rotator",
        "Stream Operators",
        "Shifts a complex stream in frequency by a phase step per sample.",
        |p| {
            let kernel = Rotator::new(p.phase_inc / TAU)?;
            let block =
                DspBlock::tuned(kernel, p, |k, p, _| Ok(k.set_frequency(p.phase_inc / TAU)?));
            Ok(Box::new(block))
        },
    )
    .doc(
        "GNU Radio's `blocks_rotator_cc`: `y[n] = x[n] · e^{j·phase_inc·n}`, phase-continuous \
         across calls and changes of `phase_inc`. A shift of `f` Hz at rate `fs` is \
         `phase_inc = 2π f / fs`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
