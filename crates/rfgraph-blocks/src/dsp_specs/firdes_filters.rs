//! `low_pass_filter`, `high_pass_filter`, `band_pass_filter`,
//! `band_reject_filter`: GNU Radio's filter-module blocks, a FIR (or
//! interpolating FIR) whose taps come from the GNU Radio–matching
//! `rfgraph_dsp::firdes` designs.
//!
//! As in GNU Radio, whose block YAML lists them as callbacks, every design
//! parameter may change while the filter runs: the taps are redesigned
//! and swapped between two `work` calls, the input history kept. The
//! rates (`decimation`, `interpolation`) and the item type are fixed.

use super::WINDOWS;
use crate::DspBlock;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, ParamError};
use rfgraph_dsp::firdes::{self, WinType};
use rfgraph_dsp::{Ccf, DecimatingFir, DspError, Fff, Fir, FirKind, InterpolatingFir, SetTaps};

/// What the four design blocks share: the rates, the design's gain,
/// sample rate, transition width and window, and the item type.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct DesignParams {
    /// keep one output in this many (a `fir_filter`); not with interpolation
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "decim")]
    pub decimation: usize,
    /// outputs per input (an `interp_fir_filter`); not with decimation
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "interp")]
    pub interpolation: usize,
    /// pass-band gain
    #[param(default = 1.0, settable)]
    pub gain: f64,
    /// the sample rate the design is for
    #[param(
        default = 32_000.0,
        unit = "Hz",
        above = 0.0,
        alias = "samp_rate",
        settable
    )]
    pub sample_rate: f64,
    /// transition width; sets the tap count
    #[param(default = 1_000.0, unit = "Hz", above = 0.0, alias = "width", settable)]
    pub transition: f64,
    /// window of the design (GNU Radio's `WIN_*`, in lower case)
    #[param(default = "hamming", choices = WINDOWS, alias = "win", settable)]
    pub window: String,
    /// window parameter: Kaiser β, exponential decay, Gaussian σ, Tukey α
    #[param(default = firdes::DEFAULT_PARAM, settable)]
    pub beta: f64,
    /// stream item type: `f32` (GNU Radio's `fff`) or `c32` with real taps
    /// (`ccf`)
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
}

impl DesignParams {
    /// The window `window` names (one of [`WINDOWS`]).
    fn win_type(&self) -> WinType {
        super::win_type(&self.window).unwrap_or(WinType::Hamming)
    }

    /// The rules across parameters: one rate factor, a tap count within
    /// [`limits::MAX_TAPS`].
    fn check(&self, block: &'static str) -> Result<(), ParamError> {
        if self.decimation > 1 && self.interpolation > 1 {
            return Err(ParamError::new(
                block,
                "interpolation",
                "a filter either decimates or interpolates, not both",
            ));
        }
        let ntaps = firdes::compute_ntaps(
            self.sample_rate,
            self.transition,
            self.win_type(),
            self.beta,
        )
        .map_err(|e| self.dsp_error(block, e))?;
        if ntaps > limits::MAX_TAPS {
            return Err(ParamError::new(
                block,
                "transition",
                format!(
                    "the design needs {ntaps} taps, more than {}",
                    limits::MAX_TAPS
                ),
            ));
        }
        Ok(())
    }

    /// A design error as a parameter error, blaming the parameter it
    /// names (`cutoff` when it names none).
    fn dsp_error(&self, block: &'static str, e: DspError) -> ParamError {
        let param = match e.param() {
            Some("sampling_freq") => "sample_rate",
            Some("transition_width") => "transition",
            Some("param") => "beta",
            Some("gain") => "gain",
            Some("low_cutoff_freq") => "low_cutoff",
            Some("high_cutoff_freq") => "high_cutoff",
            _ => "cutoff",
        };
        ParamError::new(block, param, e.to_string())
    }
}

