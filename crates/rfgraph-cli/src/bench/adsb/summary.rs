//! The end of `bench adsb` on stderr: per core count, each decoder's
//! medians (samples per second of wall time and of CPU time, real-time
//! factor, frames and DF17 frames per pass), then the ratios issue 41's
//! targets are stated in, each printed only when both sides ran:
//!
//! | ratio | same file | target |
//! |---|---|---|
//! | `rfgraph-2400 / dump1090-mutability` | 2.4 MS/s | ≥ 1.5× |
//! | `rfgraph-2400 / readsb` | 2.4 MS/s | frames ≥ readsb's |
//! | `rfgraph-2000 / dump1090-antirez` | 2 MS/s | ≥ 2× |

use super::super::setup;
use super::MODES;
use crate::console::errln;
use serde_json::Value;

/// The ratios printed, with what each is measured against.
const RATIOS: &[(&str, &str, &str)] = &[
    ("rfgraph-2400", "dump1090-mutability", "target 1.5×"),
    ("rfgraph-2400", "readsb", "target: readsb's frames"),
    ("rfgraph-2000", "dump1090-antirez", "target 2×"),
];

/// Prints the summary of `records` for each of `cores`.
pub fn print(records: &[Value], cores: &[usize], scheduler: &str) {
    for &c in cores {
        let on: Vec<&Value> = records.iter().filter(|r| r["cores"] == c).collect();
        let stat = |mode: &str, field: &str| {
            setup::median(
                on.iter()
                    .filter(|r| r["mode"] == mode)
                    .filter_map(|r| r[field].as_f64())
                    .collect(),
            )
        };
        let runs = on.iter().filter(|r| r["mode"] == MODES[0]).count();
        errln!("adsb on {c} core(s), rfgraph on {scheduler}, medians of {runs} run(s):");
        let num = |v: Option<f64>, scale: f64, digits: usize| {
            v.map_or("–".to_string(), |x| format!("{:.*}", digits, x / scale))
        };
        for mode in MODES {
            let Some(speed) = stat(mode, "samples_per_s") else {
                continue;
            };
            errln!(
                "  {mode:<20} {:>7.1} MS/s (CPU {:>6} MS/s) {:>6.1}× real time  {:>6} frames, {:>6} DF17 per pass",
                speed / 1e6,
                num(stat(mode, "cpu_samples_per_s"), 1e6, 1),
                stat(mode, "realtime").unwrap_or(f64::NAN),
                num(stat(mode, "frames_per_pass"), 1.0, 1),
                num(stat(mode, "df17_per_pass"), 1.0, 1),
            );
        }
        for (ours, theirs, target) in RATIOS {
            let ratio = |field: &str| Some(stat(ours, field)? / stat(theirs, field)?);
            let Some(speed) = ratio("samples_per_s") else {
                continue;
            };
            errln!(
                "  {ours} / {theirs}: {speed:.2}× the samples per second (CPU {}×; {target}); frames per pass {} / {}, DF17 {} / {}",
                num(ratio("cpu_samples_per_s"), 1.0, 2),
                num(stat(ours, "frames_per_pass"), 1.0, 1),
                num(stat(theirs, "frames_per_pass"), 1.0, 1),
                num(stat(ours, "df17_per_pass"), 1.0, 1),
                num(stat(theirs, "df17_per_pass"), 1.0, 1),
            );
        }
    }
}
