//! `async_decoder`: GNU Radio's `fec.async_decoder`, [`AsyncDecoder`]
//! decoding each PDU of soft values as one frame, with its parameters
//! and registry entry.

use super::async_encoder::pack;
use super::coder::{Decoder, SoftInput, uchar_truncated};
use super::params::{CcMode, FecCode, FecCodeParams};
use super::tagged_encoder::MAX_MTU;
use crate::message::{parse, pdu};
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, WorkIo};

/// The parameters of `async_decoder` (GNU Radio's `fec_async_decoder`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct AsyncDecoderParams {
    /// the code (not a streaming `cc` one: a PDU has no next frame to
    /// read ahead); `frame_size` is the most bits of a PDU's frame
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// decoded PDUs carry packed bytes instead of one bit per byte
    #[param(default = false)]
    pub packed: bool,
    /// decoded bytes are packed least significant bit first
    #[param(default = true)]
    pub rev_pack: bool,
    /// the longest decoded PDU, in bytes (`8 · mtu` bits)
    #[param(default = 1500, min = 1, max = MAX_MTU)]
    pub mtu: usize,
}

impl AsyncDecoderParams {
    fn check(&self) -> Result<(), ParamError> {
        self.fec.check_decoder("async_decoder")?;
        self.fec.check_mtu("async_decoder", self.mtu)?;
        if self.fec.code == FecCode::Cc && self.fec.mode == CcMode::Streaming {
            return Err(ParamError::new(
                "async_decoder",
                "mode",
                "cannot be `streaming` (it reads the next frame, which a PDU lacks; GNU Radio refuses it too)",
            ));
        }
        Ok(())
    }
}

/// Decodes each PDU of soft floats (positive for a 1) arriving on `in`
/// as GNU Radio's `async_decoder` does and posts the bits, same
/// metadata, on `out`.
///
/// Unpacked (`packed` false), a PDU of `n` values is one frame of `n ·
/// rate − d` bits (`d` what the code's tail adds) when that is no longer
/// than `frame_size` (and `n` at most `8 · mtu / rate`), else whole frames
/// of the code's input size; the metadata gains `iterations = -1.0`.
/// Packed, a PDU of `n` values (at most `8 · mtu / rate`) is one frame of
/// `n · rate` bits, packed into whole bytes (`rev_pack`: least
/// significant bit first). For the Viterbi decoder a value `x` becomes the
/// byte `48·x + 128` truncated as GNU Radio's cast truncates it (the low
/// byte of the integer part). As in GNU Radio, the decoder's scratch
/// buffers persist between PDUs: a frame that reads past its PDU's values
/// reads what the last PDUs left there. A message that is no `f32` PDU,
/// or breaks these rules, stops the run with an error, as GNU Radio's
/// handler throws.
///
/// # Parameters
/// [`AsyncDecoderParams`].
///
/// # Message Inputs
/// - `in`: PDUs of soft `f32` values.
///
/// # Message Outputs
/// - `out`: PDUs of decoded bits (or bytes).
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{AsyncDecoder, AsyncDecoderParams, CcMode, FecCodeParams};
/// let dec = AsyncDecoder::new(AsyncDecoderParams {
///     fec: FecCodeParams::cc(1500 * 8, CcMode::Terminated),
///     ..Default::default()
/// })?;
/// # let _ = dec;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct AsyncDecoder {
    output: MessageOutput,
    params: AsyncDecoderParams,
    decoder: Decoder,
    /// The most values of a PDU.
    max_in: usize,
    /// GNU Radio's `d_tmp_f32` and `d_tmp_u8`.
    soft_f: Vec<f32>,
    soft_u: Vec<u8>,
    /// GNU Radio's `d_bits_out` (packed).
    bits: Vec<u8>,
}

impl AsyncDecoder {
    /// Decodes PDUs with the code of `params`.
    pub fn new(params: AsyncDecoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        let decoder = Decoder::new(&params.fec, "async_decoder")?;
        let max_in = (params.mtu as f64 * 8.0 / decoder.rate()) as usize;
        Ok(Self {
            output: MessageOutput::new("out"),
            decoder,
            max_in,
            soft_f: vec![0.0; max_in],
            soft_u: vec![0; max_in],
            bits: vec![0; params.mtu * 8],
            params,
        })
    }

    /// Puts `values` at the start of the scratch buffer the decoder
    /// reads, which holds at least `need` values.
    fn load(&mut self, values: &[f32], need: usize) {
        let n = values.len();
        match self.decoder.soft_input() {
            SoftInput::Uchar => {
                if self.soft_u.len() < need.max(n) {
                    self.soft_u.resize(need.max(n), 0);
                }
                for (u, &x) in self.soft_u.iter_mut().zip(values) {
                    *u = uchar_truncated(x);
                }
            }
            SoftInput::Float => {
                if self.soft_f.len() < need.max(n) {
                    self.soft_f.resize(need.max(n), 0.0);
                }
                self.soft_f[..n].copy_from_slice(values);
            }
        }
    }

