//! Compact Position Reporting (DO-260B §A.1.7, as "The 1090 MHz Riddle"
//! explains it): the latitude-zone function NL, encoding (for the
//! generator), global decoding of an even/odd pair (airborne, and surface
//! with a reference to choose among its quadrants) and local decoding
//! against a reference position.
//!
//! Pure arithmetic: which messages pair up, how old they may be and which
//! reference to trust is the tracker's business.

use std::f64::consts::PI;

/// 2^17: the CPR fields' full scale.
pub const SCALE: f64 = 131_072.0;

/// A CPR-encoded position: format (odd or even) and the 17-bit fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CprFrame {
    /// True for the odd format (F = 1).
    pub odd: bool,
    /// Encoded latitude, 0..2^17.
    pub lat: u32,
    /// Encoded longitude, 0..2^17.
    pub lon: u32,
}

fn modulo(x: f64, y: f64) -> f64 {
    x - y * (x / y).floor()
}

/// The number of longitude zones at latitude `lat` (degrees): 59 at the
/// equator down to 1 beyond 87°.
pub fn nl(lat: f64) -> u32 {
    let lat = lat.abs();
    if !lat.is_finite() {
        return 1;
    }
    if lat < 1e-9 {
        return 59;
    }
    if (lat - 87.0).abs() < 1e-9 {
        return 2;
    }
    if lat > 87.0 {
        return 1;
    }
    let a = 1.0 - (PI / 30.0).cos();
    let b = (PI / 180.0 * lat).cos().powi(2);
    let x = 1.0 - a / b;
    if x <= -1.0 {
        return 1;
    }
    (2.0 * PI / x.acos()).floor() as u32
}

/// The zone span: 360° airborne, 90° on the surface.
fn span(surface: bool) -> f64 {
    if surface { 90.0 } else { 360.0 }
}

/// Encodes a position (degrees) as a transponder does.
pub fn encode(lat: f64, lon: f64, odd: bool, surface: bool) -> CprFrame {
    let i = if odd { 1.0 } else { 0.0 };
    let span = span(surface);
    let dlat = span / (60.0 - i);
    let yz = (SCALE * modulo(lat, dlat) / dlat + 0.5).floor();
    let rlat = dlat * (yz / SCALE + (lat / dlat).floor());
    let zones = (f64::from(nl(rlat)) - i).max(1.0);
    let dlon = span / zones;
    let xz = (SCALE * modulo(lon, dlon) / dlon + 0.5).floor();
    CprFrame {
        odd,
        lat: (yz as u64 % 131_072) as u32,
        lon: (xz as u64 % 131_072) as u32,
    }
}

/// The latitudes of both frames of a pair (degrees, in `[0, span/4·…)`
/// before the hemisphere is chosen), from the zone index they agree on.
fn pair_latitudes(even: CprFrame, odd: CprFrame, surface: bool) -> (f64, f64) {
    let span = span(surface);
    let (lat0, lat1) = (f64::from(even.lat) / SCALE, f64::from(odd.lat) / SCALE);
    let j = (59.0 * lat0 - 60.0 * lat1 + 0.5).floor();
    let rlat0 = span / 60.0 * (modulo(j, 60.0) + lat0);
    let rlat1 = span / 59.0 * (modulo(j, 59.0) + lat1);
    (rlat0, rlat1)
}

/// The longitude of the newer frame of a pair at latitude `rlat`.
fn pair_longitude(
    even: CprFrame,
    odd: CprFrame,
    newest_odd: bool,
    rlat: f64,
    surface: bool,
) -> f64 {
    let span = span(surface);
    let (lon0, lon1) = (f64::from(even.lon) / SCALE, f64::from(odd.lon) / SCALE);
    let zones = f64::from(nl(rlat));
    let i = if newest_odd { 1.0 } else { 0.0 };
    let ni = (zones - i).max(1.0);
    let m = (lon0 * (zones - 1.0) - lon1 * zones + 0.5).floor();
    let own = if newest_odd { lon1 } else { lon0 };
    span / ni * (modulo(m, ni) + own)
}

