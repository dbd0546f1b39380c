//! `quantizer` (GNU Radio `channels_quantizer`): a float stream through a
//! signed 16-bit converter at `bits` bits of full scale.

use crate::convert::round;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, ParamSet};

/// The parameters of [`Quantizer`] (`quantizer`, GNU Radio's
/// `channels_quantizer`). `bits` may change while it runs, as GNU Radio's
/// `set_bits` allows.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct QuantizerParams {
    /// resolution: ±1 spans 2^bits steps; more than 16 saturates the
    /// 16-bit converter near ±32767/2^(bits−1)
    #[param(default = 16, min = 1, max = 64, settable)]
    pub bits: i32,
}

impl QuantizerParams {
    /// GNU Radio's two constants: `2^(bits−1)` and its inverse, each
    /// computed in `double` and stored as `f32`.
    fn scales(&self) -> (f32, f32) {
        let full = 2f64.powf(self.bits as f64 - 1.0);
        (full as f32, (1.0 / full) as f32)
    }
}

/// The arithmetic of [`Quantizer`].
pub struct QuantizerKernel {
    params: QuantizerParams,
    up: f32,
    down: f32,
}

impl QuantizerKernel {
    #[inline]
    fn quantize(&self, x: f32) -> f32 {
        round::to_i16(x * self.up) as f32 * self.down
    }
}

impl FixedRateKernel for QuantizerKernel {
    type In = f32;
    type Out = f32;

    fn process(&mut self, input: &[f32], output: &mut [f32]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.quantize(x);
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [f32]) {
        for x in data {
            *x = self.quantize(*x);
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        (self.up, self.down) = self.params.scales();
        Ok(())
    }
}

/// The block [`quantizer`] builds.
pub type Quantizer = FixedRateBlock<QuantizerKernel>;

/// Quantises a float stream as GNU Radio's `channels.quantizer` hier
/// block does: `x · 2^(bits−1)`, rounded half to even and saturated to a
/// 16-bit integer (`float_to_short`), back to float and times
/// `2^−(bits−1)`. Value for value GNU Radio's (its constants are rounded
/// to `f32` the same way). `bits` may change while it runs.
///
/// # Parameters
/// [`QuantizerParams`].
///
/// # Stream Inputs
/// - `in`: `f32`
///
/// # Stream Outputs
/// - `out`: `f32`
///
/// # Message Inputs
/// - `bits`: a new resolution
///
/// # Usage
/// ```
/// use rfgraph_blocks::channels::{QuantizerParams, quantizer};
/// let q = quantizer(QuantizerParams { bits: 8 })?;
/// # let _ = q;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn quantizer(params: QuantizerParams) -> Result<Quantizer, ParamError> {
    params.validate()?;
    let (up, down) = params.scales();
    FixedRateBlock::new(QuantizerKernel { params, up, down })
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<QuantizerParams>(
        "quantizer",
        "Channels",
        "Quantises floats to `bits` bits of full scale (through 16-bit integers).",
        |p| Ok(Box::new(quantizer(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `channels_quantizer`: `out = q(in · 2^(bits−1)) / 2^(bits−1)`, where `q` \
         rounds half to even and saturates to −32768 … 32767 as `float_to_short` does (NaN \
         gives 0). Above 16 bits the converter saturates, as in GNU Radio. `bits` may change \
         while it runs (GNU Radio's `set_bits`).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
