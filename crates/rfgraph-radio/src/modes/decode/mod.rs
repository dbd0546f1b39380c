//! Mode S message decoding: from a frame's bits to named fields.
//!
//! [`decode_fields`] is stateless: it reads one frame (any bytes; frames
//! too short for their format are an error, never a panic) and returns
//! [`Fields`]: downlink format, address, and what the format carries
//! (DF17/18: identification and callsign, airborne and surface positions
//! as raw CPR, airborne velocity; DF0/4/16/20 altitude; DF5/21 squawk;
//! DF11 capability). Turning CPR into latitude and longitude needs other
//! frames or a reference, which is the [`Tracker`](crate::modes::Tracker)'s
//! job; [`Message`] is the result of both, as `rfgraph adsb` prints it.

pub mod altitude;
pub mod cpr;
pub mod ident;
pub mod velocity;

use crate::modes::frame::{bits, frame_bits};
use serde::{Deserialize, Serialize};
use thiserror::Error;
pub use velocity::Velocity;

/// Why a frame could not be decoded.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Fewer bytes than the downlink format needs.
    #[error("a DF{df} frame needs {need} bytes, got {got}")]
    Short {
        /// The downlink format.
        df: u8,
        /// Bytes it needs.
        need: usize,
        /// Bytes given.
        got: usize,
    },
    /// No bytes at all.
    #[error("an empty frame")]
    Empty,
}

/// What kind of content a message carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// DF0 short air-air surveillance (altitude).
    AirAir,
    /// DF4 surveillance altitude reply.
    Altitude,
    /// DF5 surveillance identity reply (squawk).
    Identity,
    /// DF11 all-call reply.
    AllCall,
    /// DF16 long air-air surveillance (altitude).
    LongAirAir,
    /// DF20 Comm-B altitude reply.
    CommBAltitude,
    /// DF21 Comm-B identity reply.
    CommBIdentity,
    /// DF17/18 type codes 1–4: identification and category.
    Identification,
    /// DF17/18 type codes 5–8.
    SurfacePosition,
    /// DF17/18 type codes 9–18 (barometric) and 20–22 (GNSS altitude).
    AirbornePosition,
    /// DF17/18 type code 19.
    Velocity,
    /// DF17/18 type codes this decoder does not interpret.
    OtherExtendedSquitter,
}

/// How a message's position was resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionSource {
    /// From an even/odd pair (global decoding).
    Global,
    /// Locally, against the aircraft's last known position.
    LocalAircraft,
    /// Locally, against the receiver's position.
    LocalReceiver,
}

/// The raw CPR fields of a position message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cpr {
    /// 0 even, 1 odd.
    pub format: u8,
    /// Encoded latitude (17 bits).
    pub lat: u32,
    /// Encoded longitude (17 bits).
    pub lon: u32,
}

/// Every field a frame carries; absent ones are `None` and left out of
/// the JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Fields {
    /// The content's kind.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kind: Option<Kind>,
    /// ADS-B type code (DF17/18).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub type_code: Option<u8>,
    /// DF11/17 capability (CA), DF18 control field (CF).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub capability: Option<u8>,
    /// DF4/5/20/21 flight status.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub flight_status: Option<u8>,
    /// Emitter category (identification messages).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub category: Option<u8>,
    /// Callsign, without padding.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub callsign: Option<String>,
    /// Altitude, feet.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub altitude_ft: Option<i32>,
    /// `baro` or `gnss`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub altitude_type: Option<String>,
    /// Mode A code, four octal digits.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub squawk: Option<String>,
    /// Raw CPR of a position message.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cpr: Option<Cpr>,
    /// Latitude, degrees (resolved positions only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub lat: Option<f64>,
    /// Longitude, degrees (resolved positions only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub lon: Option<f64>,
    /// How the position was resolved.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub position_source: Option<PositionSource>,
    /// Ground speed, knots (velocity and surface messages).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ground_speed_kt: Option<f64>,
    /// Track, degrees (velocity and surface messages).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub track_deg: Option<f64>,
    /// Airspeed, knots.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub airspeed_kt: Option<u32>,
    /// `IAS` or `TAS`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub airspeed_type: Option<String>,
    /// Heading, degrees.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub heading_deg: Option<f64>,
    /// Vertical rate, feet per minute.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub vertical_rate_fpm: Option<i32>,
    /// `GNSS` or `BARO`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub vertical_rate_source: Option<String>,
    /// GNSS minus barometric altitude, feet.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub geo_minus_baro_ft: Option<i32>,
}

