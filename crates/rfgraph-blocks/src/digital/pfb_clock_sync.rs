//! `pfb_clock_sync`: polyphase filter-bank clock recovery (GNU Radio
//! `digital_pfb_clock_sync_xxx`, `ccf` and `fff`, `osps` outputs per
//! symbol).

use super::diag_block::DiagBlock;
use super::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::digital::{PfbClockSync, SyncSample};

/// The parameters of `pfb_clock_sync`, GNU Radio's
/// `digital_pfb_clock_sync_ccf` / `_fff`. The taps and the loop bandwidth may
/// change while it runs, as GNU Radio's `update_taps` and
/// `set_loop_bandwidth` allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PfbClockSyncParams {
    /// stream item type: complex (`ccf`) or float (`fff`)
    #[param(name = "type", default = ItemKind::C32, kinds(C32, F32))]
    pub item: ItemKind,
    /// samples per symbol (its integer part sets the stride)
    #[param(default = 2.0, min = 1.0, max = PfbClockSync::<Complex32>::MAX_SPS)]
    pub sps: f64,
    /// loop bandwidth (GNU Radio's `2π/100` is typical); the loop's state
    /// stays when it changes
    #[param(default = 0.0628, min = 0.0, settable)]
    pub loop_bw: f32,
    /// prototype matched filter at `filter_size` times the sample rate
    /// (GNU Radio: `firdes.root_raised_cosine(nfilts, nfilts*sps, 1.0,
    /// excess_bw, 11*sps*nfilts)`); empty: that RRC with roll-off 0.35.
    /// New taps apply from the next symbol, the loop's state kept
    #[param(default = Vec::new(), max_len = PfbClockSync::<Complex32>::MAX_TAPS, settable)]
    pub taps: Vec<f32>,
    /// number of polyphase arms
    #[param(default = 32, min = 1, max = PfbClockSync::<Complex32>::MAX_FILTER_SIZE)]
    pub filter_size: usize,
    /// starting arm
    #[param(default = 16.0)]
    pub init_phase: f32,
    /// largest rate correction
    #[param(default = 1.5, min = 0.0, alias = "max_dev")]
    pub max_rate_deviation: f32,
    /// output samples per symbol; as GNU Radio's, they come from
    /// consecutive input samples starting at the symbol's
    #[param(default = 1, min = 1, max = 64)]
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
        if ntaps > PfbClockSync::<Complex32>::MAX_TAPS as f64 {
            return Err(ParamError::new(
                "pfb_clock_sync",
                "taps",
                format!(
                    "the default design needs {ntaps} taps, more than {}: give taps",
                    PfbClockSync::<Complex32>::MAX_TAPS
                ),
            ));
        }
        rfgraph_dsp::firdes::root_raised_cosine(n, n * self.sps, 1.0, 0.35, ntaps as usize)
            .map_err(dsp_error("pfb_clock_sync", "taps", &[]))
    }

    /// The loop for these parameters.
    fn kernel<T: SyncSample>(&self) -> Result<PfbClockSync<T>, ParamError> {
        PfbClockSync::<T>::new(
            self.sps,
            self.loop_bw,
            &self.prototype()?,
            self.filter_size,
            self.init_phase,
            self.max_rate_deviation,
        )
        .and_then(|k| k.with_osps(self.osps as usize))
        .map_err(dsp_error(
            "pfb_clock_sync",
            "taps",
            &[
                ("sps", "sps"),
                ("filter_size", "filter_size"),
                ("loop_bw", "loop_bw"),
                ("init_phase", "init_phase"),
                ("max_rate_deviation", "max_rate_deviation"),
                ("osps", "osps"),
            ],
        ))
    }

    /// The taps make a filter bank (enough of them, with a slope).
    fn check(&self) -> Result<(), ParamError> {
        self.kernel::<f32>().map(drop)
    }
}

/// The block [`pfb_clock_sync`] builds; `T` is the item type.
pub type PfbClockSyncBlock<T = Complex32> = DiagBlock<PfbClockSync<T>, PfbClockSyncParams>;

/// Recovers symbol timing with a bank of `filter_size` matched filters and
/// their derivatives, writing `osps` matched-filtered samples per symbol
/// (GNU Radio's `pfb_clock_sync_ccf` / `_fff`, with its optional error,
/// rate and phase outputs). The taps and the loop bandwidth may change
/// while it runs.
///
/// # Parameters
/// [`PfbClockSyncParams`]; `T` is the item type (`Complex32` or `f32`).
///
/// # Stream Inputs
/// - `in`: `T`, `sps` samples per symbol
///
/// # Stream Outputs
/// - `out`: `T`, `osps` per symbol
/// - `err`, `rate`, `phase`: `f32` (optional), at each symbol's first
///   output: the previous symbol's timing error, the rate and the
///   filter-arm phase (zeros at its other outputs)
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{PfbClockSyncParams, pfb_clock_sync};
/// use rfgraph_dsp::firdes::root_raised_cosine;
/// let taps = root_raised_cosine(32.0, 32.0 * 4.0, 1.0, 0.35, 11 * 4 * 32)?;
/// let sync = pfb_clock_sync::<num_complex::Complex32>(PfbClockSyncParams {
///     sps: 4.0,
///     taps,
///     osps: 2,
///     ..Default::default()
/// })?;
/// # let _ = sync;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pfb_clock_sync<T: SyncSample + rfgraph::Item>(
    params: PfbClockSyncParams,
) -> Result<PfbClockSyncBlock<T>, ParamError> {
    params.validate()?;
    let kernel = params.kernel::<T>()?;
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
        "Polyphase filter-bank clock recovery: osps matched-filtered samples per symbol.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => pfb_clock_sync::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `digital_pfb_clock_sync_ccf` / `_fff`: same \
         arms, derivative filters (central differences normalised to filter_size/Σ|d|), loop \
         gains (damping 2·filter_size), per-sample loop updates and rate clipping, and the \
         same history of zeros before the first sample. With `osps` > 1 the symbol's \
         outputs come, as GNU Radio's, from consecutive input samples (each from the arm \
         the phase reaches after one more rate step), the error from the first. The taps and the loop bandwidth may \
         change while it runs (GNU Radio's `update_taps`, `set_loop_bandwidth`): new arms \
         filter from the next symbol on, the loop's phase and rate kept. The optional `err`, \
         `rate` and `phase` outputs carry GNU Radio's per-symbol values at each symbol's \
         first output (zeros at the others, which GNU Radio leaves unwritten); `time_est` tags are \
         not implemented. Empty `taps` means an RRC with \
         roll-off 0.35 designed as GNU Radio's examples do.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType).doc("osps samples per symbol"))
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
