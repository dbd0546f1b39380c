//! [`Tracker`]: turns checked frames into [`Message`]s, resolving CPR
//! positions, and keeps the aircraft table.
//!
//! Positions: an even/odd pair of the same kind (airborne or surface) no
//! more than 10 s apart (25 s on the surface) is decoded globally, giving
//! the newer frame's position; a lone frame is decoded locally against
//! the aircraft's own position when that is at most 60 s old, else
//! against the receiver's position when one was given (which assumes the
//! aircraft within 180 NM of it, 45 NM on the surface: beyond the radio
//! horizon of nearly every receiver). Surface pairs need a reference (the
//! aircraft or the receiver) to choose their quadrant. A global position
//! further from the aircraft's last one than 1 km plus Mach 3 for the
//! time between them is refused, and forgets that last position, so the
//! next pair starts afresh.
//!
//! Time is the frames' sample index over the sample rate: the table and
//! the messages depend only on the frames, never on the wall clock.

use crate::modes::RawFrame;
use crate::modes::decode::cpr::{self, CprFrame};
use crate::modes::decode::{Fields, Kind, Message, PositionSource, decode_fields};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Seconds an even/odd airborne pair may span.
const PAIR_AIRBORNE_S: f64 = 10.0;
/// Seconds an even/odd surface pair may span.
const PAIR_SURFACE_S: f64 = 25.0;
/// Seconds an aircraft's position serves as the reference for local
/// decoding.
const LOCAL_REFERENCE_S: f64 = 60.0;
/// Frames whose power the table's signal level averages.
const LEVEL_FRAMES: usize = 8;

/// A CPR frame with when it was received.
#[derive(Clone, Copy, Debug)]
struct Heard {
    frame: CprFrame,
    surface: bool,
    at: f64,
}

/// What the table knows about one aircraft.
#[derive(Clone, Debug, Default)]
pub struct Aircraft {
    /// The ICAO address.
    pub icao: u32,
    /// Last callsign.
    pub callsign: Option<String>,
    /// Last squawk.
    pub squawk: Option<String>,
    /// Last altitude, feet.
    pub altitude_ft: Option<i32>,
    /// Last position, degrees.
    pub position: Option<(f64, f64)>,
    /// Seconds into the input of the last position.
    pub position_at: f64,
    /// Last ground speed, knots.
    pub ground_speed_kt: Option<f64>,
    /// Last track, degrees.
    pub track_deg: Option<f64>,
    /// Last vertical rate, feet per minute.
    pub vertical_rate_fpm: Option<i32>,
    /// Frames received.
    pub messages: u64,
    /// Seconds into the input of the first and last frame.
    pub first_seen: f64,
    /// Seconds into the input of the last frame.
    pub last_seen: f64,
    levels: [f32; LEVEL_FRAMES],
    even: Option<Heard>,
    odd: Option<Heard>,
}

impl Aircraft {
    /// Mean power of the last (up to) eight frames, dBFS.
    pub fn signal_dbfs(&self) -> f64 {
        let n = (self.messages as usize).min(LEVEL_FRAMES);
        if n == 0 {
            return f64::NEG_INFINITY;
        }
        let mean = self.levels[..n].iter().map(|&p| f64::from(p)).sum::<f64>() / n as f64;
        10.0 * mean.log10()
    }
}

/// Decodes frames into messages and keeps the aircraft table (see the
/// module doc).
#[derive(Clone, Debug)]
pub struct Tracker {
    rate: f64,
    receiver: Option<(f64, f64)>,
    aircraft: BTreeMap<u32, Aircraft>,
    /// Seconds into the input of the newest frame.
    latest: f64,
}

impl Tracker {
    /// A tracker for frames whose sample indices count samples at
    /// `rate_hz`.
    pub fn new(rate_hz: f64) -> Self {
        Self {
            rate: rate_hz,
            receiver: None,
            aircraft: BTreeMap::new(),
            latest: 0.0,
        }
    }

    /// The receiver's position (degrees), the reference for local
    /// decoding of aircraft without a recent position of their own.
    pub fn with_receiver(mut self, lat: f64, lon: f64) -> Self {
        self.receiver = Some((lat, lon));
        self
    }

    /// The aircraft heard, by address.
    pub fn aircraft(&self) -> impl Iterator<Item = &Aircraft> {
        self.aircraft.values()
    }

    /// Seconds into the input of the newest frame processed (0 before
    /// any): the tracker's "now", in stream time.
    pub fn latest(&self) -> f64 {
        self.latest
    }

    /// One aircraft.
    pub fn get(&self, icao: u32) -> Option<&Aircraft> {
        self.aircraft.get(&icao)
    }

