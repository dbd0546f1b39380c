//! Frame streams: what a spectrum frame's bins mean ([`FrameMeta`]: centre
//! frequency, span, input samples summarised), the tags that carry it, the
//! frequency of each bin, and the message a frame is posted as.
//!
//! This module owns the conventions every spectrum block follows (see the
//! [`spectrum`](super) module docs); it never computes a spectrum.

use rfgraph::tag::keys::{FREQUENCY, SAMPLE_RATE};
use rfgraph::{Pmt, StreamOutput, Tag};
use std::collections::BTreeMap;

/// Tag key: input samples one frame summarises (`U64`): the FFT size after
/// [`PowerSpectrum`](super::PowerSpectrum), times the frames averaged after
/// [`Average`](super::Average).
pub const FRAME_SAMPLES: &str = "rfgraph:frame_samples";

/// Message key of a frame's bins (`VecF32`, fftshifted, dB after
/// [`Average`](super::Average)).
pub const BINS: &str = "bins";

/// The largest FFT size the blocks accept (2^20 bins).
pub const MAX_SIZE: usize = 1 << 20;

/// What the bins of a frame stream mean, from the tags on its frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameMeta {
    /// The centre frequency in Hz (`core:frequency`): the frequency of bin
    /// `size / 2`.
    pub frequency: Option<f64>,
    /// The sample rate of the signal the frames come from
    /// (`core:sample_rate`): the span of a frame in Hz.
    pub sample_rate: Option<f64>,
    /// Input samples one frame summarises ([`FRAME_SAMPLES`]).
    pub frame_samples: u64,
}

impl FrameMeta {
    /// Takes in `tag` if it is one of the meta keys; returns whether it
    /// was. Values of the wrong type, or not finite, are ignored (and the
    /// tag is still absorbed: it is not passed on as it came).
    pub fn absorb(&mut self, tag: &Tag) -> bool {
        match tag.key.as_str() {
            FREQUENCY => {
                if let Some(f) = tag.value.as_f64().filter(|f| f.is_finite()) {
                    self.frequency = Some(f);
                }
                true
            }
            SAMPLE_RATE => {
                if let Some(r) = tag.value.as_f64().filter(|r| r.is_finite() && *r > 0.0) {
                    self.sample_rate = Some(r);
                }
                true
            }
            FRAME_SAMPLES => {
                if let Some(n) = tag.value.as_u64() {
                    self.frame_samples = n;
                }
                true
            }
            _ => false,
        }
    }

    /// Tags every known field on the item `offset` items after `out`'s
    /// position.
    pub fn tag(&self, out: &StreamOutput<f32>, offset: usize) {
        if let Some(f) = self.frequency {
            out.add_tag(offset, FREQUENCY, f);
        }
        if let Some(r) = self.sample_rate {
            out.add_tag(offset, SAMPLE_RATE, r);
        }
        out.add_tag(offset, FRAME_SAMPLES, self.frame_samples);
    }

    /// Seconds of signal one frame summarises, when the rate is known.
    pub fn frame_seconds(&self) -> Option<f64> {
        self.sample_rate.map(|r| self.frame_samples as f64 / r)
    }

    /// The frequency of bin `bin` of a `size`-bin frame: absolute when the
    /// centre is known, relative to it otherwise; `None` without a rate.
    pub fn bin_frequency(&self, size: usize, bin: usize) -> Option<f64> {
        let rate = self.sample_rate?;
        Some(self.frequency.unwrap_or(0.0) + bin_offset(size, bin) * rate)
    }

    /// A frame as a message: a `Pmt::Map` with [`BINS`] and every known
    /// meta field under its tag key.
    pub fn message(&self, bins: &[f32]) -> Pmt {
        let mut map = BTreeMap::new();
        map.insert(BINS.to_string(), Pmt::VecF32(bins.to_vec()));
        if let Some(f) = self.frequency {
            map.insert(FREQUENCY.to_string(), Pmt::F64(f));
        }
        if let Some(r) = self.sample_rate {
            map.insert(SAMPLE_RATE.to_string(), Pmt::F64(r));
        }
        map.insert(FRAME_SAMPLES.to_string(), Pmt::U64(self.frame_samples));
        Pmt::Map(map)
    }
}

/// Where bin `bin` of a `size`-bin fftshifted frame lies, in cycles per
/// sample from the centre: `(bin - size / 2) / size` (DC at `size / 2`,
/// the most negative frequency first).
pub fn bin_offset(size: usize, bin: usize) -> f64 {
    (bin as f64 - (size / 2) as f64) / size as f64
}

/// The bin of a `size`-bin fftshifted frame nearest to `offset` cycles per
/// sample from the centre (`offset` in `[-0.5, 0.5)`), or `None` outside.
pub fn offset_bin(size: usize, offset: f64) -> Option<usize> {
    let bin = (offset * size as f64).round() + (size / 2) as f64;
    (offset.is_finite() && (0.0..size as f64).contains(&bin)).then_some(bin as usize)
}

/// The tags among `tags` on the items `start..start + len`.
pub(crate) fn tags_in(tags: &[Tag], start: u64, len: usize) -> impl Iterator<Item = &Tag> {
    let end = start + len as u64;
    tags.iter().filter(move |t| (start..end).contains(&t.index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_and_offsets_agree() {
        for size in [2usize, 7, 8, 1024] {
            for bin in 0..size {
                assert_eq!(offset_bin(size, bin_offset(size, bin)), Some(bin));
            }
            assert_eq!(bin_offset(size, size / 2), 0.0);
        }
        assert_eq!(bin_offset(8, 0), -0.5);
        assert_eq!(offset_bin(8, 0.5), None);
        assert_eq!(offset_bin(8, f64::NAN), None);
    }

    #[test]
    fn meta_reads_its_tags_and_labels_bins() {
        let mut m = FrameMeta::default();
        assert!(m.absorb(&Tag::new(0, FREQUENCY, 100e6)));
        assert!(m.absorb(&Tag::new(0, SAMPLE_RATE, 1e6)));
        assert!(m.absorb(&Tag::new(0, SAMPLE_RATE, -1.0)));
        assert!(m.absorb(&Tag::new(0, FRAME_SAMPLES, 1024u64)));
        assert!(!m.absorb(&Tag::new(0, "core:datetime", "now")));
        assert_eq!(m.sample_rate, Some(1e6));
        assert_eq!(m.bin_frequency(1024, 512), Some(100e6));
        assert_eq!(m.bin_frequency(1024, 0), Some(100e6 - 0.5e6));
        assert_eq!(m.frame_seconds(), Some(1024.0 / 1e6));
        let Pmt::Map(msg) = m.message(&[1.0, 2.0]) else {
            panic!("not a map")
        };
        assert_eq!(msg[BINS], Pmt::VecF32(vec![1.0, 2.0]));
        assert_eq!(msg[FREQUENCY], Pmt::F64(100e6));
    }
}
