//! Motion fields: ADS-B airborne velocity (type code 19: ground speed and
//! track, or airspeed and heading; vertical rate; GNSS minus baro
//! altitude) and the surface movement and track of surface positions.

use serde::{Deserialize, Serialize};

/// Decoded airborne velocity (type code 19). Fields the message marks
/// unavailable are `None`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Velocity {
    /// Subtype: 1, 2 ground speed (2 supersonic); 3, 4 airspeed.
    pub subtype: u8,
    /// Ground speed, knots.
    pub ground_speed_kt: Option<f64>,
    /// Track over the ground, degrees clockwise from true north.
    pub track_deg: Option<f64>,
    /// Airspeed, knots.
    pub airspeed_kt: Option<u32>,
    /// `IAS` or `TAS`.
    pub airspeed_type: Option<String>,
    /// Magnetic heading, degrees.
    pub heading_deg: Option<f64>,
    /// Vertical rate, feet per minute (positive up).
    pub vertical_rate_fpm: Option<i32>,
    /// `GNSS` or `BARO`.
    pub vertical_rate_source: Option<String>,
    /// GNSS height minus barometric altitude, feet.
    pub geo_minus_baro_ft: Option<i32>,
}

/// Decodes the 56-bit ME field of a type-code-19 message; `None` for
/// subtypes 0 and 5–7 (reserved).
pub fn airborne_velocity(me: u64) -> Option<Velocity> {
    let b = |first: u32, n: u32| (me >> (57 - first - n)) & ((1u64 << n) - 1);
    let subtype = b(6, 3) as u8;
    if !(1..=4).contains(&subtype) {
        return None;
    }
    let mut v = Velocity {
        subtype,
        ..Velocity::default()
    };
    let factor = if subtype == 2 || subtype == 4 { 4 } else { 1 };
    if subtype <= 2 {
        let (ew_sign, ew) = (b(14, 1), b(15, 10));
        let (ns_sign, ns) = (b(25, 1), b(26, 10));
        if ew != 0 && ns != 0 {
            let vx = (ew as f64 - 1.0) * f64::from(factor) * if ew_sign == 1 { -1.0 } else { 1.0 };
            let vy = (ns as f64 - 1.0) * f64::from(factor) * if ns_sign == 1 { -1.0 } else { 1.0 };
            v.ground_speed_kt = Some(vx.hypot(vy));
            let mut track = vx.atan2(vy).to_degrees();
            if track < 0.0 {
                track += 360.0;
            }
            v.track_deg = Some(track);
        }
    } else {
        if b(14, 1) == 1 {
            v.heading_deg = Some(b(15, 10) as f64 * 360.0 / 1024.0);
        }
        v.airspeed_type = Some(if b(25, 1) == 1 { "TAS" } else { "IAS" }.to_string());
        let speed = b(26, 10) as u32;
        if speed != 0 {
            v.airspeed_kt = Some((speed - 1) * factor);
        }
    }
    v.vertical_rate_source = Some(if b(36, 1) == 1 { "BARO" } else { "GNSS" }.to_string());
    let vr = b(38, 9) as i32;
    if vr != 0 {
        v.vertical_rate_fpm = Some((vr - 1) * 64 * if b(37, 1) == 1 { -1 } else { 1 });
    }
    let diff = b(50, 7) as i32;
    if diff != 0 && diff != 127 {
        v.geo_minus_baro_ft = Some((diff - 1) * 25 * if b(49, 1) == 1 { -1 } else { 1 });
    }
    Some(v)
}

/// Ground speed (knots) of a surface position's movement field; `None`
/// for "no information" (0) and the reserved codes (125–127).
pub fn movement(code: u8) -> Option<f64> {
    let c = f64::from(code);
    Some(match code {
        1 => 0.0,
        2..=8 => 0.125 * (c - 1.0),
        9..=12 => 1.0 + 0.25 * (c - 9.0),
        13..=38 => 2.0 + 0.5 * (c - 13.0),
        39..=93 => 15.0 + (c - 39.0),
        94..=108 => 70.0 + 2.0 * (c - 94.0),
        109..=123 => 100.0 + 5.0 * (c - 109.0),
        124 => 175.0,
        _ => return None,
    })
}

