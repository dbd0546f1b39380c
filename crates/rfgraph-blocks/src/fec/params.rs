//! [`FecCodeParams`]: the code of a FEC block, declared once and
//! flattened into every FEC block's parameters. It stands for GNU Radio's
//! coder objects, the GRC variables `variable_dummy_encoder_def`,
//! `variable_repetition_encoder_def`, `variable_cc_encoder_def`,
//! `variable_ccsds_encoder_def` and their decoder twins; its fields carry
//! those variables' parameter names as aliases. This module also owns the
//! rules the values must meet for an encoder or a decoder of each code.

use rfgraph::{ParamChoice, ParamError, ParamSet};

/// Most bits of one frame (`frame_size`) and of a block's `mtu · 8`: the
/// Viterbi decoder keeps 8 bytes of decisions per bit of a frame (2 MB
/// at this size).
pub const MAX_FRAME_BITS: usize = 1 << 18;

/// Most coded symbols of one frame (`frame_size · rep`, `frame_size ·
/// rate`).
pub const MAX_CODED_BITS: usize = 1 << 22;

/// Which code a FEC block runs (GNU Radio's coder object).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ParamChoice)]
pub enum FecCode {
    /// No coding: bits pass unchanged, soft values are sliced at zero
    /// (`fec.dummy_encoder_make`, `fec.dummy_decoder.make`).
    #[choice(alias = "dummy_encoder", alias = "dummy_decoder")]
    Dummy,
    /// Every bit repeated `rep` times; the decoder takes the majority
    /// against the a-priori probability `prob`
    /// (`fec.repetition_encoder_make`, `fec.repetition_decoder.make`).
    #[choice(alias = "repetition_encoder", alias = "repetition_decoder")]
    Repetition,
    /// A convolutional code of constraint length `k`, `rate` polynomials
    /// `polys` (`fec.cc_encoder_make`, `fec.cc_decoder.make`; the decoder
    /// is GNU Radio's Viterbi for K = 7, rate 1/2).
    #[choice(alias = "cc_encoder", alias = "cc_decoder")]
    Cc,
    /// The CCSDS K = 7, rate 1/2 encoder (polynomials 0x6d, 0x4f) on
    /// packed bytes (`fec.ccsds_encoder_make`); decode it with `cc`,
    /// polys `[109, 79]`.
    #[choice(alias = "ccsds_encoder")]
    Ccsds,
    /// LDPC of an alist parity check matrix `file`, decoded by belief
    /// propagation for noise `sigma` in up to `max_iter` iterations
    /// (`fec.ldpc_encoder_make`, `fec.ldpc_decoder.make`).
    #[choice(alias = "ldpc_encoder", alias = "ldpc_decoder")]
    Ldpc,
    /// LDPC of a parity check matrix `file` of gap `gap`, encoded by
    /// Richardson and Urbanke's method, decoded by bit flipping in up to
    /// `max_iter` rounds (`fec.ldpc_H_matrix`,
    /// `fec.ldpc_par_mtrx_encoder_make_H`, `fec.ldpc_bit_flip_decoder`).
    #[choice(alias = "ldpc_par_mtrx_encoder", alias = "ldpc_H_matrix")]
    LdpcH,
    /// LDPC of a systematic generator matrix `file`, `G = [I P]`,
    /// decoded by bit flipping (`fec.ldpc_G_matrix`,
    /// `fec.ldpc_gen_mtrx_encoder_make`, `fec.ldpc_bit_flip_decoder`).
    #[choice(alias = "ldpc_gen_mtrx_encoder", alias = "ldpc_G_matrix")]
    LdpcG,
    /// A polar code of [`PolarParams`](super::polar::PolarParams), the
    /// successive cancellation decoder (`fec.polar_encoder.make`,
    /// `fec.polar_decoder_sc.make`).
    #[choice(alias = "polar_encoder", alias = "polar_decoder_sc")]
    Polar,
    /// A polar code decoded by the successive cancellation list decoder
    /// of `max_list_size` paths (`fec.polar_decoder_sc_list.make`;
    /// encodes as `polar`).
    #[choice(alias = "polar_decoder_sc_list")]
    PolarList,
    /// The systematic polar code, frozen bits 0
    /// (`fec.polar_encoder_systematic.make`,
    /// `fec.polar_decoder_sc_systematic.make`).
    #[choice(
        alias = "polar_encoder_systematic",
        alias = "polar_decoder_sc_systematic"
    )]
    PolarSystematic,
    /// A turbo product code of [`TpcParams`](super::tpc::TpcParams),
    /// decoded in up to `max_iter` turbo iterations
    /// (`fec.tpc_encoder_make`, `fec.tpc_decoder.make`).
    #[choice(alias = "tpc_encoder", alias = "tpc_decoder")]
    Tpc,
}

