//! Stateful one-item-at-a-time blocks, with their registry entries:
//! GNU Radio's `threshold_ff` (hysteresis), `rms_ff`/`rms_cf` (running
//! RMS) and `sample_and_hold_xx`. Their state lives in the closures of
//! [`MapParams`] and [`Zip2`], so a settable parameter changes from one
//! item on and the state carries on.

use super::pairs::Zip2;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, MapParams, ParamSet};

/// The parameters of `threshold`; `lo` and `hi` may change while it
/// runs, as GNU Radio's `set_lo` and `set_hi` do.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct ThresholdParams {
    /// lower threshold: items below it give 0
    #[param(default = -0.5, alias = "low", settable)]
    pub lo: f32,
    /// upper threshold: items above it give 1
    #[param(default = 0.5, alias = "high", settable)]
    pub hi: f32,
    /// output before the first decision
    #[param(default = 0.0, alias = "init")]
    pub initial_state: f32,
}

/// `threshold`: GNU Radio's `blocks_threshold_ff`.
pub(crate) fn threshold_spec() -> BlockSpec {
    BlockSpec::of::<ThresholdParams>(
        "threshold",
        "Level Controllers",
        "1 above `hi`, 0 below `lo`, the last output in between.",
        |p| {
            let mut last = p.initial_state;
            Ok(Box::new(MapParams::new(
                p,
                move |t: &ThresholdParams, x: f32| {
                    if x > t.hi {
                        last = 1.0;
                    } else if x < t.lo {
                        last = 0.0;
                    }
                    last
                },
            )))
        },
    )
    .doc("A comparator with hysteresis: writes 1.0 for items above `hi`, 0.0 for items below `lo`, and repeats its last output for items in between (`initial_state` before the first decision). `lo` and `hi` may change while it runs; the last output stays.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// The parameters of `rms`; `alpha` may change while it runs, keeping
/// the average, as GNU Radio's `set_alpha` does.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct RmsParams {
    /// the input's item type (the output is `f32`)
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
    /// averaging weight of each new item
    #[param(default = 0.0001, above = 0.0, max = 1.0, settable)]
    pub alpha: f64,
}

/// One step of the average: the new RMS level.
#[inline]
fn rms_step(avg: &mut f64, alpha: f64, power: f64) -> f32 {
    *avg = (1.0 - alpha) * *avg + alpha * power;
    avg.sqrt() as f32
}

/// `rms`: GNU Radio's `blocks_rms_xx`.
pub(crate) fn rms_spec() -> BlockSpec {
    BlockSpec::of::<RmsParams>(
        "rms",
        "Level Controllers",
        "Running RMS level: sqrt of a one-pole average of |x|².",
        |p| {
            let mut avg = 0.0;
            let block: Box<dyn Block> = match p.item {
                ItemKind::C32 => Box::new(MapParams::new(p, move |r: &RmsParams, x: Complex32| {
                    rms_step(&mut avg, r.alpha, x.norm_sqr() as f64)
                })),
                ItemKind::F32 => Box::new(MapParams::new(p, move |r: &RmsParams, x: f32| {
                    rms_step(&mut avg, r.alpha, (x * x) as f64)
                })),
                other => return Err(format!("item type `{other}` is not supported here").into()),
            };
            Ok(block)
        },
    )
    .doc("`avg = (1 − alpha)·avg + alpha·|x|²`, out = `sqrt(avg)`, from `avg = 0`. `type` is the input's; the output is `f32`. `alpha` may change while it runs; the average carries on.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// The parameters of `sample_and_hold`.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct SampleAndHoldParams {
    /// stream item type of the data and the output
    #[param(name = "type", kinds(F32, I32, I16, U8))]
    pub item: ItemKind,
}

/// `sample_and_hold`: GNU Radio's `blocks_sample_and_hold_xx`.
pub(crate) fn sample_and_hold_spec() -> BlockSpec {
    fn hold<T: rfgraph::Item + Default>(p: SampleAndHoldParams) -> Box<dyn Block> {
        let mut held = T::default();
        Box::new(
            Zip2::new(move |x: T, ctrl: u8| {
                if ctrl != 0 {
                    held = x;
                }
                held
            })
            .with_params(p),
        )
    }
    BlockSpec::of::<SampleAndHoldParams>(
        "sample_and_hold",
        "Level Controllers",
        "Passes `in0` while the byte `in1` is not zero, else holds the last value passed.",
        |p| {
            match p.item {
                ItemKind::F32 => Ok(hold::<f32>(p)),
                ItemKind::I32 => Ok(hold::<i32>(p)),
                ItemKind::I16 => Ok(hold::<i16>(p)),
                ItemKind::U8 => Ok(hold::<u8>(p)),
                other => Err(format!("item type `{other}` is not supported here").into()),
            }
        },
    )
    .doc("Item by item: where the control byte `in1` is not zero the data `in0` passes and is kept; elsewhere the kept value (0 at first) is written.")
    .input(PortSpec::new("in0", PortItem::OfType).doc("data"))
    .input(PortSpec::new("in1", PortItem::Fixed(ItemKind::U8)).doc("control"))
    .output(PortSpec::new("out", PortItem::OfType))
}
