//! The `core:datetime` value: a host time as SigMF's ISO 8601 UTC text
//! (`2024-05-01T12:34:56.789012Z`).
//!
//! Owns the calendar arithmetic only (days since the Unix epoch to a civil
//! date, proleptic Gregorian, as in Howard Hinnant's `civil_from_days`),
//! so the crate needs no date library. It never reads a clock itself.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// `t` as ISO 8601 UTC with microseconds; times before 1970 print as the
/// epoch (no host clock reads such a time for a live stream).
pub fn iso8601(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_micros()
    )
}

/// Year, month (1-12) and day (1-31) of day `z` after 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64, micros: u32) -> SystemTime {
        UNIX_EPOCH + Duration::new(secs, micros * 1000)
    }

    #[test]
    fn known_instants_print_as_date_command_prints_them() {
        // `date -u -d @<secs> +%FT%T` for each.
        assert_eq!(iso8601(at(0, 0)), "1970-01-01T00:00:00.000000Z");
        assert_eq!(iso8601(at(951_782_400, 1)), "2000-02-29T00:00:00.000001Z");
        assert_eq!(
            iso8601(at(1_714_566_896, 789_012)),
            "2024-05-01T12:34:56.789012Z"
        );
        assert_eq!(iso8601(at(4_107_542_399, 0)), "2100-02-28T23:59:59.000000Z");
        assert_eq!(iso8601(at(4_107_542_400, 0)), "2100-03-01T00:00:00.000000Z");
    }

    fn month_length(y: i64, m: u32) -> u32 {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        match m {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        }
    }

    /// Over five centuries, each day is the day after the one before, and
    /// a month ends exactly on its last day (leap years by the Gregorian
    /// rule).
    #[test]
    fn every_day_follows_the_one_before() {
        let mut prev = civil_from_days(-1);
        assert_eq!(prev, (1969, 12, 31));
        for z in 0..200_000 {
            let (y, m, d) = civil_from_days(z);
            let (py, pm, pd) = prev;
            let ok = if pd < month_length(py, pm) {
                (y, m, d) == (py, pm, pd + 1)
            } else if pm < 12 {
                (y, m, d) == (py, pm + 1, 1)
            } else {
                (y, m, d) == (py + 1, 1, 1)
            };
            assert!(ok, "{prev:?} -> {:?}", (y, m, d));
            prev = (y, m, d);
        }
    }
}
