//! `fll_band_edge`: band-edge frequency-locked loop (GNU Radio
//! `digital_fll_band_edge_cc`).

use super::params::dsp_error;
use crate::DspBlock;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::digital::FllBandEdge;

/// The parameters of `fll_band_edge`, GNU Radio's
/// `digital_fll_band_edge_cc`. The loop bandwidth may change while it
/// runs, as GNU Radio's `set_loop_bandwidth` allows.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FllBandEdgeParams {
    /// samples per symbol
    #[param(
        default = 2.0,
        above = 0.0,
        max = limits::MAX_FACTOR,
        alias = "samps_per_sym"
    )]
    pub sps: f32,
    /// excess bandwidth of the pulse
    #[param(default = 0.35, min = 0.0, max = 1.0)]
    pub rolloff: f32,
    /// band-edge filter length; the output starts with that many zeros
    #[param(default = 44, min = 1, max = FllBandEdge::MAX_FILTER_SIZE)]
    pub filter_size: usize,
    /// loop bandwidth; the frequency estimate stays when it changes
    #[param(
        default = 0.0628,
        min = 0.0,
        unit = "rad/sample",
        alias = "w",
        settable
    )]
    pub loop_bw: f32,
}

impl FllBandEdgeParams {
    /// The loop for these parameters.
    fn kernel(&self) -> Result<FllBandEdge, ParamError> {
        FllBandEdge::new(self.sps, self.rolloff, self.filter_size, self.loop_bw).map_err(dsp_error(
            "fll_band_edge",
            "filter_size",
            &[
                ("sps", "sps"),
                ("rolloff", "rolloff"),
                ("bandwidth", "loop_bw"),
            ],
        ))
    }

    /// The band-edge filters design (they may sum to zero).
    fn check(&self) -> Result<(), ParamError> {
        self.kernel().map(drop)
    }
}

/// The block [`fll_band_edge`] builds.
pub type FllBandEdgeBlock = DspBlock<FllBandEdge, FllBandEdgeParams>;

/// Coarse carrier-frequency recovery with band-edge filters (GNU Radio's
/// `fll_band_edge_cc`; its frequency/phase/error outputs are not
/// provided). As in GNU Radio, the output starts with `filter_size` zeros.
/// The loop bandwidth may change while it runs.
///
/// # Parameters
/// [`FllBandEdgeParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, frequency-corrected
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{FllBandEdgeParams, fll_band_edge};
/// let fll = fll_band_edge(FllBandEdgeParams { sps: 4.0, ..Default::default() })?;
/// # let _ = fll;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn fll_band_edge(params: FllBandEdgeParams) -> Result<FllBandEdgeBlock, ParamError> {
    params.validate()?;
    let kernel = params.kernel()?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        Ok(kernel.set_loop_bandwidth(p.loop_bw)?)
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<FllBandEdgeParams>(
        "fll_band_edge",
        "Digital",
        "Band-edge frequency-locked loop: coarse carrier frequency recovery.",
        |p| Ok(Box::new(fll_band_edge(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `digital_fll_band_edge_cc`: same band-edge filter design, error (power \
         difference of the band edges), loop gains (damping √2/2) and frequency limit \
         ±4π/sps; the output starts with `filter_size` zeros as GNU Radio's does. The loop \
         bandwidth may change while it runs (GNU Radio's `set_loop_bandwidth`), keeping the \
         frequency estimate. The frequency, phase and error outputs are not implemented.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("frequency-corrected"))
}
