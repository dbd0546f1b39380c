//! `async_encoder`: GNU Radio's `fec.async_encoder`, [`AsyncEncoder`]
//! coding each PDU as one frame, with its parameters and registry entry.

use super::coder::Encoder;
use super::params::FecCodeParams;
use super::tagged_encoder::MAX_MTU;
use crate::message::{parse, pdu};
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, WorkIo};

/// The parameters of `async_encoder` (GNU Radio's `fec_async_encoder`;
/// its `fec_extended_async_encoder` is this block with the defaults).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct AsyncEncoderParams {
    /// the code; `frame_size` is the most bits of a PDU coded as one
    /// frame
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// PDUs carry packed bytes (in and out) instead of one bit per byte
    #[param(default = false)]
    pub packed: bool,
    /// packed input bytes are unpacked least significant bit first
    #[param(default = true)]
    pub rev_unpack: bool,
    /// packed output bytes are packed least significant bit first
    #[param(default = true)]
    pub rev_pack: bool,
    /// the longest PDU, in bytes (of bits when not `packed`: `8 · mtu`)
    #[param(default = 1500, min = 1, max = MAX_MTU)]
    pub mtu: usize,
}

impl AsyncEncoderParams {
    fn check(&self) -> Result<(), ParamError> {
        self.fec.check_encoder("async_encoder")?;
        self.fec.check_mtu("async_encoder", self.mtu)
    }
}

/// The bits of `bytes` into `out` (8 a byte), most (or, `rev`, least)
/// significant first.
fn unpack_into(bytes: &[u8], rev: bool, out: &mut [u8]) {
    for (&b, bits) in bytes.iter().zip(out.chunks_exact_mut(8)) {
        for (j, o) in bits.iter_mut().enumerate() {
            let shift = if rev { j } else { 7 - j };
            *o = (b >> shift) & 1;
        }
    }
}

/// `n` bytes from `bits`, most (or, `rev`, least) significant bit first.
pub(crate) fn pack(bits: &[u8], n: usize, rev: bool) -> Vec<u8> {
    bits.chunks(8)
        .take(n)
        .map(|c| {
            c.iter().enumerate().fold(0u8, |acc, (j, &b)| {
                let shift = if rev { j } else { 7 - j };
                acc | (b & 1) << shift
            })
        })
        .collect()
}

/// Codes each PDU arriving on `in` as GNU Radio's `async_encoder` does
/// and posts the coded PDU, same metadata, on `out`.
///
/// Unpacked (`packed` false), the PDU holds bits (one per byte, at most
/// `8 · mtu`): a PDU no longer than `frame_size` is one frame of its
/// length; a longer one must be whole frames of `frame_size` bits, each
/// coded in turn. Packed, the PDU holds at most `mtu` bytes, unpacked
/// (`rev_unpack`: least significant bit first; a `ccsds` code takes the
/// bytes as they are) into one frame, whose coded bits are packed into
/// whole bytes (`rev_pack`: least significant bit first; bits past the
/// last whole byte are dropped). A frame longer than the PDU reads on
/// into the bits earlier PDUs left, as GNU Radio's buffer does.
///
/// The LDPC codes size frames as GNU Radio's coders do: `ldpc` codes one
/// codeword of its `k` bits a frame whatever the PDU (so unpacked PDUs
/// must be whole words, each coded in turn, and a packed PDU gives the
/// first `k` bits' `n` coded bits, `⌊n / 8⌋` bytes); `ldpc_h` and
/// `ldpc_g` code a PDU of whole information words as one frame, and a
/// PDU of any other size is an error, as GNU Radio's coder throws. A
/// message that is no byte PDU, or breaks these rules, stops the run
/// with an error, as GNU Radio's handler throws. The code's state
/// carries from PDU to PDU.
///
/// # Parameters
/// [`AsyncEncoderParams`].
///
/// # Message Inputs
/// - `in`: PDUs of bits (or bytes).
///
/// # Message Outputs
/// - `out`: the coded PDUs.
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{AsyncEncoder, AsyncEncoderParams, CcMode, FecCodeParams};
/// let enc = AsyncEncoder::new(AsyncEncoderParams {
///     fec: FecCodeParams::cc(1500 * 8, CcMode::Terminated),
///     packed: true,
///     ..Default::default()
/// })?;
/// # let _ = enc;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct AsyncEncoder {
    output: MessageOutput,
    params: AsyncEncoderParams,
    encoder: Encoder,
    /// GNU Radio's input buffer of the packed path: each PDU's bits
    /// overwrite its start, and a frame longer than the PDU reads on into
    /// what earlier PDUs left (zeros at first).
    bits_in: Vec<u8>,
}

