//! `ofdm_frame_equalizer`: coarse frequency correction and equalization
//! of whole OFDM frames with an equalizer object (GNU Radio's
//! `digital_ofdm_frame_equalizer_vcvc`).

use super::chanest::{CARR_OFFSET_KEY, CHAN_TAPS_KEY};
use super::equalizer::{Equalizer, OfdmEqualizerParams};
use super::packets::{self, Gather, Outbox, Packet, length_of};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, Tag, TagPolicy,
    WorkIo,
};

/// The parameters of `ofdm_frame_equalizer` (GNU Radio's
/// `digital_ofdm_frame_equalizer_vcvc`): the equalizer object's, then
/// the block's own.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FrameEqualizerParams {
    /// the equalizer object
    #[param(flatten)]
    pub equalizer: OfdmEqualizerParams,
    /// cyclic prefix length in items (the phase a carrier offset turns
    /// from one symbol to the next)
    #[param(default = 16, max = limits::MAX_FFT)]
    pub cp_len: usize,
    /// the key of the frames' length tags (in symbols); empty: frames of
    /// `fixed_frame_len` symbols one after another
    #[param(default = "frame_len", alias = "tsb_key")]
    pub len_tag_key: String,
    /// tag each frame's first symbol with the channel state after it
    /// (`ofdm_sync_chan_taps`)
    #[param(default = false)]
    pub propagate_channel_state: bool,
    /// symbols per frame whatever the length tags say; 0: as they say
    #[param(default = 0, max = limits::MAX_ELEMENTS)]
    pub fixed_frame_len: usize,
}

impl FrameEqualizerParams {
    fn check(&self) -> Result<(), ParamError> {
        if self.len_tag_key.is_empty() && self.fixed_frame_len == 0 {
            return Err(ParamError::new(
                "ofdm_frame_equalizer",
                "fixed_frame_len",
                "must be given when len_tag_key is empty".to_string(),
            ));
        }
        if self.fixed_frame_len.saturating_mul(self.equalizer.fft_len) > super::MAX_PACKET_ITEMS {
            return Err(ParamError::new(
                "ofdm_frame_equalizer",
                "fixed_frame_len",
                format!("frames of more than {} items", super::MAX_PACKET_ITEMS),
            ));
        }
        Ok(())
    }
}

/// GNU Radio's `gr_expj`: `e^(j·phase)` of the phase as a float.
fn expj(phase: f64) -> Complex32 {
    let p = phase as f32;
    Complex32::new(p.cos(), p.sin())
}

/// The equalization of frames, with the channel state kept from one
/// frame to the next.
struct Frames {
    fft_len: usize,
    cp_len: usize,
    equalizer: Equalizer,
    state: Vec<Complex32>,
}

impl Frames {
    /// One frame, as GNU Radio's `work`: the channel state and carrier
    /// offset from the tags on its first symbol, the frame moved back by
    /// the offset (zeros shifted in) and its phase turned back symbol by
    /// symbol, then equalized; in `out` (empty).
    fn frame(
        &mut self,
        packet: &Packet<Complex32>,
        p: &FrameEqualizerParams,
        mut out: Vec<Complex32>,
    ) -> (Vec<Complex32>, Vec<Tag>) {
        let n = self.fft_len;
        let mut offset = 0i64;
        for t in packet.tags_in(0..n as u64) {
            if t.key == CHAN_TAPS_KEY {
                if let Pmt::VecComplexF32(v) = &t.value
                    && v.len() == n
                {
                    for (s, &[re, im]) in self.state.iter_mut().zip(v) {
                        *s = Complex32::new(re, im);
                    }
                }
            } else if t.key == CARR_OFFSET_KEY {
                offset = match t.value {
                    Pmt::I64(o) => o,
                    ref other => length_of(other)
                        .and_then(|o| i64::try_from(o).ok())
                        .unwrap_or(0),
                };
            }
        }
        let len = packet.items.len();
        let symbols = len / n;
        let zero = Complex32::new(0.0, 0.0);
        out.clear();
        out.resize(len, zero);
        let shift = usize::try_from(offset.unsigned_abs())
            .unwrap_or(usize::MAX)
            .min(len);
        if offset < 0 {
            out[shift..].copy_from_slice(&packet.items[..len - shift]);
        } else {
            out[..len - shift].copy_from_slice(&packet.items[shift..]);
        }
        let step = -std::f64::consts::TAU * offset as f64 * self.cp_len as f64 / n as f64;
        for (i, symbol) in out.chunks_exact_mut(n).enumerate() {
            let turn = expj(step * (i + 1) as f64);
            for x in symbol {
                *x *= turn;
            }
        }
        self.equalizer.reset();
        self.equalizer.equalize(&mut out, &self.state);
        self.state.copy_from_slice(self.equalizer.channel_state());
        let turn = expj(-step * symbols as f64);
        for s in &mut self.state {
            *s *= turn;
        }
        let mut tags: Vec<Tag> = packet
            .tags
            .iter()
            .filter(|t| t.key != CHAN_TAPS_KEY && t.key != p.len_tag_key)
            .cloned()
            .collect();
        if p.propagate_channel_state {
            let taps = self.state.iter().map(|c| [c.re, c.im]).collect();
            tags.push(Tag::new(0, CHAN_TAPS_KEY, Pmt::VecComplexF32(taps)));
        }
        if !p.len_tag_key.is_empty() {
            tags.push(Tag::new(0, &p.len_tag_key, Pmt::U64(symbols as u64)));
        }
        (out, tags)
    }
}

