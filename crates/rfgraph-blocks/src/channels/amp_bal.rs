//! `amp_bal` (GNU Radio `channels_amp_bal`): scales the quadrature
//! component so that its running RMS level follows the in-phase one's.

use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, ParamSet};

/// The parameters of [`AmpBal`] (`amp_bal`, GNU Radio's
/// `channels_amp_bal`). `alpha` may change while it runs, keeping both
/// averages, as GNU Radio's `set_alpha` does.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct AmpBalParams {
    /// weight of each new sample in the running mean squares; 0 (GNU
    /// Radio's block default) leaves them at 0, so every Q sample
    /// becomes NaN (0/0), in GNU Radio as here
    #[param(default = 0.0001, min = 0.0, max = 1.0, settable)]
    pub alpha: f64,
}

/// One running RMS level, GNU Radio's `rms_ff`: a single-pole average of
/// the square in `f64`, its square root as `f32`.
#[derive(Clone, Copy, Debug, Default)]
struct Rms {
    mean_square: f64,
}

impl Rms {
    #[inline]
    fn step(&mut self, x: f32, alpha: f64) -> f32 {
        self.mean_square = alpha * (x * x) as f64 + (1.0 - alpha) * self.mean_square;
        self.mean_square.sqrt() as f32
    }
}

/// The arithmetic of [`AmpBal`].
pub struct AmpBalKernel {
    params: AmpBalParams,
    i: Rms,
    q: Rms,
}

impl AmpBalKernel {
    #[inline]
    fn balance(&mut self, x: Complex32) -> Complex32 {
        let alpha = self.params.alpha;
        let ratio = self.i.step(x.re, alpha) / self.q.step(x.im, alpha);
        Complex32::new(x.re, ratio * x.im)
    }
}

impl FixedRateKernel for AmpBalKernel {
    type In = Complex32;
    type Out = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.balance(x);
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [Complex32]) {
        for x in data {
            *x = self.balance(*x);
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        // `alpha` is read by every step; the averages stay.
        Ok(())
    }
}

/// The block [`amp_bal`] builds.
pub type AmpBal = FixedRateBlock<AmpBalKernel>;

/// Amplitude balance, GNU Radio's `channels.amp_bal` hier block: the
/// running RMS levels of I and Q (`rms_ff`, from 0), and Q times their
/// ratio, `Q · rms(I)/rms(Q)`; I passes unchanged. Value for value GNU
/// Radio's. `alpha` may change while it runs.
///
/// # Parameters
/// [`AmpBalParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`
///
/// # Message Inputs
/// - `alpha`: a new averaging weight
///
/// # Usage
/// ```
/// use rfgraph_blocks::channels::{AmpBalParams, amp_bal};
/// let balance = amp_bal(AmpBalParams { alpha: 0.001 })?;
/// # let _ = balance;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn amp_bal(params: AmpBalParams) -> Result<AmpBal, ParamError> {
    params.validate()?;
    FixedRateBlock::new(AmpBalKernel {
        params,
        i: Rms::default(),
        q: Rms::default(),
    })
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<AmpBalParams>(
        "amp_bal",
        "Channels",
        "Scales Q so that its running RMS level matches I's.",
        |p| Ok(Box::new(amp_bal(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `channels_amp_bal`: `out = I + j·Q·rms(I)/rms(Q)`, each RMS a single-pole \
         average of the square (`rms_ff`, weight `alpha`, from 0). `alpha` may change while it \
         runs, keeping the averages (GNU Radio's `set_alpha`). GNU Radio's block defaults to \
         `alpha` 0, which keeps both levels at 0 and makes Q NaN; that value does the same \
         here, but the default is 0.0001.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
