//! Mode S frames built bit by bit, with their parity: what transponders
//! send, for the ADS-B generator and for tests. Every builder returns the
//! frame's bytes (7 or 14); the parity is the CRC-24 of the rest, XORed
//! with the address where the format overlays it (DF0/4/5/20/21).
//!
//! Fields are given in engineering units and encoded with the decoders'
//! own inverse functions (`decode::altitude`, `ident`, `velocity`, `cpr`),
//! which their tests check against the public worked examples.

use crate::modes::crc::crc24;
use crate::modes::decode::cpr::CprFrame;
use crate::modes::decode::{altitude, ident, velocity};

/// Appends the parity to `data` (4 or 11 bytes): its CRC-24 XOR `overlay`.
fn with_parity(data: &[u8], overlay: u32) -> Vec<u8> {
    let p = crc24(data) ^ (overlay & 0xFF_FFFF);
    let mut f = data.to_vec();
    f.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
    f
}

/// Writes `value` (`n` bits, most significant first) at bits
/// `first..first + n` (1-based, as Annex 10 numbers them) of `bytes`.
fn put(bytes: &mut [u8], first: usize, n: usize, value: u64) {
    for i in 0..n {
        let bit = (value >> (n - 1 - i)) & 1;
        let b = first - 1 + i;
        if bit == 1 {
            bytes[b / 8] |= 0x80 >> (b % 8);
        } else {
            bytes[b / 8] &= !(0x80 >> (b % 8));
        }
    }
}

/// A DF17 extended squitter: capability `ca`, address, ME field (56 bits).
pub fn df17(ca: u8, icao: u32, me: u64) -> Vec<u8> {
    let mut d = [0u8; 11];
    put(&mut d, 1, 5, 17);
    put(&mut d, 6, 3, u64::from(ca & 7));
    put(&mut d, 9, 24, u64::from(icao & 0xFF_FFFF));
    put(&mut d, 33, 56, me & ((1 << 56) - 1));
    with_parity(&d, 0)
}

/// The ME field of an identification message (type code 4 − category
/// set A..D as `set` 0..3, emitter category `category`); `None` for a
/// callsign outside the alphabet or longer than eight characters.
pub fn me_identification(set: u8, category: u8, callsign: &str) -> Option<u64> {
    let cs = ident::encode_callsign(callsign)?;
    let tc = 4u64.saturating_sub(u64::from(set.min(3)));
    Some(tc << 51 | u64::from(category & 7) << 48 | cs)
}

/// The ME field of an airborne position with barometric altitude (type
/// code 11), or `None` when the altitude cannot be encoded in 25 ft steps.
pub fn me_airborne_position(altitude_ft: i32, cpr: CprFrame) -> Option<u64> {
    let ac = altitude::encode_ac12(altitude_ft)?;
    Some(
        11u64 << 51
            | u64::from(ac) << 36
            | u64::from(cpr.odd) << 34
            | u64::from(cpr.lat) << 17
            | u64::from(cpr.lon),
    )
}

/// The ME field of a surface position (type code 7): ground speed (knots,
/// to its movement code), track (degrees, 128 steps), CPR.
pub fn me_surface_position(speed_kt: f64, track_deg: f64, cpr: CprFrame) -> u64 {
    let mov = velocity::encode_movement(speed_kt);
    let trk = ((track_deg.rem_euclid(360.0) * 128.0 / 360.0).round() as u64) % 128;
    7u64 << 51
        | u64::from(mov) << 44
        | 1 << 43
        | trk << 36
        | u64::from(cpr.odd) << 34
        | u64::from(cpr.lat) << 17
        | u64::from(cpr.lon)
}

/// The ME field of an airborne velocity over ground (type code 19,
/// subtype 1).
pub fn me_velocity(speed_kt: f64, track_deg: f64, vertical_fpm: i32) -> u64 {
    velocity::encode_ground_velocity(speed_kt, track_deg, vertical_fpm)
}

/// A DF11 all-call reply with interrogator code `ii` (0: plain parity).
pub fn df11(ca: u8, icao: u32, ii: u8) -> Vec<u8> {
    let mut d = [0u8; 4];
    put(&mut d, 1, 5, 11);
    put(&mut d, 6, 3, u64::from(ca & 7));
    put(&mut d, 9, 24, u64::from(icao & 0xFF_FFFF));
    with_parity(&d, u32::from(ii & 0x7F))
}