/// Globally decodes an airborne even/odd pair: the position of the newer
/// frame (`newest_odd` says which), or `None` when the two lie in
/// different longitude zones (the aircraft crossed a zone boundary
/// between them) or the latitude is impossible.
pub fn global_airborne(even: CprFrame, odd: CprFrame, newest_odd: bool) -> Option<(f64, f64)> {
    let (mut rlat0, mut rlat1) = pair_latitudes(even, odd, false);
    if rlat0 >= 270.0 {
        rlat0 -= 360.0;
    }
    if rlat1 >= 270.0 {
        rlat1 -= 360.0;
    }
    if !(-90.0..=90.0).contains(&rlat0) || !(-90.0..=90.0).contains(&rlat1) {
        return None;
    }
    if nl(rlat0) != nl(rlat1) {
        return None;
    }
    let rlat = if newest_odd { rlat1 } else { rlat0 };
    let mut lon = pair_longitude(even, odd, newest_odd, rlat, false);
    if lon >= 180.0 {
        lon -= 360.0;
    }
    Some((rlat, lon))
}

/// Globally decodes a surface even/odd pair: of the solutions (two
/// hemispheres, four longitude quadrants) the one nearest `reference`
/// (the receiver, or the aircraft's last position; it must lie within
/// 45 NM for the answer to be right).
pub fn global_surface(
    even: CprFrame,
    odd: CprFrame,
    newest_odd: bool,
    reference: (f64, f64),
) -> Option<(f64, f64)> {
    let (rlat0, rlat1) = pair_latitudes(even, odd, true);
    // Northern solutions lie in [0, 90); the southern are 90° less.
    let pick = |r: f64| {
        if (r - 90.0 - reference.0).abs() < (r - reference.0).abs() {
            r - 90.0
        } else {
            r
        }
    };
    let (rlat0, rlat1) = (pick(rlat0), pick(rlat1));
    if nl(rlat0) != nl(rlat1) {
        return None;
    }
    let rlat = if newest_odd { rlat1 } else { rlat0 };
    let lon = pair_longitude(even, odd, newest_odd, rlat, true);
    let lon = (0..4)
        .map(|k| modulo(lon + 90.0 * f64::from(k) + 180.0, 360.0) - 180.0)
        .min_by(|a, b| {
            angle_gap(*a, reference.1)
                .partial_cmp(&angle_gap(*b, reference.1))
                .unwrap_or(std::cmp::Ordering::Equal)
        })?;
    Some((rlat, lon))
}

/// Degrees between two longitudes, across the antimeridian too.
fn angle_gap(a: f64, b: f64) -> f64 {
    let d = modulo(a - b, 360.0);
    d.min(360.0 - d)
}

/// Locally decodes one frame against `reference` (degrees): the position
/// in the zone cell nearest the reference. Right when the reference lies
/// within half a zone (about 180 NM airborne, 45 NM on the surface).
pub fn local(frame: CprFrame, surface: bool, reference: (f64, f64)) -> (f64, f64) {
    let span = span(surface);
    let i = if frame.odd { 1.0 } else { 0.0 };
    let (lat_c, lon_c) = (f64::from(frame.lat) / SCALE, f64::from(frame.lon) / SCALE);
    let dlat = span / (60.0 - i);
    let j = (reference.0 / dlat).floor() + (0.5 + modulo(reference.0, dlat) / dlat - lat_c).floor();
    let lat = dlat * (j + lat_c);
    let dlon = span / (f64::from(nl(lat)) - i).max(1.0);
    let m = (reference.1 / dlon).floor() + (0.5 + modulo(reference.1, dlon) / dlon - lon_c).floor();
    let lon = dlon * (m + lon_c);
    (lat, lon)
}

