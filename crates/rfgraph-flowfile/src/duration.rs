//! Durations in files and on the command line (`[scheduler] max_latency`,
//! `--max-latency`, `rfgraph bench latency --period`): a number with a
//! unit (`1ms`, `500us`, `500µs`, `250000ns`, `2s`, `0.5ms`), or a bare
//! number of seconds.

use std::time::Duration;

/// Parses `text` as a positive duration.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| c.is_alphabetic() || c == 'µ')
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 1e-3,
        "us" | "µs" => 1e-6,
        "ns" => 1e-9,
        other => return Err(format!("unknown unit `{other}` (s, ms, us, ns)")),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("not a duration: `{text}` (e.g. 1ms, 500us)"))?;
    let d = Duration::try_from_secs_f64(value * scale).map_err(|e| format!("`{text}`: {e}"))?;
    if d.is_zero() {
        return Err(format!("`{text}` is not a positive duration"));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(parse_duration("1ms"), Ok(Duration::from_millis(1)));
        assert_eq!(parse_duration("500us"), Ok(Duration::from_micros(500)));
        assert_eq!(parse_duration("500µs"), Ok(Duration::from_micros(500)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("0.5 s"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("250000ns"), Ok(Duration::from_micros(250)));
        assert!(parse_duration("0ms").is_err());
        assert!(parse_duration("1h").is_err());
        assert!(parse_duration("ms").is_err());
    }

    proptest::proptest! {
        /// Any text is a duration or an error, never a panic; a positive
        /// number with a unit comes back as that many units.
        #[test]
        fn any_text_parses_or_is_refused(text in "\\PC{0,16}") {
            let _ = parse_duration(&text);
        }

        #[test]
        fn numbers_with_units_round_trip(us in 1u64..10_000_000_000, unit in 0usize..4) {
            let (suffix, per_us) = [("us", 1.0), ("ms", 1e-3), ("s", 1e-6), ("ns", 1e3)][unit];
            let text = format!("{}{suffix}", us as f64 * per_us);
            let d = parse_duration(&text).unwrap();
            proptest::prop_assert!((d.as_secs_f64() * 1e6 - us as f64).abs() <= 1e-3 * us as f64);
        }
    }
}
