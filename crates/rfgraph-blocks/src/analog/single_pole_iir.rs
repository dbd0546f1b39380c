//! `single_pole_iir_filter` (GNU Radio `single_pole_iir_filter_xx`).

use crate::DspBlock;
use crate::digital::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::analog::{SinglePoleIir, SinglePoleSample};

/// The parameters of `single_pole_iir_filter`, GNU Radio's
/// `single_pole_iir_filter_xx`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct SinglePoleIirParams {
    /// feed-forward gain; 1 passes the input through. The state stays when
    /// it changes (GNU Radio's `set_taps`)
    #[param(default = 1.0, min = 0.0, max = 1.0, settable)]
    pub alpha: f64,
    /// vector length (1 only)
    #[param(default = 1, min = 1, max = 1)]
    pub vlen: usize,
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
}

/// The block [`single_pole_iir_filter`] builds.
pub type SinglePoleIirBlock<T> = DspBlock<SinglePoleIir<T>, SinglePoleIirParams>;

/// `y[n] = α·x[n] + (1 − α)·y[n−1]` (GNU Radio's
/// `single_pole_iir_filter_ff` / `_cc`; `vlen` 1 only). α may change while
/// it runs.
///
/// # Parameters
/// [`SinglePoleIirParams`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::{SinglePoleIirParams, single_pole_iir_filter};
/// let avg = single_pole_iir_filter::<f32>(SinglePoleIirParams {
///     alpha: 0.01,
///     ..Default::default()
/// })?;
/// # let _ = avg;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn single_pole_iir_filter<T: SinglePoleSample + rfgraph::Item>(
    params: SinglePoleIirParams,
) -> Result<SinglePoleIirBlock<T>, ParamError> {
    params.validate()?;
    let kernel = SinglePoleIir::new(params.alpha).map_err(dsp_error(
        "single_pole_iir_filter",
        "alpha",
        &[],
    ))?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        Ok(kernel.set_alpha(p.alpha)?)
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SinglePoleIirParams>(
        "single_pole_iir_filter",
        "Filters",
        "Single-pole IIR low-pass: y = alpha*x + (1-alpha)*y[-1].",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => single_pole_iir_filter::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `single_pole_iir_filter_ff` / `_cc` (state in double precision). \
         `alpha` may change while it runs (GNU Radio's `set_taps`), keeping the state.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
