//! `single_pole_iir_filter` (GNU Radio `single_pole_iir_filter_xx`).

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::Setting;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::analog::{SinglePoleIir, SinglePoleSample};

/// `y[n] = α·x[n] + (1 − α)·y[n−1]` (GNU Radio's
/// `single_pole_iir_filter_ff` / `_cc`; `vlen` 1 only).
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Message Inputs
/// - `alpha`: the new α.
///
/// # Parameters
/// - `alpha`: in `[0, 1]`; 1 passes the input through.
///
/// # Usage
/// ```
/// let avg = rfgraph_blocks::analog::single_pole_iir_filter::<f32>(0.01)?;
/// # let _ = avg;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn single_pole_iir_filter<T: SinglePoleSample + rfgraph::Item>(
    alpha: f64,
) -> Result<DspBlock<SinglePoleIir<T>>, DspError> {
    Ok(
        DspBlock::new(SinglePoleIir::new(alpha)?).with_setting(Setting::try_new(
            "alpha",
            |k: &mut SinglePoleIir<T>, a: f64| k.set_alpha(a),
        )),
    )
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "single_pole_iir_filter",
        "Filters",
        "Single-pole IIR low-pass: y = alpha*x + (1-alpha)*y[-1].",
        |p| {
            let alpha = p.f64("alpha")?;
            if p.u64("vlen")? != 1 {
                return Err(p.invalid("vlen", "only 1 is supported"));
            }
            let refuse = |e: DspError| p.refused(e);
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T
            => single_pole_iir_filter::<T>(alpha).map_err(refuse)?)
        },
    )
    .doc("GNU Radio's `single_pole_iir_filter_ff` / `_cc` (state in double precision).")
    .param(
        ParamSpec::float("alpha")
            .default(1.0)
            .settable()
            .doc("feed-forward gain, [0, 1]"),
    )
    .param(
        ParamSpec::uint("vlen")
            .default(1u64)
            .doc("vector length (1 only)"),
    )
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
