//! [`FilterbankChannelizer`]: GNU Radio's Python `channelizer_hier_ccf`
//! (`stream_to_vector`, `filterbank_vcvcf`, forward `fft_vcc`, a channel
//! selection): each of `N` arms filters every `N`-th sample, one output
//! vector per `N` inputs, a forward FFT across the arms.

use super::arms;
use crate::error::DspError;
use crate::fft::{Fft, FftDirection};
use num_complex::Complex32;

/// GNU Radio's hierarchical channelizer: channel `k` of input vector `t`
/// is bin `k` of the forward FFT of `y_j = Σ_s taps[j + s·N] ·
/// x[(t + s − T + 1)·N + j]` (arm `j` over its own stream, `T` taps per
/// arm, zeros before the first sample); outputs are the bins `outchans`.
#[derive(Debug)]
pub struct FilterbankChannelizer {
    n: usize,
    arms: Vec<Vec<f32>>,
    taps_per_arm: usize,
    outchans: Vec<usize>,
    fft: Fft,
    bins: Vec<Complex32>,
    buf: Vec<Complex32>,
}

impl FilterbankChannelizer {
    /// `nchans` channels from prototype `taps`, writing the bins
    /// `outchans`.
    ///
    /// Errors: bad taps, no outputs or a channel of `nchans` or more.
    pub fn new(nchans: usize, taps: &[f32], outchans: &[usize]) -> Result<Self, DspError> {
        let arms = arms(taps, nchans)?;
        if outchans.is_empty() || outchans.iter().any(|&c| c >= nchans) {
            return Err(DspError::InvalidSpec(format!(
                "channelizer: output channels must be some of 0..{nchans}"
            )));
        }
        let taps_per_arm = arms[0].len();
        let mut k = Self {
            n: nchans,
            arms,
            taps_per_arm,
            outchans: outchans.to_vec(),
            fft: Fft::new(nchans, FftDirection::Forward)?,
            bins: vec![Complex32::new(0.0, 0.0); nchans],
            buf: Vec::new(),
        };
        k.reset();
        Ok(k)
    }

    /// Starts again from zero history.
    pub fn reset(&mut self) {
        self.buf.clear();
        self.buf
            .resize((self.taps_per_arm - 1) * self.n, Complex32::new(0.0, 0.0));
    }

    /// Writes `outputs[c][..m]` for each output channel `c`, one item per
    /// `nchans` inputs, as long as input and room last; returns
    /// `(consumed, m)` (a partial vector is buffered and counted).
    pub fn process(
        &mut self,
        input: &[Complex32],
        outputs: &mut [&mut [Complex32]],
    ) -> (usize, usize) {
        let room = outputs
            .iter()
            .take(self.outchans.len())
            .map(|o| o.len())
            .min()
            .unwrap_or(0);
        let n = self.n;
        let need = self.taps_per_arm * n;
        let mut consumed = 0;
        let mut written = 0;
        loop {
            if self.buf.len() < need {
                let take = (need - self.buf.len()).min(input.len() - consumed);
                self.buf
                    .extend_from_slice(&input[consumed..consumed + take]);
                consumed += take;
            }
            if self.buf.len() < need || written >= room {
                break;
            }
            for (j, arm) in self.arms.iter().enumerate() {
                let mut acc = Complex32::new(0.0, 0.0);
                for (s, &h) in arm.iter().enumerate() {
                    acc += self.buf[s * n + j] * h;
                }
                self.bins[j] = acc;
            }
            self.fft.transform_frames(&mut self.bins);
            for (out, &c) in outputs.iter_mut().zip(&self.outchans) {
                out[written] = self.bins[c];
            }
            written += 1;
            self.buf.drain(..n);
        }
        (consumed, written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tone_lands_in_its_channel() {
        let n = 3;
        let taps = crate::firdes::low_pass(
            1.0,
            n as f64,
            0.4,
            0.2,
            crate::firdes::WinType::Hamming,
            6.76,
        )
        .unwrap();
        let x: Vec<Complex32> = (0..3000)
            .map(|k| Complex32::from_polar(1.0, std::f32::consts::TAU * 2.0 * k as f32 / n as f32))
            .collect();
        let mut k = FilterbankChannelizer::new(n, &taps, &[0, 1, 2]).unwrap();
        let mut bufs = vec![vec![Complex32::new(0.0, 0.0); 1000]; n];
        let mut outs: Vec<&mut [Complex32]> = bufs.iter_mut().map(|b| &mut b[..]).collect();
        let (c, m) = k.process(&x, &mut outs);
        assert_eq!((c, m), (3000, 1000));
        let p: Vec<f32> = bufs
            .iter()
            .map(|b| b[500..m].iter().map(|v| v.norm_sqr()).sum())
            .collect();
        let best = (0..n).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
        assert_eq!(best, 2, "{p:?}");
        assert!(FilterbankChannelizer::new(3, &taps, &[3]).is_err());
    }
}
