//! The block interleaver (IEEE 802.11-2016 17.3.5.7): within one OFDM
//! symbol, the first permutation spreads adjacent coded bits onto
//! non-adjacent subcarriers, the second alternates them between more
//! and less significant constellation bits.
//!
//! Built once per rate (or for the SIGNAL field: BPSK, 48 bits) as a
//! permutation table; `interleave` and `deinterleave` each move one
//! symbol's bits through it.

use crate::rate::{DATA_CARRIERS, Rate};

/// Most coded bits in one symbol (64-QAM: 48 × 6).
pub const MAX_CBPS: usize = DATA_CARRIERS * 6;

/// The permutation for one N_CBPS / N_BPSC.
#[derive(Clone, Debug)]
pub struct Interleaver {
    /// `to[k]`: where input bit k goes (index j of 17.3.5.7).
    to: [u16; MAX_CBPS],
    cbps: usize,
}

impl Interleaver {
    /// For `bits_per_carrier` (N_BPSC: 1, 2, 4 or 6).
    pub fn new(bits_per_carrier: usize) -> Self {
        assert!(
            matches!(bits_per_carrier, 1 | 2 | 4 | 6),
            "N_BPSC {bits_per_carrier}"
        );
        let cbps = DATA_CARRIERS * bits_per_carrier;
        let s = (bits_per_carrier / 2).max(1);
        let mut to = [0u16; MAX_CBPS];
        for (k, t) in to.iter_mut().enumerate().take(cbps) {
            let i = (cbps / 16) * (k % 16) + k / 16;
            let j = s * (i / s) + (i + cbps - (16 * i / cbps)) % s;
            *t = j as u16;
        }
        Self { to, cbps }
    }

    /// For the data symbols of `rate`.
    pub fn for_rate(rate: Rate) -> Self {
        Self::new(rate.bits_per_carrier())
    }

    /// For the SIGNAL symbol (BPSK, 48 coded bits).
    pub fn signal() -> Self {
        Self::new(1)
    }

    /// Coded bits per symbol (N_CBPS) this interleaver permutes.
    pub fn len(&self) -> usize {
        self.cbps
    }

    /// Never empty; for clippy's `len` convention.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Where input bit `k` of a symbol goes.
    pub fn position(&self, k: usize) -> usize {
        self.to[k] as usize
    }

    /// Permutes one symbol: `out[j(k)] = input[k]`. Both slices hold
    /// at least N_CBPS items.
    pub fn interleave(&self, input: &[u8], out: &mut [u8]) {
        let (input, out) = (&input[..self.cbps], &mut out[..self.cbps]);
        for (&t, &b) in self.to[..self.cbps].iter().zip(input) {
            out[t as usize] = b;
        }
    }

    /// Undoes [`interleave`](Self::interleave) on one symbol of any
    /// item (hard bits, f32 or i8 soft bits): `out[k] = input[j(k)]`.
    pub fn deinterleave<T: Copy>(&self, input: &[T], out: &mut [T]) {
        let (input, out) = (&input[..self.cbps], &mut out[..self.cbps]);
        for (o, &t) in out.iter_mut().zip(&self.to[..self.cbps]) {
            *o = input[t as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;

    #[test]
    fn annex_i_signal_and_first_data_symbol() {
        // G.8 → G.9: the SIGNAL field's coded bits, interleaved as BPSK.
        let il = Interleaver::signal();
        let mut out = [0u8; 48];
        il.interleave(&annex_i::bits(&annex_i::SIGNAL_CODED), &mut out);
        assert_eq!(out.to_vec(), annex_i::bits(&annex_i::SIGNAL_INTERLEAVED));
        // G.18 → G.21: the first data symbol at 16-QAM.
        let il = Interleaver::for_rate(Rate::Qam16_34);
        assert_eq!(il.len(), 192);
        let mut out = [0u8; 192];
        il.interleave(&annex_i::bits(&annex_i::CODED_FIRST_SYMBOL), &mut out);
        assert_eq!(
            out.to_vec(),
            annex_i::bits(&annex_i::INTERLEAVED_FIRST_SYMBOL)
        );
        // And back, as soft values.
        let soft: Vec<f32> = out.iter().map(|&b| b as f32 * 2.0 - 1.0).collect();
        let mut back = [0f32; 192];
        il.deinterleave(&soft, &mut back);
        let hard: Vec<u8> = back.iter().map(|&v| (v > 0.0) as u8).collect();
        assert_eq!(hard, annex_i::bits(&annex_i::CODED_FIRST_SYMBOL));
    }

    #[test]
    fn every_rate_is_a_permutation_and_inverts() {
        for bpsc in [1, 2, 4, 6] {
            let il = Interleaver::new(bpsc);
            let n = il.len();
            let mut seen = vec![false; n];
            for k in 0..n {
                assert!(!seen[il.position(k)], "N_BPSC {bpsc}: {k} collides");
                seen[il.position(k)] = true;
            }
            let input: Vec<i8> = (0..n).map(|k| (k % 251) as i8).collect();
            let mut mixed = vec![0i8; n];
            // Interleave generic values through positions; deinterleave back.
            for k in 0..n {
                mixed[il.position(k)] = input[k];
            }
            let mut back = vec![0i8; n];
            il.deinterleave(&mixed, &mut back);
            assert_eq!(back, input);
        }
        // 17.3.5.7 by hand for BPSK: k = 1 → i = 3 (N_CBPS/16 = 3), s = 1.
        assert_eq!(Interleaver::new(1).position(1), 3);
        assert_eq!(Interleaver::new(1).position(16), 1);
    }
}
