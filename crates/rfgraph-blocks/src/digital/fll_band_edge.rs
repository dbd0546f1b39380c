//! `fll_band_edge`: band-edge frequency-locked loop (GNU Radio
//! `digital_fll_band_edge_cc`).

use crate::DspBlock;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::FllBandEdge;

/// Coarse carrier-frequency recovery with band-edge filters (GNU Radio's
/// `fll_band_edge_cc`; its frequency/phase/error outputs are not
/// provided). As in GNU Radio, the output starts with `filter_size` zeros.
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, frequency-corrected
///
/// # Parameters
/// - `sps`: samples per symbol.
/// - `rolloff`: the pulse's excess bandwidth, `[0, 1]`.
/// - `filter_size`: band-edge filter length.
/// - `loop_bw`: loop bandwidth in rad/sample.
///
/// # Usage
/// ```
/// let fll = rfgraph_blocks::digital::fll_band_edge(4.0, 0.35, 44, 0.0628)?;
/// # let _ = fll;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn fll_band_edge(
    sps: f32,
    rolloff: f32,
    filter_size: usize,
    loop_bw: f32,
) -> Result<DspBlock<FllBandEdge>, DspError> {
    Ok(DspBlock::new(FllBandEdge::new(
        sps,
        rolloff,
        filter_size,
        loop_bw,
    )?))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "fll_band_edge",
        "Digital",
        "Band-edge frequency-locked loop: coarse carrier frequency recovery.",
        |p| {
            let b = fll_band_edge(
                p.f32("sps")?,
                p.f32("rolloff")?,
                p.usize("filter_size")?,
                p.f32("loop_bw")?,
            )
            .map_err(|e| p.refused(e))?;
            Ok(Box::new(b) as Box<dyn rfgraph::Block>)
        },
    )
    .doc("GNU Radio's `digital_fll_band_edge_cc`: same band-edge filter design, error (power difference of the band edges), loop gains (damping √2/2) and frequency limit ±4π/sps; the output starts with `filter_size` zeros as GNU Radio's does. The frequency, phase and error outputs are not implemented.")
    .param(ParamSpec::float("sps").default(2.0).doc("samples per symbol"))
    .param(ParamSpec::float("rolloff").default(0.35).doc("pulse excess bandwidth"))
    .param(ParamSpec::uint("filter_size").default(44u64).doc("band-edge filter length"))
    .param(ParamSpec::float("loop_bw").default(0.0628).unit("rad/sample").doc("loop bandwidth"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("frequency-corrected"))
}
