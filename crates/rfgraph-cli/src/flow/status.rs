//! The wording of `rfgraph run`'s live status line and its end-of-run
//! statistics table, as pure functions of counts and times.

use rfgraph::BlockStats;
use std::time::Duration;

/// `1.23 M`, `456 k`, `789`: a number with an SI prefix.
pub fn si(x: f64) -> String {
    let a = x.abs();
    let (div, unit) = if a >= 1e9 {
        (1e9, " G")
    } else if a >= 1e6 {
        (1e6, " M")
    } else if a >= 1e3 {
        (1e3, " k")
    } else {
        return format!("{x:.0}");
    };
    format!("{:.2}{unit}", x / div)
}

/// The live line: each sink's rate over the last interval,
/// `snk 1.20 M items/s (3.00 M)`, joined by `  |  `.
pub fn sink_line(sinks: &[(String, u64, u64)], interval: Duration) -> String {
    let secs = interval.as_secs_f64().max(1e-9);
    sinks
        .iter()
        .map(|(name, before, now)| {
            let rate = now.saturating_sub(*before) as f64 / secs;
            format!("{name} {} items/s ({} items)", si(rate), si(*now as f64))
        })
        .collect::<Vec<_>>()
        .join("  |  ")
}

/// The per-block table printed by `--stats`.
pub fn stats_table(stats: &[BlockStats], run_time: Duration) -> String {
    let width = stats
        .iter()
        .map(|s| s.block.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "{:<width$}  {:<20}  {:>12}  {:>12}  {:>10}  {:>9}\n",
        "block", "kind", "items in", "items out", "work calls", "work ms"
    );
    for s in stats {
        let kind: String = s.type_name.chars().take(20).collect();
        out.push_str(&format!(
            "{:<width$}  {:<20}  {:>12}  {:>12}  {:>10}  {:>9.1}\n",
            s.block,
            kind,
            s.items_consumed,
            s.items_produced,
            s.work_calls,
            s.work_ns as f64 / 1e6
        ));
    }
    out.push_str(&format!("run time: {:.3} s\n", run_time.as_secs_f64()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_each_sinks_rate() {
        let line = sink_line(
            &[("snk".into(), 1_000_000, 2_200_000), ("dbg".into(), 0, 500)],
            Duration::from_secs(1),
        );
        assert_eq!(
            line,
            "snk 1.20 M items/s (2.20 M items)  |  dbg 500 items/s (500 items)"
        );
    }
}
