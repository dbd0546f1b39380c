//! [`PfbChannelizer`]: GNU Radio's `pfb_channelizer_ccf` (with the
//! `stream_to_streams` its Python wrapper puts before it): `N` arms, each
//! fed every `N`-th sample, an inverse FFT across them, an output rate of
//! `oversample_rate · fs / N` per channel and a channel map.

use super::arms;
use crate::error::DspError;
use crate::fft::{Fft, FftDirection};
use num_complex::Complex32;

/// GNU Radio's polyphase channelizer.
///
/// Each round filters every arm, one input stream each (input sample `k`
/// goes to stream `k mod N`), at the position GNU Radio's commutator
/// gives it; places arm outputs in the FFT by GNU Radio's index table,
/// transforms (inverse, unscaled) and writes bin `channel_map[c]` to
/// output `c`. Rounds come in groups that consume whole input vectors;
/// history starts as GNU Radio's zeros.
#[derive(Debug)]
pub struct PfbChannelizer {
    n: usize,
    /// Arms with their taps reversed (a dot product runs forward).
    arms: Vec<Vec<f32>>,
    taps_per_arm: usize,
    rate_ratio: usize,
    /// Rounds per group (GNU Radio's output multiple).
    rounds: usize,
    /// Input samples per stream a group consumes.
    per_group: usize,
    map: Vec<usize>,
    outputs: usize,
    fft: Fft,
    bins: Vec<Complex32>,
    /// Buffered input, starting with the zeros of GNU Radio's history.
    buf: Vec<Complex32>,
}

impl PfbChannelizer {
    /// `nchans` channels from prototype `taps` (designed at the input
    /// rate), each channel at `oversample_rate` times `fs / nchans`
    /// (`nchans / oversample_rate` must be a whole number within 1e-5, as
    /// GNU Radio requires), `outputs` output channels.
    ///
    /// Errors: as GNU Radio's (the oversample rate), and bad taps.
    pub fn new(
        nchans: usize,
        taps: &[f32],
        oversample_rate: f32,
        outputs: usize,
    ) -> Result<Self, DspError> {
        let arms_fwd = arms(taps, nchans)?;
        let srate = nchans as f64 / oversample_rate as f64;
        if !(oversample_rate.is_finite() && oversample_rate > 0.0)
            || (srate - srate.round()).abs() > 0.00001
            || srate.round() < 1.0
            || srate.round() > nchans as f64
        {
            return Err(DspError::InvalidSpec(
                "pfb_channelizer: oversample rate must be N/i for i in [1, N]".into(),
            ));
        }
        if outputs == 0 || outputs > nchans {
            return Err(DspError::OutOfRange {
                name: "outputs",
                value: outputs as f64,
                expected: "must be in 1..=nchans",
            });
        }
        let rate_ratio = (nchans as f32 / oversample_rate).round_ties_even() as usize;
        let mut rounds = 1;
        while !(rounds * rate_ratio).is_multiple_of(nchans) {
            rounds += 1;
        }
        let taps_per_arm = arms_fwd[0].len();
        let arms = arms_fwd
            .into_iter()
            .map(|mut a| {
                a.reverse();
                a
            })
            .collect();
        let mut k = Self {
            n: nchans,
            arms,
            taps_per_arm,
            rate_ratio,
            rounds,
            per_group: rounds * rate_ratio / nchans,
            map: (0..nchans).collect(),
            outputs,
            fft: Fft::new(nchans, FftDirection::Inverse)?,
            bins: vec![Complex32::new(0.0, 0.0); nchans],
            buf: Vec::new(),
        };
        k.reset();
        Ok(k)
    }

    /// Output `c` carries bin `map[c]` (GNU Radio's `set_channel_map`);
    /// an empty map keeps the current one.
    ///
    /// Errors: an entry of `nchans` or more, or fewer entries than
    /// outputs (nothing changes).
    pub fn set_channel_map(&mut self, map: &[usize]) -> Result<(), DspError> {
        if map.is_empty() {
            return Ok(());
        }
        if map.iter().any(|&m| m >= self.n) {
            return Err(DspError::InvalidSpec(
                "pfb_channelizer: map range out of bounds".into(),
            ));
        }
        if map.len() < self.outputs {
            return Err(DspError::InvalidSpec(format!(
                "pfb_channelizer: the channel map names {} channels for {} outputs",
                map.len(),
                self.outputs
            )));
        }
        self.map = map.to_vec();
        Ok(())
    }

    /// Output items per channel a group of rounds writes (GNU Radio's
    /// output multiple).
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// Input items a group of rounds consumes.
    pub fn input_per_group(&self) -> usize {
        self.per_group * self.n
    }

