//! The OFDM transmitter (IEEE 802.11-2016 17.3.5, the PPDU encoding
//! procedure of 17.3.5.1 and Annex I): MPDU → PSDU with FCS → SERVICE,
//! PSDU, tail and pad bits → scrambled (tail re-zeroed) → encoded and
//! punctured → interleaved and mapped per symbol → OFDM symbols with
//! pilots, behind the preamble and the SIGNAL symbol (BPSK 1/2, not
//! scrambled, pilot polarity p_0).
//!
//! Output is 20 MS/s complex baseband with mean power 1 over the frame,
//! without the standard's optional time windowing: 320 + 80 + 80 × N_SYM
//! samples.

use crate::burst::Signal;
use crate::convolutional;
use crate::fcs;
use crate::interleaver::Interleaver;
use crate::mapping::Mapper;
use crate::ofdm::{OfdmModulator, SYMBOL_LEN};
use crate::preamble::{self, PREAMBLE_LEN};
use crate::rate::{CodeRate, DATA_CARRIERS, Modulation, Rate};
use crate::signal::signal_bits;
use num_complex::Complex32;

/// SERVICE field bits (all zero before scrambling).
pub const SERVICE_BITS: usize = 16;
/// Tail bits after the PSDU.
pub const TAIL_BITS: usize = 6;

/// Samples of a frame carrying a `psdu_len`-byte PSDU at `rate`.
pub fn frame_len(psdu_len: usize, rate: Rate) -> usize {
    PREAMBLE_LEN + SYMBOL_LEN * (1 + rate.data_symbols(psdu_len))
}

/// The DATA field's bits after scrambling, before coding: SERVICE, the
/// PSDU (bytes LSB first), six tail bits (re-zeroed after scrambling)
/// and pad, N_SYM × N_DBPS bits in all.
pub fn scrambled_data_bits(psdu: &[u8], rate: Rate, seed: u8) -> Vec<u8> {
    let n = rate.data_symbols(psdu.len()) * rate.data_bits_per_symbol();
    let mut bits = vec![0u8; n];
    for (i, &byte) in psdu.iter().enumerate() {
        for k in 0..8 {
            bits[SERVICE_BITS + 8 * i + k] = (byte >> k) & 1;
        }
    }
    crate::scrambler::Scrambler::new(seed).scramble_bits(&mut bits);
    let tail = SERVICE_BITS + 8 * psdu.len();
    bits[tail..tail + TAIL_BITS].fill(0);
    bits
}

/// The DATA field's coded bits (encoded and punctured, before
/// interleaving): N_SYM × N_CBPS bits, for decoder tests.
pub fn coded_data_bits(psdu: &[u8], rate: Rate, seed: u8) -> Vec<u8> {
    let mut out = Vec::new();
    convolutional::encode_punctured(
        &scrambled_data_bits(psdu, rate, seed),
        rate.code_rate(),
        &mut out,
    );
    out
}

/// Builds frames; keeps its FFT plan and buffers between frames.
pub struct Transmitter {
    modulator: OfdmModulator,
    coded: Vec<u8>,
    interleaved: Vec<u8>,
}

impl Default for Transmitter {
    fn default() -> Self {
        Self::new()
    }
}

impl Transmitter {
    pub fn new() -> Self {
        Self {
            modulator: OfdmModulator::new(),
            coded: Vec::new(),
            interleaved: vec![0; crate::interleaver::MAX_CBPS],
        }
    }

    /// The frame for `mpdu` (its FCS is appended here) at `rate`, with
    /// scrambler seed `seed` (1…127).
    pub fn frame(&mut self, mpdu: &[u8], rate: Rate, seed: u8) -> Vec<Complex32> {
        let mut psdu = Vec::with_capacity(mpdu.len() + 4);
        psdu.extend_from_slice(mpdu);
        fcs::append(&mut psdu);
        self.frame_psdu(&psdu, rate, seed)
    }

    /// The frame for a PSDU that already ends with its FCS.
    pub fn frame_psdu(&mut self, psdu: &[u8], rate: Rate, seed: u8) -> Vec<Complex32> {
        let mut out = Vec::with_capacity(frame_len(psdu.len(), rate));
        self.frame_psdu_into(psdu, rate, seed, &mut out);
        out
    }

