//! The checksums of GNU Radio's packet blocks: [`crc32`] (the CRC-32 of
//! Ethernet and zlib, GNU Radio's `digital.crc32`) and [`crc8`] (the
//! CRC-8 that guards `header_format_crc` headers).

/// The table of the reflected CRC-32 polynomial `0xEDB88320`.
const CRC32_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// The CRC-32 of `data`: polynomial `0x04C11DB7` reflected, initial value
/// and final XOR `0xFFFFFFFF` (zlib's `crc32`, GNU Radio's
/// `digital.crc32`). The CRC of no bytes is 0.
///
/// ```
/// use rfgraph_blocks::packet::crc32;
/// assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
/// ```
pub fn crc32(data: &[u8]) -> u32 {
    !data.iter().fold(!0u32, |c, &b| {
        CRC32_TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8)
    })
}

/// The CRC-8 of `data`: polynomial `0x07`, initial value `0xFF`, no
/// reflection, no final XOR (GNU Radio's `header_format_crc` checksum).
///
/// ```
/// use rfgraph_blocks::packet::crc8;
/// assert_eq!(crc8(b"123456789"), 0xFB);
/// ```
pub fn crc8(data: &[u8]) -> u8 {
    data.iter().fold(0xFFu8, |mut c, &b| {
        c ^= b;
        for _ in 0..8 {
            c = if c & 0x80 != 0 {
                (c << 1) ^ 0x07
            } else {
                c << 1
            };
        }
        c
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crcs_of_known_vectors() {
        assert_eq!(crc32(&[]), 0);
        assert_eq!(crc32(&[0, 1, 2, 3, 4, 5, 6, 7]), 0x88AA_689F);
        // GNU Radio's header_format_crc header of a 0-byte packet, number 0.
        assert_eq!(crc8(&[0, 0, 0, 0]), 209);
        assert_eq!(crc8(&[1, 0, 1, 0]), 210);
    }
}
