//! `rfgraph bench plot`: the papers' figures from JSONL results — y against
//! the number of blocks (or stages, ...), one line per runtime and
//! scheduler, with error bars for the 95 % confidence interval of the mean.

use super::summary::{Estimate, group};
use crate::console::errln;
use anyhow::{Context, bail};
use clap::Args;
use plotters::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Options of `rfgraph bench plot`.
#[derive(Args, Debug, Clone)]
pub struct PlotArgs {
    /// JSONL result files.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// Output PNG.
    #[arg(short, long)]
    pub output: PathBuf,
    /// The x axis: blocks, stages, or any numeric field (e.g. amount).
    #[arg(long, default_value = "blocks")]
    pub x: String,
    /// The y axis: seconds, or a rate field (e.g. block_items_per_s);
    /// several fields, comma-separated, draw one line each
    /// (`last_p50_us,last_p99_us`).
    #[arg(long, default_value = "seconds")]
    pub y: String,
    /// Experiment to plot (default: the first one in the files).
    #[arg(long)]
    pub experiment: Option<String>,
    /// Extra fields that split series (e.g. mode for `load`).
    #[arg(long, value_delimiter = ',')]
    pub split: Vec<String>,
    /// Only records whose field has this value (`rate=20000000`); repeatable.
    #[arg(long, value_name = "FIELD=VALUE")]
    pub only: Vec<String>,
}

/// True when `record` matches every `FIELD=VALUE` of `only` (numbers
/// compare as numbers, so `rate=20e6` matches `20000000.0`).
fn matches(record: &Value, only: &[String]) -> bool {
    only.iter().all(|cond| {
        let Some((field, want)) = cond.split_once('=') else {
            return false;
        };
        let got = &record[field.trim()];
        match (got.as_f64(), want.trim().parse::<f64>()) {
            (Some(g), Ok(w)) => g == w,
            _ => got.as_str().unwrap_or(&got.to_string()) == want.trim(),
        }
    })
}

/// Fonts searched for axis labels, in order.
const FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

/// Registers the first of [`FONTS`] found as `sans-serif`, once per process.
pub(crate) fn register_font() -> anyhow::Result<()> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = (|| {
            let path = FONTS.iter().find(|p| Path::new(p).exists()).with_context(|| {
                format!(
                    "no TrueType font found (looked for {}); install Debian's fonts-dejavu-core",
                    FONTS.join(", ")
                )
            })?;
            let bytes: &'static [u8] = Box::leak(std::fs::read(path)?.into_boxed_slice());
            plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| anyhow::anyhow!("{path} is not a usable font"))
        })();
    });
    result
}

/// Reads every JSON line of `paths`.
pub fn read_records(paths: &[PathBuf]) -> anyhow::Result<Vec<Value>> {
    let mut records = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            records.push(
                serde_json::from_str(line)
                    .with_context(|| format!("{}:{}: not a JSON object", path.display(), i + 1))?,
            );
        }
    }
    Ok(records)
}

fn axis_label(field: &str) -> String {
    match field {
        "blocks" => "blocks that process samples".into(),
        "seconds" => "run time [s]".into(),
        "block_items_per_s" => "block-items per second".into(),
        "messages_per_s" => "messages per second".into(),
        "quality" => "signal quality (processed / required rate)".into(),
        many if many.contains(',') && many.split(',').all(|f| f.trim().ends_with("_us")) => {
            "latency [µs]".into()
        }
        other => other.replace('_', " "),
    }
}

/// An axis tick: plain below 10 000 (and from 0.01), else in scientific
/// form (`2.5e10`), so that large rates fit the label area.
fn tick_label(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || (1e-2..1e4).contains(&a) {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.1e}")
    }
}

/// Draws one figure from `records`.
pub fn draw(
    records: &[Value],
    experiment: &str,
    x: &str,
    y: &str,
    split: &[&str],
    output: &Path,
) -> anyhow::Result<()> {
    register_font()?;
    let fields: Vec<&str> = y.split(',').map(str::trim).collect();
    let mut lines = Vec::new();
    for field in &fields {
        for (name, points) in &group(records, experiment, x, field, split) {
            let pts: Vec<(f64, Estimate)> = points
                .values()
                .map(|(xv, samples)| (*xv, Estimate::of(samples)))
                .collect();
            let name = if fields.len() > 1 {
                format!("{name} {}", field.replace('_', " "))
            } else {
                name.clone()
            };
            lines.push((name, pts));
        }
    }
    if lines.is_empty() {
        bail!("no `{experiment}` records with fields `{x}` and `{y}`");
    }
    let all = lines.iter().flat_map(|(_, p)| p.iter());
    let (mut x_max, mut y_max) = (0f64, 0f64);
    for (xv, e) in all {
        x_max = x_max.max(*xv);
        y_max = y_max.max(e.mean + e.ci95);
    }
    let root = BitMapBackend::new(output, (1024, 700)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("rfgraph bench {experiment}"), ("sans-serif", 28))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(0f64..x_max * 1.05 + 1e-9, 0f64..y_max * 1.1 + 1e-12)?;
    chart
        .configure_mesh()
        .x_desc(axis_label(x))
        .y_desc(axis_label(y))
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .axis_desc_style(("sans-serif", 20))
        .label_style(("sans-serif", 16))
        .draw()?;
    for (i, (name, pts)) in lines.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|(xv, e)| (*xv, e.mean)),
                color.stroke_width(2),
            ))?
            .label(name.clone())
            .legend(move |(lx, ly)| {
                PathElement::new(vec![(lx, ly), (lx + 20, ly)], color.stroke_width(2))
            });
        chart.draw_series(pts.iter().map(|(xv, e)| {
            ErrorBar::new_vertical(
                *xv,
                e.mean - e.ci95,
                e.mean,
                e.mean + e.ci95,
                color.stroke_width(2),
                10,
            )
        }))?;
        chart.draw_series(
            pts.iter()
                .map(|(xv, e)| Circle::new((*xv, e.mean), 4, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()
        .with_context(|| format!("cannot write {}", output.display()))?;
    Ok(())
}

/// Runs `rfgraph bench plot`.
pub fn run(args: &PlotArgs) -> anyhow::Result<()> {
    let mut records = read_records(&args.results)?;
    records.retain(|r| matches(r, &args.only));
    let experiment = match &args.experiment {
        Some(e) => e.clone(),
        None => records
            .iter()
            .find_map(|r| r["experiment"].as_str().map(str::to_string))
            .context("the result files hold no records")?,
    };
    let split: Vec<&str> = args.split.iter().map(String::as_str).collect();
    draw(
        &records,
        &experiment,
        &args.x,
        &args.y,
        &split,
        &args.output,
    )?;
    errln!("wrote {}", args.output.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{matches, tick_label};

    #[test]
    fn only_compares_numbers_as_numbers() {
        let r = serde_json::json!({"rate": 20000000.0, "runtime": "rfgraph"});
        let only = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(matches(&r, &only(&["rate=20e6", "runtime=rfgraph"])));
        assert!(!matches(&r, &only(&["rate=1e6"])));
        assert!(!matches(&r, &only(&["rate"])));
    }

    #[test]
    fn ticks_stay_short() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(12.0), "12");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(2.5e10), "2.5e10");
        assert_eq!(tick_label(5e-4), "5.0e-4");
    }
}
