//! The convolutional encoder and puncturing (IEEE 802.11-2016 17.3.5.6):
//! the K = 7 code with generators g0 = 133 and g1 = 171 (octal), output
//! A (g0) then B (g1) per input bit, punctured to rates 2/3 and 3/4.
//!
//! Generator convention: the octal's most significant of 7 bits taps
//! the current input, the least significant the input 6 bits earlier.
//! [`puncture_pattern`] is the single statement of which mother-code
//! bits are sent; the decoder's depuncturer reads it too.

use crate::rate::CodeRate;

/// Constraint length.
pub const K: usize = 7;
/// Generator of output A (133 octal).
pub const G0: u8 = 0o133;
/// Generator of output B (171 octal).
pub const G1: u8 = 0o171;

/// The two output bits (A, B) for `input` entering a register whose
/// previous six inputs are `state` (the latest in bit 5, the oldest in
/// bit 0). The next state is `(input << 5) | (state >> 1)`.
#[inline]
pub const fn outputs(state: u8, input: u8) -> (u8, u8) {
    // Window: bit 6 = current input … bit 0 = six inputs ago.
    let w = ((input & 1) << 6) | (state & 0x3f);
    (
        ((w & G0).count_ones() & 1) as u8,
        ((w & G1).count_ones() & 1) as u8,
    )
}

/// The state after `input` (see [`outputs`]).
#[inline]
pub const fn next_state(state: u8, input: u8) -> u8 {
    ((input & 1) << 5) | ((state & 0x3f) >> 1)
}

/// Encodes `input` (one 0/1 bit per item) at rate 1/2 from the zero
/// state: `out[2i]` = A, `out[2i+1]` = B. `out` holds 2 × input bits.
pub fn encode(input: &[u8], out: &mut [u8]) {
    let out = &mut out[..2 * input.len()];
    let mut state = 0u8;
    for (&b, ab) in input.iter().zip(out.chunks_exact_mut(2)) {
        let (a, bb) = outputs(state, b);
        ab[0] = a;
        ab[1] = bb;
        state = next_state(state, b);
    }
}

/// Which bits of a period of the mother code's output (A1 B1 A2 B2 …)
/// are sent, 1 = kept: 1/2 keeps all; 2/3 drops B2; 3/4 drops B2 and
/// A3 (Figure 17-9).
pub const fn puncture_pattern(rate: CodeRate) -> &'static [u8] {
    match rate {
        CodeRate::Half => &[1, 1],
        CodeRate::TwoThirds => &[1, 1, 1, 0],
        CodeRate::ThreeQuarters => &[1, 1, 1, 0, 0, 1],
    }
}

/// Appends the kept bits of `coded` (rate-1/2 output, starting at a
/// pattern period's start) to `out`.
pub fn puncture(coded: &[u8], rate: CodeRate, out: &mut Vec<u8>) {
    let pattern = puncture_pattern(rate);
    out.extend(
        coded
            .iter()
            .zip(pattern.iter().cycle())
            .filter(|&(_, &keep)| keep == 1)
            .map(|(&b, _)| b),
    );
}

/// Encodes and punctures `input` into `out` (cleared first).
pub fn encode_punctured(input: &[u8], rate: CodeRate, out: &mut Vec<u8>) {
    let mut coded = vec![0u8; 2 * input.len()];
    encode(input, &mut coded);
    out.clear();
    puncture(&coded, rate, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;
    use crate::rate::Rate;

    /// Direct polynomial evaluation: A_n = Σ g0[i] u[n-i] mod 2.
    fn reference(input: &[u8], g: u8) -> Vec<u8> {
        (0..input.len())
            .map(|n| {
                (0..K).fold(0u8, |acc, i| {
                    let tap = (g >> (K - 1 - i)) & 1;
                    let u = if n >= i { input[n - i] } else { 0 };
                    acc ^ (tap & u)
                })
            })
            .collect()
    }

    #[test]
    fn annex_i_signal_field_encodes_to_table() {
        // G.7 → G.8 at rate 1/2.
        let bits = annex_i::bits(&annex_i::SIGNAL_BITS);
        let mut coded = vec![0u8; 48];
        encode(&bits, &mut coded);
        assert_eq!(coded, annex_i::bits(&annex_i::SIGNAL_CODED));
    }

    #[test]
    fn annex_i_first_data_symbol_at_3_4() {
        // G.16 (first 144 scrambled bits) → G.18 (192 coded bits).
        let bits = annex_i::bits(&annex_i::SCRAMBLED_FIRST_144);
        let mut out = Vec::new();
        encode_punctured(&bits, Rate::Qam16_34.code_rate(), &mut out);
        assert_eq!(out.len(), 192);
        assert_eq!(out, annex_i::bits(&annex_i::CODED_FIRST_SYMBOL));
    }

    #[test]
    fn encoder_matches_the_polynomials_and_punctures_to_rate() {
        let mut x = 0x1234_5678u32;
        let input: Vec<u8> = (0..600)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x & 1) as u8
            })
            .collect();
        let mut coded = vec![0u8; 1200];
        encode(&input, &mut coded);
        let a: Vec<u8> = coded.iter().step_by(2).copied().collect();
        let b: Vec<u8> = coded.iter().skip(1).step_by(2).copied().collect();
        assert_eq!(a, reference(&input, G0));
        assert_eq!(b, reference(&input, G1));
        for (rate, n) in [
            (CodeRate::Half, 1200),
            (CodeRate::TwoThirds, 900),
            (CodeRate::ThreeQuarters, 800),
        ] {
            let mut out = Vec::new();
            encode_punctured(&input, rate, &mut out);
            assert_eq!(out.len(), n, "{rate:?}");
        }
        // 3/4 keeps A1 B1 A2 B3 of each A1 B1 A2 B2 A3 B3.
        let mut out = Vec::new();
        puncture(&coded[..6], CodeRate::ThreeQuarters, &mut out);
        assert_eq!(out, [coded[0], coded[1], coded[2], coded[5]]);
    }
}
