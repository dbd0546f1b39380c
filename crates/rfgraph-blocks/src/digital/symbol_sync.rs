//! `symbol_sync`: GNU Radio 3.10's `digital_symbol_sync_xx` (`cc` and
//! `ff`): symbol timing recovery with a choice of timing error detector
//! and interpolating resampler, one declaration of its parameters and
//! its registry spec.

use super::constellation_params::ConstellationParams;
use super::diag_block::DiagBlock;
use super::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::digital::{ResamplerKind, SymbolSync, SyncSample, TedKind};

/// The timing error detector, by GNU Radio's `digital.TED_*` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum TedType {
    /// Mueller and Müller (decision directed).
    #[choice(
        alias = "digital.ted_mueller_and_muller",
        alias = "ted_mueller_and_muller"
    )]
    MuellerAndMuller,
    /// Modified Mueller and Müller (decision directed).
    #[choice(
        alias = "digital.ted_mod_mueller_and_muller",
        alias = "ted_mod_mueller_and_muller"
    )]
    ModMuellerAndMuller,
    /// Zero crossing (decision directed).
    #[choice(alias = "digital.ted_zero_crossing", alias = "ted_zero_crossing")]
    ZeroCrossing,
    /// Gardner.
    #[choice(alias = "digital.ted_gardner", alias = "ted_gardner")]
    Gardner,
    /// Early-late.
    #[choice(alias = "digital.ted_early_late", alias = "ted_early_late")]
    EarlyLate,
    /// D'Andrea and Mengali generalized MSK.
    #[choice(
        alias = "digital.ted_dandrea_and_mengali_gen_msk",
        alias = "ted_dandrea_and_mengali_gen_msk"
    )]
    DandreaAndMengaliGenMsk,
    /// Mengali and D'Andrea GMSK.
    #[choice(
        alias = "digital.ted_mengali_and_dandrea_gmsk",
        alias = "ted_mengali_and_dandrea_gmsk"
    )]
    MengaliAndDandreaGmsk,
    /// `y[n]·y'[n]` maximum likelihood.
    #[choice(
        alias = "digital.ted_signal_times_slope_ml",
        alias = "ted_signal_times_slope_ml"
    )]
    SignalTimesSlopeMl,
    /// `sgn(y[n])·y'[n]` maximum likelihood.
    #[choice(
        alias = "digital.ted_signum_times_slope_ml",
        alias = "ted_signum_times_slope_ml"
    )]
    SignumTimesSlopeMl,
}

impl From<TedType> for TedKind {
    fn from(t: TedType) -> Self {
        match t {
            TedType::MuellerAndMuller => TedKind::MuellerAndMuller,
            TedType::ModMuellerAndMuller => TedKind::ModMuellerAndMuller,
            TedType::ZeroCrossing => TedKind::ZeroCrossing,
            TedType::Gardner => TedKind::Gardner,
            TedType::EarlyLate => TedKind::EarlyLate,
            TedType::DandreaAndMengaliGenMsk => TedKind::DandreaAndMengaliGenMsk,
            TedType::MengaliAndDandreaGmsk => TedKind::MengaliAndDandreaGmsk,
            TedType::SignalTimesSlopeMl => TedKind::SignalTimesSlopeMl,
            TedType::SignumTimesSlopeMl => TedKind::SignumTimesSlopeMl,
        }
    }
}

/// The interpolating resampler, by GNU Radio's `digital.IR_*` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum ResampType {
    /// The 8-tap MMSE interpolator (for input band-limited to ±fs/4).
    #[choice(alias = "digital.ir_mmse_8tap", alias = "ir_mmse_8tap")]
    Mmse8Tap,
    /// A polyphase bank of the MMSE taps, `nfilters` arms.
    #[choice(alias = "digital.ir_pfb_no_mf", alias = "ir_pfb_no_mf")]
    PfbNoMf,
    /// A polyphase bank of the matched filter `pfb_mf_taps`.
    #[choice(alias = "digital.ir_pfb_mf", alias = "ir_pfb_mf")]
    PfbMf,
}

/// The parameters of `symbol_sync`, GNU Radio's `digital_symbol_sync_xx`.
/// `loop_bw`, `damping` and `ted_gain` may change while it runs (GNU
/// Radio's callbacks).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct SymbolSyncParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
    /// the timing error detector
    #[param(default = TedType::MuellerAndMuller)]
    pub ted_type: TedType,
    /// the decision-directed detectors' slicer (GNU Radio's GRC default
    /// is `digital.constellation_bpsk().base()`; the shared constellation
    /// parameters default to QPSK)
    #[param(flatten)]
    pub constellation: ConstellationParams,
    /// nominal input samples per symbol
    #[param(default = 2.0, above = 1.0, below = 1048576.0)]
    pub sps: f32,
    /// the detector's expected gain (its S-curve slope)
    #[param(default = 1.0, above = 0.0, settable)]
    pub ted_gain: f32,
    /// normalized loop bandwidth
    #[param(default = 0.045, min = 0.0, settable)]
    pub loop_bw: f32,
    /// loop damping factor
    #[param(default = 1.0, min = 0.0, settable)]
    pub damping: f32,
    /// largest deviation of the average clock period from `sps`
    #[param(default = 1.5, min = 0.0, alias = "max_dev")]
    pub max_deviation: f32,
    /// output samples per symbol
    #[param(default = 1, min = 1, max = 1024)]
    pub osps: usize,
    /// the interpolating resampler
    #[param(default = ResampType::Mmse8Tap)]
    pub resamp_type: ResampType,
    /// polyphase arms (the polyphase resamplers)
    #[param(default = 128, min = 2, max = 65536)]
    pub nfilters: usize,
    /// the prototype matched filter of `pfb_mf`, at `nfilters` times the
    /// sample rate
    #[param(default = Vec::new(), max_len = 1 << 20)]
    pub pfb_mf_taps: Vec<f32>,
}