impl AsyncEncoder {
    /// Codes PDUs with the code of `params`.
    pub fn new(params: AsyncEncoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        let encoder = Encoder::new(&params.fec, "async_encoder")?;
        Ok(Self {
            output: MessageOutput::new("out"),
            params,
            encoder,
            bits_in: Vec::new(),
        })
    }

    /// The coded bits (unpacked) or bytes (packed) of PDU data `data`.
    pub fn encode(&mut self, data: &[u8]) -> Result<Vec<u8>, BoxError> {
        if self.params.packed {
            self.encode_packed(data)
        } else {
            self.encode_unpacked(data)
        }
    }

    fn encode_unpacked(&mut self, bits: &[u8]) -> Result<Vec<u8>, BoxError> {
        let n = bits.len();
        if n > self.params.mtu * 8 {
            return Err(format!(
                "a PDU of {n} bits is larger than the MTU ({} bits)",
                self.params.mtu * 8
            )
            .into());
        }
        let whole = self.encoder.try_set_frame_size(n)?;
        let size = self.encoder.input_size();
        let frames = if whole {
            1
        } else if size == 0 || !n.is_multiple_of(size) {
            return Err(
                format!("a PDU of {n} bits is no whole number of {size}-item frames").into(),
            );
        } else {
            n / size
        };
        let coded = self.encoder.output_size();
        let mut out = vec![0; frames * coded];
        if self.encoder.packed_input() {
            // GNU Radio packs the PDU and codes its first frame only
            // (the rest of a longer PDU's output stays 0).
            let bytes = pack(bits, n / 8, false);
            self.encoder.encode(&bytes, &mut out);
            return Ok(out);
        }
        for (i, o) in out.chunks_exact_mut(coded.max(1)).enumerate().take(frames) {
            self.encoder.encode(&bits[i * size..], o);
        }
        Ok(out)
    }

    fn encode_packed(&mut self, bytes: &[u8]) -> Result<Vec<u8>, BoxError> {
        if bytes.len() > self.params.mtu {
            return Err(format!(
                "a PDU of {} bytes is larger than the MTU ({} bytes)",
                bytes.len(),
                self.params.mtu
            )
            .into());
        }
        self.encoder.try_set_frame_size(8 * bytes.len())?;
        let mut input = std::mem::take(&mut self.bits_in);
        let written = if self.encoder.packed_input() {
            bytes.len()
        } else {
            8 * bytes.len()
        };
        input.resize(input.len().max(written).max(self.encoder.input_size()), 0);
        if self.encoder.packed_input() {
            input[..written].copy_from_slice(bytes);
        } else {
            unpack_into(bytes, self.params.rev_unpack, &mut input[..written]);
        }
        let nbits = self.encoder.output_size();
        let mut coded = vec![0; nbits];
        self.encoder.encode(&input, &mut coded);
        self.bits_in = input;
        Ok(pack(&coded, nbits / 8, self.params.rev_pack))
    }
}

impl Block for AsyncEncoder {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("in")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        let Pmt::Blob(bytes) = data else {
            return Err("expected a PDU of bytes (a u8 vector)".into());
        };
        let coded = self.encode(bytes)?;
        self.output.post(pdu(meta, Pmt::Blob(coded)));
        Ok(Pmt::Null)
    }
}

/// `async_encoder`: GNU Radio's `fec_async_encoder`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<AsyncEncoderParams>(
        "async_encoder",
        "Error Coding",
        "Encodes each PDU as one FEC frame.",
        |p| Ok(Box::new(AsyncEncoder::new(p)?)),
    )
    .doc("GNU Radio's `fec.async_encoder`: each PDU on `in` is coded and posted on `out` with its metadata. Unpacked, the PDU holds bits (one per byte, at most `8·mtu`): one frame of its length when no longer than `frame_size`, else whole frames of `frame_size` bits. Packed, it holds at most `mtu` bytes, unpacked (`rev_unpack`: least significant bit first) into one frame whose coded bits are packed into whole bytes (`rev_pack`: least significant bit first). LDPC codes size frames as GNU Radio's: `ldpc` codes one codeword of `k` bits a frame whatever the PDU (a packed PDU gives its first `k` bits' codeword, rounded down to whole bytes), `ldpc_h` and `ldpc_g` a PDU of whole information words as one frame. A message that is no byte PDU or breaks these rules (an LDPC PDU of no whole number of words included, where GNU Radio's coder throws) stops the run, as GNU Radio's handler throws. The code's state carries between PDUs.")
    .message_input("in")
    .message_output("out")
}
