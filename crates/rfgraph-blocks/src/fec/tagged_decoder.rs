//! `extended_tagged_decoder`: GNU Radio's `fec.extended_tagged_decoder`,
//! [`TaggedDecoder`] decoding each packet of a tagged stream of soft
//! values as one frame (its `fec.tagged_decoder`), or, without a length
//! tag name, the stream decoder [`FrameDecoder`](super::FrameDecoder).
//! With its parameters and registry entry.

use super::coder::{Decoder, SoftInput, uchar_rounded};
use super::extended_decoder::{FrameDecoder, check_extended};
use super::packets::Packets;
use super::params::FecCodeParams;
use super::pending::Pending;
use super::puncture::{HOLE, Puncture};
use super::tagged_encoder::{MAX_MTU, no_tag};
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The parameters of `extended_tagged_decoder` (GNU Radio's
/// `fec_extended_tagged_decoder`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ExtendedTaggedDecoderParams {
    /// the code; `frame_size` is the most bits of a decoded packet
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// the encoder's puncturing pattern, applied from each packet's
    /// first value on (`cc` only); `11` punctures nothing
    #[param(default = "11", max_len = 31)]
    pub puncpat: String,
    /// GNU Radio's annihilator: `None` only, as GNU Radio 3.10 fails on
    /// any other
    #[param(default = "None", max_len = 64)]
    pub ann: String,
    /// the key of the length tags; `None` (or empty) decodes the stream
    /// in frames of `frame_size` bits instead
    #[param(default = "None", max_len = 256)]
    pub lentagname: String,
    /// the longest decoded packet, in bytes (`8 · mtu` bits)
    #[param(default = 1500, min = 1, max = MAX_MTU)]
    pub mtu: usize,
}

impl ExtendedTaggedDecoderParams {
    fn check(&self) -> Result<(), ParamError> {
        self.fec.check_mtu("extended_tagged_decoder", self.mtu)?;
        check_extended(
            "extended_tagged_decoder",
            &self.fec,
            &self.puncpat,
            &self.ann,
        )
        .map(|_| ())
    }
}

/// Decodes each packet of a tagged stream of soft values as one frame,
/// as GNU Radio 3.10's `tagged_decoder` sizes it: a packet of `n` values
/// (after depuncturing) decodes into `round(n · rate)` bits, at most
/// `frame_size` (for a terminated `cc` code these include its `k − 1` tail
/// bits, as in GNU Radio); more than `8 · mtu` bits stop the run as in GNU
/// Radio. A frame that reads past its packet (the tail of a terminated
/// frame sized so, a streaming frame's read-ahead) reads the values that
/// follow in the input as far as they have arrived, and zero bytes beyond,
/// as GNU Radio reads its buffer. An LDPC frame must be whole information
/// words (a packet of `m` values decodes `round(m · k / n)` bits, word
/// after word), and so must `8 · mtu` bits; another size stops the run
/// (or refuses the MTU), as GNU Radio's decoder throws. The decoded
/// packet has a length tag of its length; the packet's other tags keep
/// their relative place.
///
/// # Parameters
/// [`ExtendedTaggedDecoderParams`].
///
/// # Stream Inputs
/// - `in`: `f32`, a tagged stream of soft values, positive for a 1.
///
/// # Stream Outputs
/// - `out`: `u8`, a tagged stream of bits.
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{CcMode, ExtendedTaggedDecoderParams, FecCodeParams, TaggedDecoder};
/// let dec = TaggedDecoder::new(ExtendedTaggedDecoderParams {
///     fec: FecCodeParams::cc(1500 * 8, CcMode::Terminated),
///     lentagname: "packet_len".into(),
///     ..Default::default()
/// })?;
/// # let _ = dec;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TaggedDecoder {
    input: StreamInput<f32>,
    output: StreamOutput<u8>,
    params: ExtendedTaggedDecoderParams,
    decoder: Decoder,
    puncture: Option<Puncture>,
    packets: Packets<f32>,
    soft_u: Vec<u8>,
    soft_f: Vec<f32>,
    punctured: Vec<u8>,
    pending: Pending<u8>,
}

