//! What `rfgraph spectrum` draws, as numbers: the waterfall's lines with
//! their frequency axis and times, and the averaged spectrum over them.
//!
//! This module owns turning the frames a run collected (and their tags)
//! into a [`Picture`]; it never runs a graph and never draws.

use anyhow::bail;
use rfgraph::Tag;
use rfgraph_radio::spectrum::{FrameMeta, bin_offset};

/// A spectrum and a waterfall, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Bins per line.
    pub size: usize,
    /// The centre frequency in Hz (0 when unknown: the axis is then the
    /// offset from the centre).
    pub centre: f64,
    /// The span in Hz (the input's sample rate).
    pub rate: f64,
    /// The mean of every line, in linear power, as dB per bin.
    pub spectrum: Vec<f32>,
    /// The waterfall's lines in dB, oldest first.
    pub rows: Vec<Vec<f32>>,
    /// Signal time at the first row's start, s.
    pub start: f64,
    /// Signal time at the last row's end, s.
    pub end: f64,
    /// The unit of the values (`dBFS/Hz`, `dBFS`).
    pub unit: &'static str,
    /// A line naming what was analysed.
    pub title: String,
}

impl Picture {
    /// The picture of the lines a run collected: `items` (whole frames of
    /// `size` dB bins) with the `tags` of their stream, the input's
    /// `samples` processed (for the time axis), and the last `keep`
    /// lines shown. The spectrum is the mean of all lines, each weighted
    /// by the input samples it summarises.
    ///
    /// Errors: no whole line (the run stopped before the first).
    #[allow(clippy::too_many_arguments)]
    pub fn from_lines(
        items: &[f32],
        tags: &[Tag],
        size: usize,
        defaults: FrameMeta,
        samples: u64,
        keep: usize,
        unit: &'static str,
        title: String,
    ) -> anyhow::Result<Self> {
        let lines = items.len() / size;
        if lines == 0 {
            bail!("no spectrum line was computed: the input ended (or was stopped) too early");
        }
        let mut meta = defaults;
        let mut first = None;
        let mut sum = vec![0f64; size];
        let mut weight = 0f64;
        let mut tags = tags.iter().peekable();
        for (i, line) in items.chunks_exact(size).enumerate() {
            let start = (i * size) as u64;
            while let Some(t) = tags.next_if(|t| t.index < start + size as u64) {
                meta.absorb(t);
            }
            first.get_or_insert(meta);
            let w = meta.frame_samples.max(1) as f64;
            for (s, &db) in sum.iter_mut().zip(line) {
                *s += w * 10f64.powf(db as f64 / 10.0);
            }
            weight += w;
        }
        let meta = first.unwrap_or(defaults);
        let spectrum = sum
            .iter()
            .map(|s| (10.0 * (s / weight).max(1e-30).log10()) as f32)
            .collect();
        let shown = lines.min(keep.max(1));
        let rows = items[(lines - shown) * size..]
            .chunks_exact(size)
            .map(<[f32]>::to_vec)
            .collect();
        let rate = meta.sample_rate.unwrap_or(1.0);
        let end = samples as f64 / rate;
        Ok(Self {
            size,
            centre: meta.frequency.unwrap_or(0.0),
            rate,
            spectrum,
            rows,
            start: end * (lines - shown) as f64 / lines as f64,
            end,
            unit,
            title,
        })
    }

    /// The frequency of bin `k`'s centre, Hz.
    pub fn bin_hz(&self, k: usize) -> f64 {
        self.centre + bin_offset(self.size, k) * self.rate
    }

    /// The frequency axis's range: from the lowest bin's lower edge to the
    /// highest bin's upper edge, Hz.
    pub fn hz_range(&self) -> (f64, f64) {
        let half = 0.5 * self.rate / self.size as f64;
        (self.bin_hz(0) - half, self.bin_hz(self.size - 1) + half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph_radio::spectrum::FRAME_SAMPLES;

    fn defaults() -> FrameMeta {
        FrameMeta {
            frequency: Some(100e6),
            sample_rate: Some(1e6),
            frame_samples: 0,
        }
    }

    #[test]
    fn lines_become_rows_and_their_weighted_mean() {
        // Three lines of 4 bins; the last summarises half the samples.
        let items = [
            [0.0f32, 10.0, 20.0, -10.0],
            [0.0, 10.0, 20.0, -10.0],
            [10.0, 10.0, 20.0, -10.0],
        ]
        .concat();
        let tags = [
            Tag::new(0, FRAME_SAMPLES, 2000u64),
            Tag::new(8, FRAME_SAMPLES, 1000u64),
        ];
        let p =
            Picture::from_lines(&items, &tags, 4, defaults(), 5000, 2, "dBFS", "t".into()).unwrap();
        assert_eq!(p.rows, [items[4..8].to_vec(), items[8..].to_vec()]);
        // (2000·1 + 2000·1 + 1000·10) / 5000 = 2.8 in linear power.
        assert!(
            (p.spectrum[0] - 10.0 * 2.8f32.log10()).abs() < 1e-4,
            "{}",
            p.spectrum[0]
        );
        assert!((p.spectrum[2] - 20.0).abs() < 1e-4);
        // 5000 samples at 1 MHz: 5 ms, the last two of three lines shown.
        assert!((p.end - 0.005).abs() < 1e-12 && (p.start - 0.005 / 3.0).abs() < 1e-12);
        // Bin 2 is the centre; the axis runs half a bin past the ends.
        assert_eq!(p.bin_hz(2), 100e6);
        assert_eq!(p.hz_range(), (100e6 - 625e3, 100e6 + 375e3));
    }

    #[test]
    fn tags_override_defaults_and_nothing_is_an_error() {
        let items = [0f32; 8];
        let tags = [Tag::new(0, "core:frequency", 7e6)];
        let p = Picture::from_lines(&items, &tags, 8, defaults(), 8, 10, "dBFS", String::new())
            .unwrap();
        assert_eq!(p.centre, 7e6);
        assert_eq!(p.rows.len(), 1);
        let e = Picture::from_lines(
            &items[..4],
            &[],
            8,
            defaults(),
            4,
            10,
            "dBFS",
            String::new(),
        );
        assert!(e.is_err());
    }
}
