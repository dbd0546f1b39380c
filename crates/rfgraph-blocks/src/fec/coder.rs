//! [`Encoder`] and [`Decoder`]: a code of [`FecCodeParams`] as GNU
//! Radio's `generic_encoder` / `generic_decoder` objects, which every FEC
//! block drives frame by frame. They keep what GNU Radio's coder objects
//! keep between frames (a convolutional code's state, the Viterbi
//! decoder's chained start state), and their frame size may change per
//! frame (tagged streams, PDUs) up to the constructed one. Also the two
//! ways GNU Radio turns soft floats into the Viterbi decoder's bytes.

use super::cc_decoder::CcDecoder;
use super::cc_encoder::CcEncoder;
use super::ccsds::CcsdsEncoder;
use super::dummy::Dummy;
use super::ldpc::coder::{LdpcDecoder, LdpcEncoder};
use super::params::{FecCode, FecCodeParams};
use super::polar::{PolarDecoder, PolarEncoder};
use super::repetition::Repetition;
use super::tpc::{TpcDecoder, TpcEncoder};
use rfgraph::ParamError;

/// What a [`Decoder`] reads: GNU Radio's `get_input_conversion`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftInput {
    /// Soft floats, positive for a 1 (`"none"`: dummy, repetition).
    Float,
    /// Soft bytes, 255 a sure 1 (`"uchar"`: the Viterbi decoder); a float
    /// `x` becomes `48·x + 128` as a byte.
    Uchar,
}

/// The soft byte of float `x` as the extended and tagged decoders make
/// it: GNU Radio's `multiply_const_ff(48)`, `add_const_ff(128)` and
/// `float_to_uchar` (rounded half to even, saturated; NaN gives 0).
/// After the clamp to `[0, 255]` (by hand: NaN becomes 0, as the cast
/// would make it), adding 2²³ rounds half to even exactly as `round_ties_even` does and
/// leaves the result in the low byte of the sum's bits: no libm call
/// (which costs x86-64's baseline a sixth of the decoder's time) and no
/// float-to-integer conversion, in loops the compiler vectorises.
#[inline]
pub fn uchar_rounded(x: f32) -> u8 {
    const MAGIC: f32 = 8_388_608.0;
    let v = x * 48.0 + 128.0;
    let y = if v > 0.0 { v.min(255.0) } else { 0.0 };
    (y + MAGIC).to_bits() as u8
}

/// [`uchar_rounded`] of every value.
#[cfg(test)]
fn soft_bytes(input: &[f32]) -> Vec<u8> {
    input.iter().map(|&x| uchar_rounded(x)).collect()
}

/// The soft byte of float `x` as the asynchronous decoder makes it:
/// `static_cast<uint8_t>(48·x + 128)` on x86 (truncated towards zero
/// through a 32-bit integer, whose low byte is kept; NaN and values
/// beyond 32 bits give 0).
#[inline]
pub fn uchar_truncated(x: f32) -> u8 {
    let y = x * 48.0 + 128.0;
    if y.is_nan() || y.abs() >= 2147483648.0 {
        0
    } else {
        y as i32 as u8
    }
}

/// An item a decoder block reads: `f32` soft values or `u8` soft bytes,
/// each convertible to what the decoder takes.
pub trait SoftItem: rfgraph::Item + Copy {
    /// The item type, as the registry names it.
    const KIND: rfgraph::params::ItemKind;
    /// The soft byte of this value ([`uchar_rounded`] for a float).
    fn uchar(self) -> u8;
    /// The soft float of this value.
    fn float(self) -> f32;
}

impl SoftItem for f32 {
    const KIND: rfgraph::params::ItemKind = rfgraph::params::ItemKind::F32;
    #[inline]
    fn uchar(self) -> u8 {
        uchar_rounded(self)
    }
    #[inline]
    fn float(self) -> f32 {
        self
    }
}

impl SoftItem for u8 {
    const KIND: rfgraph::params::ItemKind = rfgraph::params::ItemKind::U8;
    #[inline]
    fn uchar(self) -> u8 {
        self
    }
    #[inline]
    fn float(self) -> f32 {
        self as f32
    }
}

