//! `costas_loop`: carrier recovery for BPSK/QPSK/8PSK (GNU Radio
//! `digital_costas_loop_cc`).

use super::params::dsp_error;
use crate::DspBlock;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::digital::CostasLoop;

/// The parameters of `costas_loop`, GNU Radio's `digital_costas_loop_cc`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct CostasLoopParams {
    /// loop bandwidth (GNU Radio's `2π/100` is typical); the loop's state
    /// stays when it changes
    #[param(
        default = 0.0628,
        min = 0.0,
        unit = "rad/sample",
        alias = "w",
        settable
    )]
    pub loop_bw: f32,
    /// 2 (BPSK), 4 (QPSK) or 8 (8PSK)
    #[param(default = 2, min = 2, max = 8)]
    pub order: u32,
}

impl CostasLoopParams {
    fn check(&self) -> Result<(), ParamError> {
        if ![2, 4, 8].contains(&self.order) {
            return Err(ParamError::new(
                "costas_loop",
                "order",
                format!("{} is not 2 (BPSK), 4 (QPSK) or 8 (8PSK)", self.order),
            ));
        }
        Ok(())
    }
}

/// The block [`costas_loop`] builds.
pub type CostasLoopBlock = DspBlock<CostasLoop, CostasLoopParams>;

/// Locks to the carrier of a PSK signal and rotates it to baseband, with
/// GNU Radio 3.10's detectors and loop filter (`costas_loop_cc`; its
/// optional frequency output is not provided). The loop bandwidth may
/// change while it runs.
///
/// # Parameters
/// [`CostasLoopParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, derotated
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{CostasLoopParams, costas_loop};
/// let costas = costas_loop(CostasLoopParams { loop_bw: 0.0628, order: 4 })?;
/// # let _ = costas;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn costas_loop(params: CostasLoopParams) -> Result<CostasLoopBlock, ParamError> {
    params.validate()?;
    let kernel = CostasLoop::new(params.loop_bw, params.order).map_err(dsp_error(
        "costas_loop",
        "order",
        &[("loop_bw", "loop_bw")],
    ))?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        Ok(kernel.set_loop_bandwidth(p.loop_bw)?)
    }))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<CostasLoopParams>(
        "costas_loop",
        "Digital",
        "Costas loop carrier recovery for BPSK, QPSK and 8PSK.",
        |p| Ok(Box::new(costas_loop(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio 3.10's `digital_costas_loop_cc` (same phase detectors, loop gains for \
         damping √2/2, error clipped to ±1, frequency limited to ±1 rad/sample). The loop \
         bandwidth may change while it runs (GNU Radio's `set_loop_bandwidth`), keeping the \
         phase and frequency. `use_snr` and the frequency output are not provided.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("derotated samples"))
}
