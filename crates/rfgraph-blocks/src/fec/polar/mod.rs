//! Polar codes as GNU Radio 3.10's `gr-fec` has them: the configurator's
//! channel construction ([`frozen_bit_positions`]), the encoders
//! (`polar_encoder`, packed or not, and `polar_encoder_systematic`) and
//! the decoders (`polar_decoder_sc`, `polar_decoder_sc_list`,
//! `polar_decoder_sc_systematic`), value for value: the same soft input
//! decodes to GNU Radio's bits. The codes' settings are [`PolarParams`];
//! [`Encoder`](crate::fec::Encoder) and [`Decoder`](crate::fec::Decoder)
//! run them through [`PolarEncoder`] and [`PolarDecoder`].

mod code;
mod construction;
mod encoder;
mod graph;
mod list;
mod params;
mod sc;
mod sort;

pub use construction::{MIN_DESIGN_SNR, bec_eta, bhattacharyya_bounds, frozen_bit_positions};
pub use params::{MAX_LIST_CELLS, PolarParams};

use rfgraph::ParamError;

/// Largest polar block size.
pub const MAX_BLOCK_SIZE: usize = 1 << 16;

/// Which polar coder: GNU Radio's plain, list or systematic one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// `polar_encoder` / `polar_decoder_sc`.
    Plain,
    /// `polar_encoder` / `polar_decoder_sc_list`.
    List,
    /// `polar_encoder_systematic` / `polar_decoder_sc_systematic`.
    Systematic,
}

/// A polar encoder of [`PolarParams`].
#[derive(Clone, Debug)]
pub struct PolarEncoder(encoder::PolarEncoder);

impl PolarEncoder {
    pub(crate) fn new(p: &PolarParams, v: Variant, block: &str) -> Result<Self, ParamError> {
        let systematic = v == Variant::Systematic;
        let code = p.code(block, systematic)?;
        let packed = p.is_packed && !systematic;
        if packed {
            p.check_packed(block)?;
        }
        Ok(Self(encoder::PolarEncoder::new(code, packed, systematic)))
    }

    /// Input items per block: `K` bits, or `K / 8` packed bytes.
    pub fn input_size(&self) -> usize {
        self.0.input_size()
    }

    /// Coded bits per block (`N`).
    pub fn output_size(&self) -> usize {
        self.0.output_size()
    }

    /// True when the input is packed bytes.
    pub fn packed_input(&self) -> bool {
        self.0.packed()
    }

    /// Coded bits per bit, `N / K`.
    pub fn expansion(&self) -> f64 {
        self.0.rate()
    }

    /// Encodes one block.
    pub fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        self.0.encode(input, output)
    }
}

#[derive(Clone, Debug)]
enum DecoderKind {
    Sc(sc::ScDecoder),
    List(list::ListDecoder),
}

/// A polar decoder of [`PolarParams`]: `N` soft values (positive for a
/// 1) into `K` bits.
#[derive(Clone, Debug)]
pub struct PolarDecoder {
    kind: DecoderKind,
    n: usize,
    k: usize,
}

impl PolarDecoder {
    pub(crate) fn new(p: &PolarParams, v: Variant, block: &str) -> Result<Self, ParamError> {
        let code = p.code(block, v == Variant::Systematic)?;
        let (n, k) = (code.n, code.k());
        let kind = match v {
            Variant::Plain => DecoderKind::Sc(sc::ScDecoder::new(code, false)),
            Variant::Systematic => DecoderKind::Sc(sc::ScDecoder::new(code, true)),
            Variant::List => {
                p.check_list(block)?;
                DecoderKind::List(list::ListDecoder::new(code, p.max_list_size))
            }
        };
        Ok(Self { kind, n, k })
    }

    /// Soft values per block (`N`).
    pub fn input_size(&self) -> usize {
        self.n
    }

    /// Bits per block (`K`).
    pub fn output_size(&self) -> usize {
        self.k
    }

    /// Decodes one block.
    ///
    /// # Panics
    /// If `input` holds fewer than `N` values or `output` room for fewer
    /// than `K` bits.
    pub fn decode(&mut self, input: &[f32], output: &mut [u8]) {
        let out = &mut output[..self.k];
        match &mut self.kind {
            DecoderKind::Sc(d) => d.decode(&input[..self.n], out),
            DecoderKind::List(d) => d.decode(&input[..self.n], out),
        }
    }
}