/// A decoded message as `rfgraph adsb --json` prints it: where and how
/// strong, the frame, and its fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Sample index of the preamble in the input.
    pub sample: u64,
    /// The frame, lower-case hex.
    pub hex: String,
    /// Downlink format.
    pub df: u8,
    /// ICAO address, six lower-case hex digits.
    pub icao: String,
    /// Pulse power, dBFS, to 0.1 dB.
    pub signal_dbfs: f64,
    /// Bits the demodulator repaired.
    pub corrected_bits: u8,
    /// The decoded fields.
    #[serde(flatten)]
    pub fields: Fields,
}

/// The ADS-B ME field (bits 33–88) of a DF17/18 frame.
pub fn me_field(frame: &[u8]) -> u64 {
    bits(frame, 33, 56)
}

/// Decodes what `frame` carries, without positions (see the module doc).
/// The address is not among the fields: the AA field (DF11/17/18) or the
/// parity (the others) gives it, and the demodulator has recovered it
/// ([`RawFrame::address`](crate::modes::RawFrame)).
///
/// Errors: [`DecodeError`] for an empty frame or one shorter than its
/// format.
pub fn decode_fields(frame: &[u8]) -> Result<Fields, DecodeError> {
    let first = *frame.first().ok_or(DecodeError::Empty)?;
    let df = first >> 3;
    // Formats above 24 have the "11" prefix of DF24 (Comm-D).
    let need = frame_bits(df.min(24)) / 8;
    if frame.len() < need {
        return Err(DecodeError::Short {
            df,
            need,
            got: frame.len(),
        });
    }
    let f = |first: usize, n: usize| bits(frame, first, n);
    let mut out = Fields::default();
    match df {
        0 | 16 => {
            out.kind = Some(if df == 0 {
                Kind::AirAir
            } else {
                Kind::LongAirAir
            });
            out.altitude_ft = altitude::ac13(f(20, 13) as u32);
            out.altitude_type = out.altitude_ft.map(|_| "baro".to_string());
        }
        4 | 20 => {
            out.kind = Some(if df == 4 {
                Kind::Altitude
            } else {
                Kind::CommBAltitude
            });
            out.flight_status = Some(f(6, 3) as u8);
            out.altitude_ft = altitude::ac13(f(20, 13) as u32);
            out.altitude_type = out.altitude_ft.map(|_| "baro".to_string());
        }
        5 | 21 => {
            out.kind = Some(if df == 5 {
                Kind::Identity
            } else {
                Kind::CommBIdentity
            });
            out.flight_status = Some(f(6, 3) as u8);
            out.squawk = Some(ident::squawk(f(20, 13) as u32));
        }
        11 => {
            out.kind = Some(Kind::AllCall);
            out.capability = Some(f(6, 3) as u8);
        }
        17 | 18 => {
            out.capability = Some(f(6, 3) as u8);
            // DF18 with a CF other than 0, 1, 2, 5 or 6 does not carry
            // the ADS-B message formats.
            if df == 18 && !matches!(f(6, 3), 0 | 1 | 2 | 5 | 6) {
                out.kind = Some(Kind::OtherExtendedSquitter);
                return Ok(out);
            }
            extended_squitter(me_field(frame), &mut out);
        }
        _ => {}
    }
    Ok(out)
}