    /// Decodes `frame`, updates the table, and returns the message.
    pub fn process(&mut self, frame: &RawFrame) -> Message {
        let at = frame.sample as f64 / self.rate;
        self.latest = self.latest.max(at);
        // A checked frame is always long enough for its format; an
        // unchecked one (a tool feeding arbitrary bytes) decodes to no
        // fields rather than failing.
        let mut fields = decode_fields(frame.data()).unwrap_or_default();
        let receiver = self.receiver;
        let a = self
            .aircraft
            .entry(frame.address)
            .or_insert_with(|| Aircraft {
                icao: frame.address,
                first_seen: at,
                ..Aircraft::default()
            });
        a.levels[(a.messages as usize) % LEVEL_FRAMES] = frame.power;
        a.messages += 1;
        a.last_seen = at;
        if let Some(c) = &fields.callsign {
            a.callsign = Some(c.clone());
        }
        if let Some(s) = &fields.squawk {
            a.squawk = Some(s.clone());
        }
        if let Some(alt) = fields.altitude_ft {
            a.altitude_ft = Some(alt);
        }
        match fields.kind {
            Some(Kind::Velocity) => {
                if fields.ground_speed_kt.is_some() {
                    a.ground_speed_kt = fields.ground_speed_kt;
                    a.track_deg = fields.track_deg;
                }
                if fields.vertical_rate_fpm.is_some() {
                    a.vertical_rate_fpm = fields.vertical_rate_fpm;
                }
            }
            Some(Kind::SurfacePosition) => {
                if fields.ground_speed_kt.is_some() {
                    a.ground_speed_kt = fields.ground_speed_kt;
                }
                if fields.track_deg.is_some() {
                    a.track_deg = fields.track_deg;
                }
            }
            _ => {}
        }
        if let Some(c) = fields.cpr {
            let surface = fields.kind == Some(Kind::SurfacePosition);
            let heard = Heard {
                frame: CprFrame {
                    odd: c.format == 1,
                    lat: c.lat,
                    lon: c.lon,
                },
                surface,
                at,
            };
            if let Some((pos, source)) = resolve(a, heard, receiver) {
                a.position = Some(pos);
                a.position_at = at;
                fields.lat = Some(pos.0);
                fields.lon = Some(pos.1);
                fields.position_source = Some(source);
            }
        }
        message(frame, fields)
    }

    /// The aircraft table as text: one row per aircraft, by address.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<6}  {:<8}  {:>6}  {:>7}  {:>6}  {:>5}  {:>6}  {:>10}  {:>11}  {:>5}  {:>7}  {:>8}",
            "icao",
            "callsign",
            "squawk",
            "alt_ft",
            "gs_kt",
            "track",
            "vr_fpm",
            "lat",
            "lon",
            "msgs",
            "dbfs",
            "last_s"
        );
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        for a in self.aircraft.values() {
            let _ = writeln!(
                s,
                "{:<6}  {:<8}  {:>6}  {:>7}  {:>6}  {:>5}  {:>6}  {:>10}  {:>11}  {:>5}  {:>7.1}  {:>8.3}",
                format!("{:06x}", a.icao),
                opt(a.callsign.clone()),
                opt(a.squawk.clone()),
                opt(a.altitude_ft.map(|v| v.to_string())),
                opt(a.ground_speed_kt.map(|v| format!("{v:.0}"))),
                opt(a.track_deg.map(|v| format!("{v:.0}"))),
                opt(a.vertical_rate_fpm.map(|v| v.to_string())),
                opt(a.position.map(|p| format!("{:.5}", p.0))),
                opt(a.position.map(|p| format!("{:.5}", p.1))),
                a.messages,
                a.signal_dbfs(),
                a.last_seen,
            );
        }
        s
    }
}

/// The message for `frame` with `fields`.
fn message(frame: &RawFrame, fields: Fields) -> Message {
    // JSON has no infinities: silence (or a tool's nonsense) clamps.
    let dbfs = frame.dbfs();
    let dbfs = if dbfs.is_nan() {
        -99.9
    } else {
        dbfs.clamp(-99.9, 99.9)
    };
    Message {
        sample: frame.sample,
        hex: frame.hex(),
        df: frame.df(),
        icao: format!("{:06x}", frame.address),
        signal_dbfs: (dbfs * 10.0).round() / 10.0,
        corrected_bits: frame.corrected,
        fields,
    }
}