/// Equalizes whole OFDM frames (GNU Radio's `digital_ofdm_frame_equalizer_vcvc`
/// with an `ofdm_equalizer_simpledfe` or `ofdm_equalizer_static`): the
/// first symbol's `ofdm_sync_carr_offset` tag moves the frame back by
/// that many carriers and turns back the phase the offset adds over each
/// cyclic prefix; its `ofdm_sync_chan_taps` tag sets the channel state
/// the equalizer starts from (else the state the last frame left). Pilot
/// carriers become their known symbols and update the state; `simpledfe`
/// also decides every data carrier on its constellation and learns from
/// the decision. Tags pass but the channel taps (and the length tag,
/// which the output frame gets anew); with `propagate_channel_state` the
/// first symbol is tagged with the state after the frame.
///
/// # Parameters
/// [`FrameEqualizerParams`] (with the equalizer's, [`OfdmEqualizerParams`]).
///
/// # Stream Inputs
/// - `in`: `Complex32`, frames of OFDM symbols of `fft_len` items.
///
/// # Stream Outputs
/// - `out`: `Complex32`, the frames equalized.
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{ConstellationName, ConstellationParams};
/// use rfgraph_blocks::ofdm::{EqualizerKind, FrameEqualizer, FrameEqualizerParams, OfdmEqualizerParams};
/// // ofdm_txrx.py's payload equalizer.
/// let eq = FrameEqualizer::new(FrameEqualizerParams {
///     equalizer: OfdmEqualizerParams {
///         equalizer: EqualizerKind::Simpledfe,
///         constellation: ConstellationParams::named(ConstellationName::Bpsk),
///         symbols_skipped: 1,
///         ..Default::default()
///     },
///     len_tag_key: "frame_length".into(),
///     ..Default::default()
/// })?;
/// # let _ = eq;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct FrameEqualizer {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    params: FrameEqualizerParams,
    frames: Frames,
    gather: Gather<Complex32>,
    outbox: Outbox<Complex32>,
}

impl FrameEqualizer {
    /// The frame equalizer `params` describe.
    ///
    /// Errors: the equalizer's carriers outside the FFT or pilots that do
    /// not match their symbols, neither a length key nor a fixed length.
    pub fn new(params: FrameEqualizerParams) -> Result<Self, ParamError> {
        params.validate()?;
        let n = params.equalizer.fft_len;
        let gather = if params.fixed_frame_len > 0 {
            Gather::fixed(params.fixed_frame_len * n)
        } else {
            Gather::new(&params.len_tag_key, n)
        };
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            frames: Frames {
                fft_len: n,
                cp_len: params.cp_len,
                equalizer: Equalizer::new(&params.equalizer, "ofdm_frame_equalizer")?,
                state: vec![Complex32::new(1.0, 0.0); n],
            },
            gather,
            outbox: Outbox::new(),
            params,
        })
    }
}

impl Block for FrameEqualizer {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let (frames, params) = (&mut self.frames, &self.params);
        packets::work_frames(
            &mut self.gather,
            &mut self.outbox,
            &mut self.input,
            &mut self.output,
            io,
            |packet, _, out| Some(frames.frame(packet, params, out)),
        );
        Ok(())
    }
}

/// `ofdm_frame_equalizer`: GNU Radio's `digital_ofdm_frame_equalizer_vcvc`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<FrameEqualizerParams>(
        "ofdm_frame_equalizer",
        "OFDM",
        "Corrects the coarse carrier offset of OFDM frames and equalizes them.",
        |p| Ok(Box::new(FrameEqualizer::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_ofdm_frame_equalizer_vcvc` with the equalizer object \
         `digital.ofdm_equalizer_simpledfe(...)` or `digital.ofdm_equalizer_static(...)` \
         (`equalizer` and its parameters): the `ofdm_sync_carr_offset` tag of a frame's first \
         symbol is corrected, its `ofdm_sync_chan_taps` tag starts the channel state, and the \
         frame is equalized symbol by symbol.",
    )
    .input(
        PortSpec::new("in", PortItem::Fixed(ItemKind::C32))
            .doc("OFDM frames of fft_len items a symbol"),
    )
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
