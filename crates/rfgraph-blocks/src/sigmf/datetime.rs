//! The `core:datetime` check: an ISO-8601 date-time as SigMF writes it.
//!
//! SigMF asks for RFC 3339 in UTC (`2024-05-01T12:30:00.125Z`); its JSON
//! schema also accepts other ISO-8601 forms. This module accepts a full
//! date, optionally followed by `T` (or a space) and a time of day with
//! optional seconds, fraction and offset (`Z` or `±HH[:MM]`), with each
//! field in range. It only checks; it never converts times.

/// `Ok` when `s` is such a date-time; otherwise what is wrong.
pub(crate) fn check(s: &str) -> Result<(), String> {
    let b = s.as_bytes();
    let bad = |what: &str| {
        Err(format!(
            "`{s}` is not an ISO-8601 date-time (YYYY-MM-DDTHH:MM:SS.sssZ): {what}"
        ))
    };
    let digits = |at: usize, n: usize| -> Option<u32> {
        let part = b.get(at..at + n)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0u32, |v, d| v * 10 + u32::from(d - b'0')))
    };
    let (Some(_year), Some(month), Some(day)) = (digits(0, 4), digits(5, 2), digits(8, 2)) else {
        return bad("the date must read YYYY-MM-DD");
    };
    if b[4] != b'-' || b[7] != b'-' {
        return bad("the date must read YYYY-MM-DD");
    }
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return bad("month or day out of range");
    }
    if b.len() == 10 {
        return Ok(());
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return bad("the time must follow a `T`");
    }
    let (Some(hour), Some(minute)) = (digits(11, 2), digits(14, 2)) else {
        return bad("the time must read HH:MM");
    };
    if b[13] != b':' || hour > 23 || minute > 59 {
        return bad("the time must read HH:MM with the hour below 24");
    }
    let mut at = 16;
    if b.get(at) == Some(&b':') {
        match digits(at + 1, 2) {
            Some(sec) if sec <= 60 => at += 3,
            _ => return bad("seconds must be two digits up to 60"),
        }
        if matches!(b.get(at), Some(b'.' | b',')) {
            let frac = b[at + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if frac == 0 {
                return bad("a fraction of a second needs digits");
            }
            at += 1 + frac;
        }
    }
    match &b[at..] {
        [] | [b'Z'] | [b'z'] => Ok(()),
        [b'+' | b'-', rest @ ..] => {
            let ok = match rest.len() {
                2 => digits(at + 1, 2).is_some_and(|h| h <= 23),
                4 => {
                    digits(at + 1, 2).is_some_and(|h| h <= 23)
                        && digits(at + 3, 2).is_some_and(|m| m <= 59)
                }
                5 => {
                    rest[2] == b':'
                        && digits(at + 1, 2).is_some_and(|h| h <= 23)
                        && digits(at + 4, 2).is_some_and(|m| m <= 59)
                }
                _ => false,
            };
            if ok {
                Ok(())
            } else {
                bad("the offset must read Z or ±HH:MM")
            }
        }
        _ => bad("unexpected text after the time"),
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn accepts_sigmf_and_iso_forms() {
        for s in [
            "2024-05-01T12:30:00Z",
            "2024-05-01T12:30:00.125Z",
            "2024-05-01T12:30:00.123456789Z",
            "2024-05-01T12:30Z",
            "2024-05-01 12:30:00+02:00",
            "2024-05-01T12:30:00-0500",
            "2024-05-01",
            "2016-12-31T23:59:60Z",
        ] {
            assert_eq!(check(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn rejects_what_is_not_a_date_time() {
        for s in [
            "",
            "yesterday",
            "2024-13-01T00:00:00Z",
            "2024-05-01T24:00:00Z",
            "2024-05-01T12:30:00.Z",
            "2024-05-01T12:30:00Q",
            "2024-05-01T12",
            "2024/05/01",
            "2024-05-01T12:30:00+2",
            "2024-05-01é",
            "2024-05-01T12:61:00Z",
        ] {
            assert!(check(s).is_err(), "{s}");
        }
    }
}