impl SymbolSyncParams {
    fn kernel<T: SyncSample>(&self) -> Result<SymbolSync<T>, ParamError> {
        let slicer = self.constellation.build()?;
        if slicer.points().is_empty() {
            return Err(ParamError::new(
                "symbol_sync",
                "constellation",
                "the slicer has no points",
            ));
        }
        let resampler = match self.resamp_type {
            ResampType::Mmse8Tap => ResamplerKind::Mmse8Tap,
            ResampType::PfbNoMf => ResamplerKind::PfbNoMf {
                nfilters: self.nfilters,
            },
            ResampType::PfbMf => ResamplerKind::PfbMf {
                nfilters: self.nfilters,
                taps: self.pfb_mf_taps.clone(),
            },
        };
        SymbolSync::new(
            self.ted_type.into(),
            self.sps,
            self.loop_bw,
            self.damping,
            self.ted_gain,
            self.max_deviation,
            self.osps,
            Some(slicer),
            &resampler,
        )
        .map_err(dsp_error(
            "symbol_sync",
            "sps",
            &[
                ("osps", "osps"),
                ("loop_bw", "loop_bw"),
                ("damping", "damping"),
                ("ted_gain", "ted_gain"),
                ("max_deviation", "max_deviation"),
                ("nfilters", "nfilters"),
                ("taps", "pfb_mf_taps"),
                ("constellation", "constellation"),
            ],
        ))
    }
}

/// The block [`symbol_sync`] builds.
pub type SymbolSyncBlock<T> = DiagBlock<SymbolSync<T>, SymbolSyncParams>;

/// Recovers symbol timing and writes `osps` samples per symbol (GNU
/// Radio's `symbol_sync_cc` / `_ff`: the same detectors, clock loop,
/// resamplers and work loop). The loop bandwidth, damping and detector
/// gain may change while it runs.
///
/// # Parameters
/// [`SymbolSyncParams`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`), about `sps` samples per symbol
///
/// # Stream Outputs
/// - `out`: `T`, `osps` per symbol
/// - `error`, `t_inst`, `t_avg`: `f32` (optional), per output: the
///   detector's error, the instantaneous and the average clock period
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::digital::{SymbolSyncParams, TedType, symbol_sync};
/// let sync = symbol_sync::<Complex32>(SymbolSyncParams {
///     ted_type: TedType::Gardner,
///     sps: 4.0,
///     ..Default::default()
/// })?;
/// # let _ = sync;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn symbol_sync<T: SyncSample + rfgraph::Item>(
    params: SymbolSyncParams,
) -> Result<SymbolSyncBlock<T>, ParamError> {
    params.validate()?;
    let kernel = params.kernel::<T>()?;
    Ok(DiagBlock::new(
        kernel,
        params,
        ["error", "t_inst", "t_avg"],
        |kernel, p, name| {
            let clock = kernel.clock_mut();
            match name {
                "loop_bw" => clock.set_loop_bandwidth(p.loop_bw),
                "damping" => clock.set_damping_factor(p.damping),
                _ => clock.set_ted_gain(p.ted_gain),
            }
            .map_err(Into::into)
        },
    ))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SymbolSyncParams>(
        "symbol_sync",
        "Digital",
        "Symbol timing recovery: a timing error detector, a PI clock loop and an \
         interpolating resampler; osps samples per symbol.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => symbol_sync::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `digital_symbol_sync_cc` / `_ff`: the nine timing error detectors \
         (with their inputs per symbol, look-ahead and derivative), the clock tracking loop \
         (gains from loop bandwidth, damping and TED gain; average period limited to \
         sps ± max_dev), the MMSE 8-tap and polyphase resamplers, and the same work loop, so \
         the output matches GNU Radio's to float rounding. `loop_bw`, `damping` and \
         `ted_gain` may change while it runs; the optional `error`, `t_inst` and `t_avg` \
         outputs carry GNU Radio's per-output error and clock periods. Not provided: \
         `time_est` / `clock_est` tag resynchronization and GNU Radio's tag placement \
         (tags move by the nominal rate).",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType).doc("osps samples per symbol"))
    .output(
        PortSpec::new("error", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("the timing error detector's error"),
    )
    .output(
        PortSpec::new("t_inst", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("instantaneous clock period, input samples"),
    )
    .output(
        PortSpec::new("t_avg", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("average clock period, input samples"),
    )
}