/// Decodes the ME field of an extended squitter.
fn extended_squitter(me: u64, out: &mut Fields) {
    let b = |first: u32, n: u32| (me >> (57 - first - n)) & ((1u64 << n) - 1);
    let tc = b(1, 5) as u8;
    out.type_code = Some(tc);
    match tc {
        1..=4 => {
            out.kind = Some(Kind::Identification);
            out.category = Some(b(6, 3) as u8);
            out.callsign = Some(ident::callsign(b(9, 48)));
        }
        5..=8 => {
            out.kind = Some(Kind::SurfacePosition);
            out.ground_speed_kt = velocity::movement(b(6, 7) as u8);
            if b(13, 1) == 1 {
                out.track_deg = Some(b(14, 7) as f64 * 360.0 / 128.0);
            }
            out.cpr = Some(Cpr {
                format: b(22, 1) as u8,
                lat: b(23, 17) as u32,
                lon: b(40, 17) as u32,
            });
        }
        9..=18 | 20..=22 => {
            out.kind = Some(Kind::AirbornePosition);
            let ac = b(9, 12) as u32;
            if tc <= 18 {
                out.altitude_ft = altitude::ac12(ac);
                out.altitude_type = out.altitude_ft.map(|_| "baro".to_string());
            } else {
                // GNSS height in metres.
                out.altitude_ft = Some((f64::from(ac) * 3.28084) as i32);
                out.altitude_type = Some("gnss".to_string());
            }
            out.cpr = Some(Cpr {
                format: b(22, 1) as u8,
                lat: b(23, 17) as u32,
                lon: b(40, 17) as u32,
            });
        }
        19 => match velocity::airborne_velocity(me) {
            Some(v) => {
                out.kind = Some(Kind::Velocity);
                out.ground_speed_kt = v.ground_speed_kt;
                out.track_deg = v.track_deg;
                out.airspeed_kt = v.airspeed_kt;
                out.airspeed_type = v.airspeed_type;
                out.heading_deg = v.heading_deg;
                out.vertical_rate_fpm = v.vertical_rate_fpm;
                out.vertical_rate_source = v.vertical_rate_source;
                out.geo_minus_baro_ft = v.geo_minus_baro_ft;
            }
            None => out.kind = Some(Kind::OtherExtendedSquitter),
        },
        _ => out.kind = Some(Kind::OtherExtendedSquitter),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::frame::parse_hex;

    fn fields(h: &str) -> Fields {
        decode_fields(&parse_hex(h).unwrap()).unwrap()
    }

    #[test]
    fn riddle_and_recording_examples() {
        let f = fields("8D4840D6202CC371C32CE0576098");
        assert_eq!(f.kind, Some(Kind::Identification));
        assert_eq!(f.callsign.as_deref(), Some("KLM1023"));
        assert_eq!(f.type_code, Some(4));
        let f = fields("8D40621D58C382D690C8AC2863A7");
        assert_eq!(f.kind, Some(Kind::AirbornePosition));
        assert_eq!(f.altitude_ft, Some(38000));
        assert_eq!(
            f.cpr,
            Some(Cpr {
                format: 0,
                lat: 93000,
                lon: 51372
            })
        );
        let f = fields("8C4841753AAB238733C8CD4020B1");
        assert_eq!(f.kind, Some(Kind::SurfacePosition));
        assert_eq!(f.ground_speed_kt, Some(18.0));
        assert_eq!(f.track_deg, Some(140.625));
        assert_eq!(
            f.cpr,
            Some(Cpr {
                format: 0,
                lat: 115609,
                lon: 116941
            })
        );
        let f = fields("20000f1f684a6c");
        assert_eq!((f.kind, f.altitude_ft), (Some(Kind::Altitude), Some(23375)));
        let f = fields("280010248c796b");
        assert_eq!(f.squawk.as_deref(), Some("0112"));
        let f = fields("5d4d20237a55a6");
        assert_eq!((f.kind, f.capability), (Some(Kind::AllCall), Some(5)));
        assert_eq!(
            decode_fields(&[0x8D, 0]),
            Err(DecodeError::Short {
                df: 17,
                need: 14,
                got: 2
            })
        );
        assert_eq!(decode_fields(&[]), Err(DecodeError::Empty));
    }
}
