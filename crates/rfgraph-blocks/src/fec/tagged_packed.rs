//! [`PackedTaggedEncoder`]: GNU Radio's `fec.extended_tagged_encoder`
//! with a code that takes packed bytes (`ccsds`), quirks included. GNU
//! Radio's hier block puts a `pack_k_bits_bb(8)` in front of its tagged
//! encoder for such a code: the bits are packed eight at a time with no
//! regard for packets, each length tag moves to byte `⌊index / 8⌋` and
//! keeps its value, and the tagged encoder then reads a packet of `n`
//! *bytes* where the tag said `n` bits. So a stream of equal packets has
//! only one packet in eight coded (its `n` bits of frame size taken from
//! the first `n / 8` bytes of eight packets' worth of bytes), which this
//! block reproduces byte for byte.

use super::coder::Encoder;
use super::pending::Pending;
use super::puncture::Puncture;
use super::tagged_encoder::ExtendedTaggedEncoderParams;
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use std::collections::VecDeque;

/// Codes a tagged bit stream as GNU Radio's tagged encoder does behind
/// its packer (see the module docs): bits are packed most significant
/// first into bytes; at each packet start (a byte position) the last
/// length tag moved there gives the packet's length `n` in bytes, `n`
/// bits of frame size (cut to the code's) are coded from its first
/// bytes, and the coded bits (punctured by `puncpat`) become one output
/// packet with a length tag of its length. A packet start with no length
/// tag, or an `n` past `8 · mtu`, stops the run with an error, as in GNU
/// Radio. Length tags the packer moved inside a packet are dropped (GNU
/// Radio re-emits them behind its output, where a reader sees them or
/// not depending on its scheduler); other tags keep their relative place
/// in the packet. Bits that end a stream short of a byte, and a last
/// packet short of its length, are dropped, as in GNU Radio.
///
/// Built by the registry's `extended_tagged_encoder` for a `ccsds` code
/// with a length tag name.
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
/// use rfgraph_blocks::fec::{
///     CcMode, ExtendedTaggedEncoderParams, FecCode, FecCodeParams, PackedTaggedEncoder,
/// };
/// let enc = PackedTaggedEncoder::new(ExtendedTaggedEncoderParams {
///     fec: FecCodeParams {
///         code: FecCode::Ccsds,
///         frame_size: 8000,
///         mode: CcMode::Terminated,
///         ..Default::default()
///     },
///     lentagname: "packet_len".into(),
///     ..Default::default()
/// })?;
/// # let _ = enc;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PackedTaggedEncoder {
    input: StreamInput<u8>,
    output: StreamOutput<u8>,
    params: ExtendedTaggedEncoderParams,
    key: String,
    encoder: Encoder,
    puncture: Option<Puncture>,
    /// Bits of the byte being packed, and how many.
    acc: u8,
    nacc: u8,
    /// Packed bytes from absolute byte `base` on.
    bytes: Vec<u8>,
    base: u64,
    /// Length tags moved to bytes: (byte, value).
    lengths: VecDeque<(u64, Pmt)>,
    /// Other tags moved to bytes: (byte, key, value).
    others: VecDeque<(u64, String, Pmt)>,
    /// The length in bytes of the packet starting at `base`, once read.
    need: Option<usize>,
    coded: Vec<u8>,
    pending: Pending<u8>,
}

