//! The text of dump1090's network outputs: raw frames (`*HEX;`, port
//! 30002) and SBS/BaseStation CSV (`MSG,...`, port 30003), from a
//! [`Message`].

use crate::modes::Message;
use crate::modes::decode::Kind;

/// The raw line of a message: `*` + upper-case hex + `;` (no newline).
pub fn raw_line(m: &Message) -> String {
    format!("*{};", m.hex.to_ascii_uppercase())
}

/// The raw line of a message given as its JSON (what
/// [`ModesDecoder`](crate::modes::ModesDecoder) posts), or `None` for text
/// that is not one: for [`LineWriter::with_transform`](crate::modes::LineWriter::with_transform).
pub fn raw_line_from_json(json: &str) -> Option<String> {
    serde_json::from_str::<Message>(json)
        .ok()
        .map(|m| raw_line(&m))
}

/// The BaseStation line of a message (no newline), or `None` for
/// messages BaseStation has no type for. `date` and `time` fill the
/// generated/logged fields (`2024/05/01`, `12:00:00.000`).
///
/// Columns: `MSG`, transmission type, session, aircraft, hex ident,
/// flight, date and time generated, date and time logged, callsign,
/// altitude, ground speed, track, latitude, longitude, vertical rate,
/// squawk, alert, emergency, SPI, on ground.
pub fn sbs_line(m: &Message, date: &str, time: &str) -> Option<String> {
    let f = &m.fields;
    let kind = f.kind?;
    let ty = match kind {
        Kind::Identification => 1,
        Kind::SurfacePosition => 2,
        Kind::AirbornePosition => 3,
        Kind::Velocity => 4,
        Kind::Altitude | Kind::CommBAltitude => 5,
        Kind::Identity | Kind::CommBIdentity => 6,
        Kind::AirAir | Kind::LongAirAir => 7,
        Kind::AllCall => 8,
        Kind::OtherExtendedSquitter => return None,
    };
    let mut c: [String; 12] = Default::default();
    let num =
        |v: Option<f64>, digits: usize| v.map(|v| format!("{v:.digits$}")).unwrap_or_default();
    match ty {
        1 => c[0] = f.callsign.clone().unwrap_or_default(),
        2 => {
            c[2] = num(f.ground_speed_kt, 0);
            c[3] = num(f.track_deg, 0);
            c[4] = num(f.lat, 5);
            c[5] = num(f.lon, 5);
            c[11] = "-1".into();
        }
        3 => {
            c[1] = f.altitude_ft.map(|a| a.to_string()).unwrap_or_default();
            c[4] = num(f.lat, 5);
            c[5] = num(f.lon, 5);
            c[11] = "0".into();
        }
        4 => {
            c[2] = num(f.ground_speed_kt, 0);
            c[3] = num(f.track_deg, 0);
            c[6] = f
                .vertical_rate_fpm
                .map(|v| v.to_string())
                .unwrap_or_default();
            c[11] = "0".into();
        }
        5 | 6 => {
            if ty == 5 {
                c[1] = f.altitude_ft.map(|a| a.to_string()).unwrap_or_default();
            } else {
                c[7] = f.squawk.clone().unwrap_or_default();
                let emergency = matches!(f.squawk.as_deref(), Some("7500" | "7600" | "7700"));
                c[9] = flag(emergency);
            }
            let fs = f.flight_status.unwrap_or(0);
            c[8] = flag(matches!(fs, 2..=4));
            c[10] = flag(matches!(fs, 4 | 5));
            c[11] = flag(matches!(fs, 1 | 3));
        }
        7 => c[1] = f.altitude_ft.map(|a| a.to_string()).unwrap_or_default(),
        _ => {}
    }
    Some(format!(
        "MSG,{ty},1,1,{},1,{date},{time},{date},{time},{}",
        m.icao.to_ascii_uppercase(),
        c.join(",")
    ))
}

/// BaseStation's boolean: `-1` true, `0` false.
fn flag(b: bool) -> String {
    if b { "-1" } else { "0" }.to_string()
}

/// The UTC date (`YYYY/MM/DD`) and time (`HH:MM:SS.mmm`) of a Unix time
/// in milliseconds, as BaseStation writes them.
pub fn sbs_datetime(unix_ms: u64) -> (String, String) {
    let days = (unix_ms / 86_400_000) as i64;
    let ms = unix_ms % 86_400_000;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        format!("{y:04}/{m:02}/{d:02}"),
        format!(
            "{:02}:{:02}:{:02}.{:03}",
            ms / 3_600_000,
            ms / 60_000 % 60,
            ms / 1000 % 60,
            ms % 1000
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::decode::{Fields, Kind};

    fn msg(fields: Fields) -> Message {
        Message {
            sample: 0,
            hex: "8d4840d6202cc371c32ce0576098".into(),
            df: 17,
            icao: "4840d6".into(),
            signal_dbfs: -10.0,
            corrected_bits: 0,
            fields,
        }
    }

    #[test]
    fn lines() {
        let m = msg(Fields {
            kind: Some(Kind::Identification),
            callsign: Some("KLM1023".into()),
            ..Fields::default()
        });
        assert_eq!(raw_line(&m), "*8D4840D6202CC371C32CE0576098;");
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(raw_line_from_json(&json).unwrap(), raw_line(&m));
        assert_eq!(raw_line_from_json("{}"), None);
        assert_eq!(
            sbs_line(&m, "2024/05/01", "12:00:00.000").unwrap(),
            "MSG,1,1,1,4840D6,1,2024/05/01,12:00:00.000,2024/05/01,12:00:00.000,KLM1023,,,,,,,,,,,"
        );
        let m = msg(Fields {
            kind: Some(Kind::AirbornePosition),
            altitude_ft: Some(38000),
            lat: Some(52.2572021484375),
            lon: Some(3.91937255859375),
            ..Fields::default()
        });
        let l = sbs_line(&m, "d", "t").unwrap();
        assert_eq!(
            l,
            "MSG,3,1,1,4840D6,1,d,t,d,t,,38000,,,52.25720,3.91937,,,,,,0"
        );
        assert_eq!(l.split(',').count(), 22);
        let m = msg(Fields {
            kind: Some(Kind::Identity),
            squawk: Some("7700".into()),
            flight_status: Some(1),
            ..Fields::default()
        });
        assert_eq!(
            sbs_line(&m, "d", "t").unwrap(),
            "MSG,6,1,1,4840D6,1,d,t,d,t,,,,,,,,7700,0,-1,0,-1"
        );
        assert_eq!(
            sbs_datetime(0),
            ("1970/01/01".into(), "00:00:00.000".into())
        );
        assert_eq!(
            sbs_datetime(1_714_564_800_123),
            ("2024/05/01".into(), "12:00:00.123".into())
        );
    }
}
