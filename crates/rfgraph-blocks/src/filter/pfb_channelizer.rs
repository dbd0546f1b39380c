//! `pfb_channelizer`: GNU Radio's `pfb_channelizer_ccf` (GRC's
//! `pfb_channelizer_ccf`, Python's `filter.pfb.channelizer_ccf`): its
//! parameters, its default prototype and its registry spec.

use super::block::ChannelizerBlock;
use super::prototype::default_prototype;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::channelizer::{MAX_CHANNELS, MAX_PROTOTYPE_TAPS, PfbChannelizer};

/// The parameters of `pfb_channelizer`, GNU Radio's
/// `pfb_channelizer_ccf`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PfbChannelizerParams {
    /// number of channels (and of outputs); GNU Radio's default
    /// prototype needs at least 2
    #[param(default = 4, min = 1, max = MAX_CHANNELS)]
    pub nchans: usize,
    /// prototype low pass at the input rate; empty: GNU Radio's default,
    /// `optfir.low_pass(1, nchans, 0.4, 0.6, ripple, atten)`, its ripple
    /// raised from 0.1 dB by 0.01 dB until the design converges
    #[param(default = Vec::new(), max_len = MAX_PROTOTYPE_TAPS)]
    pub taps: Vec<f32>,
    /// output rate per channel over `input rate / nchans`; `nchans / osr`
    /// must be a whole number
    #[param(default = 1.0, alias = "osr", alias = "oversample_rate")]
    pub oversample_rate: f32,
    /// stop-band attenuation of the default prototype, dB
    #[param(default = 100.0, min = 0.0, max = 300.0)]
    pub atten: f64,
    /// output `c` carries channel `ch_map[c]`; empty: channel `c`
    #[param(default = Vec::new(), alias = "ch_map", max_len = MAX_CHANNELS)]
    pub channel_map: Vec<i64>,
    /// sample delay declared for tags (GNU Radio's `declare_sample_delay`;
    /// rfgraph's channelizer does not move tags)
    #[param(default = 0, min = 0, alias = "samp_delay")]
    pub sample_delay: u64,
}

/// GNU Radio's `channelizer_ccf.create_taps(nchans, atten)`.
fn default_taps(nchans: usize, atten: f64) -> Result<Vec<f32>, ParamError> {
    default_prototype("pfb_channelizer", nchans, (0.4, 0.6), 0.1, atten, true)
}

impl PfbChannelizerParams {
    fn kernel(&self) -> Result<PfbChannelizer, ParamError> {
        let taps = if self.taps.is_empty() {
            default_taps(self.nchans, self.atten)?
        } else {
            self.taps.clone()
        };
        let bad = |name: &'static str| {
            move |e: rfgraph_dsp::DspError| ParamError::new("pfb_channelizer", name, e.to_string())
        };
        let mut k = PfbChannelizer::new(self.nchans, &taps, self.oversample_rate, self.nchans)
            .map_err(bad("oversample_rate"))?;
        let map = self
            .channel_map
            .iter()
            .map(|&c| usize::try_from(c).unwrap_or(usize::MAX))
            .collect::<Vec<_>>();
        k.set_channel_map(&map).map_err(bad("channel_map"))?;
        Ok(k)
    }

    fn check(&self) -> Result<(), ParamError> {
        self.kernel().map(drop)
    }
}

/// Splits a complex stream into `nchans` channels, `input rate / nchans`
/// apart, each at `oversample_rate · input rate / nchans`, with a bank of
/// `nchans` polyphase arms and an inverse FFT (GNU Radio's
/// `pfb_channelizer_ccf` behind its `stream_to_streams`, value for
/// value). Channel 0 is centred on 0 Hz, channel `k` on `k · rate /
/// nchans` (negative frequencies in the upper half).
///
/// # Parameters
/// [`PfbChannelizerParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out0` … `out{nchans−1}`: `Complex32`, one channel each
///
/// # Usage
/// ```
/// use rfgraph_blocks::filter::{PfbChannelizerParams, pfb_channelizer};
/// let taps = rfgraph_dsp::firdes::low_pass(
///     1.0, 4.0, 0.4, 0.2, rfgraph_dsp::firdes::WinType::Hamming, 6.76)?;
/// let ch = pfb_channelizer(PfbChannelizerParams { nchans: 4, taps, ..Default::default() })?;
/// # let _ = ch;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pfb_channelizer(
    params: PfbChannelizerParams,
) -> Result<ChannelizerBlock<PfbChannelizer, PfbChannelizerParams>, ParamError> {
    params.validate()?;
    let kernel = params.kernel()?;
    let n = params.nchans;
    Ok(ChannelizerBlock::new(kernel, params, n))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PfbChannelizerParams>(
        "pfb_channelizer",
        "Filters",
        "Polyphase channelizer: one stream into nchans channels.",
        |p| Ok(Box::new(pfb_channelizer(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `pfb_channelizer_ccf` (as its Python `channelizer_ccf` wraps it, \
         behind `stream_to_streams`): the prototype split into nchans arms, each filtering \
         every nchans-th sample at the position GNU Radio's commutator gives it, an inverse \
         FFT, oversampling by `osr` (nchans/osr a whole number) and the channel map, so the \
         outputs match GNU Radio's to float rounding. Empty taps: GNU Radio's default \
         `optfir.low_pass(1, nchans, 0.4, 0.6, 0.1 dB, atten)`. Not done: changing the \
         taps or the map while it runs, and tags (they are dropped).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(
        PortSpec::new("out", PortItem::Fixed(ItemKind::C32))
            .repeated("nchans")
            .doc("one channel each"),
    )
}