/// How a convolutional code treats frame edges: GNU Radio's `cc_mode_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ParamChoice)]
pub enum CcMode {
    /// The encoder state carries from frame to frame; the decoder reads
    /// `rate · (k − 1)` symbols of the next frame (`fec.CC_STREAMING`).
    #[choice(alias = "fec.cc_streaming", alias = "cc_streaming")]
    Streaming,
    /// Each frame starts in `state_start` and is flushed back to it with
    /// `k − 1` tail bits (`fec.CC_TERMINATED`).
    #[choice(alias = "fec.cc_terminated", alias = "cc_terminated")]
    Terminated,
    /// Each frame starts in the state its own last `k − 1` bits leave
    /// (`fec.CC_TAILBITING`).
    #[choice(alias = "fec.cc_tailbiting", alias = "cc_tailbiting")]
    Tailbiting,
    /// Each frame starts in `state_start`, without a tail
    /// (`fec.CC_TRUNCATED`).
    #[choice(alias = "fec.cc_truncated", alias = "cc_truncated")]
    Truncated,
}

/// The code of a FEC block: GNU Radio's encoder or decoder definition
/// (`variable_*_encoder_def`, `variable_*_decoder_def`), flattened into
/// each FEC block's parameters. Each code reads the fields its GNU Radio
/// constructor takes and ignores the others: `dummy` reads `frame_size`;
/// `repetition` `frame_size`, `rep` (and `prob` to decode); `cc`
/// `frame_size`, `k`, `rate`, `polys`, `state_start`, `mode`, `padding`
/// (and `state_end` to decode); `ccsds` `frame_size`, `state_start`,
/// `mode`; the LDPC codes `file`, `sigma`, `max_iter`, `gap`
/// (`frame_size` unused: frames are one codeword, or as many whole
/// information words as a tagged or message block sets, as in GNU Radio);
/// `tpc` the fields of [`TpcParams`](super::tpc::TpcParams) and
/// `max_iter` to decode.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct FecCodeParams {
    /// the code
    #[param(default = FecCode::Dummy)]
    pub code: FecCode,
    /// bits per frame (GNU Radio's `framebits`; the most a tagged or
    /// message block's frames may have); a multiple of 8 for `ccsds`
    #[param(default = 2048, min = 1, max = MAX_FRAME_BITS, alias = "framebits")]
    pub frame_size: usize,
    /// repetitions of each bit (`repetition`)
    #[param(default = 3, min = 1, max = 1 << 16)]
    pub rep: usize,
    /// a-priori probability of a one: the repetition decoder decides 1
    /// when more than this fraction of a bit's copies are positive
    #[param(default = 0.5, min = 0.0, max = 1.0)]
    pub prob: f64,
    /// constraint length K (`cc`; the decoder supports 7)
    #[param(default = 7, min = 1, max = 16)]
    pub k: u32,
    /// inverse rate: coded bits per bit, one per polynomial (`cc`; the
    /// decoder supports 2)
    #[param(default = 2, min = 1, max = 16)]
    pub rate: u32,
    /// generator polynomials, one per coded bit of a step; a negative
    /// one inverts its bit (`cc`)
    #[param(default = vec![79, 109], max_len = 16)]
    pub polys: Vec<i64>,
    /// encoder start state (`cc`, `ccsds`)
    #[param(default = 0, min = i32::MIN as i64, max = i32::MAX as i64)]
    pub state_start: i64,
    /// decoder end state of a terminated frame, −1 for the likeliest
    /// (`cc`)
    #[param(default = -1, min = i32::MIN as i64, max = i32::MAX as i64)]
    pub state_end: i64,
    /// frame edges (`cc`, `ccsds`)
    #[param(default = CcMode::Streaming)]
    pub mode: CcMode,
    /// extends a terminated frame's coded bits to whole bytes (`cc`)
    #[param(default = false)]
    pub padding: bool,
    /// the LDPC codes' settings
    #[param(flatten)]
    pub ldpc: super::ldpc::LdpcParams,
    /// the polar code's settings (`polar`, `polar_list`,
    /// `polar_systematic`)
    #[param(flatten)]
    pub polar: super::polar::PolarParams,
    /// the turbo product code's settings (`tpc`)
    #[param(flatten)]
    pub tpc: super::tpc::TpcParams,
}

