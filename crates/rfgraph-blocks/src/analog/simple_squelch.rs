//! `simple_squelch` (GNU Radio `analog_simple_squelch_cc`): zeroes the
//! stream while its averaged power is below a threshold.

use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, ParamSet};

/// The parameters of [`SimpleSquelch`] (`simple_squelch`, GNU Radio's
/// `analog_simple_squelch_cc`). Both may change while it runs, as GNU
/// Radio's `set_threshold` and `set_alpha` allow (the average stays).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct SimpleSquelchParams {
    /// power below which the output is 0, in dB of |x|² (GNU Radio's
    /// block has no default)
    #[param(default = -40.0, unit = "dB", settable)]
    pub threshold: f64,
    /// weight of each new sample in the power average (GNU Radio's block
    /// has no default)
    #[param(default = 0.0001, min = 0.0, max = 1.0, settable)]
    pub alpha: f64,
}

/// The arithmetic of [`SimpleSquelch`].
pub struct SimpleSquelchKernel {
    params: SimpleSquelchParams,
    /// The threshold as a power, `10^(dB/10)`.
    level: f64,
    /// The average power, in `f64` as GNU Radio keeps it.
    power: f64,
}

impl SimpleSquelchKernel {
    #[inline]
    fn squelch(&mut self, x: Complex32) -> Complex32 {
        let alpha = self.params.alpha;
        self.power = alpha * x.norm_sqr() as f64 + (1.0 - alpha) * self.power;
        if self.power >= self.level {
            x
        } else {
            Complex32::new(0.0, 0.0)
        }
    }
}

impl FixedRateKernel for SimpleSquelchKernel {
    type In = Complex32;
    type Out = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.squelch(x);
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [Complex32]) {
        for x in data {
            *x = self.squelch(*x);
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        self.level = level(self.params.threshold);
        Ok(())
    }
}

/// GNU Radio's `set_threshold`: decibels to a power.
fn level(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

/// The block [`simple_squelch`] builds.
pub type SimpleSquelch = FixedRateBlock<SimpleSquelchKernel>;

/// A power squelch, GNU Radio's `simple_squelch_cc`, value for value:
/// `|x|²` through a single-pole average (weight `alpha`, in `f64`, from
/// 0); a sample passes while that average is at least
/// `10^(threshold/10)`, and is 0 otherwise. Both parameters may change
/// while it runs.
///
/// # Parameters
/// [`SimpleSquelchParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`
///
/// # Message Inputs
/// - `threshold`, `alpha`
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::{SimpleSquelchParams, simple_squelch};
/// let squelch = simple_squelch(SimpleSquelchParams {
///     threshold: -30.0,
///     alpha: 0.001,
/// })?;
/// # let _ = squelch;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn simple_squelch(params: SimpleSquelchParams) -> Result<SimpleSquelch, ParamError> {
    params.validate()?;
    FixedRateBlock::new(SimpleSquelchKernel {
        level: level(params.threshold),
        power: 0.0,
        params,
    })
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SimpleSquelchParams>(
        "simple_squelch",
        "Level Controllers",
        "Zeroes the stream while its averaged power is below a threshold.",
        |p| Ok(Box::new(simple_squelch(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `analog_simple_squelch_cc`: `avg = alpha·|x|² + (1 − alpha)·avg` (in \
         f64, from 0); `out = x` while `avg ≥ 10^(threshold/10)`, else 0. Both may change \
         while it runs (GNU Radio's `set_threshold`, `set_alpha`), keeping the average. GNU \
         Radio's block has no defaults; these are −40 dB and 0.0001.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
