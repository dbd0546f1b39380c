//! Statistics over repeated runs: grouping JSON records into series and
//! points, and the mean with its 95 % confidence interval.

use serde_json::Value;
use std::collections::BTreeMap;

/// Mean and half-width of the 95 % confidence interval of the mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Sample mean.
    pub mean: f64,
    /// Half-width of the 95 % confidence interval (0 for one sample).
    pub ci95: f64,
    /// Number of samples.
    pub n: usize,
}

/// Two-sided 97.5 % quantile of Student's t with `df` degrees of freedom.
fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if df == 0 {
        f64::NAN
    } else {
        TABLE.get(df - 1).copied().unwrap_or(1.96)
    }
}

impl Estimate {
    /// The estimate of `samples` (must not be empty).
    pub fn of(samples: &[f64]) -> Self {
        let n = samples.len();
        let mean = samples.iter().sum::<f64>() / n as f64;
        if n < 2 {
            return Self { mean, ci95: 0.0, n };
        }
        let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        Self {
            mean,
            ci95: t975(n - 1) * (var / n as f64).sqrt(),
            n,
        }
    }
}

/// The name of a record's series: runtime and scheduler (e.g.
/// `rfgraph/tpb`, `gnuradio-3.10/tpb`, `rfgraph/fused`), plus `extra`
/// fields (e.g. the load experiment's mode).
pub fn series_name(record: &Value, extra: &[&str]) -> String {
    let mut name = format!(
        "{}/{}",
        record["runtime"].as_str().unwrap_or("?"),
        record["scheduler"].as_str().unwrap_or("?")
    );
    for key in extra {
        if let Some(v) = record.get(*key) {
            name.push_str(&format!(
                " {key}={}",
                v.as_str().map_or(v.to_string(), str::to_string)
            ));
        }
    }
    name
}

/// The x value of a record: `blocks` (blocks that process samples, as the
/// papers count them: pipes × stages, or branches × stages, or saxpy
/// blocks), `stages`, or any numeric field.
pub fn x_value(record: &Value, x: &str) -> Option<f64> {
    let num = |k: &str| record.get(k).and_then(Value::as_f64);
    match x {
        "blocks" => match record["experiment"].as_str()? {
            "stream" | "msg" => Some(num("pipes")? * num("stages")?),
            "chain" => Some(num("branches")? * num("stages")?),
            _ => num("blocks"),
        },
        other => num(other),
    }
}

/// Points of one series: x → samples of the y field.
pub type Series = BTreeMap<String, BTreeMap<u64, (f64, Vec<f64>)>>;

/// Groups run records (those with `seconds`, not per-block statistics) of
/// `experiment` into series of (x, samples of `y`).
pub fn group(records: &[Value], experiment: &str, x: &str, y: &str, extra: &[&str]) -> Series {
    let mut series: Series = BTreeMap::new();
    for r in records
        .iter()
        .filter(|r| r["experiment"] == experiment && r.get("record").is_none())
    {
        let (Some(xv), Some(yv)) = (x_value(r, x), r.get(y).and_then(Value::as_f64)) else {
            continue;
        };
        series
            .entry(series_name(r, extra))
            .or_default()
            .entry(xv.to_bits())
            .or_insert_with(|| (xv, Vec::new()))
            .1
            .push(yv);
    }
    series
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn estimate_matches_hand_computation() {
        let e = Estimate::of(&[1.0, 2.0, 3.0]);
        assert_eq!(e.mean, 2.0);
        // sd = 1, t(2) = 4.303, ci = 4.303 / sqrt(3)
        assert!((e.ci95 - 4.303 / 3f64.sqrt()).abs() < 1e-9);
        assert_eq!(Estimate::of(&[5.0]).ci95, 0.0);
    }

    #[test]
    fn grouping_by_series_and_blocks() {
        let records = vec![
            json!({"experiment":"stream","runtime":"rfgraph","scheduler":"tpb","pipes":2,"stages":3,"seconds":1.0}),
            json!({"experiment":"stream","runtime":"rfgraph","scheduler":"tpb","pipes":2,"stages":3,"seconds":3.0}),
            json!({"experiment":"stream","runtime":"gnuradio-3.10","scheduler":"tpb","pipes":2,"stages":3,"seconds":5.0}),
            json!({"experiment":"stream","record":"block_stats","runtime":"rfgraph","scheduler":"tpb","pipes":2,"stages":3,"seconds":9.0}),
            json!({"experiment":"msg","runtime":"rfgraph","scheduler":"tpb","pipes":2,"stages":3,"seconds":9.0}),
        ];
        let g = group(&records, "stream", "blocks", "seconds", &[]);
        assert_eq!(g.len(), 2);
        let points = &g["rfgraph/tpb"];
        let (x, samples) = points.values().next().unwrap();
        assert_eq!(*x, 6.0);
        assert_eq!(samples, &vec![1.0, 3.0]);
    }
}
