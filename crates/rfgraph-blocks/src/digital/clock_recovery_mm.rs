//! `clock_recovery_mm`: Mueller & Müller symbol timing recovery (GNU Radio
//! `digital_clock_recovery_mm_xx`).

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::{ClockRecoveryMm, MmSample};

/// Recovers symbol timing and writes one sample per symbol (GNU Radio's
/// `clock_recovery_mm_ff` / `_cc`, with the same detector, loop and
/// 8-tap MMSE interpolator).
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`), about `omega` samples per symbol
///
/// # Stream Outputs
/// - `out`: `T`, one per symbol
///
/// # Parameters
/// - `omega`: samples per symbol (> 1).
/// - `gain_omega`: omega loop gain (GNU Radio's `0.25·gain_mu²`).
/// - `mu`: initial phase in `[0, 1)`.
/// - `gain_mu`: phase loop gain.
/// - `omega_relative_limit`: largest relative change of omega.
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// let mm = rfgraph_blocks::digital::clock_recovery_mm::<Complex32>(4.0, 0.25 * 0.175 * 0.175, 0.5, 0.175, 0.005)?;
/// # let _ = mm;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn clock_recovery_mm<T: MmSample + rfgraph::Item>(
    omega: f32,
    gain_omega: f32,
    mu: f32,
    gain_mu: f32,
    omega_relative_limit: f32,
) -> Result<DspBlock<ClockRecoveryMm<T>>, DspError> {
    Ok(DspBlock::new(ClockRecoveryMm::new(
        omega,
        gain_omega,
        mu,
        gain_mu,
        omega_relative_limit,
    )?))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("clock_recovery_mm", "Digital", "Mueller & Müller clock recovery: one output per symbol.", |p| {
        let (omega, go, mu, gm, lim) = (
            p.f32("omega")?,
            p.f32("gain_omega")?,
            p.f32("mu")?,
            p.f32("gain_mu")?,
            p.f32("omega_relative_limit")?,
        );
        let refuse = |e: DspError| p.refused(e);
        rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T
            => clock_recovery_mm::<T>(omega, go, mu, gm, lim).map_err(refuse)?)
    })
    .doc("GNU Radio's `digital_clock_recovery_mm_ff` / `_cc`: same timing error detector, loop update, clipping and omega limit; the 8-tap, 128-step MMSE interpolator's taps are computed as GNU Radio's generator did and agree with its table to about 1e-5.")
    .param(ParamSpec::float("omega").default(2.0).doc("samples per symbol"))
    .param(ParamSpec::float("gain_omega").default(0.25 * 0.175 * 0.175).doc("omega loop gain"))
    .param(ParamSpec::float("mu").default(0.5).doc("initial fractional phase, [0, 1)"))
    .param(ParamSpec::float("gain_mu").default(0.175).doc("phase loop gain"))
    .param(ParamSpec::float("omega_relative_limit").default(0.005).doc("largest relative change of omega"))
    .param(ParamSpec::item_type(&[ItemKind::C32, ItemKind::F32]))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType).doc("one sample per symbol"))
}
