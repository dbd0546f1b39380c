//! `agc`, `iir_dc_blocker`, `moving_average`, `rotator`, `complex_to_mag`
//! and `complex_to_mag_squared` on their `rfgraph-dsp` kernels.

use super::{boxed, dsp};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{Block, Setting};
use rfgraph_dsp::{Agc, ComplexToMag, ComplexToMagSquared, DcBlocker, MovingAverage, Rotator};
use std::f64::consts::TAU;

const TYPES: [ItemKind; 2] = [ItemKind::C32, ItemKind::F32];

/// The registry entry: `agc`.
pub(crate) fn agc_spec() -> BlockSpec {
    BlockSpec::new(
        "agc",
        "Level Controllers",
        "Feedback AGC driving the output magnitude towards a reference.",
        |p| {
            let (rate, reference) = (p.f32("rate")?, p.f32("reference")?);
            let (gain, max_gain) = (p.f32("gain")?, p.f32("max_gain")?);
            rfgraph::for_item_kinds!(p, p.item_type()?, { C32 => Complex32, F32 => f32 } as T => {
                crate::DspBlock::new(Agc::<T>::new(rate, reference, gain, max_gain).map_err(dsp(p))?)
            })
        },
    )
    .doc(
        "GNU Radio's `analog_agc_xx`: `y = gain · x`, then `gain += rate · (reference − |y|)`, \
         the gain held at or below `max_gain`.",
    )
    .param(ParamSpec::float("rate").default(1e-4).doc("adaptation rate, in (0, 1]"))
    .param(ParamSpec::float("reference").default(1.0).doc("target output magnitude"))
    .param(ParamSpec::float("gain").default(1.0).doc("initial gain"))
    .param(ParamSpec::float("max_gain").default(65_536.0).doc("largest gain"))
    .param(ParamSpec::item_type(&TYPES))
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

/// The registry entry: `rotator`.
pub(crate) fn rotator_spec() -> BlockSpec {
    BlockSpec::new(
        "rotator",
        "Stream Operators",
        "Shifts a complex stream in frequency by a phase step per sample.",
        |p| {
            let kernel = Rotator::new(p.f64("phase_inc")? / TAU).map_err(dsp(p))?;
            Ok(Box::new(
                crate::DspBlock::new(kernel).with_setting(
                    Setting::try_new("phase_inc", |k: &mut Rotator, inc: f64| {
                        k.set_frequency(inc / TAU)
                    })
                    .unit("rad/sample")
                    .doc("phase step per sample; phase-continuous"),
                ),
            ) as Box<dyn Block>)
        },
    )
    .doc(
        "GNU Radio's `blocks_rotator_cc`: `y[n] = x[n] · e^{j·phase_inc·n}`, phase-continuous \
         across calls and changes of `phase_inc` (settable while it runs). A shift of \
         `f` Hz at rate `fs` is `phase_inc = 2π f / fs`.",
    )
    .param(
        ParamSpec::float("phase_inc")
            .default(0.0)
            .unit("rad/sample")
            .doc("phase step per sample")
            .settable(),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}

/// The registry entry: `complex_to_mag`.
pub(crate) fn complex_to_mag_spec() -> BlockSpec {
    BlockSpec::new(
        "complex_to_mag",
        "Type Converters",
        "The magnitude |x| of each item.",
        |_| Ok(boxed(ComplexToMag::new())),
    )
    .doc("GNU Radio's `blocks_complex_to_mag` (one item per vector): `y = |x|`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// The registry entry: `complex_to_mag_squared`.
pub(crate) fn complex_to_mag_squared_spec() -> BlockSpec {
    BlockSpec::new(
        "complex_to_mag_squared",
        "Type Converters",
        "The squared magnitude |x|² of each item.",
        |_| Ok(boxed(ComplexToMagSquared::new())),
    )
    .doc("GNU Radio's `blocks_complex_to_mag_squared` (one item per vector): `y = re² + im²`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
