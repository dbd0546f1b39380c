//! `costas_loop`: carrier recovery for BPSK/QPSK/8PSK (GNU Radio
//! `digital_costas_loop_cc`).

use crate::DspBlock;
use rfgraph::Setting;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::CostasLoop;

/// Locks to the carrier of a PSK signal and rotates it to baseband, with
/// GNU Radio 3.10's detectors and loop filter (`costas_loop_cc`; its
/// optional frequency output is not provided).
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, derotated
///
/// # Message Inputs
/// - `loop_bw`: the loop bandwidth (rad/sample).
///
/// # Parameters
/// - `loop_bw`: loop bandwidth in rad/sample (GNU Radio's `2π/100`).
/// - `order`: 2 (BPSK), 4 (QPSK) or 8 (8PSK).
///
/// # Usage
/// ```
/// let costas = rfgraph_blocks::digital::costas_loop(0.0628, 4)?;
/// # let _ = costas;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn costas_loop(loop_bw: f32, order: u32) -> Result<DspBlock<CostasLoop>, DspError> {
    Ok(
        DspBlock::new(CostasLoop::new(loop_bw, order)?).with_setting(
            Setting::try_new("loop_bw", |k: &mut CostasLoop, bw: f32| {
                k.set_loop_bandwidth(bw)
            })
            .unit("rad/sample"),
        ),
    )
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("costas_loop", "Digital", "Costas loop carrier recovery for BPSK, QPSK and 8PSK.", |p| {
        let order = super::params::u32_in(p, "order", 2, 8)?;
        let k = costas_loop(p.f32("loop_bw")?, order).map_err(|e| p.refused(e))?;
        Ok(Box::new(k) as Box<dyn rfgraph::Block>)
    })
    .doc("GNU Radio 3.10's `digital_costas_loop_cc` (same phase detectors, loop gains for damping √2/2, error clipped to ±1, frequency limited to ±1 rad/sample). `use_snr` and the frequency output are not provided.")
    .param(ParamSpec::float("loop_bw").default(0.0628).unit("rad/sample").settable().doc("loop bandwidth"))
    .param(ParamSpec::uint("order").default(2u64).doc("2 (BPSK), 4 (QPSK) or 8 (8PSK)"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("derotated samples"))
}
