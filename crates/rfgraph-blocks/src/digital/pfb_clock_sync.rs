//! `pfb_clock_sync`: polyphase filter-bank clock recovery (GNU Radio
//! `digital_pfb_clock_sync_xxx`, complex, one output per symbol).

use crate::DspBlock;
use rfgraph::Setting;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::PfbClockSync;

/// Recovers symbol timing with a bank of `filter_size` matched filters and
/// their derivatives, writing one matched-filtered sample per symbol (GNU
/// Radio's `pfb_clock_sync_ccf` with `osps = 1`; its error, rate and phase
/// outputs are not provided).
///
/// # Stream Inputs
/// - `in`: `Complex32`, `sps` samples per symbol
///
/// # Stream Outputs
/// - `out`: `Complex32`, one per symbol
///
/// # Message Inputs
/// - `loop_bw`: the loop bandwidth.
///
/// # Parameters
/// - `sps`: samples per symbol.
/// - `loop_bw`: loop bandwidth (GNU Radio's `2π/100` is typical).
/// - `taps`: prototype matched filter at `filter_size` times the sample
///   rate (GNU Radio: `firdes.root_raised_cosine(nfilts, nfilts*sps, 1.0,
///   excess_bw, 11*sps*nfilts)`).
/// - `filter_size`: number of arms.
/// - `init_phase`: starting arm.
/// - `max_rate_deviation`: largest rate correction.
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::pfb_clock_sync;
/// use rfgraph_dsp::firdes::root_raised_cosine;
/// let taps = root_raised_cosine(32.0, 32.0 * 4.0, 1.0, 0.35, 11 * 4 * 32)?;
/// let sync = pfb_clock_sync(4.0, 0.0628, &taps, 32, 16.0, 1.5)?;
/// # let _ = sync;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn pfb_clock_sync(
    sps: f64,
    loop_bw: f32,
    taps: &[f32],
    filter_size: usize,
    init_phase: f32,
    max_rate_deviation: f32,
) -> Result<DspBlock<PfbClockSync>, DspError> {
    Ok(DspBlock::new(PfbClockSync::new(
        sps,
        loop_bw,
        taps,
        filter_size,
        init_phase,
        max_rate_deviation,
    )?)
    .with_setting(Setting::try_new(
        "loop_bw",
        |k: &mut PfbClockSync, bw: f32| k.set_loop_bandwidth(bw),
    )))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "pfb_clock_sync",
        "Digital",
        "Polyphase filter-bank clock recovery: one matched-filtered sample per symbol.",
        |p| {
            if p.u64("osps")? != 1 {
                return Err(p.invalid("osps", "only 1 output sample per symbol is supported"));
            }
            let taps = p.floats("taps")?;
            let taps = if taps.is_empty() {
                let (n, sps) = (p.usize("filter_size")?, p.f64("sps")?);
                rfgraph_dsp::firdes::root_raised_cosine(
                    n as f64,
                    n as f64 * sps,
                    1.0,
                    0.35,
                    (11.0 * sps * n as f64) as usize,
                )
                .map_err(|e| p.invalid("taps", e.to_string()))?
            } else {
                taps
            };
            let b = pfb_clock_sync(
                p.f64("sps")?,
                p.f32("loop_bw")?,
                &taps,
                p.usize("filter_size")?,
                p.f32("init_phase")?,
                p.f32("max_rate_deviation")?,
            )
            .map_err(|e| p.refused(e))?;
            Ok(Box::new(b) as Box<dyn rfgraph::Block>)
        },
    )
    .doc("GNU Radio's `digital_pfb_clock_sync_ccf` with one output sample per symbol: same arms, derivative filters (central differences normalised to filter_size/Σ|d|), loop gains (damping 2·filter_size), per-sample loop updates and rate clipping, and the same history of zeros before the first sample. The error/rate/phase outputs and `time_est` tags are not implemented. Empty `taps` means an RRC with roll-off 0.35 designed as GNU Radio's examples do.")
    .param(ParamSpec::float("sps").default(2.0).doc("samples per symbol"))
    .param(ParamSpec::float("loop_bw").default(0.0628).settable().doc("loop bandwidth"))
    .param(ParamSpec::floats("taps").default(Vec::<f32>::new()).doc("prototype matched filter at filter_size·sample rate (empty: RRC 0.35)"))
    .param(ParamSpec::uint("filter_size").default(32u64).doc("number of polyphase arms"))
    .param(ParamSpec::float("init_phase").default(16.0).doc("starting arm"))
    .param(ParamSpec::float("max_rate_deviation").default(1.5).doc("largest rate correction"))
    .param(ParamSpec::uint("osps").default(1u64).doc("output samples per symbol (1 only)"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("one sample per symbol"))
}