#[derive(Clone, Debug)]
enum EncoderKind {
    Dummy(Dummy),
    Repetition(Repetition),
    Cc(CcEncoder),
    Ccsds(CcsdsEncoder),
    Ldpc(LdpcEncoder),
    Polar(Box<PolarEncoder>),
    Tpc(Box<TpcEncoder>),
}

/// An encoder of a [`FecCodeParams`] code: frames of
/// [`input_size`](Self::input_size) items (bits, one per byte; packed
/// bytes when [`packed_input`](Self::packed_input)) into
/// [`output_size`](Self::output_size) coded bits, one per byte.
///
/// ```
/// use rfgraph_blocks::fec::{CcMode, Encoder, FecCodeParams};
/// let mut enc = Encoder::new(&FecCodeParams::cc(8, CcMode::Terminated), "doc")?;
/// let mut coded = vec![0; enc.output_size()];
/// enc.encode(&[1, 0, 1, 1, 0, 0, 1, 0], &mut coded);
/// assert_eq!(coded.len(), 2 * (8 + 6));
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Encoder(EncoderKind);

impl Encoder {
    /// The encoder of `p`; `block` names the block in an error.
    pub fn new(p: &FecCodeParams, block: &str) -> Result<Self, ParamError> {
        p.check_encoder(block)?;
        Ok(Self(match p.code {
            FecCode::Dummy => EncoderKind::Dummy(Dummy::new(p)),
            FecCode::Repetition => EncoderKind::Repetition(Repetition::new(p)),
            FecCode::Cc => EncoderKind::Cc(CcEncoder::new(p)),
            FecCode::Ccsds => EncoderKind::Ccsds(CcsdsEncoder::new(p)),
            FecCode::Ldpc | FecCode::LdpcH | FecCode::LdpcG => {
                EncoderKind::Ldpc(LdpcEncoder::new(p, block)?)
            }
            FecCode::Polar | FecCode::PolarList | FecCode::PolarSystematic => EncoderKind::Polar(
                Box::new(PolarEncoder::new(&p.polar, p.polar_variant(), block)?),
            ),
            FecCode::Tpc => EncoderKind::Tpc(Box::new(TpcEncoder::new(p.tpc.shape(block)?))),
        }))
    }

    /// Input items per frame.
    pub fn input_size(&self) -> usize {
        match &self.0 {
            EncoderKind::Dummy(c) => c.frame_size(),
            EncoderKind::Repetition(c) => c.frame_size(),
            EncoderKind::Cc(c) => c.input_size(),
            EncoderKind::Ccsds(c) => c.input_size(),
            EncoderKind::Ldpc(c) => c.input_size(),
            EncoderKind::Polar(c) => c.input_size(),
            EncoderKind::Tpc(c) => c.input_size(),
        }
    }

    /// Coded bits per frame.
    pub fn output_size(&self) -> usize {
        match &self.0 {
            EncoderKind::Dummy(c) => c.frame_size(),
            EncoderKind::Repetition(c) => c.coded_size(),
            EncoderKind::Cc(c) => c.output_size(),
            EncoderKind::Ccsds(c) => c.output_size(),
            EncoderKind::Ldpc(c) => c.output_size(),
            EncoderKind::Polar(c) => c.output_size(),
            EncoderKind::Tpc(c) => c.output_size(),
        }
    }

    /// Coded bits per bit (GNU Radio's `rate()`; a polar or TPC
    /// encoder's is GNU Radio's too, bits per coded bit).
    pub fn rate(&self) -> f64 {
        match &self.0 {
            EncoderKind::Dummy(_) => 1.0,
            EncoderKind::Repetition(c) => c.rep() as f64,
            EncoderKind::Cc(c) => c.rate(),
            EncoderKind::Ccsds(_) => 0.5,
            EncoderKind::Ldpc(c) => c.rate(),
            EncoderKind::Polar(c) => 1.0 / c.expansion(),
            // GNU Radio's TPC encoder reports bits per coded bit.
            EncoderKind::Tpc(c) => c.input_size() as f64 / c.output_size() as f64,
        }
    }