/// The movement code of a ground speed in knots (the code whose band
/// holds it), for the generator.
pub fn encode_movement(knots: f64) -> u8 {
    (1..=124u8)
        .rev()
        .find(|&c| movement(c).is_some_and(|v| v <= knots + 1e-9))
        .unwrap_or(1)
}

/// The ME field bits 14–46 of a subtype-1 velocity for a ground speed
/// and track, and a vertical rate; for the generator. Speeds are rounded
/// to whole knots per component, the rate to 64 ft/min.
pub fn encode_ground_velocity(speed_kt: f64, track_deg: f64, vertical_fpm: i32) -> u64 {
    let t = track_deg.to_radians();
    let (vx, vy) = (speed_kt * t.sin(), speed_kt * t.cos());
    let comp = |v: f64| -> (u64, u64) {
        let mag = (v.abs().round() as u64 + 1).min(1023);
        (u64::from(v < 0.0 && mag > 1), mag)
    };
    let (ew_sign, ew) = comp(vx);
    let (ns_sign, ns) = comp(vy);
    let vr_mag = ((f64::from(vertical_fpm.abs()) / 64.0).round() as u64 + 1).min(511);
    let vr_sign = u64::from(vertical_fpm < 0);
    // TC 19, subtype 1, no intent change, IFR 0, NUC 0.
    let mut me: u64 = 19 << 51 | 1 << 48;
    me |= ew_sign << 42 | ew << 32 | ns_sign << 31 | ns << 21;
    // Vertical rate source: barometric.
    me |= 1 << 20 | vr_sign << 19 | vr_mag << 10;
    me
}

#[cfg(test)]
mod tests {
    use super::*;

    fn me(hex: &str) -> u64 {
        u64::from_str_radix(&hex[8..22], 16).unwrap()
    }

    /// "The 1090 MHz Riddle": ground speed 159 kt, track 182.88°, −832
    /// ft/min; airspeed 375 kt TAS, heading 243.98°, −2304 ft/min.
    #[test]
    fn riddle_velocities() {
        let v = airborne_velocity(me("8D485020994409940838175B284F")).unwrap();
        assert_eq!(v.subtype, 1);
        assert!((v.ground_speed_kt.unwrap() - 159.20).abs() < 0.01);
        assert!((v.track_deg.unwrap() - 182.880_377_552_847_6).abs() < 1e-9);
        assert_eq!(v.vertical_rate_fpm, Some(-832));
        assert_eq!(v.vertical_rate_source.as_deref(), Some("GNSS"));
        assert_eq!(v.geo_minus_baro_ft, Some(550));
        let v = airborne_velocity(me("8DA05F219B06B6AF189400CBC33F")).unwrap();
        assert_eq!(v.subtype, 3);
        assert_eq!(v.airspeed_kt, Some(375));
        assert_eq!(v.airspeed_type.as_deref(), Some("TAS"));
        assert!((v.heading_deg.unwrap() - 243.984_375).abs() < 1e-9);
        assert_eq!(v.vertical_rate_fpm, Some(-2304));
        assert_eq!(v.ground_speed_kt, None);
    }

    #[test]
    fn movement_codes() {
        assert_eq!(movement(42), Some(18.0));
        assert_eq!(movement(40), Some(16.0));
        assert_eq!(movement(0), None);
        assert_eq!(movement(125), None);
        for c in 1..=124 {
            assert_eq!(encode_movement(movement(c).unwrap()), c);
        }
    }

    #[test]
    fn ground_velocity_round_trip() {
        let me = encode_ground_velocity(450.0, 73.0, -1280);
        let v = airborne_velocity(me).unwrap();
        assert!((v.ground_speed_kt.unwrap() - 450.0).abs() < 1.0);
        assert!((v.track_deg.unwrap() - 73.0).abs() < 0.2);
        assert_eq!(v.vertical_rate_fpm, Some(-1280));
    }
}
