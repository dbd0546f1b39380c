//! `pfb_clock_sync`: polyphase filter-bank clock recovery (GNU Radio
//! `digital_pfb_clock_sync_xxx`, complex, one output per symbol).

use super::diag_block::DiagBlock;
use super::params::dsp_error;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::digital::PfbClockSync;

/// The parameters of `pfb_clock_sync`, GNU Radio's
/// `digital_pfb_clock_sync_ccf`. The taps and the loop bandwidth may
/// change while it runs, as GNU Radio's `update_taps` and
/// `set_loop_bandwidth` allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PfbClockSyncParams {
    /// samples per symbol (its integer part sets the stride)
    #[param(default = 2.0, min = 1.0, max = PfbClockSync::MAX_SPS)]
    pub sps: f64,
    /// loop bandwidth (GNU Radio's `2π/100` is typical); the loop's state
    /// stays when it changes
    #[param(default = 0.0628, min = 0.0, settable)]
    pub loop_bw: f32,
    /// prototype matched filter at `filter_size` times the sample rate
    /// (GNU Radio: `firdes.root_raised_cosine(nfilts, nfilts*sps, 1.0,
    /// excess_bw, 11*sps*nfilts)`); empty: that RRC with roll-off 0.35.
    /// New taps apply from the next symbol, the loop's state kept
    #[param(default = Vec::new(), max_len = PfbClockSync::MAX_TAPS, settable)]
    pub taps: Vec<f32>,
    /// number of polyphase arms
    #[param(default = 32, min = 1, max = PfbClockSync::MAX_FILTER_SIZE)]
    pub filter_size: usize,
    /// starting arm
    #[param(default = 16.0)]
    pub init_phase: f32,
    /// largest rate correction
    #[param(default = 1.5, min = 0.0, alias = "max_dev")]
    pub max_rate_deviation: f32,
    /// output samples per symbol (1 only)
    #[param(default = 1, min = 1, max = 1)]
    pub osps: u64,
}

impl PfbClockSyncParams {
    /// The prototype filter: `taps`, or the RRC GNU Radio's examples
    /// design when empty.
    fn prototype(&self) -> Result<Vec<f32>, ParamError> {
        if !self.taps.is_empty() {
            return Ok(self.taps.clone());
        }
        let n = self.filter_size as f64;
        let ntaps = 11.0 * self.sps * n;
        if ntaps > PfbClockSync::MAX_TAPS as f64 {
            return Err(ParamError::new(
                "pfb_clock_sync",
                "taps",
                format!(
                    "the default design needs {ntaps} taps, more than {}: give taps",
                    PfbClockSync::MAX_TAPS
                ),
            ));
        }
        rfgraph_dsp::firdes::root_raised_cosine(n, n * self.sps, 1.0, 0.35, ntaps as usize)
            .map_err(dsp_error("pfb_clock_sync", "taps", &[]))
    }

    /// The loop for these parameters.
    fn kernel(&self) -> Result<PfbClockSync, ParamError> {
        PfbClockSync::new(
            self.sps,
            self.loop_bw,
            &self.prototype()?,
            self.filter_size,
            self.init_phase,
            self.max_rate_deviation,
        )
        .map_err(dsp_error(
            "pfb_clock_sync",
            "taps",
            &[
                ("sps", "sps"),
                ("filter_size", "filter_size"),
                ("loop_bw", "loop_bw"),
                ("init_phase", "init_phase"),
                ("max_rate_deviation", "max_rate_deviation"),
            ],
        ))
    }

    /// The taps make a filter bank (enough of them, with a slope).
    fn check(&self) -> Result<(), ParamError> {
        self.kernel().map(drop)
    }
}

/// The block [`pfb_clock_sync`] builds.
pub type PfbClockSyncBlock = DiagBlock<PfbClockSync, PfbClockSyncParams>;

/// Recovers symbol timing with a bank of `filter_size` matched filters and
/// their derivatives, writing one matched-filtered sample per symbol (GNU
/// Radio's `pfb_clock_sync_ccf` with `osps = 1`, with its optional error,
/// rate and phase outputs). The taps and the loop bandwidth may change
/// while it runs.
///
/// # Parameters
/// [`PfbClockSyncParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`, `sps` samples per symbol
///
/// # Stream Outputs
/// - `out`: `Complex32`, one per symbol
/// - `err`, `rate`, `phase`: `f32` (optional), per symbol: the previous
///   symbol's timing error, the rate and the filter-arm phase
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{PfbClockSyncParams, pfb_clock_sync};
/// use rfgraph_dsp::firdes::root_raised_cosine;
/// let taps = root_raised_cosine(32.0, 32.0 * 4.0, 1.0, 0.35, 11 * 4 * 32)?;
/// let sync = pfb_clock_sync(PfbClockSyncParams { sps: 4.0, taps, ..Default::default() })?;
/// # let _ = sync;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pfb_clock_sync(params: PfbClockSyncParams) -> Result<PfbClockSyncBlock, ParamError> {
    params.validate()?;
    let kernel = params.kernel()?;
    Ok(DiagBlock::new(
        kernel,
        params,
        ["err", "rate", "phase"],
        |kernel, p, name| {
            if name == "taps" {
                kernel.set_taps(&p.prototype()?)?;
            } else {
                kernel.set_loop_bandwidth(p.loop_bw)?;
            }
            Ok(())
        },
    ))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PfbClockSyncParams>(
        "pfb_clock_sync",
        "Digital",
        "Polyphase filter-bank clock recovery: one matched-filtered sample per symbol.",
        |p| Ok(Box::new(pfb_clock_sync(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `digital_pfb_clock_sync_ccf` with one output sample per symbol: same \
         arms, derivative filters (central differences normalised to filter_size/Σ|d|), loop \
         gains (damping 2·filter_size), per-sample loop updates and rate clipping, and the \
         same history of zeros before the first sample. The taps and the loop bandwidth may \
         change while it runs (GNU Radio's `update_taps`, `set_loop_bandwidth`): new arms \
         filter from the next symbol on, the loop's phase and rate kept. The optional `err`, \
         `rate` and `phase` outputs carry GNU Radio's per-symbol values; `time_est` tags are \
         not implemented. Empty `taps` means an RRC with \
         roll-off 0.35 designed as GNU Radio's examples do.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("one sample per symbol"))
    .output(
        PortSpec::new("err", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("the previous symbol's timing error"),
    )
    .output(
        PortSpec::new("rate", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("the loop's rate"),
    )
    .output(
        PortSpec::new("phase", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("the filter-arm phase"),
    )
}
