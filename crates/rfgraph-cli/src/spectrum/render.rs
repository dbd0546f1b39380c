//! Draws a [`Picture`] with `plotters`: the averaged spectrum (dB against
//! frequency) above the waterfall (time against frequency, viridis
//! colours), on one shared frequency axis in Hz, kHz or MHz.
//!
//! This module owns the layout and the drawing; the numbers are
//! `picture`'s, the axis wording and colours `axis`'s.

use super::axis::{HzAxis, colour};
use super::picture::Picture;
use anyhow::Context;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;
use std::path::Path;

/// The share of the height the spectrum takes; the waterfall has the rest.
const SPECTRUM_SHARE: f64 = 0.35;
/// Tick labels on the frequency axis.
const X_TICKS: usize = 8;
/// Space for the axes' labels, px.
const X_LABELS: u32 = 45;
const Y_LABELS: u32 = 80;
/// The lowest share of the waterfall's values drawn darkest (the noise
/// floor's spread is visible, outliers below it are not).
const FLOOR_PERCENTILE: f64 = 0.05;

/// Where the charts landed in the image, for mapping frequencies to
/// pixel columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Pixel columns of both plotting areas (they share the axis).
    pub columns: Range<i32>,
    /// Pixel rows of the spectrum's plotting area.
    pub spectrum_rows: Range<i32>,
    /// Pixel rows of the waterfall's plotting area.
    pub waterfall_rows: Range<i32>,
    /// The frequency axis's range, Hz.
    pub hz: (f64, f64),
}

#[cfg(test)]
impl Layout {
    /// The pixel column that shows `hz`.
    pub fn column_of(&self, hz: f64) -> i32 {
        let width = (self.columns.end - self.columns.start) as f64;
        let t = (hz - self.hz.0) / (self.hz.1 - self.hz.0);
        self.columns.start + (t * width).floor() as i32
    }
}

/// The value at `share` (0 to 1) of the sorted `values`.
fn percentile(values: &mut [f32], share: f64) -> f32 {
    values.sort_by(f32::total_cmp);
    values[((values.len() - 1) as f64 * share).round() as usize]
}