impl PackedTaggedEncoder {
    /// Codes the packets of `params` (its code must take packed bytes
    /// and `lentagname` must name the length tags).
    pub fn new(params: ExtendedTaggedEncoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        let mut encoder = Encoder::new(&params.fec, "extended_tagged_encoder")?;
        if !encoder.packed_input() {
            return Err(ParamError::new(
                "extended_tagged_encoder",
                "code",
                "the packed tagged encoder takes a code of packed bytes (ccsds)",
            ));
        }
        encoder.set_frame_size(params.mtu * 8);
        let puncture = Puncture::parse(&params.puncpat, "extended_tagged_encoder")?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            key: params.lentagname.trim().to_string(),
            params,
            encoder,
            puncture,
            acc: 0,
            nacc: 0,
            bytes: Vec::new(),
            base: 0,
            lengths: VecDeque::new(),
            others: VecDeque::new(),
            need: None,
            coded: Vec::new(),
            pending: Pending::new(),
        })
    }

    /// Packs what the input holds, moving its tags to their bytes.
    fn pack(&mut self) {
        // One slice for the items and their tags: a second `slice()` could
        // show items the writer published since, past the tags read.
        let n = self.input.slice().len();
        let mut tags = self.input.tags();
        tags.sort_by_key(|t| t.index);
        for t in tags {
            let byte = t.index / 8;
            if t.key == self.key {
                self.lengths.push_back((byte, t.value));
            } else {
                self.others.push_back((byte, t.key, t.value));
            }
        }
        let (mut acc, mut nacc) = (self.acc, self.nacc);
        for &b in &self.input.slice()[..n] {
            acc = (acc << 1) | (b & 1);
            nacc += 1;
            if nacc == 8 {
                self.bytes.push(acc);
                acc = 0;
                nacc = 0;
            }
        }
        (self.acc, self.nacc) = (acc, nacc);
        self.input.consume(n);
    }

    /// The length of the packet at `base`: the last length tag moved
    /// there (earlier ones, inside packets, are dropped).
    fn length_at_base(&mut self) -> Result<Option<usize>, BoxError> {
        while self.lengths.front().is_some_and(|(b, _)| *b < self.base) {
            self.lengths.pop_front();
        }
        let mut value = None;
        while let Some((b, v)) = self.lengths.front() {
            if *b != self.base {
                break;
            }
            value = Some(v.clone());
            self.lengths.pop_front();
        }
        let Some(v) = value else {
            return Err(format!(
                "missing a length tag `{}` at packed byte {} (GNU Radio's tagged encoder fails here too)",
                self.key, self.base
            )
            .into());
        };
        let n = v
            .as_u64()
            .ok_or_else(|| format!("length tag `{}` holds no length: {v:?}", self.key))?;
        let mtu_bits = self.params.mtu as u64 * 8;
        if n > mtu_bits {
            return Err(
                format!("a packet of {n} items is larger than the MTU ({mtu_bits} bits)").into(),
            );
        }
        Ok(Some(n as usize))
    }

    /// Codes the packet of `n` bytes at `base` into the pending output.
    fn code(&mut self, n: usize) {
        self.encoder.set_frame_size(n);
        self.coded.clear();
        self.coded.resize(self.encoder.output_size(), 0);
        self.encoder.encode(&self.bytes[..n], &mut self.coded);
        let out = self.pending.refill();
        match &self.puncture {
            None => out.extend_from_slice(&self.coded),
            Some(p) => p.puncture(&self.coded, out),
        }
        let len = out.len();
        self.pending.tag(0, &self.key, Pmt::U64(len as u64));
        let end = self.base + n as u64;
        while let Some((b, _, _)) = self.others.front() {
            if *b >= end {
                break;
            }
            let (b, k, v) = self
                .others
                .pop_front()
                .unwrap_or((0, String::new(), Pmt::Null));
            if b >= self.base && len > 0 {
                let at = ((b - self.base) as u128 * len as u128 / n.max(1) as u128) as usize;
                self.pending.tag(at.min(len - 1), &k, v);
            }
        }
        self.bytes.drain(..n);
        self.base = end;
    }
}

impl Block for PackedTaggedEncoder {
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
        while self.pending.drain(&mut self.output, io) {
            if self.need.is_none() && self.bytes.is_empty()
                || self.need.is_some_and(|n| self.bytes.len() < n)
            {
                self.pack();
            }
            if self.need.is_none() {
                if self.bytes.is_empty() {
                    break;
                }
                self.need = self.length_at_base()?;
            }
            let Some(n) = self.need else { break };
            if self.bytes.len() < n {
                break;
            }
            self.need = None;
            self.code(n);
        }
        Ok(())
    }
}
