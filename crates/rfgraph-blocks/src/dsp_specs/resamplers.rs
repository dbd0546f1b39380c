//! `rational_resampler` and `pfb_arb_resampler` on the `rfgraph-dsp`
//! polyphase resamplers, with GNU Radio's rules for default taps. As GNU
//! Radio's callbacks allow, the taps (and the arbitrary resampler's rate)
//! may change while they run: the input history and the output phase
//! stay.

use super::{Tap, complex};
use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, ParamError};
use rfgraph_dsp::firdes::{self, WinType};
use rfgraph_dsp::{ArbitraryResampler, Ccc, Ccf, DspError, Fff, FirKind, Isa, RationalResampler};

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// GNU Radio's default pass band of `rational_resampler_xxx`'s designed
/// taps (what a `fractional_bw` of 0 or less stands for).
const DEFAULT_FRACTIONAL_BW: f64 = 0.4;

/// The taps rule both resamplers share: complex taps need complex items.
fn check_taps(block: &'static str, taps: &[Complex32], item: ItemKind) -> Result<(), ParamError> {
    if item == ItemKind::F32 && complex(taps) {
        return Err(ParamError::new(
            block,
            "taps",
            "complex taps need complex items (`type = \"c32\"`)",
        ));
    }
    Ok(())
}

/// GNU Radio 3.10's default taps of `rational_resampler_xxx(interp,
/// decim)` (factors already reduced): a Kaiser (β = 7) low-pass at
/// `interp ×` the input rate, its transition band ending at the narrower
/// Nyquist band and starting at `fractional_bw` of it, gain `interp`.
pub(crate) fn rational_default_taps(
    interp: usize,
    decim: usize,
    fractional_bw: f64,
) -> Result<Vec<f32>, DspError> {
    let halfband = 0.5;
    let rate = interp as f64 / decim as f64;
    let (width, mid) = if rate >= 1.0 {
        let width = halfband - fractional_bw;
        (width, halfband - width / 2.0)
    } else {
        let width = rate * (halfband - fractional_bw);
        (width, rate * halfband - width / 2.0)
    };
    firdes::low_pass(
        interp as f64,
        interp as f64,
        mid,
        width,
        WinType::Kaiser,
        7.0,
    )
}

/// The parameters of `rational_resampler`, GNU Radio's
/// `rational_resampler_xxx`; the taps may change while it runs.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct RationalResamplerParams {
    /// upsampling factor
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "interp")]
    pub interpolation: usize,
    /// downsampling factor
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "decim")]
    pub decimation: usize,
    /// prototype taps (real, or `[re, im]` pairs for complex items),
    /// designed at `interpolation ×` the input rate; empty designs GNU
    /// Radio's default; a change keeps the history and the phase
    #[param(default = Vec::new(), max_len = limits::MAX_TAPS, settable)]
    pub taps: Vec<Complex32>,
    /// pass band of the default taps, as a fraction of the narrower Nyquist
    /// band, below 0.5; 0 or less is GNU Radio's default, 0.4
    #[param(default = DEFAULT_FRACTIONAL_BW, below = 0.5, alias = "fbw")]
    pub fractional_bw: f64,
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
}

impl RationalResamplerParams {
    /// The factors reduced by their common divisor.
    fn reduced(&self) -> (usize, usize) {
        let g = gcd(self.interpolation, self.decimation);
        (self.interpolation / g, self.decimation / g)
    }

    /// GNU Radio's default taps for these factors (at the reduced rate).
    fn default_taps(&self) -> Result<Vec<f32>, ParamError> {
        let bw = if self.fractional_bw > 0.0 {
            self.fractional_bw
        } else {
            DEFAULT_FRACTIONAL_BW
        };
        let (interp, decim) = self.reduced();
        rational_default_taps(interp, decim, bw).map_err(|e| {
            ParamError::new(
                "rational_resampler",
                "interpolation",
                format!("the default taps for {interp}/{decim}: {e}"),
            )
        })
    }

