//! `agc2` (GNU Radio `analog_agc2_xx`).

use crate::DspBlock;
use crate::digital::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::analog::{Agc2, Agc2Sample};

/// The parameters of `agc2`, GNU Radio's `analog_agc2_xx`; all but the
/// item type may change while it runs, as GNU Radio's setters allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct Agc2Params {
    /// gain step rate when the error exceeds the gain
    #[param(default = 0.1, min = 0.0, settable)]
    pub attack_rate: f32,
    /// gain step rate otherwise
    #[param(default = 0.01, min = 0.0, settable)]
    pub decay_rate: f32,
    /// target output magnitude
    #[param(default = 1.0, min = 0.0, settable)]
    pub reference: f32,
    /// the gain: the starting one, or where the loop goes on from when it
    /// changes (GNU Radio's `set_gain`)
    #[param(default = 1.0, min = 0.0, settable)]
    pub gain: f32,
    /// the largest gain (0: unlimited)
    #[param(default = 65536.0, min = 0.0, settable)]
    pub max_gain: f32,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

/// The block [`agc2`] builds.
pub type Agc2Block<T> = DspBlock<Agc2<T>, Agc2Params>;

/// Automatic gain control with separate attack and decay rates (GNU
/// Radio's `agc2_cc` / `agc2_ff`). Every rate, the reference, the gain and
/// its limit may change while it runs.
///
/// # Parameters
/// [`Agc2Params`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::analog::{Agc2Params, agc2};
/// let agc = agc2::<Complex32>(Agc2Params::default())?;
/// # let _ = agc;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn agc2<T: Agc2Sample + rfgraph::Item>(params: Agc2Params) -> Result<Agc2Block<T>, ParamError> {
    params.validate()?;
    let p = &params;
    let kernel = Agc2::new(p.attack_rate, p.decay_rate, p.reference, p.gain, p.max_gain).map_err(
        dsp_error(
            "agc2",
            "gain",
            &[
                ("attack_rate", "attack_rate"),
                ("decay_rate", "decay_rate"),
                ("reference", "reference"),
                ("max_gain", "max_gain"),
            ],
        ),
    )?;
    Ok(DspBlock::tuned(kernel, params, |agc, p, name| {
        match name {
            "attack_rate" => agc.attack_rate = p.attack_rate,
            "decay_rate" => agc.decay_rate = p.decay_rate,
            "reference" => agc.reference = p.reference,
            "max_gain" => agc.max_gain = p.max_gain,
            _ => agc.set_gain(p.gain)?,
        }
        Ok(())
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<Agc2Params>(
        "agc2",
        "Level Controllers",
        "AGC with separate attack and decay rates.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32 } as T
                => agc2::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `analog_agc2_cc` / `agc2_ff`: `out = gain·in`; `gain −= \
         rate·(|out| − reference)` with the attack rate when the error (`|out| − reference`; \
         its magnitude for `f32`, as in GNU Radio) exceeds the gain, the decay rate \
         otherwise; a negative gain restarts at 1e-4; the gain is capped at `max_gain` when \
         that is positive. Every parameter but the item type may change while it runs; a \
         new `gain` is where the loop goes on from, as GNU Radio's `set_gain` does.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