impl FecCodeParams {
    /// A `cc` code of `frame_size` bits in `mode`, with GNU Radio's
    /// defaults otherwise (K = 7, rate 1/2, polynomials `[79, 109]`).
    pub fn cc(frame_size: usize, mode: CcMode) -> Self {
        Self {
            code: FecCode::Cc,
            frame_size,
            mode,
            ..Default::default()
        }
    }

    /// The rules of an encoder of this code, as an error of `block`.
    pub fn check_encoder(&self, block: &str) -> Result<(), ParamError> {
        let err = |param: &str, reason: String| Err(ParamError::new(block, param, reason));
        match self.code {
            FecCode::Dummy => Ok(()),
            FecCode::Repetition => self.check_repetition(block),
            FecCode::Cc => self.check_cc(block),
            FecCode::Ccsds if !self.frame_size.is_multiple_of(8) => err(
                "frame_size",
                format!(
                    "must be a multiple of 8 for `ccsds` (it codes whole bytes), not {}",
                    self.frame_size
                ),
            ),
            FecCode::Ccsds => Ok(()),
            FecCode::Ldpc | FecCode::LdpcH | FecCode::LdpcG => Ok(()),
            FecCode::Polar | FecCode::PolarList | FecCode::PolarSystematic => {
                super::polar::PolarEncoder::new(&self.polar, self.polar_variant(), block).map(drop)
            }
            FecCode::Tpc => self.tpc.shape(block).map(drop),
        }
    }

    /// The rules of a decoder of this code, as an error of `block`.
    pub fn check_decoder(&self, block: &str) -> Result<(), ParamError> {
        let err = |param: &str, reason: String| Err(ParamError::new(block, param, reason));
        match self.code {
            FecCode::Dummy => Ok(()),
            FecCode::Repetition => self.check_repetition(block),
            FecCode::Cc => {
                self.check_cc(block)?;
                if self.k != 7 {
                    return err(
                        "k",
                        format!(
                            "must be 7: the Viterbi decoder is GNU Radio's K = 7, rate 1/2 one, not K = {}",
                            self.k
                        ),
                    );
                }
                if self.rate != 2 {
                    return err(
                        "rate",
                        format!(
                            "must be 2: the Viterbi decoder is GNU Radio's K = 7, rate 1/2 one, not rate 1/{}",
                            self.rate
                        ),
                    );
                }
                Ok(())
            }
            FecCode::Ldpc | FecCode::LdpcH | FecCode::LdpcG => Ok(()),
            FecCode::Ccsds => err(
                "code",
                "`ccsds` has no decoder (GNU Radio has none either): decode with `cc`, polys [109, 79]"
                    .into(),
            ),
            FecCode::Polar | FecCode::PolarList | FecCode::PolarSystematic => {
                super::polar::PolarDecoder::new(&self.polar, self.polar_variant(), block).map(drop)
            }
            FecCode::Tpc => self.tpc.shape(block).map(drop),
        }
    }