    /// Complex taps on complex items only; the default design (when no
    /// taps are given) within the tap limit.
    fn check(&self) -> Result<(), ParamError> {
        check_taps("rational_resampler", &self.taps, self.item)?;
        if self.taps.is_empty() {
            self.default_taps()?;
        }
        Ok(())
    }
}

/// A rational resampler of kind `K` for `p`: GNU Radio's reading of given
/// taps (at `interpolation ×` the input rate, the factors as given), or
/// its default design at the reduced factors.
fn rational<K>(p: RationalResamplerParams) -> Result<Box<dyn Block>, BoxError>
where
    K: FirKind + Send + 'static,
    K::Tap: Tap + From<f32>,
    K::Input: Item,
    K::Output: Item,
{
    let isa = Isa::detect();
    let (interp, decim) = (p.interpolation, p.decimation);
    let kernel = if p.taps.is_empty() {
        let taps: Vec<K::Tap> = p.default_taps()?.into_iter().map(K::Tap::from).collect();
        RationalResampler::<K>::with_taps(interp, decim, &taps, isa)?
    } else {
        RationalResampler::<K>::with_unreduced_taps(
            interp,
            decim,
            &K::Tap::from_taps(&p.taps)?,
            isa,
        )?
    };
    Ok(Box::new(DspBlock::tuned(kernel, p, |kernel, p, _| {
        if p.taps.is_empty() {
            let taps: Vec<K::Tap> = p.default_taps()?.into_iter().map(K::Tap::from).collect();
            kernel.set_reduced_taps(&taps)?;
        } else {
            // Read as the kernel was built: GNU Radio's `set_taps` on a
            // block whose factors it reduced (designed taps) or did not.
            kernel.set_taps(&K::Tap::from_taps(&p.taps)?)?;
        }
        Ok(())
    })))
}