    /// Appends the frame for `psdu` (FCS included) to `out`.
    pub fn frame_psdu_into(&mut self, psdu: &[u8], rate: Rate, seed: u8, out: &mut Vec<Complex32>) {
        assert!(
            (1..=crate::signal::MAX_LENGTH).contains(&psdu.len()),
            "PSDU length {} outside 1…4095",
            psdu.len()
        );
        preamble::extend_preamble(out);
        // SIGNAL: BPSK 1/2, symbol index 0.
        let sig = signal_bits(Signal {
            rate,
            length: psdu.len(),
        });
        self.symbols(&sig, CodeRate::Half, Modulation::Bpsk, 0, out);
        let bits = scrambled_data_bits(psdu, rate, seed);
        self.symbols(&bits, rate.code_rate(), rate.modulation(), 1, out);
    }

    /// Encodes, punctures, interleaves, maps and modulates `bits` (whole
    /// symbols' worth) as symbols numbered from `first_index`.
    fn symbols(
        &mut self,
        bits: &[u8],
        code: CodeRate,
        m: Modulation,
        first_index: usize,
        out: &mut Vec<Complex32>,
    ) {
        convolutional::encode_punctured(bits, code, &mut self.coded);
        let il = Interleaver::new(m.bits());
        let mapper = Mapper::new(m);
        let cbps = il.len();
        let mut points = [Complex32::default(); DATA_CARRIERS];
        let mut sym = [Complex32::default(); SYMBOL_LEN];
        for (s, chunk) in self.coded.chunks_exact(cbps).enumerate() {
            il.interleave(chunk, &mut self.interleaved);
            mapper.map(&self.interleaved[..cbps], &mut points);
            self.modulator.symbol(&points, first_index + s, &mut sym);
            out.extend_from_slice(&sym);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;

    #[test]
    fn annex_i_frame_bits_and_samples() {
        let rate = Rate::Qam16_34;
        // G.16/G.17: first and last 144 scrambled DATA bits.
        let bits = scrambled_data_bits(&annex_i::PSDU, rate, annex_i::SEED);
        assert_eq!(bits.len(), 6 * 144);
        assert_eq!(
            bits[..144].to_vec(),
            annex_i::bits(&annex_i::SCRAMBLED_FIRST_144)
        );
        assert_eq!(
            bits[720..].to_vec(),
            annex_i::bits(&annex_i::SCRAMBLED_LAST_144)
        );
        // G.24: the whole packet; compare the unwindowed samples.
        let f = Transmitter::new().frame_psdu(&annex_i::PSDU, rate, annex_i::SEED);
        assert_eq!(f.len(), 320 + 80 + 6 * 80);
        annex_i::assert_close(&f[16..32], &annex_i::samples(&annex_i::STF_PERIOD), "STF");
        annex_i::assert_close(&f[192..256], &annex_i::samples(&annex_i::LTF_SYMBOL), "LTF");
        // G.12: SIGNAL samples 1…79 (0 and 80 are the annex's window).
        annex_i::assert_close(
            &f[321..400],
            &annex_i::samples(&annex_i::SIGNAL_TIME[1..80]),
            "SIGNAL",
        );
        // First DATA symbol: its FFT part, and its cyclic prefix.
        let body = annex_i::samples(&annex_i::FIRST_SYMBOL_TIME);
        annex_i::assert_close(&f[416..480], &body, "DATA 1");
        annex_i::assert_close(&f[400..416], &body[48..], "DATA 1 prefix");
    }

    #[test]
    fn every_rate_has_the_right_length_and_unit_power() {
        let mut tx = Transmitter::new();
        let mpdu: Vec<u8> = (0..200u32).map(|i| (i * 37 + 11) as u8).collect();
        for rate in Rate::ALL {
            let f = tx.frame(&mpdu, rate, 0x5d);
            let n_sym = rate.data_symbols(204);
            assert_eq!(f.len(), 320 + 80 + 80 * n_sym, "{rate}");
            assert_eq!(f.len(), frame_len(204, rate));
            let p = f.iter().map(|c| c.norm_sqr()).sum::<f32>() / f.len() as f32;
            assert!((p - 1.0).abs() < 0.1, "{rate}: power {p}");
        }
    }
}
