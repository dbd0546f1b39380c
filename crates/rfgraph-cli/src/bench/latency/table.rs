//! The `latency` experiment's part of the suite's summary: a markdown
//! table of the latency percentiles per rate, N and runtime/scheduler
//! (each the mean over the point's runs), and one figure per rate (p50 and
//! p99 of last-item latency against N).

use super::super::plot::draw;
use super::super::summary::series_name;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The columns after rate, N and runtime/scheduler: (field, heading).
const COLUMNS: &[(&str, &str)] = &[
    ("first_p50_us", "first p50 µs"),
    ("first_p99_us", "first p99 µs"),
    ("last_p50_us", "last p50 µs"),
    ("last_p99_us", "last p99 µs"),
    ("last_max_us", "last max µs"),
    ("source_late_p99_us", "source late p99 µs"),
    ("cpu_seconds", "CPU s"),
    ("seconds", "wall s"),
];

fn is_latency(r: &&Value) -> bool {
    r["experiment"] == "latency" && r.get("record").is_none()
}

/// Runs without a latency budget: the figures' series.
fn unbudgeted(r: &&Value) -> bool {
    r["max_latency_us"].is_null()
}

/// The row name of `r`: runtime/scheduler, and the budget it ran under.
fn row_name(r: &Value) -> String {
    let name = series_name(r, &[]);
    match r["max_latency_us"].as_f64() {
        Some(us) => format!("{name}, budget {} ms", us / 1e3),
        None => name,
    }
}

/// The table of every `latency` record in `records` (empty when none).
pub fn table(records: &[Value]) -> String {
    // (rate, stages) → series → runs' values of each column.
    type Runs = Vec<Vec<f64>>;
    let mut rows: BTreeMap<(u64, u64), BTreeMap<String, Runs>> = BTreeMap::new();
    for r in records.iter().filter(is_latency) {
        let key = (
            r["rate"].as_f64().unwrap_or(0.0) as u64,
            r["stages"].as_u64().unwrap_or(0),
        );
        let runs = rows
            .entry(key)
            .or_default()
            .entry(row_name(r))
            .or_insert_with(|| vec![Vec::new(); COLUMNS.len()]);
        for (i, (field, _)) in COLUMNS.iter().enumerate() {
            runs[i].push(r[*field].as_f64().unwrap_or(f64::NAN));
        }
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut md = String::from("| rate | N | runtime/scheduler |");
    for (_, heading) in COLUMNS {
        let _ = write!(md, " {heading} |");
    }
    md.push_str("\n|---|---|---|");
    md.push_str(&"---|".repeat(COLUMNS.len()));
    md.push('\n');
    for ((rate, stages), series) in &rows {
        for (name, runs) in series {
            let _ = write!(md, "| {} MS/s | {stages} | {name} |", *rate as f64 / 1e6);
            for (values, (field, _)) in runs.iter().zip(COLUMNS) {
                let mean = values.iter().sum::<f64>() / values.len() as f64;
                if field.ends_with("_us") {
                    let _ = write!(md, " {mean:.0} |");
                } else {
                    let _ = write!(md, " {mean:.3} |");
                }
            }
            md.push('\n');
        }
    }
    md
}

/// Draws `latency-<rate>.png` into `dir` for each rate in `records`:
/// last-item p50 and p99 against N. Returns the files written.
pub fn figures(records: &[Value], dir: &Path) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut rates: Vec<f64> = records
        .iter()
        .filter(is_latency)
        .filter(unbudgeted)
        .filter_map(|r| r["rate"].as_f64())
        .collect();
    rates.sort_by(f64::total_cmp);
    rates.dedup();
    let mut written = Vec::new();
    for rate in rates {
        let at_rate: Vec<Value> = records
            .iter()
            .filter(|r| r["rate"].as_f64() == Some(rate))
            .filter(unbudgeted)
            .cloned()
            .collect();
        let path = dir.join(format!("latency-{}MSps.png", rate / 1e6));
        draw(
            &at_rate,
            "latency",
            "stages",
            "last_p50_us,last_p99_us",
            &[],
            &path,
        )?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_row_per_point_and_series_with_means() {
        let rec = |runtime: &str, p50: f64| {
            json!({"experiment": "latency", "runtime": runtime, "scheduler": "tpb",
                   "rate": 1e6, "stages": 10, "first_p50_us": p50, "first_p99_us": 1.0,
                   "last_p50_us": 1.0, "last_p99_us": 1.0, "last_max_us": 1.0,
                   "source_late_p99_us": 1.0, "cpu_seconds": 0.5, "seconds": 1.0})
        };
        let md = table(&[
            rec("rfgraph", 10.0),
            rec("rfgraph", 20.0),
            rec("gnuradio-3.10", 300.0),
            json!({"experiment": "stream"}),
            {
                let mut budgeted = rec("rfgraph", 40.0);
                budgeted["max_latency_us"] = json!(2000.0);
                budgeted
            },
        ]);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines.len(), 5, "{md}");
        assert!(
            lines[4].starts_with("| 1 MS/s | 10 | rfgraph/tpb, budget 2 ms | 40 |"),
            "{md}"
        );
        assert!(
            lines[2].starts_with("| 1 MS/s | 10 | gnuradio-3.10/tpb | 300 |"),
            "{md}"
        );
        assert!(
            lines[3].starts_with("| 1 MS/s | 10 | rfgraph/tpb | 15 |"),
            "{md}"
        );
        assert!(table(&[]).is_empty());
    }
}
