//! `clock_recovery_mm`: Mueller & Müller symbol timing recovery (GNU Radio
//! `digital_clock_recovery_mm_xx`).

use super::params::dsp_error;
use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::digital::{ClockRecoveryMm, MmSample};

/// The parameters of `clock_recovery_mm`, GNU Radio's
/// `digital_clock_recovery_mm_xx`. Like GNU Radio's callbacks, `omega`,
/// `gain_omega`, `mu` and `gain_mu` may change while it runs.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ClockRecoveryMmParams {
    /// samples per symbol; a change restarts the estimate there and
    /// centres its limits on it (GNU Radio's `set_omega`)
    #[param(default = 2.0, above = 1.0, below = limits::MAX_FACTOR, settable)]
    pub omega: f32,
    /// omega loop gain (GNU Radio's `0.25·gain_mu²`)
    #[param(default = (0.25f64 * 0.175 * 0.175) as f32, min = 0.0, settable)]
    pub gain_omega: f32,
    /// fractional phase of the next interpolation: the first at the start,
    /// a jump when it changes
    #[param(default = 0.5, min = 0.0, below = 1.0, settable)]
    pub mu: f32,
    /// phase loop gain
    #[param(default = 0.175, min = 0.0, settable)]
    pub gain_mu: f32,
    /// how far omega may move from its centre, relative to it
    #[param(default = 0.005, min = 0.0)]
    pub omega_relative_limit: f32,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

impl ClockRecoveryMmParams {
    /// What the ranges cannot see: values that round onto their bound
    /// in single precision.
    fn check(&self) -> Result<(), ParamError> {
        if self.omega <= 1.0 || self.omega >= limits::MAX_FACTOR as f32 {
            return Err(ParamError::new(
                "clock_recovery_mm",
                "omega",
                format!(
                    "{} rounds onto a bound in single precision: must be in (1, {})",
                    self.omega,
                    limits::MAX_FACTOR
                ),
            ));
        }
        if self.mu >= 1.0 {
            return Err(ParamError::new(
                "clock_recovery_mm",
                "mu",
                format!("{} rounds to 1 in single precision: must be < 1", self.mu),
            ));
        }
        Ok(())
    }
}

/// The block [`clock_recovery_mm`] builds.
pub type ClockRecoveryMmBlock<T> = DspBlock<ClockRecoveryMm<T>, ClockRecoveryMmParams>;

/// Recovers symbol timing and writes one sample per symbol (GNU Radio's
/// `clock_recovery_mm_ff` / `_cc`, with the same detector, loop and
/// 8-tap MMSE interpolator). The loop's settings may change while it
/// runs.
///
/// # Parameters
/// [`ClockRecoveryMmParams`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`), about `omega` samples per symbol
///
/// # Stream Outputs
/// - `out`: `T`, one per symbol
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::digital::{ClockRecoveryMmParams, clock_recovery_mm};
/// let mm = clock_recovery_mm::<Complex32>(ClockRecoveryMmParams {
///     omega: 4.0,
///     ..Default::default()
/// })?;
/// # let _ = mm;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn clock_recovery_mm<T: MmSample + rfgraph::Item>(
    params: ClockRecoveryMmParams,
) -> Result<ClockRecoveryMmBlock<T>, ParamError> {
    params.validate()?;
    let p = &params;
    let kernel = ClockRecoveryMm::new(
        p.omega,
        p.gain_omega,
        p.mu,
        p.gain_mu,
        p.omega_relative_limit,
    )
    .map_err(dsp_error(
        "clock_recovery_mm",
        "omega",
        &[
            ("mu", "mu"),
            ("gain_mu", "gain_mu"),
            ("gain_omega", "gain_omega"),
            ("omega_relative_limit", "omega_relative_limit"),
        ],
    ))?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, name| {
        match name {
            "omega" => kernel.set_omega(p.omega),
            "mu" => kernel.set_mu(p.mu),
            "gain_mu" => kernel.set_gain_mu(p.gain_mu),
            _ => kernel.set_gain_omega(p.gain_omega),
        }
        .map_err(Into::into)
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ClockRecoveryMmParams>(
        "clock_recovery_mm",
        "Digital",
        "Mueller & Müller clock recovery: one output per symbol.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => clock_recovery_mm::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `digital_clock_recovery_mm_ff` / `_cc`: same timing error detector, \
         loop update, clipping and omega limit; the 8-tap, 128-step MMSE interpolator's \
         taps are computed as GNU Radio's generator did and agree with its table to about \
         1e-5. `omega`, `gain_omega`, `mu` and `gain_mu` may change while it runs, as with \
         GNU Radio's setters: a new `omega` restarts the estimate and centres its limits \
         there, a new `mu` is the phase of the next interpolation.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType).doc("one sample per symbol"))
}