/// Resolves a CPR frame of `a` (see the module doc), remembering it.
fn resolve(
    a: &mut Aircraft,
    heard: Heard,
    receiver: Option<(f64, f64)>,
) -> Option<((f64, f64), PositionSource)> {
    let other = if heard.frame.odd { a.even } else { a.odd };
    if heard.frame.odd {
        a.odd = Some(heard);
    } else {
        a.even = Some(heard);
    }
    let span = if heard.surface {
        PAIR_SURFACE_S
    } else {
        PAIR_AIRBORNE_S
    };
    let own = a
        .position
        .filter(|_| heard.at - a.position_at <= LOCAL_REFERENCE_S);
    if let Some(o) = other.filter(|o| o.surface == heard.surface && heard.at - o.at <= span) {
        let (even, odd) = if heard.frame.odd {
            (o.frame, heard.frame)
        } else {
            (heard.frame, o.frame)
        };
        let global = if heard.surface {
            own.or(receiver)
                .and_then(|r| cpr::global_surface(even, odd, heard.frame.odd, r))
        } else {
            cpr::global_airborne(even, odd, heard.frame.odd)
        };
        if let Some(p) = global {
            if let Some(last) = a.position {
                let dt = (heard.at - a.position_at).abs();
                // 1 km, plus Mach 3 for the time between.
                if cpr::distance_m(last, p) > 1000.0 + 1000.0 * dt {
                    a.position = None;
                    return None;
                }
            }
            return Some((p, PositionSource::Global));
        }
    }
    if let Some(r) = own {
        return Some((
            cpr::local(heard.frame, heard.surface, r),
            PositionSource::LocalAircraft,
        ));
    }
    receiver.map(|r| {
        (
            cpr::local(heard.frame, heard.surface, r),
            PositionSource::LocalReceiver,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::frame::parse_hex;
    use bytemuck::Zeroable;

    fn frame(hex: &str, sample: u64) -> RawFrame {
        let mut f = RawFrame::zeroed();
        let b = parse_hex(hex).unwrap();
        f.bytes[..b.len()].copy_from_slice(&b);
        f.bits = (b.len() * 8) as u8;
        f.sample = sample;
        f.power = 0.01;
        f.address = crate::modes::frame::bits(&b, 9, 24) as u32;
        f
    }

    /// The book's pair decodes globally once both halves arrive, and a
    /// later lone frame locally against that position.
    #[test]
    fn pair_then_local() {
        let mut t = Tracker::new(2.0e6);
        let m = t.process(&frame("8D40621D58C386435CC412692AD6", 0));
        assert_eq!(m.fields.lat, None);
        let m = t.process(&frame("8D40621D58C382D690C8AC2863A7", 2_000_000));
        assert_eq!(m.fields.position_source, Some(PositionSource::Global));
        assert!((m.fields.lat.unwrap() - 52.257_202_148_437_5).abs() < 1e-9);
        assert!((m.fields.lon.unwrap() - 3.919_372_558_593_75).abs() < 1e-9);
        // Too late to pair (30 s), but the position is recent: local.
        let m = t.process(&frame("8D40621D58C386435CC412692AD6", 62_000_000));
        assert_eq!(
            m.fields.position_source,
            Some(PositionSource::LocalAircraft)
        );
        assert!(m.fields.lat.is_some());
        let a = t.get(0x40621D).unwrap();
        assert_eq!(a.messages, 3);
        assert_eq!(a.altitude_ft, Some(38000));
        assert!((a.signal_dbfs() + 20.0).abs() < 1e-6);
        assert!(t.table().contains("40621d"));
        assert_eq!(m.signal_dbfs, -20.0);
    }

    /// Without a pair and without a recent position of its own, a lone
    /// frame resolves only against a receiver; surface pairs need one.
    #[test]
    fn receiver_reference() {
        let mut t = Tracker::new(2.0e6);
        assert_eq!(
            t.process(&frame("8D40621D58C382D690C8AC2863A7", 0))
                .fields
                .lat,
            None
        );
        let mut t = Tracker::new(2.0e6).with_receiver(52.258, 3.918);
        let m = t.process(&frame("8D40621D58C382D690C8AC2863A7", 0));
        assert_eq!(
            m.fields.position_source,
            Some(PositionSource::LocalReceiver)
        );
        let mut t = Tracker::new(2.0e6);
        t.process(&frame("8C4841753AAB238733C8CD4020B1", 0));
        assert_eq!(
            t.process(&frame("8C4841753A8A35323FAEBDAC702D", 1))
                .fields
                .lat,
            None
        );
        let mut t = Tracker::new(2.0e6).with_receiver(51.990, 4.375);
        t.process(&frame("8C4841753AAB238733C8CD4020B1", 0));
        let m = t.process(&frame("8C4841753A8A35323FAEBDAC702D", 1));
        assert_eq!(m.fields.position_source, Some(PositionSource::Global));
        assert!((m.fields.lat.unwrap() - 52.320_607_072_215_96).abs() < 1e-9);
    }
}