/// The registry entry: `rational_resampler`.
pub(crate) fn rational_resampler_spec() -> BlockSpec {
    BlockSpec::of::<RationalResamplerParams>(
        "rational_resampler",
        "Resamplers",
        "Resamples by interpolation/decimation with a polyphase FIR.",
        |p| match (p.item, complex(&p.taps)) {
            (ItemKind::F32, _) => rational::<Fff>(p),
            (_, false) => rational::<Ccf>(p),
            (_, true) => rational::<Ccc>(p),
        },
    )
    .doc(
        "GNU Radio's `rational_resampler_xxx`: output rate = input rate × \
         `interpolation / decimation`. Given `taps` are read as GNU Radio reads them \
         (designed at `interpolation ×` the input rate, gain `interpolation` for unity). \
         Without taps, the factors are reduced by their common divisor and GNU Radio \
         3.10's default filter is designed: a Kaiser (β = 7) low-pass whose pass band \
         is `fractional_bw` of the narrower Nyquist band. The taps may change while it \
         runs, as GNU Radio's `set_taps`: from the next output on, the input history and \
         the output phase kept (empty taps design the default again); a resampler built \
         with real taps takes only real ones.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The default prototype of `pfb_arb_resampler`: rfgraph's
/// (`rfgraph_dsp::resample::default_prototype`) with `atten` dB of
/// stop-band attenuation: a Kaiser low-pass at `filters ×` the input rate,
/// pass band 0.8 and stop band 1.0 of the narrower Nyquist band, gain
/// `filters`.
fn arb_prototype(rate: f64, filters: usize, atten: f64) -> Result<Vec<f32>, DspError> {
    let stop = (0.5 * rate.min(1.0) / filters as f64).min(0.45);
    let pass = 0.8 * stop;
    let taps = rfgraph_dsp::design::kaiser_lowpass(1.0, (pass + stop) / 2.0, stop - pass, atten)?;
    Ok(taps.into_iter().map(|t| t * filters as f32).collect())
}

/// The parameters of `pfb_arb_resampler`, GNU Radio's
/// `pfb_arb_resampler_xxx`; the rate and the taps may change while it
/// runs.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PfbArbResamplerParams {
    /// output rate / input rate; a change moves the output instants from
    /// the next output on, the filter phase continuing (designed taps are
    /// designed again for it)
    #[param(default = 1.0, min = 1e-6, below = 1e6, alias = "rrate", settable)]
    pub rate: f64,
    /// prototype taps (real, or `[re, im]` pairs for complex items),
    /// designed at `filters ×` the input rate; empty designs a default one;
    /// a change keeps the history and the phase
    #[param(default = Vec::new(), max_len = limits::MAX_TAPS, settable)]
    pub taps: Vec<Complex32>,
    /// number of polyphase filters
    #[param(default = 32, min = 1, max = limits::MAX_FACTOR, alias = "nfilts")]
    pub filters: usize,
    /// stop-band attenuation of the default prototype
    #[param(default = 100.0, unit = "dB", above = 0.0, max = 300.0)]
    pub atten: f64,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

impl PfbArbResamplerParams {
    /// The default prototype for these parameters.
    fn default_taps(&self) -> Result<Vec<f32>, ParamError> {
        arb_prototype(self.rate, self.filters, self.atten).map_err(|e| {
            ParamError::new(
                "pfb_arb_resampler",
                "filters",
                format!(
                    "the default prototype for {} filters at rate {}: {e}",
                    self.filters, self.rate
                ),
            )
        })
    }

    /// The prototype as taps of kernel `K`.
    fn prototype<T: Tap + From<f32>>(&self) -> Result<Vec<T>, BoxError> {
        if self.taps.is_empty() {
            Ok(self.default_taps()?.into_iter().map(T::from).collect())
        } else {
            T::from_taps(&self.taps)
        }
    }

    /// Complex taps on complex items only; the default design (when no
    /// taps are given) within the tap limit.
    fn check(&self) -> Result<(), ParamError> {
        check_taps("pfb_arb_resampler", &self.taps, self.item)?;
        if self.taps.is_empty() {
            self.default_taps()?;
        }
        Ok(())
    }
}

/// An arbitrary resampler of kind `K` for `p`.
fn arb<K>(p: PfbArbResamplerParams) -> Result<Box<dyn Block>, BoxError>
where
    K: FirKind + Send + 'static,
    K::Tap: Tap + From<f32>,
    K::Input: Item,
    K::Output: Item,
{
    let kernel = ArbitraryResampler::<K>::with_taps(
        p.rate,
        p.filters,
        &p.prototype::<K::Tap>()?,
        Isa::detect(),
    )?;
    Ok(Box::new(DspBlock::tuned(kernel, p, |kernel, p, name| {
        // Everything that can fail comes first: a refused change leaves
        // the kernel as it was.
        let taps = (name == "taps" || p.taps.is_empty())
            .then(|| p.prototype::<K::Tap>())
            .transpose()?;
        if name == "rate" {
            kernel.set_rate(p.rate)?;
        }
        if let Some(taps) = taps {
            kernel.set_taps(&taps)?;
        }
        Ok(())
    })))
}

/// The registry entry: `pfb_arb_resampler`.
pub(crate) fn pfb_arb_resampler_spec() -> BlockSpec {
    BlockSpec::of::<PfbArbResamplerParams>(
        "pfb_arb_resampler",
        "Resamplers",
        "Resamples by any ratio with a polyphase filter bank.",
        |p| match (p.item, complex(&p.taps)) {
            (ItemKind::F32, _) => arb::<Fff>(p),
            (_, false) => arb::<Ccf>(p),
            (_, true) => arb::<Ccc>(p),
        },
    )
    .doc(
        "GNU Radio's `pfb_arb_resampler_xxx`: output rate = input rate × `rate`, any \
         positive ratio, from a bank of `filters` polyphase filters cut from one \
         prototype (designed at `filters ×` the input rate, gain `filters`) with \
         linear interpolation between neighbouring phases. Without taps, a Kaiser \
         prototype with `atten` dB of stop-band attenuation and its pass band at 0.8 of \
         the narrower Nyquist band is designed (GNU Radio designs an equiripple one; \
         the responses are close, the taps are not the same). The rate and the taps may \
         change while it runs, as GNU Radio's `set_rate` and `set_taps`: from the next \
         output on, the filter phase and the input history kept (a designed prototype \
         follows the new rate; tags keep moving by the rate the run started with).",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