    /// True when a frame's input is packed bytes, most significant bit
    /// first (GNU Radio's input conversion `"pack"`: `ccsds`).
    pub fn packed_input(&self) -> bool {
        match &self.0 {
            EncoderKind::Ccsds(_) => true,
            EncoderKind::Polar(c) => c.packed_input(),
            _ => false,
        }
    }

    /// Sets the bits of the next frames, cut to the constructed frame
    /// size; false when cut or kept (GNU Radio's `set_frame_size`). A
    /// size GNU Radio throws on is ignored here: see
    /// [`try_set_frame_size`](Self::try_set_frame_size).
    pub fn set_frame_size(&mut self, bits: usize) -> bool {
        self.try_set_frame_size(bits).unwrap_or(false)
    }

    /// [`set_frame_size`](Self::set_frame_size), or GNU Radio's error
    /// where its coder throws (the frame then stays as it was): an
    /// `ldpc_h` or `ldpc_g` frame of no whole number of information
    /// words. `ldpc` (GNU Radio's `cldpc` encoder) keeps its one
    /// codeword whatever the size, and says false.
    pub fn try_set_frame_size(&mut self, bits: usize) -> Result<bool, String> {
        Ok(match &mut self.0 {
            EncoderKind::Dummy(c) => c.set_frame_size(bits),
            EncoderKind::Repetition(c) => c.set_frame_size(bits),
            EncoderKind::Cc(c) => c.set_frame_size(bits),
            EncoderKind::Ccsds(c) => c.set_frame_size(bits),
            EncoderKind::Ldpc(c) => return c.set_frame_size(bits),
            // GNU Radio's polar coders keep their block size.
            EncoderKind::Polar(_) => false,
            // So are GNU Radio's TPC coders.
            EncoderKind::Tpc(_) => false,
        })
    }

    /// Encodes one frame. An `input` shorter than
    /// [`input_size`](Self::input_size) (a packet shorter than the frame
    /// of a code whose frame size is fixed, such as polar codes) is
    /// followed by zeros, where GNU Radio reads on past its packet.
    ///
    /// # Panics
    /// If `output` has room for fewer than
    /// [`output_size`](Self::output_size) items.
    pub fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let need = self.input_size();
        if input.len() < need {
            let mut padded = input.to_vec();
            padded.resize(need, 0);
            self.encode_frame(&padded, output);
        } else {
            self.encode_frame(input, output);
        }
    }

    fn encode_frame(&mut self, input: &[u8], output: &mut [u8]) {
        match &mut self.0 {
            EncoderKind::Dummy(c) => c.encode(input, output),
            EncoderKind::Repetition(c) => c.encode(input, output),
            EncoderKind::Cc(c) => c.encode(input, output),
            EncoderKind::Ccsds(c) => c.encode(input, output),
            EncoderKind::Ldpc(c) => c.encode(input, output),
            EncoderKind::Polar(c) => c.encode(input, output),
            EncoderKind::Tpc(c) => c.encode(input, output),
        }
    }
}

#[derive(Clone, Debug)]
enum DecoderKind {
    Dummy(Dummy),
    Repetition(Repetition),
    Cc(Box<CcDecoder>),
    Ldpc(LdpcDecoder),
    Polar(Box<PolarDecoder>),
    Tpc(Box<TpcDecoder>),
}

/// A decoder of a [`FecCodeParams`] code: frames of
/// [`input_size`](Self::input_size) soft values (of the kind
/// [`soft_input`](Self::soft_input) says) into
/// [`output_size`](Self::output_size) bits, one per byte.
///
/// ```
/// use rfgraph_blocks::fec::{Decoder, FecCode, FecCodeParams};
/// let rep = FecCodeParams { code: FecCode::Repetition, frame_size: 2, ..Default::default() };
/// let mut dec = Decoder::new(&rep, "doc")?;
/// let mut bits = [9; 2];
/// dec.decode_float(&[0.9, -0.2, 0.4, -1.0, -0.3, 0.1], &mut bits);
/// assert_eq!(bits, [1, 0]);
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Decoder(DecoderKind);