    /// Which polar coder `code` names.
    pub(crate) fn polar_variant(&self) -> super::polar::Variant {
        match self.code {
            FecCode::PolarList => super::polar::Variant::List,
            FecCode::PolarSystematic => super::polar::Variant::Systematic,
            _ => super::polar::Variant::Plain,
        }
    }

    /// Coded bits per bit of this code (at most).
    fn expansion(&self) -> usize {
        match self.code {
            FecCode::Dummy => 1,
            FecCode::Repetition => self.rep,
            FecCode::Cc => self.rate as usize,
            FecCode::Ccsds => 2,
            // GNU Radio's LDPC files code at rates down to 1/4.
            FecCode::Ldpc | FecCode::LdpcH | FecCode::LdpcG => 4,
            FecCode::Polar | FecCode::PolarList | FecCode::PolarSystematic => self
                .polar
                .block_size
                .div_ceil(self.polar.num_info_bits.max(1)),
            FecCode::Tpc => self
                .tpc
                .shape("")
                .map_or(1, |s| s.coded_bits().div_ceil(s.info_bits().max(1))),
        }
    }

    /// The rule of a block whose packets or PDUs hold up to `mtu` bytes
    /// of bits: their coded bits, which the block holds at once, stay
    /// within [`MAX_CODED_BITS`].
    pub fn check_mtu(&self, block: &str, mtu: usize) -> Result<(), ParamError> {
        let coded = mtu.saturating_mul(8).saturating_mul(self.expansion());
        if coded > MAX_CODED_BITS {
            return Err(ParamError::new(
                block,
                "mtu",
                format!(
                    "{mtu} bytes coded at {} bits a bit exceed {MAX_CODED_BITS} coded bits",
                    self.expansion()
                ),
            ));
        }
        Ok(())
    }

    fn check_repetition(&self, block: &str) -> Result<(), ParamError> {
        if self.frame_size.saturating_mul(self.rep) > MAX_CODED_BITS {
            return Err(ParamError::new(
                block,
                "rep",
                format!(
                    "{} bits repeated {} times exceed {MAX_CODED_BITS} coded bits a frame",
                    self.frame_size, self.rep
                ),
            ));
        }
        Ok(())
    }

    fn check_cc(&self, block: &str) -> Result<(), ParamError> {
        let err = |param: &str, reason: String| Err(ParamError::new(block, param, reason));
        if self.polys.len() != self.rate as usize {
            return err(
                "polys",
                format!(
                    "must hold `rate` = {} polynomials, not {}",
                    self.rate,
                    self.polys.len()
                ),
            );
        }
        if let Some(p) = self
            .polys
            .iter()
            .find(|p| i32::try_from(p.unsigned_abs()).is_err())
        {
            return err("polys", format!("{p} does not fit 31 bits"));
        }
        let coded = (self.frame_size + self.k as usize) * self.rate as usize;
        if coded > MAX_CODED_BITS {
            return err(
                "frame_size",
                format!("{coded} coded bits a frame exceed {MAX_CODED_BITS}"),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_check_what_gnu_radio_refuses() {
        let cc = FecCodeParams::cc(100, CcMode::Terminated);
        assert!(cc.check_encoder("b").is_ok());
        assert!(cc.check_decoder("b").is_ok());
        let k5 = FecCodeParams {
            k: 5,
            polys: vec![19, 27],
            ..cc.clone()
        };
        assert!(k5.check_encoder("b").is_ok());
        assert_eq!(k5.check_decoder("b").unwrap_err().param, "k");
        let short = FecCodeParams {
            polys: vec![79],
            ..cc
        };
        assert_eq!(short.check_encoder("b").unwrap_err().param, "polys");
        let ccsds = FecCodeParams {
            code: FecCode::Ccsds,
            frame_size: 12,
            ..Default::default()
        };
        assert_eq!(ccsds.check_encoder("b").unwrap_err().param, "frame_size");
        assert_eq!(ccsds.check_decoder("b").unwrap_err().param, "code");
        assert_eq!(
            CcMode::from_choice("fec.CC_TAILBITING"),
            Some(CcMode::Tailbiting)
        );
    }
}
