//! [`PfbClockSync`]: polyphase filter-bank symbol timing recovery, GNU
//! Radio's `pfb_clock_sync_ccf` and `_fff`: a bank of `filter_size`
//! matched filters (the prototype split into arms) and of their
//! derivatives; the loop picks the arm whose derivative output is zero at
//! the symbol peak, and writes `osps` samples per symbol.

use super::loop_math::loop_gains;
use super::symbol_sync::SyncSample;
use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;

/// Input samples buffered per call (beyond the filter span).
const CHUNK: usize = 4096;

/// Polyphase clock recovery, `osps` outputs per symbol, of complex
/// (`ccf`) or real (`fff`) samples `T`.
///
/// As GNU Radio's, the `osps` outputs of a symbol come from consecutive
/// input samples (the `j`-th from the arm the phase reaches after `j`
/// rate steps, one sample later than the `j-1`-th), not from points
/// spread over the symbol.
#[derive(Clone, Debug)]
pub struct PfbClockSync<T: SyncSample = Complex32> {
    nfilters: usize,
    sps: usize,
    osps: usize,
    /// Arms of the matched filter and of its derivative, each reversed
    /// (so a dot product runs forward over the input).
    arms: Arms,
    diff_arms: Arms,
    taps_per_arm: usize,
    loop_bw: f32,
    damping: f32,
    alpha: f32,
    beta: f32,
    max_dev: f32,
    k: f32,
    rate_i: i64,
    rate_f: f32,
    /// The last symbol's timing error.
    error: f32,
    init: (f32, f32),
    /// Buffered input, starting with the zeros GNU Radio's history puts
    /// before the first sample.
    buf: Vec<T>,
    /// Index in `buf` of the next symbol's first sample.
    pos: i64,
}

fn arms(taps: &[f32], n: usize) -> Arms {
    let per = taps.len().div_ceil(n);
    (0..n)
        .map(|i| {
            let mut arm: Vec<f32> = (0..per)
                .map(|j| taps.get(i + j * n).copied().unwrap_or(0.0))
                .collect();
            arm.reverse();
            arm
        })
        .collect()
}

/// A filter bank: one reversed arm per phase.
type Arms = Vec<Vec<f32>>;

/// The arms of the matched filter `taps` and of its derivative (central
/// differences normalised to `filter_size / Σ|d|`), for `filter_size`
/// arms.
fn banks(taps: &[f32], filter_size: usize) -> Result<(Arms, Arms), DspError> {
    if taps.len() < 3 || taps.len() > PfbClockSync::<f32>::MAX_TAPS {
        return Err(DspError::InvalidSpec(
            "pfb_clock_sync needs 3 to 2^20 taps".into(),
        ));
    }
    for &t in taps {
        DspError::finite("taps", t as f64)?;
    }
    let mut d = vec![0.0f32];
    let mut pwr = 0.0f32;
    for w in taps.windows(3) {
        let t = w[2] - w[0];
        d.push(t);
        pwr += t.abs();
    }
    d.push(0.0);
    if pwr <= 0.0 || !pwr.is_finite() {
        return Err(DspError::InvalidSpec(
            "the taps have no slope (derivative filter is zero)".into(),
        ));
    }
    for t in &mut d {
        *t *= filter_size as f32 / pwr;
    }
    Ok((arms(taps, filter_size), arms(&d, filter_size)))
}