/// A band design: its taps from its parameters.
pub trait Design: ParamSet + Clone {
    /// The block's registry name.
    const BLOCK: &'static str;
    /// The shared parameters.
    fn design(&self) -> &DesignParams;
    /// The taps of the design.
    fn taps(&self) -> Result<Vec<f32>, DspError>;
    /// Every rule the design imposes, the design itself included.
    fn check(&self) -> Result<(), ParamError> {
        self.design().check(Self::BLOCK)?;
        let taps = self
            .taps()
            .map_err(|e| self.design().dsp_error(Self::BLOCK, e))?;
        debug_assert!(!taps.is_empty());
        Ok(())
    }
}

/// The parameters of `low_pass_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Design::check)]
pub struct LowPassParams {
    /// the design
    #[param(flatten)]
    pub design: DesignParams,
    /// cut-off (−6 dB) frequency, below half the sample rate
    #[param(
        default = 4_000.0,
        unit = "Hz",
        above = 0.0,
        alias = "cutoff_freq",
        settable
    )]
    pub cutoff: f64,
}

/// The parameters of `high_pass_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Design::check)]
pub struct HighPassParams {
    /// the design
    #[param(flatten)]
    pub design: DesignParams,
    /// cut-off (−6 dB) frequency, below half the sample rate
    #[param(
        default = 4_000.0,
        unit = "Hz",
        above = 0.0,
        alias = "cutoff_freq",
        settable
    )]
    pub cutoff: f64,
}

/// The band edges of `band_pass_filter` and `band_reject_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct BandEdges {
    /// lower band edge
    #[param(
        default = 2_000.0,
        unit = "Hz",
        above = 0.0,
        alias = "low_cutoff_freq",
        settable
    )]
    pub low_cutoff: f64,
    /// upper band edge, above the lower one and below half the sample rate
    #[param(
        default = 6_000.0,
        unit = "Hz",
        above = 0.0,
        alias = "high_cutoff_freq",
        settable
    )]
    pub high_cutoff: f64,
}

/// The parameters of `band_pass_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Design::check)]
pub struct BandPassParams {
    /// the design
    #[param(flatten)]
    pub design: DesignParams,
    /// the band
    #[param(flatten)]
    pub band: BandEdges,
}

/// The parameters of `band_reject_filter`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Design::check)]
pub struct BandRejectParams {
    /// the design
    #[param(flatten)]
    pub design: DesignParams,
    /// the band
    #[param(flatten)]
    pub band: BandEdges,
}

impl Design for LowPassParams {
    const BLOCK: &'static str = "low_pass_filter";
    fn design(&self) -> &DesignParams {
        &self.design
    }
    fn taps(&self) -> Result<Vec<f32>, DspError> {
        let d = &self.design;
        firdes::low_pass(
            d.gain,
            d.sample_rate,
            self.cutoff,
            d.transition,
            d.win_type(),
            d.beta,
        )
    }
}

impl Design for HighPassParams {
    const BLOCK: &'static str = "high_pass_filter";
    fn design(&self) -> &DesignParams {
        &self.design
    }
    fn taps(&self) -> Result<Vec<f32>, DspError> {
        let d = &self.design;
        firdes::high_pass(
            d.gain,
            d.sample_rate,
            self.cutoff,
            d.transition,
            d.win_type(),
            d.beta,
        )
    }
}

impl Design for BandPassParams {
    const BLOCK: &'static str = "band_pass_filter";
    fn design(&self) -> &DesignParams {
        &self.design
    }
    fn taps(&self) -> Result<Vec<f32>, DspError> {
        let (d, b) = (&self.design, &self.band);
        firdes::band_pass(
            d.gain,
            d.sample_rate,
            b.low_cutoff,
            b.high_cutoff,
            d.transition,
            d.win_type(),
            d.beta,
        )
    }
}

