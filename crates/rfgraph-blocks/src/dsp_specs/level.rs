//! `agc`, `iir_dc_blocker`, `moving_average` and `rotator` on their
//! `rfgraph-dsp` kernels. (`complex_to_mag` and `complex_to_mag_squared`
//! are registered with the general math blocks.)

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
use rfgraph::{BoxError, Item};
use rfgraph_dsp::moving_average::MAX_MOVING_AVERAGE;
use rfgraph_dsp::{Agc, DcBlocker, MovingAverage, Rotator};
use std::f64::consts::TAU;

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

/// The parameters of `iir_dc_blocker`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct IirDcBlockerParams {
    /// the pole, in (0, 1); closer to 1 is a narrower notch
    #[param(default = 0.999, above = 0.0, below = 1.0)]
    pub pole: f32,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

impl IirDcBlockerParams {
    /// The pole as `f32`: 0.999999999 rounds to 1, which blocks nothing.
    fn check(&self) -> Result<(), rfgraph::ParamError> {
        if !(self.pole > 0.0 && self.pole < 1.0) {
            return Err(rfgraph::ParamError::new(
                "iir_dc_blocker",
                "pole",
                format!("{} as a 32-bit float is not in (0, 1)", self.pole),
            ));
        }
        Ok(())
    }
}

/// The registry entry: `iir_dc_blocker`.
pub(crate) fn iir_dc_blocker_spec() -> BlockSpec {
    fn block<T: rfgraph_dsp::sample::Sample + Item>(
        p: IirDcBlockerParams,
    ) -> Result<DspBlock<DcBlocker<T>, IirDcBlockerParams>, BoxError> {
        Ok(DspBlock::with_params(DcBlocker::<T>::new(p.pole)?, p))
    }
    BlockSpec::of::<IirDcBlockerParams>(
        "iir_dc_blocker",
        "Filters",
        "One-pole, one-zero DC blocker.",
        |p| rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32 } as T => block::<T>(p)?),
    )
    .doc(
        "`y[n] = x[n] − x[n−1] + pole · y[n−1]`: removes the DC component, with a −3 dB \
         corner near `(1 − pole) / 2π` cycles per sample. Not GNU Radio's `dc_blocker_xx` \
         (a moving-average design with a delay `D`: that is `dc_blocker`), hence its own \
         name.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The parameters of `moving_average`, GNU Radio's
/// `blocks_moving_average_xx`; the length and the scale may change while
/// it runs (GNU Radio's `set_length_and_scale`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MovingAverageParams {
    /// items summed; when it changes, the window keeps its most recent
    /// items (a longer one starts with zeros before them)
    #[param(default = 1000, min = 1, max = MAX_MOVING_AVERAGE, settable)]
    pub length: usize,
    /// factor applied to the sum (1/length averages), from the next item on
    #[param(default = 1.0, settable)]
    pub scale: f32,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

/// The registry entry: `moving_average`.
pub(crate) fn moving_average_spec() -> BlockSpec {
    fn block<T: rfgraph_dsp::sample::Sample + Item>(
        p: MovingAverageParams,
    ) -> Result<DspBlock<MovingAverage<T>, MovingAverageParams>, BoxError> {
        let kernel = MovingAverage::<T>::new(p.length, p.scale)?;
        Ok(DspBlock::tuned(kernel, p, |ma, p, name| {
            match name {
                "length" => ma.set_length(p.length),
                _ => ma.set_scale(p.scale),
            }
            .map_err(Into::into)
        }))
    }
    BlockSpec::of::<MovingAverageParams>(
        "moving_average",
        "Filters",
        "The scaled sum of the last N items.",
        |p| rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32 } as T => block::<T>(p)?),
    )
    .doc(
        "GNU Radio's `blocks_moving_average_xx` (one item per vector): \
         `y[n] = scale · Σ x[n−k]` over `k < length`, starting from zeros. `length` and \
         `scale` may change while it runs, as GNU Radio's `set_length_and_scale`: from \
         the next item on, the window keeping its most recent items.",
    )
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
