//! [`PolarCode`]: a polar code as GNU Radio's `polar_common` checks and
//! keeps it (block size, information bits, frozen bit positions and
//! values, the information bit positions and their bit reversals), and
//! the polar transform GNU Radio's VOLK kernel
//! `volk_8u_x2_encodeframepolar_8u` computes.

use rfgraph::ParamError;

/// A checked polar code.
#[derive(Clone, Debug)]
pub(crate) struct PolarCode {
    /// `N`, a power of two.
    pub(crate) n: usize,
    /// `log2 N`.
    pub(crate) power: u32,
    /// Frozen bit positions, strictly increasing.
    pub(crate) frozen: Vec<usize>,
    /// Their values (bytes, as GNU Radio keeps them), one per position.
    pub(crate) values: Vec<u8>,
    /// True at frozen positions.
    pub(crate) is_frozen: Vec<bool>,
    /// Information bit positions, increasing.
    pub(crate) info: Vec<usize>,
    /// Their bit reversals.
    pub(crate) info_rev: Vec<usize>,
}

/// `value`'s `bits` low bits reversed (GNU Radio's `bit_reverse`).
pub(crate) fn bit_reverse(value: usize, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        value.reverse_bits() >> (usize::BITS - bits)
    }
}

impl PolarCode {
    /// The code GNU Radio's `polar_common` constructor accepts, or its
    /// refusal as an error of `block`: `block_size` a power of two,
    /// `block_size − num_info_bits` frozen positions, strictly
    /// increasing within the block, at least one; values bytes, missing
    /// ones 0.
    pub(crate) fn new(
        block: &str,
        block_size: usize,
        num_info_bits: usize,
        positions: &[i64],
        values: &[i64],
    ) -> Result<Self, ParamError> {
        let err = |param: &str, reason: String| Err(ParamError::new(block, param, reason));
        if !block_size.is_power_of_two() {
            return err(
                "block_size",
                format!("must be a power of 2, not {block_size}"),
            );
        }
        if num_info_bits >= block_size {
            return err(
                "num_info_bits",
                format!(
                    "must be less than the block size {block_size} (GNU Radio needs a frozen bit), not {num_info_bits}"
                ),
            );
        }
        let nfrozen = block_size - num_info_bits;
        if positions.len() != nfrozen {
            return err(
                "frozen_bit_positions",
                format!(
                    "must hold block_size − num_info_bits = {nfrozen} positions, not {}",
                    positions.len()
                ),
            );
        }
        let mut frozen = Vec::with_capacity(nfrozen);
        for (i, &p) in positions.iter().enumerate() {
            let ok = usize::try_from(p)
                .ok()
                .filter(|&q| q < block_size && frozen.last().is_none_or(|&l| q > l));
            match ok {
                Some(q) => frozen.push(q),
                None => {
                    return err(
                        "frozen_bit_positions",
                        format!(
                            "must increase strictly within [0, {block_size}): entry {i} is {p}"
                        ),
                    );
                }
            }
        }
        if values.len() > nfrozen {
            return err(
                "frozen_bit_values",
                format!(
                    "holds {} values for {nfrozen} frozen positions",
                    values.len()
                ),
            );
        }
        let mut vals = Vec::with_capacity(nfrozen);
        for &v in values {
            match u8::try_from(v) {
                Ok(b) => vals.push(b),
                Err(_) => return err("frozen_bit_values", format!("{v} is not a byte")),
            }
        }
        vals.resize(nfrozen, 0);
        let mut is_frozen = vec![false; block_size];
        for &p in &frozen {
            is_frozen[p] = true;
        }
        let power = block_size.trailing_zeros();
        let info: Vec<usize> = (0..block_size).filter(|&i| !is_frozen[i]).collect();
        let info_rev = info.iter().map(|&i| bit_reverse(i, power)).collect();
        Ok(Self {
            n: block_size,
            power,
            frozen,
            values: vals,
            is_frozen,
            info,
            info_rev,
        })
    }

    /// Information bits per block (`K`).
    pub(crate) fn k(&self) -> usize {
        self.info.len()
    }

    /// `u` with the frozen values at their positions and `info` elsewhere
    /// (VOLK's `interleave_frozen_and_info_bits`).
    pub(crate) fn insert(&self, info: &[u8], u: &mut [u8]) {
        let (mut f, mut j) = (0, 0);
        for (i, o) in u[..self.n].iter_mut().enumerate() {
            if self.is_frozen[i] {
                *o = self.values[f];
                f += 1;
            } else {
                *o = info[j];
                j += 1;
            }
        }
    }

    /// The polar transform in place: `x = bitrev(u) · F^⊗n`, bytes
    /// combined by XOR as GNU Radio combines them.
    pub(crate) fn transform(&self, buf: &mut [u8]) {
        let n = self.n;
        for i in 0..n {
            let r = bit_reverse(i, self.power);
            if r > i {
                buf.swap(i, r);
            }
        }
        butterflies(&mut buf[..n]);
    }
}

/// `x · F^⊗n` in place (`F = [[1, 0], [1, 1]]`).
pub(crate) fn butterflies(x: &mut [u8]) {
    let n = x.len();
    let mut h = 1;
    while h < n {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (a, b) in lo.iter_mut().zip(hi.iter()) {
                *a ^= *b;
            }
        }
        h *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_gnu_radio_refuses() {
        assert!(PolarCode::new("b", 8, 4, &[0, 1, 2, 4], &[]).is_ok());
        assert_eq!(
            PolarCode::new("b", 12, 4, &[0; 8], &[]).unwrap_err().param,
            "block_size"
        );
        assert_eq!(
            PolarCode::new("b", 8, 9, &[], &[]).unwrap_err().param,
            "num_info_bits"
        );
        assert_eq!(
            PolarCode::new("b", 8, 4, &[0, 2, 1, 4], &[])
                .unwrap_err()
                .param,
            "frozen_bit_positions"
        );
        assert_eq!(
            PolarCode::new("b", 8, 4, &[0, 1, 2, 8], &[])
                .unwrap_err()
                .param,
            "frozen_bit_positions"
        );
        assert_eq!(bit_reverse(1, 3), 4);
        assert_eq!(bit_reverse(6, 3), 3);
    }
}
