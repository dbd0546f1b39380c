//! `iir_filter` (GNU Radio `iir_filter_xxx`, float taps) and `fm_preemph`
//! (GNU Radio `analog_fm_preemph`).

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::filter::{DirectIir, IirSample, fm_preemph_taps};

/// A direct-form IIR filter with double-precision taps and state (GNU
/// Radio's `iir_filter_ffd` / `iir_filter_ccd`).
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Parameters
/// - `feedforward`: the `b` taps.
/// - `feedback`: the `a` taps (`a[0]` unused).
/// - `oldstyle`: GNU Radio's sign convention: `true` adds
///   `a[k]·y[n−k]`, `false` subtracts it (the usual convention).
///
/// # Usage
/// ```
/// let lp = rfgraph_blocks::analog::iir_filter::<f32>(&[0.1], &[1.0, -0.9], false)?;
/// # let _ = lp;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn iir_filter<T: IirSample + rfgraph::Item>(
    feedforward: &[f64],
    feedback: &[f64],
    oldstyle: bool,
) -> Result<DspBlock<DirectIir<T>>, DspError> {
    Ok(DspBlock::new(DirectIir::new(
        feedforward,
        feedback,
        oldstyle,
    )?))
}

/// FM pre-emphasis: a first-order shelf rising from `1/(2π·tau)` Hz and
/// levelling off at `high_freq` (GNU Radio's `fm_preemph`, same taps).
///
/// # Stream Inputs
/// - `in`: `f32` audio
///
/// # Stream Outputs
/// - `out`: `f32`
///
/// # Parameters
/// - `sample_rate`: Hz.
/// - `tau`: time constant in s (75 µs in the US, 50 µs in Europe).
/// - `high_freq`: Hz where the rise levels off (≤ 0: `0.925·fs/2`).
///
/// # Usage
/// ```
/// let pre = rfgraph_blocks::analog::fm_preemph(48e3, 75e-6, -1.0)?;
/// # let _ = pre;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn fm_preemph(
    sample_rate: f64,
    tau: f64,
    high_freq: f64,
) -> Result<DspBlock<DirectIir<f32>>, DspError> {
    let (ff, fb) = fm_preemph_taps(sample_rate, tau, high_freq)?;
    iir_filter(&ff, &fb, false)
}

fn taps(
    p: &rfgraph::registry::Params,
    name: &str,
) -> Result<Vec<f64>, rfgraph::registry::BuildError> {
    Ok(p.floats(name)?.into_iter().map(f64::from).collect())
}

pub(crate) fn iir_filter_spec() -> BlockSpec {
    BlockSpec::new("iir_filter", "Filters", "Direct-form IIR filter with feed-forward and feedback taps.", |p| {
        let (ff, fb, old) = (taps(p, "feedforward")?, taps(p, "feedback")?, p.bool("oldstyle")?);
        let refuse = |e: DspError| p.refused(e);
        rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T
            => iir_filter::<T>(&ff, &fb, old).map_err(refuse)?)
    })
    .doc("GNU Radio's `iir_filter_ffd` / `iir_filter_ccd` (real taps; state in double precision). `oldstyle = true` (GNU Radio's default) adds `fb[k]·y[n−k]`; `false` subtracts it.")
    .param(ParamSpec::floats("feedforward").default(vec![1.0f32]).doc("b taps"))
    .param(ParamSpec::floats("feedback").default(vec![1.0f32]).doc("a taps (a[0] unused)"))
    .param(ParamSpec::bool("oldstyle").default(true).doc("GNU Radio's feedback sign convention"))
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

pub(crate) fn fm_preemph_spec() -> BlockSpec {
    BlockSpec::new("fm_preemph", "Filters", "FM pre-emphasis (first-order shelf).", |p| {
        let b = fm_preemph(p.f64("sample_rate")?, p.f64("tau")?, p.f64("high_freq")?).map_err(|e| p.refused(e))?;
        Ok(Box::new(b) as Box<dyn rfgraph::Block>)
    })
    .doc("GNU Radio's `analog_fm_preemph`: the same bilinear-transform design, unity gain at DC, run as a double-precision IIR filter.")
    .param(ParamSpec::float("sample_rate").default(48000.0).unit("Hz").doc("sample rate"))
    .param(ParamSpec::float("tau").default(75e-6).unit("s").doc("time constant"))
    .param(ParamSpec::float("high_freq").default(-1.0).unit("Hz").doc("where the rise levels off (<= 0: 0.925·fs/2)"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
