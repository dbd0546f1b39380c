//! The frame check sequence (IEEE 802.11-2016 9.2.4.8): CRC-32 with the
//! IEEE 802.3 polynomial, reflected, initial value and final XOR all
//! ones, sent least significant byte first after the MPDU.

/// The reflected polynomial 0x04C11DB7.
const POLY: u32 = 0xEDB8_8320;

/// Slice-by-4 tables: `TABLES[0]` is the classic byte table.
const TABLES: [[u32; 256]; 4] = {
    let mut t = [[0u32; 256]; 4];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut j = 1;
    while j < 4 {
        let mut i = 0;
        while i < 256 {
            let prev = t[j - 1][i];
            t[j][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            i += 1;
        }
        j += 1;
    }
    t
};

/// The FCS of `data`.
pub fn fcs(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    let mut chunks = data.chunks_exact(4);
    for c in &mut chunks {
        let x = crc ^ u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        crc = TABLES[3][(x & 0xff) as usize]
            ^ TABLES[2][((x >> 8) & 0xff) as usize]
            ^ TABLES[1][((x >> 16) & 0xff) as usize]
            ^ TABLES[0][(x >> 24) as usize];
    }
    for &b in chunks.remainder() {
        crc = (crc >> 8) ^ TABLES[0][((crc ^ b as u32) & 0xff) as usize];
    }
    !crc
}

/// Appends the FCS (little-endian) to `mpdu`.
pub fn append(mpdu: &mut Vec<u8>) {
    let f = fcs(mpdu);
    mpdu.extend_from_slice(&f.to_le_bytes());
}

/// True if the last four bytes of `psdu_with_fcs` are the FCS of the
/// rest.
pub fn check(psdu_with_fcs: &[u8]) -> bool {
    let Some(n) = psdu_with_fcs.len().checked_sub(4) else {
        return false;
    };
    let (body, tail) = psdu_with_fcs.split_at(n);
    fcs(body).to_le_bytes() == tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;

    /// Bit-at-a-time reference.
    fn slow(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in data {
            crc ^= b as u32;
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ POLY
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn check_value_and_annex_i_fcs() {
        assert_eq!(fcs(b"123456789"), 0xCBF4_3926);
        assert_eq!(fcs(b""), 0);
        // Annex I's message: 96 octets then the FCS 802.11-2016 prints
        // (802.11a-1999 Annex G printed a wrong one, which fails).
        let mut m = annex_i::PSDU[..96].to_vec();
        append(&mut m);
        assert_eq!(m[96..], annex_i::FCS_2016);
        assert!(check(&m));
        assert!(!check(&annex_i::PSDU));
        m[10] ^= 0x01;
        assert!(!check(&m));
        assert!(!check(&[1, 2, 3]));
    }

    #[test]
    fn matches_bitwise_reference_at_every_length() {
        let data: Vec<u8> = (0..300u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        for n in 0..data.len() {
            assert_eq!(fcs(&data[..n]), slow(&data[..n]), "length {n}");
        }
    }
}
