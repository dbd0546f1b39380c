//! The progress line a receiver shows on stderr while it runs: for a file
//! the share done, samples per second and the factor over real time; for
//! a device a running count. Also the summary printed when it ends.
//!
//! This module owns the wording, as pure functions of counts and times
//! (tested here); drawing the line is indicatif's, and reading the counts
//! from the flowgraph is `run`'s.

use std::time::Duration;

/// How far a run got: samples delivered by the source so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Samples delivered so far.
    pub samples: u64,
    /// Samples the input holds (files), `None` for devices.
    pub total: Option<u64>,
    /// The input's sample rate (samples per second of signal).
    pub rate: f64,
    /// Wall time since the graph started.
    pub elapsed: Duration,
}

/// `1.23 M`, `456 k`, `789 `: a number with an SI prefix, ready for a
/// unit (`S/s`) to follow.
pub fn si(x: f64) -> String {
    let a = x.abs();
    let (div, unit) = if a >= 1e9 {
        (1e9, " G")
    } else if a >= 1e6 {
        (1e6, " M")
    } else if a >= 1e3 {
        (1e3, " k")
    } else {
        return format!("{x:.0} ");
    };
    format!("{:.2}{unit}", x / div)
}

/// `1.23 M`, `789`: a count with an SI prefix.
fn count(x: u64) -> String {
    si(x as f64).trim_end().to_string()
}

impl Progress {
    /// Samples per second of wall time, `None` before any time passed.
    pub fn samples_per_second(&self) -> Option<f64> {
        let s = self.elapsed.as_secs_f64();
        (s > 0.0).then(|| self.samples as f64 / s)
    }

    /// Seconds of signal per second of wall time (`2.0`: twice as fast as
    /// the signal was recorded).
    pub fn real_time_factor(&self) -> Option<f64> {
        self.samples_per_second().map(|r| r / self.rate)
    }

    /// The line shown while running, e.g.
    /// `42.0 %  1.01 M of 2.40 M samples  12.3 MS/s  5.1× real time` for a
    /// file, `1.20 M samples (0.50 s)  2.40 MS/s  1.0× real time` for a
    /// device.
    pub fn line(&self) -> String {
        let speed = match (self.samples_per_second(), self.real_time_factor()) {
            (Some(sps), Some(x)) => format!("  {}S/s  {x:.1}× real time", si(sps)),
            _ => String::new(),
        };
        match self.total {
            Some(total) if total > 0 => {
                let pct = 100.0 * self.samples.min(total) as f64 / total as f64;
                format!(
                    "{pct:5.1} %  {} of {} samples{speed}",
                    count(self.samples),
                    count(total)
                )
            }
            _ => format!(
                "{} samples ({:.2} s){speed}",
                count(self.samples),
                self.samples as f64 / self.rate
            ),
        }
    }

    /// The summary once the run ended (`stopped`: by Ctrl-C), e.g.
    /// `2400000 samples (1.000 s of signal) in 0.12 s, 8.3× real time`.
    pub fn summary(&self, stopped: bool) -> String {
        let mut s = format!(
            "{} samples ({:.3} s of signal) in {:.2} s",
            self.samples,
            self.samples as f64 / self.rate,
            self.elapsed.as_secs_f64()
        );
        if let Some(x) = self.real_time_factor() {
            s += &format!(", {x:.1}× real time");
        }
        if stopped {
            s += " (stopped by Ctrl-C)";
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_shows_its_share_and_speed() {
        let p = Progress {
            samples: 1_200_000,
            total: Some(4_800_000),
            rate: 2.4e6,
            elapsed: Duration::from_millis(250),
        };
        assert_eq!(p.samples_per_second(), Some(4.8e6));
        assert_eq!(p.real_time_factor(), Some(2.0));
        assert_eq!(
            p.line(),
            " 25.0 %  1.20 M of 4.80 M samples  4.80 MS/s  2.0× real time"
        );
    }

    #[test]
    fn a_device_shows_a_running_count() {
        let p = Progress {
            samples: 500,
            total: None,
            rate: 1000.0,
            elapsed: Duration::from_secs(1),
        };
        assert_eq!(p.line(), "500 samples (0.50 s)  500 S/s  0.5× real time");
    }

    #[test]
    fn nothing_divides_by_zero() {
        let p = Progress {
            samples: 0,
            total: Some(0),
            rate: 1.0,
            elapsed: Duration::ZERO,
        };
        assert_eq!(p.samples_per_second(), None);
        assert_eq!(p.line(), "0 samples (0.00 s)");
        assert_eq!(
            p.summary(true),
            "0 samples (0.000 s of signal) in 0.00 s (stopped by Ctrl-C)"
        );
    }

    #[test]
    fn the_share_never_passes_100() {
        let p = Progress {
            samples: 11,
            total: Some(10),
            rate: 1.0,
            elapsed: Duration::from_secs(1),
        };
        assert!(p.line().starts_with("100.0 %"), "{}", p.line());
    }
}
