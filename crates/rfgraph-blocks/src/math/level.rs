//! Stateful one-item-at-a-time blocks, with their registry entries:
//! GNU Radio's `threshold_ff` (hysteresis), `rms_ff`/`rms_cf` (running
//! RMS) and `sample_and_hold_xx`.

use super::pairs::Zip2;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, MapWith, Setting};

fn boxed(b: impl Block) -> Result<Box<dyn Block>, BuildError> {
    Ok(Box::new(b))
}

/// The state of `threshold`.
struct Threshold {
    lo: f32,
    hi: f32,
    last: f32,
}

/// `threshold`: GNU Radio's `blocks_threshold_ff`.
pub(crate) fn threshold_spec() -> BlockSpec {
    BlockSpec::new(
        "threshold",
        "Level Controllers",
        "1 above `hi`, 0 below `lo`, the last output in between.",
        |p: &Params| {
            let t = Threshold {
                lo: p.f32("lo")?,
                hi: p.f32("hi")?,
                last: p.f32("initial_state")?,
            };
            boxed(
                MapWith::new(t, |t: &mut Threshold, x: f32| {
                    if x > t.hi {
                        t.last = 1.0;
                    } else if x < t.lo {
                        t.last = 0.0;
                    }
                    t.last
                })
                .with_setting(Setting::new("lo", |t: &mut Threshold, v: f32| t.lo = v).doc("lower threshold"))
                .with_setting(Setting::new("hi", |t: &mut Threshold, v: f32| t.hi = v).doc("upper threshold")),
            )
        },
    )
    .doc("A comparator with hysteresis: writes 1.0 for items above `hi`, 0.0 for items below `lo`, and repeats its last output for items in between (`initial_state` before the first decision).")
    .param(ParamSpec::float("lo").default(-0.5).settable().doc("lower threshold"))
    .param(ParamSpec::float("hi").default(0.5).settable().doc("upper threshold"))
    .param(ParamSpec::float("initial_state").default(0.0).doc("output before the first decision"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// The state of `rms`.
struct Rms {
    alpha: f64,
    avg: f64,
}

impl Rms {
    #[inline]
    fn step(&mut self, power: f64) -> f32 {
        self.avg = (1.0 - self.alpha) * self.avg + self.alpha * power;
        self.avg.sqrt() as f32
    }
}

/// `rms`: GNU Radio's `blocks_rms_xx`.
pub(crate) fn rms_spec() -> BlockSpec {
    BlockSpec::new(
        "rms",
        "Level Controllers",
        "Running RMS level: sqrt of a one-pole average of |x|².",
        |p: &Params| {
            let alpha = p.f64("alpha")?;
            if !(alpha > 0.0 && alpha <= 1.0) {
                return Err(p.invalid("alpha", "must be in (0, 1]"));
            }
            let set = || Setting::new("alpha", |r: &mut Rms, a: f64| r.alpha = a).doc("averaging weight");
            let rms = Rms { alpha, avg: 0.0 };
            match p.item_type()? {
                ItemKind::C32 => boxed(
                    MapWith::new(rms, |r: &mut Rms, x: Complex32| r.step(x.norm_sqr() as f64))
                        .with_setting(set()),
                ),
                _ => boxed(
                    MapWith::new(rms, |r: &mut Rms, x: f32| r.step((x * x) as f64)).with_setting(set()),
                ),
            }
        },
    )
    .doc("`avg = (1 − alpha)·avg + alpha·|x|²`, out = `sqrt(avg)`, from `avg = 0`. `type` is the input's; the output is `f32`.")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
    .param(ParamSpec::float("alpha").default(0.0001).settable().doc("averaging weight"))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// `sample_and_hold`: GNU Radio's `blocks_sample_and_hold_xx`.
pub(crate) fn sample_and_hold_spec() -> BlockSpec {
    BlockSpec::new(
        "sample_and_hold",
        "Level Controllers",
        "Passes `in0` while the byte `in1` is not zero, else holds the last value passed.",
        |p: &Params| {
            macro_rules! hold {
                ($t:ty) => {{
                    let mut held: $t = Default::default();
                    boxed(Zip2::new(move |x: $t, ctrl: u8| {
                        if ctrl != 0 {
                            held = x;
                        }
                        held
                    }))
                }};
            }
            match p.item_type()? {
                ItemKind::F32 => hold!(f32),
                ItemKind::I32 => hold!(i32),
                ItemKind::I16 => hold!(i16),
                ItemKind::U8 => hold!(u8),
                other => Err(p.invalid("type", format!("`{other}` is not supported here"))),
            }
        },
    )
    .doc("Item by item: where the control byte `in1` is not zero the data `in0` passes and is kept; elsewhere the kept value (0 at first) is written.")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::I32, ItemKind::I16, ItemKind::U8]))
    .input(PortSpec::new("in0", PortItem::OfType).doc("data"))
    .input(PortSpec::new("in1", PortItem::Fixed(ItemKind::U8)).doc("control"))
    .output(PortSpec::new("out", PortItem::OfType))
}