    /// Starts again from GNU Radio's zero history.
    pub fn reset(&mut self) {
        self.buf.clear();
        self.buf
            .resize(self.taps_per_arm * self.n, Complex32::new(0.0, 0.0));
    }

    /// Filters `input` into the channels: writes `outputs[c][..m]` for
    /// every output channel `c`, whole groups of [`rounds`](Self::rounds)
    /// as long as input and room last; returns `(consumed, m)`. Input
    /// short of a group is buffered (and counted as consumed).
    pub fn process(
        &mut self,
        input: &[Complex32],
        outputs: &mut [&mut [Complex32]],
    ) -> (usize, usize) {
        let room = outputs
            .iter()
            .take(self.outputs)
            .map(|o| o.len())
            .min()
            .unwrap_or(0);
        let n = self.n;
        let t = self.taps_per_arm;
        let need = (self.per_group + t) * n;
        let mut consumed = 0;
        let mut written = 0;
        loop {
            // Take input up to one group's worth.
            if self.buf.len() < need {
                let take = (need - self.buf.len()).min(input.len() - consumed);
                self.buf
                    .extend_from_slice(&input[consumed..consumed + take]);
                consumed += take;
            }
            if self.buf.len() < need || written + self.rounds > room {
                break;
            }
            self.group(outputs, written);
            written += self.rounds;
            self.buf.drain(..self.per_group * n);
        }
        (consumed, written)
    }

    /// One group of rounds from the start of `buf`, written from `at`.
    fn group(&mut self, outputs: &mut [&mut [Complex32]], at: usize) {
        let n = self.n as i64;
        let r = self.rate_ratio as i64;
        let mut pos: usize = 1;
        let mut i: i64 = -1;
        for round in 0..self.rounds {
            i = (i + r) % n;
            let last = i;
            // Arms `last` down to 0 read their stream from `pos`, the
            // others (from the top) from `pos − 1`.
            let order = (0..=last)
                .rev()
                .map(|a| (a, pos))
                .chain((last + 1..n).rev().map(|a| (a, pos - 1)));
            for (j, (arm, p)) in order.enumerate() {
                let taps = &self.arms[arm as usize];
                let mut acc = Complex32::new(0.0, 0.0);
                for (k, &h) in taps.iter().enumerate() {
                    acc += self.buf[(p + k) * self.n + j] * h;
                }
                let slot = self.n - ((j + self.rate_ratio) % self.n) - 1;
                self.bins[slot] = acc;
            }
            if last + r >= n {
                pos += 1;
            }
            self.fft.transform_frames(&mut self.bins);
            for (c, out) in outputs.iter_mut().take(self.outputs).enumerate() {
                out[at + round] = self.bins[self.map[c]];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(bin: f32, n: usize, len: usize) -> Vec<Complex32> {
        (0..len)
            .map(|k| Complex32::from_polar(1.0, std::f32::consts::TAU * bin * k as f32 / n as f32))
            .collect()
    }

    #[test]
    fn a_tone_lands_in_its_channel() {
        let n = 4;
        let taps = crate::firdes::low_pass(
            1.0,
            n as f64,
            0.4,
            0.2,
            crate::firdes::WinType::Hamming,
            6.76,
        )
        .unwrap();
        for osr in [1.0f32, 2.0] {
            let mut k = PfbChannelizer::new(n, &taps, osr, n).unwrap();
            let x = tone(1.0, n, 4000);
            let mut bufs = vec![vec![Complex32::new(0.0, 0.0); 4000]; n];
            let mut outs: Vec<&mut [Complex32]> = bufs.iter_mut().map(|b| &mut b[..]).collect();
            let (c, m) = k.process(&x, &mut outs);
            assert_eq!(c, x.len());
            assert!(m >= (1000.0 * osr) as usize - 40, "{m}");
            let power = |b: &[Complex32]| b[m / 2..m].iter().map(|v| v.norm_sqr()).sum::<f32>();
            let p: Vec<f32> = bufs.iter().map(|b| power(b)).collect();
            let best = (0..n).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
            assert_eq!(best, 1, "{p:?}");
        }
        assert!(PfbChannelizer::new(4, &taps, 3.0, 4).is_err());
        assert!(PfbChannelizer::new(4, &[], 1.0, 4).is_err());
        let mut k = PfbChannelizer::new(4, &taps, 1.0, 4).unwrap();
        assert!(k.set_channel_map(&[0, 1, 4, 2]).is_err());
        assert!(k.set_channel_map(&[0, 1]).is_err());
    }
}
