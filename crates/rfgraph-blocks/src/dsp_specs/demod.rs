//! `quadrature_demod`, `fm_deemph` and `am_demod` on the `rfgraph-dsp`
//! demodulator kernels.

use super::{boxed, dsp};
use rfgraph::Block;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::{AmDemod, Deemphasis, QuadratureDemod};

/// The parameters of `quadrature_demod`, GNU Radio's
/// `analog_quadrature_demod_cf`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct QuadratureDemodParams {
    /// output per radian of phase step; `fs / (2π Δf)` gives ±1 at a
    /// deviation of `Δf`
    #[param(default = 1.0, settable)]
    pub gain: f32,
}

/// The registry entry: `quadrature_demod`.
pub(crate) fn quadrature_demod_spec() -> BlockSpec {
    BlockSpec::of::<QuadratureDemodParams>(
        "quadrature_demod",
        "Demodulators",
        "FM discriminator: gain × the phase step between samples.",
        |p| {
            let kernel = QuadratureDemod::new(p.gain)?;
            let block = crate::DspBlock::tuned(kernel, p, |k, p, _| Ok(k.set_gain(p.gain)?));
            Ok(Box::new(block))
        },
    )
    .doc(
        "GNU Radio's `analog_quadrature_demod_cf`: `y[n] = gain · arg(x[n] · conj(x[n−1]))`. \
         For FM with peak deviation `Δf` at sample rate `fs`, `gain = fs / (2π Δf)` gives \
         ±1 at full deviation.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// The registry entry: `fm_deemph`.
pub(crate) fn fm_deemph_spec() -> BlockSpec {
    BlockSpec::new(
        "fm_deemph",
        "Filters",
        "FM de-emphasis: a first-order low-pass with time constant tau.",
        |p| {
            Ok(boxed(
                Deemphasis::new(p.f64("sample_rate")?, p.f64("tau")?).map_err(dsp(p))?,
            ))
        },
    )
    .doc(
        "GNU Radio's `analog_fm_deemph`: the single-pole IIR low-pass that undoes \
         broadcast FM's pre-emphasis, corner `1 / (2π tau)`; `tau` is 75 µs in the \
         Americas and 50 µs in Europe.",
    )
    .param(
        ParamSpec::float("sample_rate")
            .default(48_000.0)
            .unit("Hz")
            .doc("sample rate of the audio"),
    )
    .param(
        ParamSpec::float("tau")
            .default(75e-6)
            .unit("s")
            .doc("time constant"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// The registry entry: `am_demod`.
pub(crate) fn am_demod_spec() -> BlockSpec {
    BlockSpec::new(
        "am_demod",
        "Demodulators",
        "AM envelope detector, optionally removing the carrier's DC.",
        |p| {
            let demod = match p.opt::<f32>("dc_pole")? {
                Some(pole) => AmDemod::with_dc_removal(pole).map_err(dsp(p))?,
                None => AmDemod::new(),
            };
            Ok(boxed(demod) as Box<dyn Block>)
        },
    )
    .doc(
        "The magnitude `|x[n]|` of each sample, then, with `dc_pole`, a one-pole DC \
         blocker so that the carrier level leaves the audio. Unlike GNU Radio's \
         `analog_am_demod_cf` hierarchical block it neither filters nor decimates the \
         audio: follow it with a `low_pass_filter`.",
    )
    .param(
        ParamSpec::float("dc_pole")
            .optional()
            .doc("pole of the DC blocker in (0, 1), e.g. 0.999; none when not set"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
