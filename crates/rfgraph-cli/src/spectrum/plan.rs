//! How many frames each waterfall line averages and which lines are kept,
//! from the input's length and the options: a pure decision, tested here.
//!
//! This module owns the defaults of `rfgraph spectrum`: a file's lines
//! together cover all of it (each the average of its share), so the
//! averaged spectrum is the whole file's; a device's come ten a second.

use anyhow::bail;
use rfgraph_radio::spectrum::Interval;

/// Lines per second of an endless input, by default.
pub const DEVICE_LINES_PER_SECOND: f64 = 10.0;

/// The graph's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Frames per averaged line.
    pub average: usize,
    /// Which averaged lines the waterfall keeps.
    pub interval: Interval,
}

/// What the plan is made from.
#[derive(Clone, Copy, Debug)]
pub struct Want {
    /// FFT size.
    pub fft: usize,
    /// Samples of the input, when known.
    pub samples: Option<u64>,
    /// Its sample rate.
    pub rate: f64,
    /// `--average`, if given.
    pub average: Option<usize>,
    /// `--waterfall-lines`.
    pub lines: usize,
    /// `--line-time`, if given.
    pub line_time: Option<f64>,
}

/// Plans the averages and the waterfall's lines.
///
/// - `--average N` given: lines of `N` frames; otherwise a known length is
///   split into at most `--waterfall-lines` lines of equal frames, and an
///   endless input gets lines of `--line-time` (default 0.1 s).
/// - `--line-time S` given: one line per `S` seconds; otherwise every
///   line when they fit into `--waterfall-lines`, else one per
///   `length / lines` seconds.
///
/// Errors: an input shorter than one frame; options out of range.
pub fn plan(w: Want) -> anyhow::Result<Plan> {
    if w.lines == 0 {
        bail!("--waterfall-lines must be at least 1");
    }
    if let Some(0) = w.average {
        bail!("--average must be at least 1 frame");
    }
    if let Some(t) = w.line_time
        && !(t.is_finite() && t > 0.0)
    {
        bail!("--line-time must be a positive number of seconds, not {t}");
    }
    let frame_s = w.fft as f64 / w.rate;
    let frames = w.samples.map(|n| n / w.fft as u64);
    if let (Some(0), Some(n)) = (frames, w.samples) {
        bail!(
            "the input holds {n} samples, fewer than one {}-point frame: choose a smaller --fft",
            w.fft
        );
    }
    let average = match (w.average, frames, w.line_time) {
        (Some(n), _, _) => n,
        (None, Some(f), None) => f.div_ceil(w.lines as u64) as usize,
        (None, _, t) => {
            let t = t.unwrap_or(1.0 / DEVICE_LINES_PER_SECOND);
            ((t / frame_s).round() as usize).max(1)
        }
    };
    let interval = match (w.line_time, frames) {
        (Some(t), _) => Interval::Seconds(t),
        (None, Some(f)) if f.div_ceil(average as u64) > w.lines as u64 => {
            Interval::Seconds(f as f64 * frame_s / w.lines as f64)
        }
        _ => Interval::Frames(1),
    };
    Ok(Plan { average, interval })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn want(samples: Option<u64>) -> Want {
        Want {
            fft: 1000,
            samples,
            rate: 1e6,
            average: None,
            lines: 100,
            line_time: None,
        }
    }

    #[test]
    fn a_file_is_split_into_lines_that_cover_it() {
        // 1000 frames into 100 lines of 10.
        let p = plan(want(Some(1_000_000))).unwrap();
        assert_eq!(
            p,
            Plan {
                average: 10,
                interval: Interval::Frames(1)
            }
        );
        // 1050 frames: lines of 11, 96 of them.
        let p = plan(want(Some(1_050_000))).unwrap();
        assert_eq!(p.average, 11);
        // Fewer frames than lines: one frame per line.
        assert_eq!(plan(want(Some(5_000))).unwrap().average, 1);
    }

    #[test]
    fn a_given_average_thins_the_lines_out_by_time() {
        let p = plan(Want {
            average: Some(2),
            ..want(Some(1_000_000))
        })
        .unwrap();
        // 500 lines of 2 ms for 100 rows: one per 10 ms of signal.
        assert_eq!(p.average, 2);
        assert_eq!(p.interval, Interval::Seconds(0.01));
        let p = plan(Want {
            average: Some(20),
            ..want(Some(1_000_000))
        })
        .unwrap();
        assert_eq!(p.interval, Interval::Frames(1));
    }

    #[test]
    fn a_device_gets_ten_lines_a_second_or_its_line_time() {
        let p = plan(want(None)).unwrap();
        assert_eq!(
            p,
            Plan {
                average: 100,
                interval: Interval::Frames(1)
            }
        );
        let p = plan(Want {
            line_time: Some(0.5),
            ..want(None)
        })
        .unwrap();
        assert_eq!(
            p,
            Plan {
                average: 500,
                interval: Interval::Seconds(0.5)
            }
        );
    }

    #[test]
    fn bad_options_name_themselves() {
        for (w, option) in [
            (
                Want {
                    lines: 0,
                    ..want(None)
                },
                "--waterfall-lines",
            ),
            (
                Want {
                    average: Some(0),
                    ..want(None)
                },
                "--average",
            ),
            (
                Want {
                    line_time: Some(-1.0),
                    ..want(None)
                },
                "--line-time",
            ),
            (want(Some(999)), "--fft"),
        ] {
            let e = plan(w).unwrap_err().to_string();
            assert!(e.contains(option), "{e}");
        }
    }
}