/// Great-circle distance in metres between two positions (degrees), on a
/// sphere of the Earth's mean radius.
pub fn distance_m(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (p1, p2) = (a.0.to_radians(), b.0.to_radians());
    let dp = p2 - p1;
    let dl = (b.1 - a.1).to_radians();
    let h = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * 6_371_008.8 * h.sqrt().min(1.0).asin()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(odd: bool, lat: u32, lon: u32) -> CprFrame {
        CprFrame { odd, lat, lon }
    }

    /// "The 1090 MHz Riddle", airborne position: 8D40621D58C382D690C8AC2863A7
    /// (even) and 8D40621D58C386435CC412692AD6 (odd).
    #[test]
    fn riddle_airborne_global_and_local() {
        let even = frame(false, 93000, 51372);
        let odd = frame(true, 74158, 50194);
        let (lat, lon) = global_airborne(even, odd, false).unwrap();
        assert!((lat - 52.257_202_148_437_5).abs() < 1e-9, "{lat}");
        assert!((lon - 3.919_372_558_593_75).abs() < 1e-9, "{lon}");
        // The odd frame's latitude, as the book gives it.
        let (lat1, _) = global_airborne(even, odd, true).unwrap();
        assert!((lat1 - 52.265_780_174_126_06).abs() < 1e-9, "{lat1}");
        assert_eq!(nl(52.257_202_148_437_5), 36);
        // Local decoding of the even frame against (52.258, 3.918).
        let (lat, lon) = local(even, false, (52.258, 3.918));
        assert!((lat - 52.257_202_148_437_5).abs() < 1e-9);
        assert!((lon - 3.919_372_558_593_75).abs() < 1e-9);
    }

    /// "The 1090 MHz Riddle", surface position: 8C4841753AAB238733C8CD4020B1
    /// (even) and 8C4841753A8A35323FAEBDAC702D (odd, newer), receiver at
    /// (51.990, 4.375): 52.32061°, 4.73473°.
    #[test]
    fn riddle_surface() {
        let even = frame(false, 115609, 116941);
        let odd = frame(true, 39199, 110269);
        let (lat, lon) = global_surface(even, odd, true, (51.990, 4.375)).unwrap();
        assert!((lat - 52.320_607_072_215_96).abs() < 1e-9, "{lat}");
        assert!((lon - 4.734_734_671_456_47).abs() < 1e-9, "{lon}");
        let (lat, lon) = local(odd, true, (51.990, 4.375));
        assert!((lat - 52.320_607_072_215_96).abs() < 1e-9, "{lat}");
        assert!((lon - 4.734_734_671_456_47).abs() < 1e-9, "{lon}");
        // A southern, western position resolves there, against a
        // reference 20 NM away.
        let (lat, lon) = (-33.946, -118.408);
        let (e, o) = (encode(lat, lon, false, true), encode(lat, lon, true, true));
        let p = global_surface(e, o, false, (-34.1, -118.7)).unwrap();
        assert!(distance_m(p, (lat, lon)) < 2.0, "{p:?}");
    }

    #[test]
    fn nl_table_edges() {
        assert_eq!(nl(0.0), 59);
        assert_eq!(nl(10.47), 59);
        assert_eq!(nl(10.48), 58);
        assert_eq!(nl(-86.9), 2);
        assert_eq!(nl(87.0), 2);
        assert_eq!(nl(88.0), 1);
        assert_eq!(nl(f64::NAN), 1);
    }

    /// Encoding then decoding returns the position within the format's
    /// resolution, everywhere.
    #[test]
    fn round_trip() {
        let mut worst: f64 = 0.0;
        for k in 0..2000 {
            let lat = -85.0 + 170.0 * ((k * 7919) % 2000) as f64 / 2000.0;
            let lon = -180.0 + 360.0 * ((k * 104_729) % 2000) as f64 / 2000.0;
            let (e, o) = (
                encode(lat, lon, false, false),
                encode(lat, lon, true, false),
            );
            for newest_odd in [false, true] {
                if let Some(p) = global_airborne(e, o, newest_odd) {
                    worst = worst.max(distance_m(p, (lat, lon)));
                }
            }
            let near = (lat + 0.3, lon - 0.4);
            worst = worst.max(distance_m(local(e, false, near), (lat, lon)));
            let (se, so) = (encode(lat, lon, false, true), encode(lat, lon, true, true));
            let p = global_surface(se, so, true, near).unwrap();
            assert!(distance_m(p, (lat, lon)) < 2.0, "{lat} {lon} {p:?}");
        }
        assert!(worst < 5.0, "{worst} m");
    }
}
