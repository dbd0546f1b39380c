//! `fir_filter`, `interp_fir_filter`, `fft_filter` and
//! `freq_xlating_fir_filter`: GNU Radio's FIR blocks on the `rfgraph-dsp`
//! FIR kernels, with the kernel picked from the item type and the taps.
//! As GNU Radio's callbacks allow, the taps (and the translating filter's
//! centre) may change while the filter runs; the input history stays.

use super::{Tap, complex};
use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, ParamError};
use rfgraph_dsp::{
    Ccc, Ccf, DecimatingFir, Fff, Fir, FirKind, FreqXlatingFir, InterpolatingFir, SetTaps,
};

/// The rules every FIR block's taps follow.
fn check_taps(block: &'static str, taps: &[Complex32], item: ItemKind) -> Result<(), ParamError> {
    if taps.is_empty() {
        return Err(ParamError::new(block, "taps", "needs at least one tap"));
    }
    if item == ItemKind::F32 && complex(taps) {
        return Err(ParamError::new(
            block,
            "taps",
            "complex taps need complex items (`type = \"c32\"`)",
        ));
    }
    Ok(())
}

/// The parameters of `fir_filter` and `fft_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FirFilterParams {
    /// keep one output in this many
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "decim")]
    pub decimation: usize,
    /// filter taps: real numbers, or `[re, im]` pairs for complex taps
    /// (complex items only)
    #[param(default = vec![Complex32::new(1.0, 0.0)], max_len = limits::MAX_TAPS, settable)]
    pub taps: Vec<Complex32>,
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
}

impl FirFilterParams {
    fn check(&self) -> Result<(), ParamError> {
        check_taps("fir_filter", &self.taps, self.item)
    }
}

/// The parameters of `interp_fir_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct InterpFirFilterParams {
    /// outputs per input
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "interp")]
    pub interpolation: usize,
    /// filter taps: real numbers, or `[re, im]` pairs for complex taps
    /// (complex items only)
    #[param(default = vec![Complex32::new(1.0, 0.0)], max_len = limits::MAX_TAPS, settable)]
    pub taps: Vec<Complex32>,
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
}

impl InterpFirFilterParams {
    fn check(&self) -> Result<(), ParamError> {
        check_taps("interp_fir_filter", &self.taps, self.item)
    }
}

/// The parameters of `freq_xlating_fir_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FreqXlatingParams {
    /// keep one output in this many
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "decim")]
    pub decimation: usize,
    /// low-pass taps: real numbers, or `[re, im]` pairs
    #[param(default = vec![Complex32::new(1.0, 0.0)], max_len = limits::MAX_TAPS, settable)]
    pub taps: Vec<Complex32>,
    /// the frequency moved to 0 Hz; phase-continuous when it changes
    #[param(default = 0.0, unit = "Hz", alias = "center_freq", settable)]
    pub center: f64,
    /// input sample rate
    #[param(default = 1.0, unit = "Hz", above = 0.0, alias = "samp_rate", settable)]
    pub sample_rate: f64,
}

impl FreqXlatingParams {
    fn check(&self) -> Result<(), ParamError> {
        check_taps("freq_xlating_fir_filter", &self.taps, ItemKind::C32)
    }
}

/// The taps of a FIR block's parameters.
trait HasTaps: ParamSet + Clone {
    fn taps(&self) -> &[Complex32];
}

impl HasTaps for FirFilterParams {
    fn taps(&self) -> &[Complex32] {
        &self.taps
    }
}

impl HasTaps for InterpFirFilterParams {
    fn taps(&self) -> &[Complex32] {
        &self.taps
    }
}

/// `kernel` as a block whose taps follow `params`.
fn with_taps<P, F>(kernel: F, params: P) -> Box<dyn Block>
where
    P: HasTaps,
    F: SetTaps + Send + 'static,
    F::Tap: Tap,
    F::Input: Item,
    F::Output: Item,
{
    Box::new(DspBlock::tuned(kernel, params, |kernel, params, _| {
        Ok(kernel.set_taps(&F::Tap::from_taps(params.taps())?)?)
    }))
}

/// A (decimating) FIR of kind `K`: the plain kernel when not decimating.
fn fir<K>(p: FirFilterParams) -> Result<Box<dyn Block>, BoxError>
where
    K: FirKind + Send + 'static,
    K::Tap: Tap,
    K::Input: Item,
    K::Output: Item,
{
    let taps = K::Tap::from_taps(&p.taps)?;
    Ok(match p.decimation {
        1 => with_taps(Fir::<K>::new(&taps)?, p),
        d => with_taps(DecimatingFir::<K>::new(&taps, d)?, p),
    })
}

