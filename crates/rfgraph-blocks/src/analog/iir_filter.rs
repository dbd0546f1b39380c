//! `iir_filter` (GNU Radio `iir_filter_xxx`, float taps) and `fm_preemph`
//! (GNU Radio `analog_fm_preemph`).

use crate::DspBlock;
use crate::digital::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::filter::{DirectIir, IirSample, fm_preemph_taps};

/// The parameters of `iir_filter`, GNU Radio's `iir_filter_xxx` with real
/// taps. The taps may change while it runs, as GNU Radio's `set_taps`
/// allows: the filter then starts again from a zero state, as GNU
/// Radio's does.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct IirFilterParams {
    /// the `b` taps (at least one)
    #[param(
        default = vec![1.0],
        max_len = DirectIir::<f32>::MAX_TAPS,
        alias = "fftaps",
        settable
    )]
    pub feedforward: Vec<f32>,
    /// the `a` taps (`a[0]` unused)
    #[param(
        default = vec![1.0],
        max_len = DirectIir::<f32>::MAX_TAPS,
        alias = "fbtaps",
        settable
    )]
    pub feedback: Vec<f32>,
    /// GNU Radio's sign convention: `true` adds `a[k]·y[n−k]`, `false`
    /// subtracts it (the usual convention)
    #[param(default = true)]
    pub oldstyle: bool,
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
}

impl IirFilterParams {
    fn check(&self) -> Result<(), ParamError> {
        if self.feedforward.is_empty() {
            return Err(ParamError::new(
                "iir_filter",
                "feedforward",
                "needs at least one tap",
            ));
        }
        Ok(())
    }

    /// The taps in double precision, as the filter runs them.
    fn taps(&self) -> (Vec<f64>, Vec<f64>) {
        let wide = |t: &[f32]| t.iter().map(|&x| f64::from(x)).collect();
        (wide(&self.feedforward), wide(&self.feedback))
    }
}

/// The block [`iir_filter`] builds.
pub type IirFilterBlock<T> = DspBlock<DirectIir<T>, IirFilterParams>;

/// A direct-form IIR filter with double-precision taps and state (GNU
/// Radio's `iir_filter_ffd` / `iir_filter_ccd`). New taps apply from the
/// next sample on, from a zero state.
///
/// # Parameters
/// [`IirFilterParams`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::{IirFilterParams, iir_filter};
/// let lp = iir_filter::<f32>(IirFilterParams {
///     feedforward: vec![0.1],
///     feedback: vec![1.0, -0.9],
///     oldstyle: false,
///     ..Default::default()
/// })?;
/// # let _ = lp;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn iir_filter<T: IirSample + rfgraph::Item>(
    params: IirFilterParams,
) -> Result<IirFilterBlock<T>, ParamError> {
    params.validate()?;
    let (ff, fb) = params.taps();
    let kernel = DirectIir::new(&ff, &fb, params.oldstyle).map_err(dsp_error(
        "iir_filter",
        "feedforward",
        &[],
    ))?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        let (ff, fb) = p.taps();
        Ok(kernel.set_taps(&ff, &fb)?)
    }))
}

/// The parameters of `fm_preemph`, GNU Radio's `analog_fm_preemph`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FmPreemphParams {
    /// sample rate
    #[param(default = 48_000.0, unit = "Hz", above = 0.0, alias = "samp_rate")]
    pub sample_rate: f64,
    /// time constant (75 µs in the Americas, 50 µs in Europe)
    #[param(default = 75e-6, unit = "s", above = 0.0)]
    pub tau: f64,
    /// where the rise levels off (≤ 0 or from half the sample rate on:
    /// `0.925·fs/2`)
    #[param(default = -1.0, unit = "Hz", alias = "fh")]
    pub high_freq: f64,
}

impl FmPreemphParams {
    /// The filter's `(feed_forward, feedback)` taps.
    fn taps(&self) -> Result<(Vec<f64>, Vec<f64>), ParamError> {
        fm_preemph_taps(self.sample_rate, self.tau, self.high_freq).map_err(dsp_error(
            "fm_preemph",
            "tau",
            &[("sample_rate", "sample_rate"), ("high_freq", "high_freq")],
        ))
    }

    /// The filter for these parameters.
    fn kernel(&self) -> Result<DirectIir<f32>, ParamError> {
        let (ff, fb) = self.taps()?;
        DirectIir::new(&ff, &fb, false).map_err(dsp_error("fm_preemph", "tau", &[]))
    }

    /// The design gives finite taps.
    fn check(&self) -> Result<(), ParamError> {
        self.kernel().map(drop)
    }
}

/// The block [`fm_preemph`] builds.
pub type FmPreemphBlock = DspBlock<DirectIir<f32>, FmPreemphParams>;

/// FM pre-emphasis: a first-order shelf rising from `1/(2π·tau)` Hz and
/// levelling off at `high_freq` (GNU Radio's `fm_preemph`, same taps).
///
/// # Parameters
/// [`FmPreemphParams`].
///
/// # Stream Inputs
/// - `in`: `f32` audio
///
/// # Stream Outputs
/// - `out`: `f32`
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::{FmPreemphParams, fm_preemph};
/// let pre = fm_preemph(FmPreemphParams::default())?;
/// # let _ = pre;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn fm_preemph(params: FmPreemphParams) -> Result<FmPreemphBlock, ParamError> {
    params.validate()?;
    let kernel = params.kernel()?;
    Ok(DspBlock::tuned(kernel, params, |_, _, name| {
        Err(format!("`{name}` cannot change").into())
    }))
}

pub(crate) fn iir_filter_spec() -> BlockSpec {
    BlockSpec::of::<IirFilterParams>(
        "iir_filter",
        "Filters",
        "Direct-form IIR filter with feed-forward and feedback taps.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => iir_filter::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `iir_filter_ffd` / `iir_filter_ccd` (real taps; state in double \
         precision). `oldstyle = true` (GNU Radio's default) adds `fb[k]·y[n−k]`; `false` \
         subtracts it. The taps may change while it runs (GNU Radio's `set_taps`): from the \
         next sample on the filter starts again from a zero state, as GNU Radio's does.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

pub(crate) fn fm_preemph_spec() -> BlockSpec {
    BlockSpec::of::<FmPreemphParams>(
        "fm_preemph",
        "Filters",
        "FM pre-emphasis (first-order shelf).",
        |p| Ok(Box::new(fm_preemph(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `analog_fm_preemph`: the same bilinear-transform design, unity gain at \
         DC, run as a double-precision IIR filter.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