impl<T: SyncSample> PfbClockSync<T> {
    /// `sps` samples per symbol (its integer part sets the stride),
    /// `loop_bw`, the prototype `taps` (GNU Radio's: a matched filter
    /// designed at `filter_size` times the sample rate), `filter_size`
    /// arms, `init_phase` (arm index), `max_rate_deviation`.
    pub fn new(
        sps: f64,
        loop_bw: f32,
        taps: &[f32],
        filter_size: usize,
        init_phase: f32,
        max_rate_deviation: f32,
    ) -> Result<Self, DspError> {
        if !(sps.is_finite() && (1.0..=Self::MAX_SPS).contains(&sps)) {
            return Err(DspError::OutOfRange {
                name: "sps",
                value: sps,
                expected: "must be in 1..=1024",
            });
        }
        if !(1..=Self::MAX_FILTER_SIZE).contains(&filter_size) {
            return Err(DspError::OutOfRange {
                name: "filter_size",
                value: filter_size as f64,
                expected: "must be in 1..=4096",
            });
        }
        DspError::finite("init_phase", init_phase as f64)?;
        if !(max_rate_deviation.is_finite() && max_rate_deviation >= 0.0) {
            return Err(DspError::OutOfRange {
                name: "max_rate_deviation",
                value: max_rate_deviation as f64,
                expected: "must be finite and >= 0",
            });
        }
        let (arms_main, diff_arms) = banks(taps, filter_size)?;
        let sps_floor = sps.floor();
        let rate = (sps - sps_floor) * filter_size as f64;
        let rate_i = rate.floor() as i64;
        let taps_per_arm = arms_main[0].len();
        let history = taps_per_arm + 2 * sps_floor as usize;
        let mut buf = Vec::with_capacity(history + CHUNK + 8);
        buf.resize(history - 1, T::default());
        let mut k = Self {
            nfilters: filter_size,
            sps: sps_floor as usize,
            osps: 1,
            arms: arms_main,
            diff_arms,
            taps_per_arm,
            loop_bw: 0.0,
            damping: 2.0 * filter_size as f32,
            alpha: 0.0,
            beta: 0.0,
            max_dev: max_rate_deviation,
            k: init_phase,
            rate_i,
            rate_f: (rate - rate_i as f64) as f32,
            error: 0.0,
            init: (init_phase, (rate - rate_i as f64) as f32),
            buf,
            pos: 0,
        };
        k.set_loop_bandwidth(loop_bw)?;
        Ok(k)
    }

    /// The same loop writing `osps` (1 ..= [`MAX_OSPS`](Self::MAX_OSPS))
    /// samples per symbol, GNU Radio's `osps`.
    pub fn with_osps(mut self, osps: usize) -> Result<Self, DspError> {
        if !(1..=Self::MAX_OSPS).contains(&osps) {
            return Err(DspError::OutOfRange {
                name: "osps",
                value: osps as f64,
                expected: "must be in 1..=64",
            });
        }
        self.osps = osps;
        self.buf.reserve(osps + 8);
        Ok(self)
    }

    /// The most prototype taps.
    pub const MAX_TAPS: usize = 1 << 20;
    /// The most arms.
    pub const MAX_FILTER_SIZE: usize = 4096;
    /// The most samples per symbol.
    pub const MAX_SPS: f64 = 1024.0;
    /// The most output samples per symbol.
    pub const MAX_OSPS: usize = 64;

    /// Filters with the arms of the prototype `taps` from the next symbol
    /// on, keeping the loop's phase and rate (GNU Radio's `update_taps`).
    /// As in GNU Radio, whose history follows the arms' length, the newest
    /// sample under the filters stays where it was; a longer filter reads
    /// zeros where it reaches before the samples kept.
    ///
    /// Errors: as [`new`](Self::new) for the taps (nothing changes).
    pub fn set_taps(&mut self, taps: &[f32]) -> Result<(), DspError> {
        let (arms, diff_arms) = banks(taps, self.nfilters)?;
        let per = arms[0].len();
        let grow = per as i64 - self.taps_per_arm as i64;
        if grow > self.pos {
            let zeros = (grow - self.pos) as usize;
            self.buf
                .splice(0..0, std::iter::repeat_n(T::default(), zeros));
            self.pos += zeros as i64;
        }
        self.pos -= grow;
        self.arms = arms;
        self.diff_arms = diff_arms;
        self.taps_per_arm = per;
        let want = self.buf.len() + per + 2 * self.sps + self.osps + CHUNK + 8;
        self.buf.reserve(want.saturating_sub(self.buf.len()));
        Ok(())
    }

