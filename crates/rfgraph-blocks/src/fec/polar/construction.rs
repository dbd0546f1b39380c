//! Channel construction of GNU Radio's polar code configurator
//! (`polar.load_frozen_bits_info`, GRC's
//! `variable_polar_code_configurator`): the Bhattacharyya bounds of a
//! binary erasure channel whose erasure probability is
//! `exp(−10^(snr/10))`, and the frozen bits they choose, value for value
//! with GNU Radio's Python helpers (`channel_construction_bec.py`,
//! `channel_construction.py`).

/// The lowest design SNR (dB) GNU Radio accepts.
pub const MIN_DESIGN_SNR: f64 = -1.5917;

/// GNU Radio's `design_snr_to_bec_eta`: the erasure probability of the
/// design SNR `snr` (dB).
pub fn bec_eta(snr: f64) -> f64 {
    let s = 10f64.powf(snr / 10.0);
    (-s).exp()
}

/// GNU Radio's `bhattacharyya_bounds(design_snr, block_size)`: the
/// Z-parameter of each of the `block_size` synthetic channels, in natural
/// bit order (`block_size` a power of two).
pub fn bhattacharyya_bounds(design_snr: f64, block_size: usize) -> Vec<f64> {
    let mut z = vec![bec_eta(design_snr)];
    while z.len() < block_size {
        let mut next = Vec::with_capacity(2 * z.len());
        for &p in &z {
            let sq = p * p;
            next.push(2.0 * p - sq);
            next.push(sq);
        }
        z = next;
    }
    z
}

/// GNU Radio's `get_frozen_bit_indices_from_z_parameters`: the `nfrozen`
/// channels of largest Z (the first of equal ones first), in increasing
/// order.
pub fn frozen_from_z(mut z: Vec<f64>, nfrozen: usize) -> Vec<usize> {
    let mut picked = Vec::with_capacity(nfrozen);
    while picked.len() < nfrozen.min(z.len()) {
        // numpy's argmax: the first maximum (NaN counts as the largest).
        let mut best = 0;
        for (i, &v) in z.iter().enumerate() {
            if z[best].is_nan() {
                break;
            }
            if v.is_nan() || v > z[best] {
                best = i;
            }
        }
        picked.push(best);
        z[best] = -1.0;
    }
    picked.sort_unstable();
    picked
}

/// The frozen bit positions GRC's `variable_polar_code_configurator`
/// gives (`polar.load_frozen_bits_info(True, ...)`: Bhattacharyya
/// bounds for both channel types) for a code of `block_size` bits,
/// `num_info_bits` of them information, designed for `design_snr` dB;
/// their values are all 0. `Err` says what GNU Radio refuses.
pub fn frozen_bit_positions(
    block_size: i64,
    num_info_bits: i64,
    design_snr: f64,
) -> Result<Vec<usize>, String> {
    if block_size <= 0 || block_size & (block_size - 1) != 0 {
        return Err(format!("block size={block_size} is not a power of 2!"));
    }
    if block_size > super::MAX_BLOCK_SIZE as i64 {
        return Err(format!(
            "block size={block_size} exceeds {}",
            super::MAX_BLOCK_SIZE
        ));
    }
    // Python's `design_snr < -1.5917` (NaN passes there and gives NaN
    // Z-parameters; refuse it).
    if design_snr.is_nan() || design_snr < MIN_DESIGN_SNR {
        return Err(format!(
            "design SNR={design_snr} < -1.5917. MUST be greater!"
        ));
    }
    let nfrozen = block_size - num_info_bits;
    if nfrozen < 0 || nfrozen > block_size {
        return Err(format!(
            "{num_info_bits} info bits do not fit a block of {block_size}"
        ));
    }
    Ok(frozen_from_z(
        bhattacharyya_bounds(design_snr, block_size as usize),
        nfrozen as usize,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_polarise() {
        let z = bhattacharyya_bounds(0.0, 8);
        assert_eq!(z.len(), 8);
        assert!(z[0] > z[7]);
        assert_eq!(frozen_bit_positions(8, 4, 0.0).unwrap(), vec![0, 1, 2, 4]);
        assert!(frozen_bit_positions(12, 4, 0.0).is_err());
        assert!(frozen_bit_positions(8, 9, 0.0).is_err());
        assert!(frozen_bit_positions(8, 4, -2.0).is_err());
    }
}
