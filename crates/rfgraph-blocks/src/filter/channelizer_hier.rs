//! `pfb_channelizer_hier`: GNU Radio's Python
//! `filter.pfb.channelizer_hier_ccf` (GRC's `pfb_channelizer_hier_ccf`):
//! its parameters, its default prototype and its registry spec.

use super::block::ChannelizerBlock;
use super::prototype::default_prototype;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{ParamError, ParamSet};
use rfgraph_dsp::channelizer::{FilterbankChannelizer, MAX_CHANNELS, MAX_PROTOTYPE_TAPS};

/// The parameters of `pfb_channelizer_hier`, GNU Radio's
/// `channelizer_hier_ccf`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PfbChannelizerHierParams {
    /// number of channels
    #[param(default = 3, min = 1, max = MAX_CHANNELS)]
    pub nchans: usize,
    /// how many filter banks GNU Radio splits the work into (no effect
    /// on the values; kept for its flowgraphs)
    #[param(default = 1, min = 1, max = MAX_CHANNELS)]
    pub n_filterbanks: usize,
    /// prototype low pass at the input rate; empty: `optfir.low_pass(1,
    /// nchans, bw, bw + tb, ripple, atten)` as GNU Radio designs it
    #[param(default = Vec::new(), max_len = MAX_PROTOTYPE_TAPS)]
    pub taps: Vec<f32>,
    /// the channels to output, in order; empty: all
    #[param(default = Vec::new(), max_len = MAX_CHANNELS)]
    pub outchans: Vec<i64>,
    /// stop-band attenuation of the default prototype, dB
    #[param(default = 100.0, min = 0.0, max = 300.0)]
    pub atten: f64,
    /// fraction of the channel the default prototype passes
    #[param(default = 1.0, above = 0.0)]
    pub bw: f64,
    /// transition band of the default prototype, fraction of a channel
    #[param(default = 0.2, above = 0.0)]
    pub tb: f64,
    /// pass-band ripple of the default prototype, dB
    #[param(default = 0.1, above = 0.0)]
    pub ripple: f64,
}

impl PfbChannelizerHierParams {
    /// The output channels.
    fn outchans(&self) -> Vec<usize> {
        if self.outchans.is_empty() {
            (0..self.nchans).collect()
        } else {
            self.outchans
                .iter()
                .map(|&c| usize::try_from(c).unwrap_or(usize::MAX))
                .collect()
        }
    }

    fn kernel(&self) -> Result<FilterbankChannelizer, ParamError> {
        let bad = |name: &'static str| {
            move |e: rfgraph_dsp::DspError| {
                ParamError::new("pfb_channelizer_hier", name, e.to_string())
            }
        };
        let taps = if self.taps.is_empty() {
            default_prototype(
                "pfb_channelizer_hier",
                self.nchans,
                (self.bw, self.bw + self.tb),
                self.ripple,
                self.atten,
                false,
            )?
        } else {
            self.taps.clone()
        };
        FilterbankChannelizer::new(self.nchans, &taps, &self.outchans()).map_err(bad("outchans"))
    }

    fn check(&self) -> Result<(), ParamError> {
        self.kernel().map(drop)
    }
}

/// Splits a complex stream into `nchans` channels, `input rate / nchans`
/// apart, each at `input rate / nchans`, as GNU Radio's Python
/// `channelizer_hier_ccf` does (a bank of arms on vectors of `nchans`
/// samples, then a forward FFT), value for value; writes the channels
/// `outchans`.
///
/// # Parameters
/// [`PfbChannelizerHierParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out0` …: `Complex32`, one per entry of `outchans` (all channels
///   when empty)
///
/// # Usage
/// ```
/// use rfgraph_blocks::filter::{PfbChannelizerHierParams, pfb_channelizer_hier};
/// let ch = pfb_channelizer_hier(PfbChannelizerHierParams {
///     nchans: 3,
///     bw: 0.6,
///     ..Default::default()
/// })?;
/// # let _ = ch;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn pfb_channelizer_hier(
    params: PfbChannelizerHierParams,
) -> Result<ChannelizerBlock<FilterbankChannelizer, PfbChannelizerHierParams>, ParamError> {
    params.validate()?;
    let kernel = params.kernel()?;
    let n = params.outchans().len();
    Ok(ChannelizerBlock::new(kernel, params, n))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PfbChannelizerHierParams>(
        "pfb_channelizer_hier",
        "Filters",
        "Polyphase channelizer (GNU Radio's hierarchical form): one stream into channels.",
        |p| Ok(Box::new(pfb_channelizer_hier(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's Python `pfb.channelizer_hier_ccf`: `stream_to_vector`, a \
         `filterbank_vcvcf` whose arm j filters every nchans-th sample with the prototype's \
         taps j, j+nchans, …, a forward FFT and the selection of `outchans`, so the outputs \
         match GNU Radio's to float rounding. Without taps the prototype is GNU Radio's \
         `optfir.low_pass(1, nchans, bw, bw+tb, ripple, atten)` (Parks–McClellan). \
         `n_filterbanks` only splits GNU Radio's work and changes nothing here. Not done: \
         changing the taps while it runs, and tags (they are dropped).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(
        PortSpec::new("out", PortItem::Fixed(ItemKind::C32))
            .repeated("nchans")
            .doc("one per output channel (outchans, or all nchans)"),
    )
}
