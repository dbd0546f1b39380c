//! `extended_tagged_encoder`: GNU Radio's `fec.extended_tagged_encoder`,
//! [`TaggedEncoder`] coding each packet of a tagged stream as one frame
//! (its `fec.tagged_encoder`), or, without a length tag name, the stream
//! encoder [`FrameEncoder`](super::FrameEncoder). With its parameters
//! and registry entry.

use super::coder::Encoder;
use super::extended_encoder::FrameEncoder;
use super::packets::Packets;
use super::params::{FecCodeParams, MAX_FRAME_BITS};
use super::pending::Pending;
use super::puncture::Puncture;
use super::tagged_packed::PackedTaggedEncoder;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// True when `name` names no length tag (GRC's default is `None`).
pub(crate) fn no_tag(name: &str) -> bool {
    let n = name.trim();
    n.is_empty() || n.eq_ignore_ascii_case("none")
}

/// Most bytes of `mtu`: a frame of `mtu · 8` bits stays within
/// [`MAX_FRAME_BITS`].
pub(crate) const MAX_MTU: usize = MAX_FRAME_BITS / 8;

/// The parameters of `extended_tagged_encoder` (GNU Radio's
/// `fec_extended_tagged_encoder`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ExtendedTaggedEncoderParams {
    /// the code; `frame_size` is the most bits of a packet that are
    /// coded
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// puncturing pattern applied to each packet's coded bits: `1` keeps
    /// a bit, `0` drops it; `11` punctures nothing
    #[param(default = "11", max_len = 31)]
    pub puncpat: String,
    /// the key of the length tags; `None` (or empty) codes the stream in
    /// frames of `frame_size` bits instead
    #[param(default = "None", max_len = 256)]
    pub lentagname: String,
    /// the longest packet, in bytes (of bits: `8 · mtu` bits)
    #[param(default = 1500, min = 1, max = MAX_MTU)]
    pub mtu: usize,
}

impl ExtendedTaggedEncoderParams {
    fn check(&self) -> Result<(), ParamError> {
        self.fec.check_encoder("extended_tagged_encoder")?;
        self.fec.check_mtu("extended_tagged_encoder", self.mtu)?;
        Puncture::parse(&self.puncpat, "extended_tagged_encoder").map(|_| ())
    }
}

/// Codes each packet of a tagged stream as one frame: a packet of `n`
/// bits (one per byte; at most `8 · mtu`, a longer one is an error as in
/// GNU Radio) sets the code's frame size to `n` (only its first
/// `frame_size` bits are coded when it is longer) and becomes one packet
/// of coded bits, punctured by `puncpat` from its first bit on, whose
/// length tag gives its length. Its other tags keep their relative place.
/// The code's state carries from packet to packet as in GNU Radio. The
/// LDPC codes size frames as GNU Radio's coders: `ldpc` codes the first
/// `k` bits of every packet into one codeword; `ldpc_h` and `ldpc_g` code
/// packets of whole information words (any other length stops the run,
/// as GNU Radio's coder throws), and `8 · mtu` must be whole words too,
/// as GNU Radio's constructor sizes the frame to it. A
/// code of packed bytes (`ccsds`) is refused here: GNU Radio packs the
/// stream in front of its tagged encoder then, which
/// [`PackedTaggedEncoder`](super::PackedTaggedEncoder) reproduces.
///
/// # Parameters
/// [`ExtendedTaggedEncoderParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, a tagged stream of bits.
///
/// # Stream Outputs
/// - `out`: `u8`, a tagged stream of coded bits.
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{CcMode, ExtendedTaggedEncoderParams, FecCodeParams, TaggedEncoder};
/// let enc = TaggedEncoder::new(ExtendedTaggedEncoderParams {
///     fec: FecCodeParams::cc(1500 * 8, CcMode::Terminated),
///     lentagname: "packet_len".into(),
///     ..Default::default()
/// })?;
/// # let _ = enc;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TaggedEncoder {
    input: StreamInput<u8>,
    output: StreamOutput<u8>,
    params: ExtendedTaggedEncoderParams,
    encoder: Encoder,
    puncture: Option<Puncture>,
    packets: Packets<u8>,
    coded: Vec<u8>,
    pending: Pending<u8>,
}