/// The FIR block for the item type and taps of `p`.
fn fir_block(p: FirFilterParams) -> Result<Box<dyn Block>, BoxError> {
    match (p.item, complex(&p.taps)) {
        (ItemKind::F32, _) => fir::<Fff>(p),
        (_, false) => fir::<Ccf>(p),
        (_, true) => fir::<Ccc>(p),
    }
}

/// An interpolating FIR of kind `K`.
fn interp<K>(p: InterpFirFilterParams) -> Result<Box<dyn Block>, BoxError>
where
    K: FirKind + Send + 'static,
    K::Tap: Tap,
    K::Input: Item,
    K::Output: Item,
{
    let taps = K::Tap::from_taps(&p.taps)?;
    Ok(with_taps(
        InterpolatingFir::<K>::new(&taps, p.interpolation)?,
        p,
    ))
}

/// The registry entry: `fir_filter`.
pub(crate) fn fir_filter_spec() -> BlockSpec {
    BlockSpec::of::<FirFilterParams>(
        "fir_filter",
        "Filters",
        "A decimating FIR filter with given taps.",
        fir_block,
    )
    .doc(
        "GNU Radio's `fir_filter_xxx` (`fff`, `ccf`, `ccc`): `y[n] = Σ taps[k]·x[n−k]`, \
         keeping every `decimation`-th output. Real items take real taps; complex items \
         take real or complex taps (`[re, im]` pairs). Tags move with the rate change. \
         The taps may change while it runs (the history stays); a filter built with real \
         taps takes only real ones.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The registry entry: `fft_filter`.
pub(crate) fn fft_filter_spec() -> BlockSpec {
    BlockSpec::of::<FirFilterParams>(
        "fft_filter",
        "Filters",
        "A decimating FIR filter (GNU Radio's FFT filter; the same output).",
        fir_block,
    )
    .doc(
        "GNU Radio's `fft_filter_xxx`: the same output as `fir_filter` with the same \
         taps, which is what rfgraph runs (its SIMD FIR is as fast for the tap counts \
         flowgraphs use). Real items take real taps; complex items real or complex ones. \
         The taps may change while it runs.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The registry entry: `interp_fir_filter`.
pub(crate) fn interp_fir_filter_spec() -> BlockSpec {
    BlockSpec::of::<InterpFirFilterParams>(
        "interp_fir_filter",
        "Filters",
        "An interpolating FIR filter with given taps.",
        |p| match (p.item, complex(&p.taps)) {
            (ItemKind::F32, _) => interp::<Fff>(p),
            (_, false) => interp::<Ccf>(p),
            (_, true) => interp::<Ccc>(p),
        },
    )
    .doc(
        "GNU Radio's `interp_fir_filter_xxx`: inserts `interpolation − 1` zeros after \
         each input item and filters with `taps` (as a polyphase bank, without the \
         zeros). Real items take real taps; complex items real or complex ones. The taps \
         may change while it runs.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// A frequency-translating FIR of kind `K`, its centre in Hz.
fn xlating<K>(p: FreqXlatingParams) -> Result<Box<dyn Block>, BoxError>
where
    K: FirKind<Input = Complex32, Output = Complex32> + Send + 'static,
    K::Tap: Tap,
{
    let taps = K::Tap::from_taps(&p.taps)?;
    let kernel = FreqXlatingFir::<K>::new(&taps, p.decimation, p.center / p.sample_rate)?;
    Ok(Box::new(DspBlock::tuned(kernel, p, |kernel, p, name| {
        match name {
            "taps" => kernel.set_taps(&K::Tap::from_taps(&p.taps)?)?,
            _ => kernel.set_center(p.center / p.sample_rate)?,
        }
        Ok(())
    })))
}

/// The registry entry: `freq_xlating_fir_filter`.
pub(crate) fn freq_xlating_spec() -> BlockSpec {
    BlockSpec::of::<FreqXlatingParams>(
        "freq_xlating_fir_filter",
        "Filters",
        "Shifts a frequency to 0 Hz, filters and decimates.",
        |p| match complex(&p.taps) {
            false => xlating::<Ccf>(p),
            true => xlating::<Ccc>(p),
        },
    )
    .doc(
        "GNU Radio's `freq_xlating_fir_filter_ccf`/`_ccc`: mixes `center` down to 0 Hz, \
         filters with `taps` and keeps every `decimation`-th output, phase-continuous \
         across calls. `center` and the taps may change while it runs (the mixer's phase \
         and the filter's history stay); a filter built with real taps takes only real \
         ones.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
