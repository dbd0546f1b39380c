//! The aircraft table as the `modes_decoder` block's reading `aircraft`:
//! one `Pmt::Map` per aircraft heard recently, for the control port and
//! the web page (which shows a list of maps as a table). Owns only the
//! rows' shape and which aircraft they hold; the table itself is the
//! [`Tracker`]'s.

use crate::modes::{Aircraft, Tracker};
use rfgraph::Pmt;
use std::collections::BTreeMap;

/// Most rows the reading holds (the first by address).
pub const MAX_ROWS: usize = 1000;

/// Seconds of stream time after its last frame that an aircraft stays in
/// the reading (dump1090 forgets aircraft after 300 s too).
pub const ROW_TTL_S: f64 = 300.0;

/// One aircraft as a row: `icao` (`String`, six lower-case hex digits,
/// as in the messages), `callsign`, `squawk` (`String`), `altitude_ft`,
/// `vert_rate_fpm` (`I64`), `speed_kt` (ground speed), `track_deg`,
/// `lat`, `lon` (`F64`, degrees), `messages` (`U64`), `seen_s` (`F64`,
/// seconds of stream time from its last frame to `now`), `rssi_db`
/// (`F64`, the mean power of its last frames, dBFS). A field not known
/// (yet) is absent.
pub fn aircraft_row(a: &Aircraft, now: f64) -> Pmt {
    let mut row = BTreeMap::new();
    let mut put = |k: &str, v: Pmt| {
        row.insert(k.to_string(), v);
    };
    put("icao", Pmt::String(format!("{:06x}", a.icao)));
    if let Some(c) = &a.callsign {
        put("callsign", Pmt::String(c.trim_end().to_string()));
    }
    if let Some(s) = &a.squawk {
        put("squawk", Pmt::String(s.clone()));
    }
    if let Some(v) = a.altitude_ft {
        put("altitude_ft", Pmt::I64(v.into()));
    }
    if let Some(v) = a.ground_speed_kt.filter(|v| v.is_finite()) {
        put("speed_kt", Pmt::F64(v));
    }
    if let Some(v) = a.track_deg.filter(|v| v.is_finite()) {
        put("track_deg", Pmt::F64(v));
    }
    if let Some(v) = a.vertical_rate_fpm {
        put("vert_rate_fpm", Pmt::I64(v.into()));
    }
    if let Some((lat, lon)) = a.position {
        put("lat", Pmt::F64(lat));
        put("lon", Pmt::F64(lon));
    }
    put("messages", Pmt::U64(a.messages));
    put("seen_s", Pmt::F64((now - a.last_seen).max(0.0)));
    let rssi = a.signal_dbfs();
    if rssi.is_finite() {
        put("rssi_db", Pmt::F64((rssi * 10.0).round() / 10.0));
    }
    Pmt::Map(row)
}

/// The reading `aircraft`: a `Pmt::List` of [`aircraft_row`]s, sorted by
/// address, of the aircraft heard within [`ROW_TTL_S`] of the tracker's
/// newest frame, at most [`MAX_ROWS`].
pub fn aircraft_reading(tracker: &Tracker) -> Pmt {
    let now = tracker.latest();
    Pmt::List(
        tracker
            .aircraft()
            .filter(|a| now - a.last_seen <= ROW_TTL_S)
            .take(MAX_ROWS)
            .map(|a| aircraft_row(a, now))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::RawFrame;
    use crate::modes::frame::{bits, parse_hex};
    use bytemuck::Zeroable;

    fn frame(hex: &str, sample: u64) -> RawFrame {
        let mut f = RawFrame::zeroed();
        let b = parse_hex(hex).unwrap();
        f.bytes[..b.len()].copy_from_slice(&b);
        f.bits = (b.len() * 8) as u8;
        f.sample = sample;
        f.power = 0.01;
        f.address = bits(&b, 9, 24) as u32;
        f
    }

    fn rows_of(p: &Pmt) -> Vec<&BTreeMap<String, Pmt>> {
        let Pmt::List(l) = p else { panic!("{p:?}") };
        l.iter()
            .map(|r| match r {
                Pmt::Map(m) => m,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn rows_hold_what_is_known_sorted_and_recent() {
        let mut t = Tracker::new(2.0e6);
        // The book's position pair of 40621d, one second apart.
        t.process(&frame("8D40621D58C386435CC412692AD6", 0));
        t.process(&frame("8D40621D58C382D690C8AC2863A7", 2_000_000));
        // A velocity message of 485020, 3 s in.
        t.process(&frame("8D485020994409940838175B284F", 6_000_000));
        let r = aircraft_reading(&t);
        let rows = rows_of(&r);
        assert_eq!(rows.len(), 2);
        let (a, b) = (rows[0], rows[1]);
        assert_eq!(a["icao"], Pmt::String("40621d".into()));
        assert_eq!(a["altitude_ft"], Pmt::I64(38000));
        assert_eq!(a["messages"], Pmt::U64(2));
        assert_eq!(a["seen_s"], Pmt::F64(2.0));
        assert_eq!(a["rssi_db"], Pmt::F64(-20.0));
        assert!(matches!(a["lat"], Pmt::F64(l) if (l - 52.2572).abs() < 1e-3));
        assert!(matches!(a["lon"], Pmt::F64(l) if (l - 3.9194).abs() < 1e-3));
        assert!(!a.contains_key("speed_kt") && !a.contains_key("callsign"));
        assert_eq!(b["icao"], Pmt::String("485020".into()));
        assert_eq!(b["seen_s"], Pmt::F64(0.0));
        assert!(matches!(b["speed_kt"], Pmt::F64(v) if (v - 159.0).abs() < 1.0));
        assert!(matches!(b["track_deg"], Pmt::F64(v) if (v - 182.9).abs() < 0.5));
        assert_eq!(b["vert_rate_fpm"], Pmt::I64(-832));
        assert!(!b.contains_key("lat"));
        // 301 s later, only the aircraft heard then is left.
        t.process(&frame("8D485020994409940838175B284F", 608_000_000));
        let r = aircraft_reading(&t);
        let rows = rows_of(&r);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["icao"], Pmt::String("485020".into()));
        assert_eq!(rows[0]["messages"], Pmt::U64(2));
    }

    #[test]
    fn no_aircraft_is_an_empty_list() {
        assert_eq!(aircraft_reading(&Tracker::new(2.0e6)), Pmt::List(vec![]));
    }
}
