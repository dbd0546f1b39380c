//! `quadrature_demod`, `fm_deemph` and `am_demod` on the `rfgraph-dsp`
//! demodulator kernels.

use crate::DspBlock;
use rfgraph::ParamError;
use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
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
            let block = DspBlock::tuned(kernel, p, |k, p, _| Ok(k.set_gain(p.gain)?));
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

/// The parameters of `fm_deemph`, GNU Radio's `analog_fm_deemph`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FmDeemphParams {
    /// sample rate of the audio
    #[param(default = 48_000.0, unit = "Hz", above = 0.0, alias = "samp_rate")]
    pub sample_rate: f64,
    /// time constant: 75 µs in the Americas, 50 µs in Europe; its corner
    /// `1 / (2π tau)` lies below half the sample rate
    #[param(default = 75e-6, unit = "s", above = 0.0)]
    pub tau: f64,
}

impl FmDeemphParams {
    /// The filter itself: its corner must be realisable at the rate.
    fn check(&self) -> Result<(), ParamError> {
        Deemphasis::new(self.sample_rate, self.tau)
            .map(drop)
            .map_err(|e| ParamError::new("fm_deemph", "tau", e.to_string()))
    }
}

/// The registry entry: `fm_deemph`.
pub(crate) fn fm_deemph_spec() -> BlockSpec {
    BlockSpec::of::<FmDeemphParams>(
        "fm_deemph",
        "Filters",
        "FM de-emphasis: a first-order low-pass with time constant tau.",
        |p| {
            let kernel = Deemphasis::new(p.sample_rate, p.tau)?;
            Ok(Box::new(DspBlock::with_params(kernel, p)))
        },
    )
    .doc(
        "GNU Radio's `analog_fm_deemph`: the single-pole IIR low-pass that undoes \
         broadcast FM's pre-emphasis, corner `1 / (2π tau)`; `tau` is 75 µs in the \
         Americas and 50 µs in Europe.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// The parameters of `am_demod`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct AmDemodParams {
    /// pole of the DC blocker in (0, 1), e.g. 0.999; none when not set
    #[param(above = 0.0, below = 1.0)]
    pub dc_pole: Option<f32>,
}

impl AmDemodParams {
    /// The pole as `f32`: 0.999999999 rounds to 1, which is no blocker.
    fn check(&self) -> Result<(), ParamError> {
        match self.dc_pole {
            Some(pole) if !(pole > 0.0 && pole < 1.0) => Err(ParamError::new(
                "am_demod",
                "dc_pole",
                format!("{pole} as a 32-bit float is not in (0, 1)"),
            )),
            _ => Ok(()),
        }
    }
}

/// The registry entry: `am_demod`.
pub(crate) fn am_demod_spec() -> BlockSpec {
    BlockSpec::of::<AmDemodParams>(
        "am_demod",
        "Demodulators",
        "AM envelope detector, optionally removing the carrier's DC.",
        |p| {
            let demod = match p.dc_pole {
                Some(pole) => AmDemod::with_dc_removal(pole)?,
                None => AmDemod::new(),
            };
            Ok(Box::new(DspBlock::with_params(demod, p)))
        },
    )
    .doc(
        "The magnitude `|x[n]|` of each sample, then, with `dc_pole`, a one-pole DC \
         blocker so that the carrier level leaves the audio. Unlike GNU Radio's \
         `analog_am_demod_cf` hierarchical block it neither filters nor decimates the \
         audio: follow it with a `low_pass_filter`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