    /// Decodes the frame in the scratch buffer at `from` into `out` (the
    /// decoder may read the buffer past its frame, as GNU Radio's does).
    fn run(&mut self, from: usize, out: &mut [u8]) {
        match self.decoder.soft_input() {
            SoftInput::Uchar => self.decoder.decode_uchar(&self.soft_u[from..], out),
            SoftInput::Float => self.decoder.decode_float(&self.soft_f[from..], out),
        }
    }

    /// The decoded bits (unpacked) or bytes (packed) of soft `values`.
    pub fn decode(&mut self, values: &[f32]) -> Result<Vec<u8>, BoxError> {
        if self.params.packed {
            self.decode_packed(values)
        } else {
            self.decode_unpacked(values)
        }
    }

    fn decode_unpacked(&mut self, values: &[f32]) -> Result<Vec<u8>, BoxError> {
        let rate = self.decoder.rate();
        let n = values.len();
        let diff = (rate * self.decoder.input_size() as f64 - self.decoder.output_size() as f64)
            as i64 as f64;
        let frame = (n as f64 * rate - diff).max(0.0) as usize;
        let whole = self.decoder.try_set_frame_size(frame)?;
        if n > self.max_in {
            return Err(format!(
                "a PDU of {n} values is larger than the most the MTU allows ({})",
                self.max_in
            )
            .into());
        }
        let (frames, out_len) = if whole {
            (1, frame)
        } else {
            let size = self.decoder.input_size();
            if size == 0 || !n.is_multiple_of(size) {
                return Err(format!(
                    "a PDU of {n} values is no whole number of {size}-value frames"
                )
                .into());
            }
            (n / size, n / size * self.decoder.output_size())
        };
        let mut out = vec![0u8; out_len.max(self.decoder.output_size())];
        let (size, osize) = (self.decoder.input_size(), self.decoder.output_size());
        self.load(values, size * frames);
        match self.decoder.soft_input() {
            // GNU Radio decodes the first frame only.
            SoftInput::Uchar => self.run(0, &mut out[..osize]),
            SoftInput::Float => {
                for i in 0..frames {
                    self.run(i * size, &mut out[i * osize..(i + 1) * osize]);
                }
            }
        }
        out.truncate(out_len);
        Ok(out)
    }

    fn decode_packed(&mut self, values: &[f32]) -> Result<Vec<u8>, BoxError> {
        let n = values.len();
        if n > self.max_in {
            return Err(format!(
                "a PDU of {n} values is larger than the most the MTU allows ({})",
                self.max_in
            )
            .into());
        }
        let nbits = (n as f64 * self.decoder.rate()) as usize;
        self.decoder.try_set_frame_size(nbits)?;
        let need = self.decoder.input_size();
        self.load(values, need);
        let osize = self.decoder.output_size();
        let mut bits = std::mem::take(&mut self.bits);
        if bits.len() < osize.max(nbits) {
            bits.resize(osize.max(nbits), 0);
        }
        self.run(0, &mut bits[..osize]);
        let bytes = pack(&bits, nbits / 8, self.params.rev_pack);
        self.bits = bits;
        Ok(bytes)
    }
}

impl Block for AsyncDecoder {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("in")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (mut meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        let Pmt::VecF32(values) = data else {
            return Err("expected a PDU of soft values (an f32 vector)".into());
        };
        let decoded = self.decode(values)?;
        if !self.params.packed {
            meta.insert("iterations".into(), Pmt::F64(-1.0));
        }
        self.output.post(pdu(meta, Pmt::Blob(decoded)));
        Ok(Pmt::Null)
    }
}

/// `async_decoder`: GNU Radio's `fec_async_decoder`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<AsyncDecoderParams>(
        "async_decoder",
        "Error Coding",
        "Decodes each PDU of soft values as one FEC frame.",
        |p| Ok(Box::new(AsyncDecoder::new(p)?)),
    )
    .doc("GNU Radio's `fec.async_decoder`: each PDU of soft floats on `in` (positive for a 1) is decoded and posted on `out` with its metadata. Unpacked, a PDU of `n` values is one frame of `n·rate − d` bits (`d` what the code's tail adds) when no longer than `frame_size`, else whole frames of the code's input size, and the metadata gains `iterations = -1.0`; packed, it is one frame of `n·rate` bits packed into whole bytes (`rev_pack`: least significant bit first). For `cc` a value `x` becomes the byte `48·x + 128` truncated as GNU Radio's cast does. PDUs longer than `8·mtu / rate` values, messages that are no `f32` PDU and PDUs that break these rules stop the run, as GNU Radio's handler throws. A streaming `cc` code is refused (GNU Radio refuses it too).")
    .message_input("in")
    .message_output("out")
}
