//! `rational_resampler` and `pfb_arb_resampler` on the `rfgraph-dsp`
//! polyphase resamplers, with GNU Radio's rules for default taps.

use super::{Taps, boxed, dsp, taps};
use rfgraph::registry::{BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, Pmt};
use rfgraph_dsp::firdes::{self, WinType};
use rfgraph_dsp::{ArbitraryResampler, Ccc, Ccf, Fff, FirKind, Isa, RationalResampler};

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// GNU Radio 3.10's default taps of `rational_resampler_xxx(interp,
/// decim)` (factors already reduced): a Kaiser (β = 7) low-pass at
/// `interp ×` the input rate, its transition band ending at the narrower
/// Nyquist band and starting at `fractional_bw` of it, gain `interp`.
pub(crate) fn rational_default_taps(
    interp: usize,
    decim: usize,
    fractional_bw: f64,
) -> Result<Vec<f32>, rfgraph_dsp::DspError> {
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

fn rational<K: FirKind>(
    p: &Params,
    interp: usize,
    decim: usize,
    taps: &[K::Tap],
    designed: bool,
) -> Result<Box<dyn Block>, BuildError>
where
    K::Input: rfgraph::Item,
    K::Output: rfgraph::Item,
{
    let kernel = if designed {
        RationalResampler::<K>::with_taps(interp, decim, taps, Isa::detect())
    } else {
        RationalResampler::<K>::with_unreduced_taps(interp, decim, taps, Isa::detect())
    };
    Ok(boxed(kernel.map_err(dsp(p))?))
}

const TYPES: [ItemKind; 2] = [ItemKind::F32, ItemKind::C32];

/// The registry entry: `rational_resampler`.
pub(crate) fn rational_resampler_spec() -> BlockSpec {
    BlockSpec::new(
        "rational_resampler",
        "Resamplers",
        "Resamples by interpolation/decimation with a polyphase FIR.",
        |p| {
            let (interp, decim) = (p.usize("interpolation")?, p.usize("decimation")?);
            if interp == 0 || decim == 0 {
                return Err(p.invalid("interpolation", "factors must be at least 1"));
            }
            let given = p.complexes("taps")?;
            let (taps, designed) = if given.is_empty() {
                let bw = p.f64("fractional_bw")?;
                if !(bw > 0.0 && bw < 0.5) {
                    return Err(p.invalid("fractional_bw", "must be in (0, 0.5)"));
                }
                let g = gcd(interp, decim);
                let t = rational_default_taps(interp / g, decim / g, bw).map_err(dsp(p))?;
                (Taps::Real(t), true)
            } else {
                (taps(p, "taps")?, false)
            };
            match (p.item_type()?, taps) {
                (ItemKind::F32, Taps::Real(t)) => rational::<Fff>(p, interp, decim, &t, designed),
                (ItemKind::C32, Taps::Real(t)) => rational::<Ccf>(p, interp, decim, &t, designed),
                (ItemKind::C32, Taps::Complex(t)) => {
                    rational::<Ccc>(p, interp, decim, &t, designed)
                }
                _ => Err(p.invalid("taps", "complex taps need complex items (`type = \"c32\"`)")),
            }
        },
    )
    .doc(
        "GNU Radio's `rational_resampler_xxx`: output rate = input rate × \
         `interpolation / decimation`. Given `taps` are read as GNU Radio reads them \
         (designed at `interpolation ×` the input rate, gain `interpolation` for unity). \
         Without taps, the factors are reduced by their common divisor and GNU Radio \
         3.10's default filter is designed: a Kaiser (β = 7) low-pass whose pass band \
         is `fractional_bw` of the narrower Nyquist band.",
    )
    .param(
        ParamSpec::uint("interpolation")
            .default(1u64)
            .doc("upsampling factor"),
    )
    .param(
        ParamSpec::uint("decimation")
            .default(1u64)
            .doc("downsampling factor"),
    )
    .param(
        ParamSpec::complexes("taps")
            .default(Pmt::VecF32(Vec::new()))
            .doc("prototype taps; empty designs GNU Radio's default"),
    )
    .param(
        ParamSpec::float("fractional_bw")
            .default(0.4)
            .doc("pass band of the default taps, as a fraction of the output rate (0 to 0.5)"),
    )
    .param(ParamSpec::item_type(&TYPES))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

fn arb<K: FirKind>(
    p: &Params,
    rate: f64,
    filters: usize,
    taps: Option<&[K::Tap]>,
) -> Result<Box<dyn Block>, BuildError>
where
    K::Input: rfgraph::Item,
    K::Output: rfgraph::Item,
    K::Tap: From<f32>,
{
    let kernel = match taps {
        Some(t) => ArbitraryResampler::<K>::with_taps(rate, filters, t, Isa::detect()),
        None => rfgraph_dsp::resample::default_prototype(rate, filters).and_then(|t| {
            let t: Vec<K::Tap> = t.into_iter().map(K::Tap::from).collect();
            ArbitraryResampler::<K>::with_taps(rate, filters, &t, Isa::detect())
        }),
    };
    Ok(boxed(kernel.map_err(dsp(p))?))
}

/// The registry entry: `pfb_arb_resampler`.
pub(crate) fn pfb_arb_resampler_spec() -> BlockSpec {
    BlockSpec::new(
        "pfb_arb_resampler",
        "Resamplers",
        "Resamples by any ratio with a polyphase filter bank.",
        |p| {
            let rate = p.f64("rate")?;
            let filters = p.usize("filters")?;
            let given = p.complexes("taps")?;
            if given.is_empty() {
                return match p.item_type()? {
                    ItemKind::F32 => arb::<Fff>(p, rate, filters, None),
                    _ => arb::<Ccf>(p, rate, filters, None),
                };
            }
            match (p.item_type()?, taps(p, "taps")?) {
                (ItemKind::F32, Taps::Real(t)) => arb::<Fff>(p, rate, filters, Some(&t)),
                (ItemKind::C32, Taps::Real(t)) => arb::<Ccf>(p, rate, filters, Some(&t)),
                (ItemKind::C32, Taps::Complex(t)) => arb::<Ccc>(p, rate, filters, Some(&t)),
                _ => Err(p.invalid("taps", "complex taps need complex items (`type = \"c32\"`)")),
            }
        },
    )
    .doc(
        "GNU Radio's `pfb_arb_resampler_xxx`: output rate = input rate × `rate`, any \
         positive ratio, from a bank of `filters` polyphase filters cut from one \
         prototype (designed at `filters ×` the input rate, gain `filters`) with \
         linear interpolation between neighbouring phases. Without taps, rfgraph's \
         default prototype is designed (Kaiser, 70 dB, pass band 0.8 of the narrower \
         Nyquist band), not GNU Radio's.",
    )
    .param(
        ParamSpec::float("rate")
            .default(1.0)
            .doc("output rate / input rate"),
    )
    .param(
        ParamSpec::complexes("taps")
            .default(Pmt::VecF32(Vec::new()))
            .doc("prototype taps; empty designs a default one"),
    )
    .param(
        ParamSpec::uint("filters")
            .default(32u64)
            .doc("number of polyphase filters"),
    )
    .param(ParamSpec::item_type(&[ItemKind::C32, ItemKind::F32]))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