impl Design for BandRejectParams {
    const BLOCK: &'static str = "band_reject_filter";
    fn design(&self) -> &DesignParams {
        &self.design
    }
    fn taps(&self) -> Result<Vec<f32>, DspError> {
        let (d, b) = (&self.design, &self.band);
        firdes::band_reject(
            d.gain,
            d.sample_rate,
            b.low_cutoff,
            b.high_cutoff,
            d.transition,
            d.win_type(),
            d.beta,
        )
    }
}

/// A filter of kernel `F` made from design `D`, redesigned when a
/// parameter changes.
fn designed<D, F>(kernel: F, params: D) -> Box<dyn Block>
where
    D: Design,
    F: SetTaps<Tap = f32> + Send + 'static,
    F::Input: Item,
    F::Output: Item,
{
    Box::new(DspBlock::tuned(kernel, params, |kernel, params, _| {
        Ok(kernel.set_taps(&params.taps()?)?)
    }))
}

/// The filter for `params`: a FIR, decimating FIR or interpolating FIR of
/// kind `K` with the design's taps.
fn filter<D: Design, K>(params: D) -> Result<Box<dyn Block>, BoxError>
where
    K: FirKind<Tap = f32> + Send + 'static,
    K::Input: Item,
    K::Output: Item,
{
    let taps = params.taps()?;
    let (decimation, interpolation) = (params.design().decimation, params.design().interpolation);
    Ok(match (decimation, interpolation) {
        (1, 1) => designed(Fir::<K>::new(&taps)?, params),
        (d, 1) => designed(DecimatingFir::<K>::new(&taps, d)?, params),
        (_, i) => designed(InterpolatingFir::<K>::new(&taps, i)?, params),
    })
}

/// The registry entry `name` of design `D`.
fn design_spec<D: Design>(name: &'static str, summary: &'static str) -> BlockSpec {
    BlockSpec::of::<D>(name, "Filters", summary, |p| match p.design().item {
        ItemKind::C32 => filter::<D, Ccf>(p),
        _ => filter::<D, Fff>(p),
    })
    .doc(DESIGN_DOC)
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

const DESIGN_DOC: &str = "The taps are GNU Radio 3.10's for the same arguments (to `f32` \
rounding): a windowed-sinc design whose tap count follows from the window's attenuation \
and the transition width. With `interpolation > 1` the block is GNU Radio's \
`interp_fir_filter` variant, otherwise a `fir_filter` decimating by `decimation`. Real \
items (`f32`, GNU Radio's `fff`) or complex items with real taps (`c32`, `ccf`). \
Cut-offs above half the sample rate are errors (GNU Radio designs garbage there). Every \
design parameter may change while the filter runs, as GNU Radio's callbacks allow: the \
filter is redesigned between two calls and keeps its input history.";

/// The registry entry: `low_pass_filter`.
pub(crate) fn low_pass_spec() -> BlockSpec {
    design_spec::<LowPassParams>("low_pass_filter", "A windowed-sinc low-pass FIR filter.")
}

/// The registry entry: `high_pass_filter`.
pub(crate) fn high_pass_spec() -> BlockSpec {
    design_spec::<HighPassParams>("high_pass_filter", "A windowed-sinc high-pass FIR filter.")
}

/// The registry entry: `band_pass_filter`.
pub(crate) fn band_pass_spec() -> BlockSpec {
    design_spec::<BandPassParams>(
        "band_pass_filter",
        "A windowed-sinc band-pass FIR filter (real taps).",
    )
}

/// The registry entry: `band_reject_filter`.
pub(crate) fn band_reject_spec() -> BlockSpec {
    design_spec::<BandRejectParams>(
        "band_reject_filter",
        "A windowed-sinc band-reject FIR filter.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_window_name_is_a_distinct_design_window() {
        let mut seen = std::collections::BTreeSet::new();
        for name in WINDOWS {
            let d = DesignParams {
                window: name.to_string(),
                ..Default::default()
            };
            assert!(seen.insert(d.win_type().code()), "{name}");
        }
    }
}
