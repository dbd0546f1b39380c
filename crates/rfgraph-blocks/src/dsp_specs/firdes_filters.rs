//! `low_pass_filter`, `high_pass_filter`, `band_pass_filter`,
//! `band_reject_filter`: GNU Radio's filter-module blocks, a FIR (or
//! interpolating FIR) whose taps come from the GNU Radio–matching
//! `rfgraph_dsp::firdes` designs.

use super::fir::{fir_for, interp_for};
use super::{beta_param, win_type, window_param};
use rfgraph::Block;
use rfgraph::Pmt;
use rfgraph::registry::{BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph_dsp::firdes;
use std::collections::BTreeMap;

/// Which design.
#[derive(Clone, Copy)]
enum Band {
    Low,
    High,
    Pass,
    Reject,
}

/// Designs the taps of `band` from `p` and builds the filter.
fn build(p: &Params, band: Band) -> Result<Box<dyn Block>, BuildError> {
    let (gain, rate, width) = (p.f64("gain")?, p.f64("sample_rate")?, p.f64("transition")?);
    let (window, beta) = (win_type(p)?, p.f64("beta")?);
    let taps = match band {
        Band::Low => firdes::low_pass(gain, rate, p.f64("cutoff")?, width, window, beta),
        Band::High => firdes::high_pass(gain, rate, p.f64("cutoff")?, width, window, beta),
        Band::Pass => firdes::band_pass(
            gain,
            rate,
            p.f64("low_cutoff")?,
            p.f64("high_cutoff")?,
            width,
            window,
            beta,
        ),
        Band::Reject => firdes::band_reject(
            gain,
            rate,
            p.f64("low_cutoff")?,
            p.f64("high_cutoff")?,
            width,
            window,
            beta,
        ),
    }
    .map_err(|e| p.refused(e))?;
    let (decimation, interpolation) = (p.usize("decimation")?, p.usize("interpolation")?);
    // The FIR builders read `taps` and `type` from their parameters.
    let mut given = BTreeMap::new();
    given.insert("taps".to_string(), Pmt::VecF32(taps));
    given.insert("type".to_string(), Pmt::from(p.item_type()?.name()));
    let inner_specs = [super::taps_param(), ParamSpec::item_type(&TYPES)];
    let inner = Params::resolve(p.block(), &inner_specs, given)?;
    match (decimation, interpolation) {
        (0, _) => Err(p.invalid("decimation", "must be at least 1")),
        (_, 0) => Err(p.invalid("interpolation", "must be at least 1")),
        (d, 1) => fir_for(&inner, d),
        (1, i) => interp_for(&inner, i),
        _ => Err(p.invalid(
            "interpolation",
            "a filter either decimates or interpolates, not both",
        )),
    }
}

const TYPES: [ItemKind; 2] = [ItemKind::F32, ItemKind::C32];

/// What every design block shares.
fn common(spec: BlockSpec, cutoffs: &[ParamSpec]) -> BlockSpec {
    let mut spec = spec
        .param(
            ParamSpec::uint("decimation")
                .default(1u64)
                .doc("keep one output in this many (a `fir_filter`)"),
        )
        .param(
            ParamSpec::uint("interpolation")
                .default(1u64)
                .doc("outputs per input (an `interp_fir_filter`); not with decimation"),
        )
        .param(ParamSpec::float("gain").default(1.0).doc("pass-band gain"))
        .param(
            ParamSpec::float("sample_rate")
                .default(32_000.0)
                .unit("Hz")
                .doc("the rate the design is for"),
        );
    for c in cutoffs {
        spec = spec.param(c.clone());
    }
    spec.param(
        ParamSpec::float("transition")
            .default(1_000.0)
            .unit("Hz")
            .doc("transition width; sets the tap count"),
    )
    .param(window_param())
    .param(beta_param())
    .param(ParamSpec::item_type(&TYPES))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

const DESIGN_DOC: &str = "The taps are GNU Radio 3.10's for the same arguments (to `f32` \
rounding): a windowed-sinc design whose tap count follows from the window's attenuation \
and the transition width. With `interpolation > 1` the block is GNU Radio's \
`interp_fir_filter` variant, otherwise a `fir_filter` decimating by `decimation`. Real \
items (`f32`, GNU Radio's `fff`) or complex items with real taps (`c32`, `ccf`). \
Cut-offs at or above half the sample rate are errors (GNU Radio designs garbage there).";

/// The cut-off parameters of `band`'s design.
fn cutoffs(band: Band) -> Vec<ParamSpec> {
    match band {
        Band::Low | Band::High => vec![
            ParamSpec::float("cutoff")
                .default(4_000.0)
                .unit("Hz")
                .doc("cut-off (−6 dB) frequency"),
        ],
        Band::Pass | Band::Reject => vec![
            ParamSpec::float("low_cutoff")
                .default(2_000.0)
                .unit("Hz")
                .doc("lower band edge"),
            ParamSpec::float("high_cutoff")
                .default(6_000.0)
                .unit("Hz")
                .doc("upper band edge"),
        ],
    }
}

/// The registry entry `name` of the `band` design.
fn design_spec(name: &'static str, summary: &'static str, band: Band) -> BlockSpec {
    common(
        BlockSpec::new(name, "Filters", summary, move |p| build(p, band)).doc(DESIGN_DOC),
        &cutoffs(band),
    )
}

/// The registry entry: `low_pass_filter`.
pub(crate) fn low_pass_spec() -> BlockSpec {
    design_spec(
        "low_pass_filter",
        "A windowed-sinc low-pass FIR filter.",
        Band::Low,
    )
}

/// The registry entry: `high_pass_filter`.
pub(crate) fn high_pass_spec() -> BlockSpec {
    design_spec(
        "high_pass_filter",
        "A windowed-sinc high-pass FIR filter.",
        Band::High,
    )
}

/// The registry entry: `band_pass_filter`.
pub(crate) fn band_pass_spec() -> BlockSpec {
    design_spec(
        "band_pass_filter",
        "A windowed-sinc band-pass FIR filter (real taps).",
        Band::Pass,
    )
}

/// The registry entry: `band_reject_filter`.
pub(crate) fn band_reject_spec() -> BlockSpec {
    design_spec(
        "band_reject_filter",
        "A windowed-sinc band-reject FIR filter.",
        Band::Reject,
    )
}