impl Decoder {
    /// The decoder of `p`; `block` names the block in an error.
    pub fn new(p: &FecCodeParams, block: &str) -> Result<Self, ParamError> {
        p.check_decoder(block)?;
        Ok(Self(match p.code {
            FecCode::Dummy => DecoderKind::Dummy(Dummy::new(p)),
            FecCode::Repetition => DecoderKind::Repetition(Repetition::new(p)),
            FecCode::Cc => DecoderKind::Cc(Box::new(CcDecoder::new(p))),
            FecCode::Ldpc | FecCode::LdpcH | FecCode::LdpcG => {
                DecoderKind::Ldpc(LdpcDecoder::new(p, block)?)
            }
            FecCode::Ccsds => unreachable!("check_decoder refuses ccsds"),
            FecCode::Polar | FecCode::PolarList | FecCode::PolarSystematic => DecoderKind::Polar(
                Box::new(PolarDecoder::new(&p.polar, p.polar_variant(), block)?),
            ),
            FecCode::Tpc => DecoderKind::Tpc(Box::new(TpcDecoder::new(
                p.tpc.shape(block)?,
                p.ldpc.max_iter,
                p.tpc.decoder_type,
            ))),
        }))
    }

    /// What a frame's soft values are.
    pub fn soft_input(&self) -> SoftInput {
        match self.0 {
            DecoderKind::Cc(_) => SoftInput::Uchar,
            _ => SoftInput::Float,
        }
    }

    /// Soft values per frame.
    pub fn input_size(&self) -> usize {
        match &self.0 {
            DecoderKind::Dummy(c) => c.frame_size(),
            DecoderKind::Repetition(c) => c.coded_size(),
            DecoderKind::Cc(c) => c.input_size(),
            DecoderKind::Ldpc(c) => c.input_size(),
            DecoderKind::Polar(c) => c.input_size(),
            DecoderKind::Tpc(c) => c.input_size(),
        }
    }

    /// Decoded bits per frame.
    pub fn output_size(&self) -> usize {
        match &self.0 {
            DecoderKind::Dummy(c) => c.frame_size(),
            DecoderKind::Repetition(c) => c.frame_size(),
            DecoderKind::Cc(c) => c.output_size(),
            DecoderKind::Ldpc(c) => c.output_size(),
            DecoderKind::Polar(c) => c.output_size(),
            DecoderKind::Tpc(c) => c.output_size(),
        }
    }

    /// Soft values a frame reads past its own, which the next frame
    /// reads again (GNU Radio's `get_history`: a streaming `cc` code).
    pub fn history(&self) -> usize {
        match &self.0 {
            DecoderKind::Cc(c) => c.history(),
            _ => 0,
        }
    }

    /// Bits per coded bit (GNU Radio's `rate()`).
    pub fn rate(&self) -> f64 {
        match &self.0 {
            DecoderKind::Dummy(_) => 1.0,
            DecoderKind::Repetition(c) => 1.0 / c.rep() as f64,
            DecoderKind::Cc(_) => 0.5,
            DecoderKind::Ldpc(c) => c.rate(),
            DecoderKind::Polar(c) => c.output_size() as f64 / c.input_size() as f64,
            DecoderKind::Tpc(c) => c.output_size() as f64 / c.input_size() as f64,
        }
    }

    /// Sets the bits of the next frames, cut to the constructed frame
    /// size; false when cut or kept (GNU Radio's `set_frame_size`). A
    /// size GNU Radio throws on is ignored here: see
    /// [`try_set_frame_size`](Self::try_set_frame_size).
    pub fn set_frame_size(&mut self, bits: usize) -> bool {
        self.try_set_frame_size(bits).unwrap_or(false)
    }

    /// [`set_frame_size`](Self::set_frame_size), or GNU Radio's error
    /// where its decoder throws (the frame then stays as it was): an LDPC
    /// frame of no whole number of information words.
    pub fn try_set_frame_size(&mut self, bits: usize) -> Result<bool, String> {
        Ok(match &mut self.0 {
            DecoderKind::Dummy(c) => c.set_frame_size(bits),
            DecoderKind::Repetition(c) => c.set_frame_size(bits),
            DecoderKind::Cc(c) => c.set_frame_size(bits),
            DecoderKind::Ldpc(c) => return c.set_frame_size(bits),
            DecoderKind::Polar(_) => false,
            DecoderKind::Tpc(_) => false,
        })
    }

