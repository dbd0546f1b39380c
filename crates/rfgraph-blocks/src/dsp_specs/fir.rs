//! `fir_filter`, `interp_fir_filter`, `fft_filter` and
//! `freq_xlating_fir_filter`: GNU Radio's FIR blocks on the `rfgraph-dsp`
//! FIR kernels, with the kernel picked from the item type and the taps.

use super::{Taps, boxed, dsp, taps, taps_param};
use rfgraph::registry::{BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, Setting};
use rfgraph_dsp::{Ccc, Ccf, DecimatingFir, Fff, Fir, FirKind, FreqXlatingFir, InterpolatingFir};

/// A (decimating) FIR of kind `K`: the plain kernel when not decimating.
fn fir<K: FirKind>(
    p: &Params,
    taps: &[K::Tap],
    decimation: usize,
) -> Result<Box<dyn Block>, BuildError>
where
    K::Input: rfgraph::Item,
    K::Output: rfgraph::Item,
{
    Ok(if decimation == 1 {
        boxed(Fir::<K>::new(taps).map_err(dsp(p))?)
    } else {
        boxed(DecimatingFir::<K>::new(taps, decimation).map_err(dsp(p))?)
    })
}

/// The FIR block for the item type and taps of `p`, decimating by
/// `decimation`.
pub(crate) fn fir_for(p: &Params, decimation: usize) -> Result<Box<dyn Block>, BuildError> {
    match (p.item_type()?, taps(p, "taps")?) {
        (ItemKind::F32, Taps::Real(t)) => fir::<Fff>(p, &t, decimation),
        (ItemKind::C32, Taps::Real(t)) => fir::<Ccf>(p, &t, decimation),
        (ItemKind::C32, Taps::Complex(t)) => fir::<Ccc>(p, &t, decimation),
        (ItemKind::F32, Taps::Complex(_)) => {
            Err(p.invalid("taps", "complex taps need complex items (`type = \"c32\"`)"))
        }
        (other, _) => Err(p.invalid("type", format!("`{other}` is not supported here"))),
    }
}

fn decimation(p: &Params) -> Result<usize, BuildError> {
    let d = p.usize("decimation")?;
    if d == 0 {
        return Err(p.invalid("decimation", "must be at least 1"));
    }
    Ok(d)
}

fn decimation_param() -> ParamSpec {
    ParamSpec::uint("decimation")
        .default(1u64)
        .doc("keep one output in this many")
}

const TYPES: [ItemKind; 2] = [ItemKind::F32, ItemKind::C32];

