//! The SIGNAL field (IEEE 802.11-2016 17.3.4): 24 bits sent first in
//! BPSK 1/2, unscrambled — RATE R1…R4, a reserved 0, LENGTH (12 bits,
//! LSB first), even parity over bits 0…16, six tail zeros.

use crate::burst::{Dropped, Signal};
use crate::rate::Rate;

/// Largest PSDU LENGTH the field carries.
pub const MAX_LENGTH: usize = 4095;

/// The 24 SIGNAL bits of `signal`, in transmit order.
pub fn signal_bits(signal: Signal) -> [u8; 24] {
    let mut b = [0u8; 24];
    let r = signal.rate.signal_bits();
    for (i, bit) in b[..4].iter_mut().enumerate() {
        *bit = (r >> i) & 1;
    }
    let len = signal.length.min(MAX_LENGTH);
    for (i, bit) in b[5..17].iter_mut().enumerate() {
        *bit = ((len >> i) & 1) as u8;
    }
    b[17] = b[..17].iter().fold(0, |p, &x| p ^ x);
    b
}

/// Reads 24 received SIGNAL bits; checks parity, rate, length 1…4095,
/// the reserved bit and the tail.
pub fn parse_signal(bits: &[u8; 24]) -> Result<Signal, Dropped> {
    if bits[..18].iter().fold(0, |p, &x| p ^ (x & 1)) != 0 {
        return Err(Dropped::SignalParity);
    }
    let r = (0..4).fold(0u8, |r, i| r | ((bits[i] & 1) << i));
    let rate = Rate::from_signal_bits(r).ok_or(Dropped::SignalRate)?;
    if bits[4] != 0 || bits[18..].iter().any(|&b| b != 0) {
        return Err(Dropped::SignalReserved);
    }
    let length = (0..12).fold(0usize, |l, i| l | (((bits[5 + i] & 1) as usize) << i));
    if length == 0 {
        return Err(Dropped::SignalLength);
    }
    Ok(Signal { rate, length })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;

    #[test]
    fn annex_i_signal_bits() {
        // I.1.4.1 (G.7): 36 Mb/s, LENGTH 100.
        let s = Signal {
            rate: Rate::Qam16_34,
            length: 100,
        };
        let bits = signal_bits(s);
        assert_eq!(bits.to_vec(), annex_i::bits(&annex_i::SIGNAL_BITS));
        assert_eq!(parse_signal(&bits), Ok(s));
    }

    #[test]
    fn round_trip_and_each_check() {
        for rate in Rate::ALL {
            for length in [1, 2, 100, 1500, 4095] {
                let s = Signal { rate, length };
                assert_eq!(parse_signal(&signal_bits(s)), Ok(s));
            }
        }
        let good = signal_bits(Signal {
            rate: Rate::Bpsk12,
            length: 64,
        });
        // Any single flipped bit among 0…17 breaks parity.
        for i in 0..18 {
            let mut b = good;
            b[i] ^= 1;
            assert_eq!(parse_signal(&b), Err(Dropped::SignalParity), "bit {i}");
        }
        // A flipped tail bit: reserved/tail.
        let mut b = good;
        b[20] = 1;
        assert_eq!(parse_signal(&b), Err(Dropped::SignalReserved));
        // Reserved bit set with parity fixed.
        let mut b = good;
        b[4] = 1;
        b[17] ^= 1;
        assert_eq!(parse_signal(&b), Err(Dropped::SignalReserved));
        // R4 = 0 names no rate (parity fixed).
        let mut b = good;
        b[3] = 0;
        b[17] ^= 1;
        assert_eq!(parse_signal(&b), Err(Dropped::SignalRate));
        // Length 0.
        let mut b = [0u8; 24];
        b[..4].copy_from_slice(&[1, 1, 0, 1]);
        b[17] = 1;
        assert_eq!(parse_signal(&b), Err(Dropped::SignalLength));
    }
}