    /// Decodes one frame of soft floats (a [`SoftInput::Uchar`] decoder
    /// reads them as [`uchar_rounded`] makes them).
    ///
    /// # Panics
    /// If `input` holds fewer than `input_size() + history()` values or
    /// `output` room for fewer than [`output_size`](Self::output_size).
    pub fn decode_float(&mut self, input: &[f32], output: &mut [u8]) {
        match &mut self.0 {
            DecoderKind::Dummy(c) => c.decode(input, output),
            DecoderKind::Repetition(c) => c.decode(input, output),
            DecoderKind::Polar(c) => c.decode(input, output),
            DecoderKind::Tpc(c) => c.decode(input, output),
            DecoderKind::Cc(c) => c.decode_float(input, output),
            DecoderKind::Ldpc(c) => c.decode(input, output),
        }
    }

    /// Decodes one frame of soft bytes (a [`SoftInput::Float`] decoder
    /// reads byte `b` as the float `b`).
    ///
    /// # Panics
    /// As [`decode_float`](Self::decode_float).
    pub fn decode_uchar(&mut self, input: &[u8], output: &mut [u8]) {
        match &mut self.0 {
            DecoderKind::Cc(c) => c.decode(input, output),
            _ => {
                let n = self.input_size();
                let floats: Vec<f32> = input[..n].iter().map(|&b| b as f32).collect();
                self.decode_float(&floats, output);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The soft bytes are GNU Radio's rounding (`float_to_uchar` of
    /// `48·x + 128`), value for value: every half step (the ties), the
    /// range's ends, NaN and infinities.
    #[test]
    fn soft_bytes_are_uchar_rounded() {
        let mut xs: Vec<f32> = (-3000..3000).map(|i| i as f32 / 96.0).collect();
        xs.extend((0..20000).map(|i| (i as f32 * 0.618_034).sin() * 3.0));
        xs.extend([
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            0.0,
            -0.0,
        ]);
        let want: Vec<u8> = xs
            .iter()
            .map(|&x| crate::convert::round::to_u8(x * 48.0 + 128.0))
            .collect();
        assert_eq!(soft_bytes(&xs), want);
    }

    /// A polar code keeps its frame: a shorter packet (a tagged packet)
    /// is coded as if zeros followed it, never read past its end.
    #[test]
    fn a_short_frame_is_coded_as_if_zeros_followed() {
        let p = FecCodeParams {
            code: FecCode::Polar,
            polar: super::super::polar::PolarParams {
                block_size: 32,
                num_info_bits: 16,
                frozen_bit_positions: (0..16).collect(),
                frozen_bit_values: vec![0; 16],
                ..Default::default()
            },
            ..Default::default()
        };
        let mut e = Encoder::new(&p, "test").unwrap();
        assert_eq!(e.input_size(), 16);
        let mut short = vec![0; e.output_size()];
        e.encode(&[1, 0, 1, 1, 0, 1], &mut short);
        let mut whole = vec![0; e.output_size()];
        let mut padded = vec![1, 0, 1, 1, 0, 1];
        padded.resize(16, 0);
        e.encode(&padded, &mut whole);
        assert_eq!(short, whole);
        assert!(short.iter().any(|&b| b != 0));
    }

    #[test]
    fn soft_bytes_round_or_truncate() {
        assert_eq!(uchar_rounded(1.0), 176);
        assert_eq!(uchar_rounded(-1.0), 80);
        assert_eq!(uchar_rounded(3.0), 255);
        assert_eq!(uchar_rounded(-3.0), 0);
        assert_eq!(uchar_truncated(0.01), 128);
        assert_eq!(uchar_truncated(-0.01), 127);
        assert_eq!(uchar_truncated(-3.0), (-16i32) as u8);
        assert_eq!(uchar_truncated(f32::NAN), 0);
    }
}