/// Draws `p` on `root` (white background).
///
/// Errors: the backend's (a font that cannot be drawn).
pub fn draw(root: &DrawingArea<BitMapBackend<'_>, Shift>, p: &Picture) -> anyhow::Result<Layout> {
    root.fill(&WHITE)?;
    let (_, height) = root.dim_in_pixel();
    let (top, bottom) = root.split_vertically((height as f64 * SPECTRUM_SHARE) as u32);
    let (f_lo, f_hi) = p.hz_range();
    let axis = HzAxis::new(f_lo, f_hi, X_TICKS);
    let x_label = |v: &f64| axis.label(*v);

    // The averaged spectrum.
    let finite = p.spectrum.iter().copied().filter(|v| v.is_finite());
    let max = finite.clone().fold(f32::MIN, f32::max);
    let min = finite.fold(f32::MAX, f32::min).max(max - 150.0);
    let (y_lo, y_hi) = (min as f64 - 3.0, max as f64 + 3.0);
    let mut spectrum = ChartBuilder::on(&top)
        .caption(&p.title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(f_lo..f_hi, y_lo..y_hi)?;
    spectrum
        .configure_mesh()
        .x_labels(X_TICKS)
        .x_label_formatter(&x_label)
        .x_desc(axis.description())
        .y_desc(format!("Average power ({})", p.unit))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    spectrum.draw_series(LineSeries::new(
        p.spectrum
            .iter()
            .enumerate()
            .map(|(k, &db)| (p.bin_hz(k), db as f64)),
        BLUE.stroke_width(1),
    ))?;

    // The waterfall: time runs down, so the y axis is minus the time.
    let mut waterfall = ChartBuilder::on(&bottom)
        .margin(10)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(f_lo..f_hi, -p.end..-p.start)?;
    waterfall
        .configure_mesh()
        .disable_mesh()
        .x_labels(X_TICKS)
        .x_label_formatter(&x_label)
        .y_label_formatter(&|v| format!("{:.3}", -v + 0.0))
        .x_desc(axis.description())
        .y_desc("Time (s)")
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    let (columns, rows) = waterfall.plotting_area().get_pixel_range();
    let mut values: Vec<f32> = p.rows.iter().flatten().copied().collect();
    let hi = values.iter().copied().fold(f32::MIN, f32::max);
    let lo = percentile(&mut values, FLOOR_PERCENTILE);
    let width = (columns.end - columns.start).max(1) as usize;
    let height = (rows.end - rows.start).max(1) as usize;
    // Each pixel column shows the strongest of its bins: a narrow tone
    // stays visible however many bins share a pixel.
    let bins_of = |c: usize| {
        let a = c * p.size / width;
        a..((c + 1) * p.size / width).max(a + 1).min(p.size)
    };
    let coloured: Vec<Vec<RGBColor>> = p
        .rows
        .iter()
        .map(|row| {
            (0..width)
                .map(|c| {
                    let db = row[bins_of(c)].iter().copied().fold(f32::MIN, f32::max);
                    let (r, g, b) = colour(db, lo, hi);
                    RGBColor(r, g, b)
                })
                .collect()
        })
        .collect();
    for y in 0..height {
        let line = &coloured[y * p.rows.len() / height];
        for (x, c) in line.iter().enumerate() {
            root.draw_pixel((columns.start + x as i32, rows.start + y as i32), c)?;
        }
    }
    let (spectrum_columns, spectrum_rows) = spectrum.plotting_area().get_pixel_range();
    debug_assert_eq!(
        spectrum_columns, columns,
        "the charts' frequency axes differ"
    );
    Ok(Layout {
        columns,
        spectrum_rows,
        waterfall_rows: rows,
        hz: (f_lo, f_hi),
    })
}

/// Draws `p` into a PNG of `width` × `height` pixels at `path`.
///
/// Errors: no usable font, the file cannot be written.
pub fn save(path: &Path, p: &Picture, (width, height): (u32, u32)) -> anyhow::Result<Layout> {
    crate::bench::plot::register_font()?;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    let layout = draw(&root, p)?;
    root.present()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spectrum::axis::luma;

    /// A picture of noise at -80 dB with a tone at bin `tone` in every
    /// line, 1 MHz around 100 MHz.
    fn picture(size: usize, tone: usize, lines: usize) -> Picture {
        let row: Vec<f32> = (0..size)
            .map(|k| {
                if k == tone {
                    -10.0
                } else {
                    -80.0 + (k % 7) as f32 * 0.5
                }
            })
            .collect();
        Picture {
            size,
            centre: 100e6,
            rate: 1e6,
            spectrum: row.clone(),
            rows: vec![row; lines],
            start: 0.0,
            end: 1.0,
            unit: "dBFS/Hz",
            title: "test".into(),
        }
    }

    /// Draws into memory: the RGB pixels and the layout.
    fn render(p: &Picture, w: u32, h: u32) -> (Vec<u8>, Layout) {
        crate::bench::plot::register_font().unwrap();
        let mut buf = vec![0u8; (w * h * 3) as usize];
        let layout = {
            let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
            let layout = draw(&root, p).unwrap();
            root.present().unwrap();
            layout
        };
        (buf, layout)
    }

    fn pixel(buf: &[u8], w: u32, x: i32, y: i32) -> (u8, u8, u8) {
        let i = (y as usize * w as usize + x as usize) * 3;
        (buf[i], buf[i + 1], buf[i + 2])
    }

    #[test]
    fn a_tone_is_the_brightest_column_of_the_waterfall_at_its_frequency() {
        // More bins than pixels (max of the bins under a pixel) and fewer.
        for (size, w) in [(4096usize, 900u32), (256, 1000)] {
            let tone = size / 2 + size / 8; // +125 kHz
            let p = picture(size, tone, 50);
            let (buf, layout) = render(&p, w, 700);
            assert_eq!(layout.hz, p.hz_range());
            let want = layout.column_of(p.bin_hz(tone));
            let y = (layout.waterfall_rows.start + layout.waterfall_rows.end) / 2;
            let luma_at = |x: i32| luma(pixel(&buf, w, x, y));
            let top = layout.columns.clone().map(luma_at).fold(0.0, f32::max);
            let brightest: Vec<i32> = layout
                .columns
                .clone()
                .filter(|&x| luma_at(x) == top)
                .collect();
            // One bin: a column, or the few a bin spans when bins are wider.
            let bin_px = (layout.columns.len() as f64 / size as f64).ceil() as i32;
            assert!(
                brightest.contains(&want)
                    && brightest.last().unwrap() - brightest[0] <= bin_px
                    && brightest.len() as i32 == brightest.last().unwrap() - brightest[0] + 1,
                "{size} bins on {w} px: brightest columns {brightest:?}, tone at {want}"
            );
            assert_eq!(
                pixel(&buf, w, want, y),
                (253, 231, 37),
                "the tone is the top colour"
            );
        }
    }

    #[test]
    fn the_spectrum_line_peaks_over_the_tone() {
        let (size, w) = (1024usize, 1000u32);
        let tone = size / 2 - 300;
        let p = picture(size, tone, 10);
        let (buf, layout) = render(&p, w, 700);
        // The highest drawn (blue) pixel of the spectrum's area.
        let top = layout
            .columns
            .clone()
            .filter_map(|x| {
                layout
                    .spectrum_rows
                    .clone()
                    .find(|&y| pixel(&buf, w, x, y) == (0, 0, 255))
                    .map(|y| (y, x))
            })
            .min()
            .unwrap();
        let want = layout.column_of(p.bin_hz(tone));
        assert!(
            (top.1 - want).abs() <= 1,
            "peak at column {}, tone at {want}",
            top.1
        );
    }

    #[test]
    fn both_charts_share_the_frequency_axis() {
        let p = picture(512, 300, 5);
        let (_, layout) = render(&p, 800, 600);
        assert!(layout.spectrum_rows.end <= layout.waterfall_rows.start);
        assert_eq!(layout.column_of(layout.hz.0), layout.columns.start);
        assert!(layout.columns.end - layout.columns.start > 600);
    }
}