impl TaggedEncoder {
    /// Codes the packets marked by length tags `params.lentagname`
    /// (which must name one).
    pub fn new(params: ExtendedTaggedEncoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        if no_tag(&params.lentagname) {
            return Err(ParamError::new(
                "extended_tagged_encoder",
                "lentagname",
                "must name the length tags (without one the block is a stream encoder)",
            ));
        }
        let mut encoder = Encoder::new(&params.fec, "extended_tagged_encoder")?;
        if encoder.packed_input() {
            return Err(ParamError::new(
                "extended_tagged_encoder",
                "code",
                "a code of packed bytes (ccsds) is coded by PackedTaggedEncoder, as GNU Radio packs in front of its tagged encoder",
            ));
        }
        // GNU Radio's constructor sizes the frame to the MTU: its LDPC
        // `ldpc_h` and `ldpc_g` encoders throw unless `8 · mtu` bits are
        // whole information words.
        encoder
            .try_set_frame_size(params.mtu * 8)
            .map_err(|e| ParamError::new("extended_tagged_encoder", "mtu", e))?;
        let puncture = Puncture::parse(&params.puncpat, "extended_tagged_encoder")?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            packets: Packets::new(params.lentagname.trim()),
            params,
            encoder,
            puncture,
            coded: Vec::new(),
            pending: Pending::new(),
        })
    }

    /// Codes one packet of `bits` with its `tags` into the pending
    /// output; an error where GNU Radio's coder throws on the packet's
    /// size (`ldpc_h`, `ldpc_g`: no whole number of information words).
    /// A frame longer than the packet (`ldpc` keeps one codeword of `k`
    /// bits, polar codes their block) is coded as if zeros followed.
    fn code(&mut self, bits: &[u8], tags: Vec<(usize, String, Pmt)>) -> Result<(), BoxError> {
        self.encoder.try_set_frame_size(bits.len())?;
        self.coded.clear();
        self.coded.resize(self.encoder.output_size(), 0);
        self.encoder.encode(bits, &mut self.coded);
        let out = self.pending.refill();
        match &self.puncture {
            None => out.extend_from_slice(&self.coded),
            Some(p) => p.puncture(&self.coded, out),
        }
        let n = out.len();
        let key = self.params.lentagname.trim().to_string();
        self.pending.tag(0, &key, Pmt::U64(n as u64));
        for (offset, k, v) in tags {
            let at = (offset as u128 * n as u128 / bits.len().max(1) as u128) as usize;
            self.pending.tag(at.min(n.saturating_sub(1)), &k, v);
        }
        Ok(())
    }
}

impl Block for TaggedEncoder {
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
        while self.pending.drain(&mut self.output, io) {
            let packet = self.packets.read(&mut self.input, |n| {
                if n > mtu_bits {
                    return Err(format!(
                        "a packet of {n} bits is larger than the MTU ({mtu_bits} bits)"
                    )
                    .into());
                }
                Ok(())
            })?;
            let Some(packet) = packet else { break };
            if packet.items.is_empty() {
                continue;
            }
            self.code(&packet.items, packet.tags)?;
        }
        Ok(())
    }
}

/// `extended_tagged_encoder`: GNU Radio's `fec_extended_tagged_encoder`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ExtendedTaggedEncoderParams>(
        "extended_tagged_encoder",
        "Error Coding",
        "Encodes each packet of a tagged bit stream as one FEC frame.",
        |p| {
            if no_tag(&p.lentagname) {
                let encoder = Encoder::new(&p.fec, "extended_tagged_encoder")?;
                let puncture = Puncture::parse(&p.puncpat, "extended_tagged_encoder")?;
                let pack = encoder.packed_input();
                Ok(Box::new(FrameEncoder::new(p, encoder, puncture, pack)) as Box<dyn Block>)
            } else if Encoder::new(&p.fec, "extended_tagged_encoder")?.packed_input() {
                Ok(Box::new(PackedTaggedEncoder::new(p)?))
            } else {
                Ok(Box::new(TaggedEncoder::new(p)?))
            }
        },
    )
    .doc("GNU Radio's `fec.extended_tagged_encoder`: each packet of `n` bits (one per byte, marked by a length tag `lentagname`) becomes one frame of the code (`frame_size` set to `n`; a packet longer than `frame_size` has only its first `frame_size` bits coded, one longer than `8·mtu` bits stops the run as in GNU Radio) and one packet of coded bits, punctured by `puncpat` from its first bit on, with a length tag of its length; its other tags keep their relative place. The code's state carries between packets as in GNU Radio. LDPC codes size frames as GNU Radio's coders: `ldpc` codes the first `k` bits of each packet into one codeword; `ldpc_h` and `ldpc_g` packets of whole information words (others stop the run, as GNU Radio's coder throws), and `8·mtu` bits must be whole words. With `lentagname` `None` the block codes the stream in frames of `frame_size` bits, as `extended_encoder`. A `ccsds` code takes packed bytes: as GNU Radio, the bits are packed eight at a time regardless of packets and a length tag of `n` (moved to byte `index / 8`) then marks a packet of `n` bytes, so equal packets are coded one in eight (see `PackedTaggedEncoder`).")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