/// A DF4 altitude reply (flight status `fs`), or `None` when the altitude
/// cannot be encoded in 25 ft steps.
pub fn df4(fs: u8, icao: u32, altitude_ft: i32) -> Option<Vec<u8>> {
    let mut d = [0u8; 4];
    put(&mut d, 1, 5, 4);
    put(&mut d, 6, 3, u64::from(fs & 7));
    put(
        &mut d,
        20,
        13,
        u64::from(altitude::encode_ac13(altitude_ft)?),
    );
    Some(with_parity(&d, icao))
}

/// A DF0 short air-air reply, or `None` for an altitude that cannot be
/// encoded.
pub fn df0(icao: u32, altitude_ft: i32) -> Option<Vec<u8>> {
    let mut d = [0u8; 4];
    put(&mut d, 1, 5, 0);
    put(
        &mut d,
        20,
        13,
        u64::from(altitude::encode_ac13(altitude_ft)?),
    );
    Some(with_parity(&d, icao))
}

/// A DF5 identity reply, or `None` for a squawk that is not four octal
/// digits.
pub fn df5(fs: u8, icao: u32, squawk: &str) -> Option<Vec<u8>> {
    let mut d = [0u8; 4];
    put(&mut d, 1, 5, 5);
    put(&mut d, 6, 3, u64::from(fs & 7));
    put(&mut d, 20, 13, u64::from(ident::encode_squawk(squawk)?));
    Some(with_parity(&d, icao))
}

/// A DF20 Comm-B altitude reply carrying `mb` (56 bits).
pub fn df20(fs: u8, icao: u32, altitude_ft: i32, mb: u64) -> Option<Vec<u8>> {
    let mut d = [0u8; 11];
    put(&mut d, 1, 5, 20);
    put(&mut d, 6, 3, u64::from(fs & 7));
    put(
        &mut d,
        20,
        13,
        u64::from(altitude::encode_ac13(altitude_ft)?),
    );
    put(&mut d, 33, 56, mb & ((1 << 56) - 1));
    Some(with_parity(&d, icao))
}

/// A DF21 Comm-B identity reply carrying `mb` (56 bits).
pub fn df21(fs: u8, icao: u32, squawk: &str, mb: u64) -> Option<Vec<u8>> {
    let mut d = [0u8; 11];
    put(&mut d, 1, 5, 21);
    put(&mut d, 6, 3, u64::from(fs & 7));
    put(&mut d, 20, 13, u64::from(ident::encode_squawk(squawk)?));
    put(&mut d, 33, 56, mb & ((1 << 56) - 1));
    Some(with_parity(&d, icao))
}

/// A Comm-B BDS 2,0 (aircraft identification) register for `callsign`.
pub fn mb_identification(callsign: &str) -> Option<u64> {
    Some(0x20u64 << 48 | ident::encode_callsign(callsign)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::decode::cpr;
    use crate::modes::frame::parse_hex;

    /// The builders reproduce the worked examples bit for bit.
    #[test]
    fn worked_examples() {
        let me = me_identification(0, 0, "KLM1023").unwrap();
        assert_eq!(
            df17(5, 0x4840D6, me),
            parse_hex("8D4840D6202CC371C32CE0576098").unwrap()
        );
        let even = cpr::CprFrame {
            odd: false,
            lat: 93000,
            lon: 51372,
        };
        let me = me_airborne_position(38000, even).unwrap();
        // The book's frame has surveillance status 0 and the single
        // antenna flag 0, as built.
        assert_eq!(
            df17(5, 0x40621D, me),
            parse_hex("8D40621D58C382D690C8AC2863A7").unwrap()
        );
        // The real recording's replies.
        assert_eq!(df11(5, 0x4D2023, 0), parse_hex("5d4d20237a55a6").unwrap());
        assert_eq!(
            df4(0, 0x4D2023, 23375).unwrap(),
            parse_hex("20000f1f684a6c").unwrap()
        );
        assert_eq!(
            df5(0, 0x4D2023, "0112").unwrap(),
            parse_hex("280010248c796b").unwrap()
        );
        assert!(df4(0, 1, 10).is_none());
        assert!(df5(0, 1, "9999").is_none());
        assert!(me_identification(0, 0, "toolongcallsign").is_none());
    }
}