    /// Changes the loop bandwidth (≥ 0).
    pub fn set_loop_bandwidth(&mut self, bw: f32) -> Result<(), DspError> {
        if !(bw.is_finite() && bw >= 0.0) {
            return Err(DspError::OutOfRange {
                name: "loop_bw",
                value: bw as f64,
                expected: "must be >= 0",
            });
        }
        self.loop_bw = bw;
        (self.alpha, self.beta) = loop_gains(self.damping, bw);
        Ok(())
    }
}

impl<T: SyncSample> Kernel for PfbClockSync<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        self.process_diag(input, output, None)
    }

    fn min_output(&self) -> usize {
        self.osps
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(self.osps as u64, self.sps as u64)
    }

    fn reset(&mut self) {
        self.reset_state();
    }
}

/// GNU Radio's timing error of one symbol: its first output `y` times
/// the derivative filter's `d`, averaged over I and Q for complex samples.
fn timing_error<T: SyncSample>(y: T, d: T) -> f32 {
    let (y, d) = (y.to_complex(), d.to_complex());
    if T::FLOAT {
        y.re * d.re
    } else {
        (y.im * d.im + y.re * d.re) / 2.0
    }
}

impl<T: SyncSample> PfbClockSync<T> {
    /// [`Kernel::process`], also writing per output GNU Radio's optional
    /// outputs `[err, rate, phase]` into `diag` (as long as `output`): at
    /// each symbol's first output the previous symbol's error, the rate
    /// and the arm phase `k` after the step past the symbol's last
    /// output; zeros at its other `osps - 1` outputs (which GNU Radio
    /// leaves unwritten).
    pub fn process_diag(
        &mut self,
        input: &[T],
        output: &mut [T],
        mut diag: Option<&mut [[f32; 3]]>,
    ) -> (usize, usize) {
        let room = self.buf.capacity() - self.buf.len();
        let take = input.len().min(room);
        self.buf.extend_from_slice(&input[..take]);
        let n = self.nfilters as i64;
        let t = self.taps_per_arm as i64;
        let osps = self.osps;
        let mut produced = 0;
        'symbols: while produced + osps <= output.len() {
            // A symbol is written whole or not at all: undo a partial one.
            let (k0, pos0) = (self.k, self.pos);
            let mut filt = 0i64;
            for j in 0..osps {
                // A runaway loop (huge errors from huge input) would wrap
                // its phase for ages: start it again from arm 0.
                if self.k.is_nan() || self.k.abs() > 1e5 * n as f32 {
                    self.k = 0.0;
                }
                filt = self.k.floor() as i64;
                while filt >= n {
                    self.k -= n as f32;
                    filt -= n;
                    self.pos += 1;
                }
                while filt < 0 {
                    self.k += n as f32;
                    filt += n;
                    self.pos -= 1;
                }
                self.pos = self.pos.max(0);
                let at = self.pos + j as i64;
                if at + t > self.buf.len() as i64 {
                    (self.k, self.pos) = (k0, pos0);
                    break 'symbols;
                }
                let x = &self.buf[at as usize..(at + t) as usize];
                output[produced + j] = T::dot(&self.arms[filt as usize], x);
                self.k += self.rate_i as f32 + self.rate_f;
            }
            if let Some(d) = diag.as_deref_mut() {
                if let Some(first) = d.get_mut(produced) {
                    *first = [self.error, self.rate_f, self.k];
                }
                for slot in d.iter_mut().skip(produced + 1).take(osps - 1) {
                    *slot = [0.0; 3];
                }
            }
            let x = &self.buf[self.pos as usize..(self.pos + t) as usize];
            let d = T::dot(&self.diff_arms[filt as usize], x);
            let error = timing_error(output[produced], d);
            let error = if error.is_finite() { error } else { 0.0 };
            self.error = error;
            for _ in 0..self.sps {
                self.rate_f += self.beta * error;
                self.k += self.rate_f + self.alpha * error;
            }
            self.rate_f = self.rate_f.clamp(-self.max_dev, self.max_dev);
            if self.rate_f.is_nan() {
                self.rate_f = self.init.1;
            }
            self.pos += self.sps as i64;
            produced += osps;
        }
        // Keep one sample before the next symbol for a step backwards.
        let drop = (self.pos - 1).clamp(0, self.buf.len() as i64);
        self.buf.drain(..drop as usize);
        self.pos -= drop;
        (take, produced)
    }

    fn reset_state(&mut self) {
        self.error = 0.0;
        (self.k, self.rate_f) = self.init;
        let history = self.taps_per_arm + 2 * self.sps;
        self.buf.clear();
        self.buf.resize(history - 1, T::default());
        self.pos = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firdes::root_raised_cosine;

    #[test]
    fn recovers_rrc_shaped_bpsk_whatever_the_split() {
        let (sps, nf) = (4usize, 32usize);
        let tx = root_raised_cosine(sps as f64, sps as f64, 1.0, 0.35, 11 * sps).unwrap();
        let bank =
            root_raised_cosine(nf as f64, (nf * sps) as f64, 1.0, 0.35, 11 * sps * nf).unwrap();
        let symbols: Vec<f32> = (0..600)
            .map(|i| if (i * 7 + i / 5) % 3 == 0 { 1.0 } else { -1.0 })
            .collect();
        let mut x = vec![Complex32::new(0.0, 0.0); symbols.len() * sps + tx.len()];
        for (i, s) in symbols.iter().enumerate() {
            for (j, t) in tx.iter().enumerate() {
                x[i * sps + j] += Complex32::new(s * t, 0.0);
            }
        }
        let run = |chunk: usize| {
            let mut k =
                PfbClockSync::<Complex32>::new(sps as f64, 0.0628, &bank, nf, 16.0, 1.5).unwrap();
            let mut out = Vec::new();
            let mut buf = [Complex32::new(0.0, 0.0); 64];
            for c in x.chunks(chunk) {
                let mut rest = c;
                loop {
                    let (n, m) = k.process(rest, &mut buf);
                    out.extend_from_slice(&buf[..m]);
                    rest = &rest[n..];
                    if rest.is_empty() && m < buf.len() {
                        break;
                    }
                }
            }
            out
        };
        let whole = run(x.len());
        assert_eq!(whole, run(37));
        // After settling, every symbol sits near ±1.
        let settled = &whole[100..550];
        assert!(
            settled.iter().all(|y| (y.re.abs() - 1.0).abs() < 0.2),
            "{settled:?}"
        );
    }

    #[test]
    fn new_taps_keep_the_loop_running() {
        let (sps, nf) = (4usize, 32usize);
        let bank = |n: usize| {
            root_raised_cosine(nf as f64, (nf * sps) as f64, 1.0, 0.35, n * sps * nf).unwrap()
        };
        let x: Vec<Complex32> = (0..4000)
            .map(|i| Complex32::new(((i / sps) % 3) as f32 - 1.0, 0.0))
            .collect();
        let run = |change: Option<Vec<f32>>| {
            let mut k =
                PfbClockSync::<Complex32>::new(sps as f64, 0.0628, &bank(11), nf, 16.0, 1.5)
                    .unwrap();
            let mut out = vec![Complex32::new(0.0, 0.0); 2000];
            let (n1, m1) = k.process(&x[..2000], &mut out);
            if let Some(taps) = &change {
                k.set_taps(taps).unwrap();
            }
            let (n2, m2) = k.process(&x[n1..], &mut out[m1..]);
            assert_eq!(n1 + n2, x.len());
            out.truncate(m1 + m2);
            out
        };
        let plain = run(None);
        // The same taps again change nothing.
        assert_eq!(run(Some(bank(11))), plain);
        // Longer and shorter filters keep the symbol rate.
        for n in [15, 5] {
            let other = run(Some(bank(n)));
            assert!(other.len().abs_diff(plain.len()) <= 4, "{}", other.len());
        }
        let mut k =
            PfbClockSync::<Complex32>::new(sps as f64, 0.0628, &bank(11), nf, 16.0, 1.5).unwrap();
        assert!(k.set_taps(&[1.0, 1.0, 1.0]).is_err());
    }
}