impl TaggedDecoder {
    /// Decodes the packets marked by length tags `params.lentagname`
    /// (which must name one).
    pub fn new(params: ExtendedTaggedDecoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        let block = "extended_tagged_decoder";
        if no_tag(&params.lentagname) {
            return Err(ParamError::new(
                block,
                "lentagname",
                "must name the length tags (without one the block is a stream decoder)",
            ));
        }
        let puncture = check_extended(block, &params.fec, &params.puncpat, &params.ann)?;
        let mut decoder = Decoder::new(&params.fec, block)?;
        // GNU Radio's constructor sizes the frame to the MTU: its LDPC
        // decoders throw unless `8 · mtu` bits are whole information
        // words.
        decoder
            .try_set_frame_size(params.mtu * 8)
            .map_err(|e| ParamError::new(block, "mtu", e))?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            packets: Packets::new(params.lentagname.trim()),
            params,
            decoder,
            puncture,
            soft_u: Vec::new(),
            soft_f: Vec::new(),
            punctured: Vec::new(),
            pending: Pending::new(),
        })
    }

    /// Soft values a packet of `n` values stands for after depuncturing.
    fn depunctured_len(&self, n: usize) -> usize {
        self.puncture.as_ref().map_or(n, |p| p.depunctured_len(n))
    }

    /// The frame size GNU Radio 3.10's `tagged_decoder` gives a packet of
    /// `n` (depunctured) values: `round(n · rate)` (the code's tail bits
    /// included), `None` below 1.
    fn frame_bits(&self, n: usize) -> Option<usize> {
        let bits = (n as f64 * self.decoder.rate()).round() as usize;
        (bits > 0).then_some(bits)
    }

    /// Decodes one packet of `values` with its `tags` into the pending
    /// output; a packet too short for one bit gives nothing. A frame that
    /// reads past its packet reads the values that follow when the input
    /// shows them, else zero bytes, as GNU Radio reads its buffer. An
    /// error where GNU Radio's decoder throws on the frame's size (LDPC:
    /// no whole number of information words).
    fn decode(&mut self, values: &[f32], tags: Vec<(usize, String, Pmt)>) -> Result<(), BoxError> {
        let n = self.depunctured_len(values.len());
        let Some(bits) = self.frame_bits(n) else {
            return Ok(());
        };
        self.decoder.try_set_frame_size(bits)?;
        let need = self.decoder.input_size() + self.decoder.history();
        let out = self.pending.refill();
        out.resize(self.decoder.output_size(), 0);
        match self.decoder.soft_input() {
            SoftInput::Uchar => {
                self.soft_u.clear();
                match &self.puncture {
                    None => self.soft_u.extend(values.iter().map(|&x| uchar_rounded(x))),
                    Some(p) => {
                        self.punctured.clear();
                        self.punctured
                            .extend(values.iter().map(|&x| uchar_rounded(x)));
                        p.depuncture_packet(&self.punctured, HOLE, &mut self.soft_u);
                    }
                }
                if self.soft_u.len() < need {
                    let more = need - self.soft_u.len();
                    let next = self.input.slice();
                    let n = more.min(next.len());
                    self.soft_u
                        .extend(next[..n].iter().map(|&x| uchar_rounded(x)));
                    self.soft_u.resize(need, 0);
                }
                self.decoder.decode_uchar(&self.soft_u, out);
            }
            SoftInput::Float => {
                self.soft_f.clear();
                self.soft_f.extend_from_slice(values);
                if self.soft_f.len() < need {
                    let more = need - self.soft_f.len();
                    let next = self.input.slice();
                    let n = more.min(next.len());
                    self.soft_f.extend_from_slice(&next[..n]);
                    self.soft_f.resize(need, 0.0);
                }
                self.decoder.decode_float(&self.soft_f, out);
            }
        }
        let len = out.len();
        let key = self.params.lentagname.trim().to_string();
        self.pending.tag(0, &key, Pmt::U64(len as u64));
        for (offset, k, v) in tags {
            let at = (offset as u128 * len as u128 / values.len().max(1) as u128) as usize;
            self.pending.tag(at.min(len.saturating_sub(1)), &k, v);
        }
        Ok(())
    }
}

impl Block for TaggedDecoder {
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
        let mtu_bits = self.params.mtu * 8;
        let rate = self.decoder.rate();
        let puncture = self.puncture.clone();
        while self.pending.drain(&mut self.output, io) {
            let packet = self.packets.read(&mut self.input, |n| {
                let n = puncture.as_ref().map_or(n, |p| p.depunctured_len(n));
                let bits = n as f64 * rate;
                if bits > mtu_bits as f64 {
                    return Err(format!(
                        "a packet of {n} values decodes into {bits} bits, more than the MTU ({mtu_bits} bits)"
                    )
                    .into());
                }
                Ok(())
            })?;
            let Some(packet) = packet else { break };
            self.decode(&packet.items, packet.tags)?;
        }
        Ok(())
    }
}

/// `extended_tagged_decoder`: GNU Radio's `fec_extended_tagged_decoder`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ExtendedTaggedDecoderParams>(
        "extended_tagged_decoder",
        "Error Coding",
        "Decodes each packet of a tagged stream of soft values as one FEC frame.",
        |p| {
            if no_tag(&p.lentagname) {
                let block = "extended_tagged_decoder";
                let puncture = check_extended(block, &p.fec, &p.puncpat, &p.ann)?;
                let decoder = Decoder::new(&p.fec, block)?;
                Ok(Box::new(FrameDecoder::<_, f32>::new(p, decoder, puncture)) as Box<dyn Block>)
            } else {
                Ok(Box::new(TaggedDecoder::new(p)?))
            }
        },
    )
    .doc("GNU Radio's `fec.extended_tagged_decoder`: each packet of `n` soft values (positive for a 1, marked by a length tag `lentagname`), depunctured by `puncpat` from its first value on, becomes one frame of `round(n·rate)` bits (GNU Radio 3.10's `tagged_decoder` sizes frames so: a terminated `cc` frame's tail bits are decoded too), at most `frame_size`; more than `8·mtu` bits stop the run as in GNU Radio. `cc` runs GNU Radio's Viterbi decoder on `round(48·x + 128)`; a frame that reads past its packet reads the values that follow as far as they have arrived, then zero bytes, as GNU Radio reads its buffer. An LDPC frame must be whole information words, and so must `8·mtu` bits (GNU Radio's decoders throw on others; the run stops). The decoded packet has a length tag of its length; other tags keep their relative place. With `lentagname` `None` the block decodes the stream in frames of `frame_size` bits, as `extended_decoder`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
