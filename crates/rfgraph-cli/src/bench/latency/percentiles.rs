//! [`Percentiles`]: p50, p99 and the maximum of a set of durations, in
//! microseconds, by the nearest-rank rule (the value at rank ⌈p·n⌉ of the
//! sorted samples: always one of the samples, never an interpolation).

use std::time::Duration;

/// The median, 99th percentile and maximum of some durations, µs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Percentiles {
    /// Half the samples are at or below this.
    pub p50: f64,
    /// 99 % of the samples are at or below this.
    pub p99: f64,
    /// The largest sample.
    pub max: f64,
}

impl Percentiles {
    /// The percentiles of `samples` (NaN when there are none).
    pub fn of(samples: &[Duration]) -> Self {
        let mut us: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e6).collect();
        us.sort_by(f64::total_cmp);
        let rank = |p: f64| {
            let n = us.len();
            if n == 0 {
                return f64::NAN;
            }
            let r = ((p * n as f64).ceil() as usize).clamp(1, n);
            us[r - 1]
        };
        Self {
            p50: rank(0.5),
            p99: rank(0.99),
            max: rank(1.0),
        }
    }

    /// The fields `{prefix}_p50_us`, `{prefix}_p99_us`, `{prefix}_max_us`.
    pub fn fields(&self, prefix: &str) -> [(String, f64); 3] {
        [
            (format!("{prefix}_p50_us"), self.p50),
            (format!("{prefix}_p99_us"), self.p99),
            (format!("{prefix}_max_us"), self.max),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let d: Vec<Duration> = (1..=200).rev().map(Duration::from_micros).collect();
        let p = Percentiles::of(&d);
        assert_eq!((p.p50, p.p99, p.max), (100.0, 198.0, 200.0));
        let one = Percentiles::of(&[Duration::from_micros(7)]);
        assert_eq!((one.p50, one.p99, one.max), (7.0, 7.0, 7.0));
        assert!(Percentiles::of(&[]).p50.is_nan());
    }
}