/// The registry entry: `fir_filter`.
pub(crate) fn fir_filter_spec() -> BlockSpec {
    BlockSpec::new(
        "fir_filter",
        "Filters",
        "A decimating FIR filter with given taps.",
        |p| fir_for(p, decimation(p)?),
    )
    .doc(
        "GNU Radio's `fir_filter_xxx` (`fff`, `ccf`, `ccc`): `y[n] = Σ taps[k]·x[n−k]`, \
         keeping every `decimation`-th output. Real items take real taps; complex items \
         take real or complex taps (`[re, im]` pairs). Tags move with the rate change.",
    )
    .param(decimation_param())
    .param(taps_param())
    .param(ParamSpec::item_type(&TYPES))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The registry entry: `fft_filter`.
pub(crate) fn fft_filter_spec() -> BlockSpec {
    BlockSpec::new(
        "fft_filter",
        "Filters",
        "A decimating FIR filter (GNU Radio's FFT filter; the same output).",
        |p| fir_for(p, decimation(p)?),
    )
    .doc(
        "GNU Radio's `fft_filter_xxx`: the same output as `fir_filter` with the same \
         taps, which is what rfgraph runs (its SIMD FIR is as fast for the tap counts \
         flowgraphs use). Real items take real taps; complex items real or complex ones.",
    )
    .param(decimation_param())
    .param(taps_param())
    .param(ParamSpec::item_type(&TYPES))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// An interpolating FIR of kind `K`.
fn interp<K: FirKind>(
    p: &Params,
    taps: &[K::Tap],
    factor: usize,
) -> Result<Box<dyn Block>, BuildError>
where
    K::Input: rfgraph::Item,
    K::Output: rfgraph::Item,
{
    Ok(boxed(
        InterpolatingFir::<K>::new(taps, factor).map_err(dsp(p))?,
    ))
}

/// The interpolating FIR block for the item type and taps of `p`.
pub(crate) fn interp_for(p: &Params, factor: usize) -> Result<Box<dyn Block>, BuildError> {
    match (p.item_type()?, taps(p, "taps")?) {
        (ItemKind::F32, Taps::Real(t)) => interp::<Fff>(p, &t, factor),
        (ItemKind::C32, Taps::Real(t)) => interp::<Ccf>(p, &t, factor),
        (ItemKind::C32, Taps::Complex(t)) => interp::<Ccc>(p, &t, factor),
        (ItemKind::F32, Taps::Complex(_)) => {
            Err(p.invalid("taps", "complex taps need complex items (`type = \"c32\"`)"))
        }
        (other, _) => Err(p.invalid("type", format!("`{other}` is not supported here"))),
    }
}

/// The registry entry: `interp_fir_filter`.
pub(crate) fn interp_fir_filter_spec() -> BlockSpec {
    BlockSpec::new(
        "interp_fir_filter",
        "Filters",
        "An interpolating FIR filter with given taps.",
        |p| interp_for(p, p.usize("interpolation")?),
    )
    .doc(
        "GNU Radio's `interp_fir_filter_xxx`: inserts `interpolation − 1` zeros after \
         each input item and filters with `taps` (as a polyphase bank, without the \
         zeros). Real items take real taps; complex items real or complex ones.",
    )
    .param(
        ParamSpec::uint("interpolation")
            .default(1u64)
            .doc("outputs per input"),
    )
    .param(taps_param())
    .param(ParamSpec::item_type(&TYPES))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// A frequency-translating FIR of kind `K` with its `center` setting in Hz.
fn xlating<K>(p: &Params, taps: &[K::Tap], rate: f64) -> Result<Box<dyn Block>, BuildError>
where
    K: FirKind<Input = num_complex::Complex32, Output = num_complex::Complex32>,
{
    let kernel =
        FreqXlatingFir::<K>::new(taps, decimation(p)?, p.f64("center")? / rate).map_err(dsp(p))?;
    Ok(Box::new(
        crate::DspBlock::new(kernel).with_setting(
            Setting::try_new("center", move |k: &mut FreqXlatingFir<K>, f: f64| {
                k.set_center(f / rate)
            })
            .unit("Hz")
            .doc("the frequency moved to 0 Hz"),
        ),
    ))
}

/// The registry entry: `freq_xlating_fir_filter`.
pub(crate) fn freq_xlating_spec() -> BlockSpec {
    BlockSpec::new(
        "freq_xlating_fir_filter",
        "Filters",
        "Shifts a frequency to 0 Hz, filters and decimates.",
        |p| {
            let rate = p.f64("sample_rate")?;
            if !(rate.is_finite() && rate > 0.0) {
                return Err(p.invalid("sample_rate", "must be a positive number of Hz"));
            }
            match taps(p, "taps")? {
                Taps::Real(t) => xlating::<Ccf>(p, &t, rate),
                Taps::Complex(t) => xlating::<Ccc>(p, &t, rate),
            }
        },
    )
    .doc(
        "GNU Radio's `freq_xlating_fir_filter_ccf`/`_ccc`: mixes `center` down to 0 Hz, \
         filters with `taps` and keeps every `decimation`-th output, phase-continuous \
         across calls. `center` is settable while it runs (phase-continuous).",
    )
    .param(decimation_param())
    .param(taps_param())
    .param(
        ParamSpec::float("center")
            .default(0.0)
            .unit("Hz")
            .doc("the frequency moved to 0 Hz")
            .settable(),
    )
    .param(
        ParamSpec::float("sample_rate")
            .default(1.0)
            .unit("Hz")
            .doc("input sample rate"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
