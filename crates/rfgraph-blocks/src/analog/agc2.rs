//! `agc2` (GNU Radio `analog_agc2_xx`).

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::analog::{Agc2, Agc2Sample};

/// Automatic gain control with separate attack and decay rates (GNU
/// Radio's `agc2_cc` / `agc2_ff`).
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Message Inputs
/// - `attack_rate`, `decay_rate`, `reference`, `max_gain`.
///
/// # Parameters
/// - `attack_rate`: gain step rate when the output is off by more than
///   the gain.
/// - `decay_rate`: gain step rate otherwise.
/// - `reference`: target output magnitude.
/// - `gain`: initial gain.
/// - `max_gain`: largest gain (0: unlimited).
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// let agc = rfgraph_blocks::analog::agc2::<Complex32>(0.1, 0.01, 1.0, 1.0, 65536.0)?;
/// # let _ = agc;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn agc2<T: Agc2Sample + rfgraph::Item>(
    attack_rate: f32,
    decay_rate: f32,
    reference: f32,
    gain: f32,
    max_gain: f32,
) -> Result<DspBlock<Agc2<T>>, DspError> {
    Ok(DspBlock::new(Agc2::new(
        attack_rate,
        decay_rate,
        reference,
        gain,
        max_gain,
    )?)
    .setting("attack_rate", |k: &mut Agc2<T>, v: f32| k.attack_rate = v)
    .setting("decay_rate", |k: &mut Agc2<T>, v: f32| k.decay_rate = v)
    .setting("reference", |k: &mut Agc2<T>, v: f32| k.reference = v)
    .setting("max_gain", |k: &mut Agc2<T>, v: f32| k.max_gain = v))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("agc2", "Level Controllers", "AGC with separate attack and decay rates.", |p| {
        let (a, d, r, g, m) = (
            p.f32("attack_rate")?,
            p.f32("decay_rate")?,
            p.f32("reference")?,
            p.f32("gain")?,
            p.f32("max_gain")?,
        );
        let refuse = |e: DspError| p.refused(e);
        rfgraph::for_item_kinds!(p, p.item_type()?, { C32 => Complex32, F32 => f32 } as T
            => agc2::<T>(a, d, r, g, m).map_err(refuse)?)
    })
    .doc("GNU Radio's `analog_agc2_cc` / `agc2_ff`: `out = gain·in`; `gain −= rate·(|out| − reference)` with the attack rate when the error (`|out| − reference`; its magnitude for `f32`, as in GNU Radio) exceeds the gain, the decay rate otherwise; a negative gain restarts at 1e-4; the gain is capped at `max_gain` when that is positive.")
    .param(ParamSpec::float("attack_rate").default(0.1).settable().doc("rate when the error exceeds the gain"))
    .param(ParamSpec::float("decay_rate").default(0.01).settable().doc("rate otherwise"))
    .param(ParamSpec::float("reference").default(1.0).settable().doc("target magnitude"))
    .param(ParamSpec::float("gain").default(1.0).doc("initial gain"))
    .param(ParamSpec::float("max_gain").default(65536.0).settable().doc("largest gain (0: unlimited)"))
    .param(ParamSpec::item_type(&[ItemKind::C32, ItemKind::F32]))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
