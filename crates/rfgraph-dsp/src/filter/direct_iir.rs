//! [`DirectIir`]: a direct-form IIR filter with arbitrary feed-forward and
//! feedback taps, GNU Radio's `iir_filter_ffd` / `iir_filter_ccd`
//! (double-precision taps and state), and [`fm_preemph_taps`], the
//! taps of GNU Radio's `fm_preemph`.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::{Complex32, Complex64};

/// A sample [`DirectIir`] filters (`f32`, [`Complex32`]).
pub trait IirSample: Copy + Send + 'static {
    /// The double-precision accumulator.
    type Acc: Copy
        + Default
        + Send
        + std::fmt::Debug
        + std::ops::Add<Output = Self::Acc>
        + std::ops::Mul<f64, Output = Self::Acc>;
    /// The sample widened.
    fn widen(self) -> Self::Acc;
    /// The accumulator narrowed.
    fn narrow(a: Self::Acc) -> Self;
}

impl IirSample for f32 {
    type Acc = f64;
    fn widen(self) -> f64 {
        self as f64
    }
    fn narrow(a: f64) -> f32 {
        a as f32
    }
}

impl IirSample for Complex32 {
    type Acc = Complex64;
    fn widen(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
    fn narrow(a: Complex64) -> Complex32 {
        Complex32::new(a.re as f32, a.im as f32)
    }
}

/// `y[n] = Σ ff[k]·x[n−k] + Σ_{k≥1} fb'[k]·y[n−k]`, where `fb' = fb`
/// in GNU Radio's "old style" and `fb' = −fb` otherwise (the usual
/// `a` coefficients); `fb[0]` is not used.
#[derive(Clone, Debug)]
pub struct DirectIir<T: IirSample> {
    ff: Vec<f64>,
    fb: Vec<f64>,
    oldstyle: bool,
    /// Past inputs and outputs, newest first.
    x: Vec<T::Acc>,
    y: Vec<T::Acc>,
}

impl<T: IirSample> DirectIir<T> {
    /// A filter from GNU Radio's `fftaps`, `fbtaps` and `oldstyle`.
    ///
    /// Errors: no feed-forward taps, non-finite taps, more than 4096 of
    /// either.
    pub fn new(ff: &[f64], fb: &[f64], oldstyle: bool) -> Result<Self, DspError> {
        if ff.is_empty() {
            return Err(DspError::EmptyTaps);
        }
        if ff.len() > Self::MAX_TAPS || fb.len() > Self::MAX_TAPS {
            return Err(DspError::InvalidSpec("at most 4096 taps each".into()));
        }
        for &t in ff.iter().chain(fb) {
            DspError::finite("taps", t)?;
        }
        let fb: Vec<f64> = fb
            .iter()
            .enumerate()
            .map(|(i, &a)| if i == 0 || oldstyle { a } else { -a })
            .collect();
        Ok(Self {
            x: vec![T::Acc::default(); ff.len()],
            y: vec![T::Acc::default(); fb.len().max(1)],
            ff: ff.to_vec(),
            fb,
            oldstyle,
        })
    }

    /// Filters with new taps from the next sample on, starting again from
    /// a zero state as GNU Radio's `set_taps` does (the sign convention
    /// stays).
    ///
    /// Errors: as [`new`](Self::new) (nothing changes).
    pub fn set_taps(&mut self, ff: &[f64], fb: &[f64]) -> Result<(), DspError> {
        *self = Self::new(ff, fb, self.oldstyle)?;
        Ok(())
    }

    /// The most taps of either kind.
    pub const MAX_TAPS: usize = 4096;

    /// Filters one sample.
    #[inline]
    pub fn step(&mut self, input: T) -> T {
        let x0 = input.widen();
        self.x.rotate_right(1);
        self.x[0] = x0;
        let mut acc = x0 * self.ff[0];
        for (xk, &b) in self.x.iter().zip(&self.ff).skip(1) {
            acc = acc + *xk * b;
        }
        // y[0] holds y[n−1] here.
        for (yk, &a) in self.y.iter().zip(self.fb.iter().skip(1)) {
            acc = acc + *yk * a;
        }
        self.y.rotate_right(1);
        self.y[0] = acc;
        T::narrow(acc)
    }
}

impl<T: IirSample> Kernel for DirectIir<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            *o = self.step(x);
        }
        (n, n)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        self.x.fill(T::Acc::default());
        self.y.fill(T::Acc::default());
    }
}

/// The first-order pre-emphasis GNU Radio's `fm_preemph` designs (bilinear
/// transform of a shelf with corners at `1/tau` rad/s and `high_freq` Hz,
/// unity gain at DC): `(feed_forward, feedback)` for
/// [`DirectIir::new`] with `oldstyle = false`. A `high_freq` outside
/// `(0, fs/2)` means `0.925·fs/2`.
pub fn fm_preemph_taps(
    sample_rate: f64,
    tau: f64,
    high_freq: f64,
) -> Result<(Vec<f64>, Vec<f64>), DspError> {
    let fs = DspError::positive("sample_rate", sample_rate)?;
    let tau = DspError::positive("tau", tau)?;
    DspError::finite("high_freq", high_freq)?;
    let fh = if high_freq <= 0.0 || high_freq >= fs / 2.0 {
        0.925 * fs / 2.0
    } else {
        high_freq
    };
    // Prewarped analog corners.
    let w_low = 2.0 * fs * (1.0 / tau / (2.0 * fs)).tan();
    let w_high = 2.0 * fs * (std::f64::consts::TAU * fh / (2.0 * fs)).tan();
    let kl = -w_low / (2.0 * fs);
    let kh = -w_high / (2.0 * fs);
    let zero = (1.0 + kl) / (1.0 - kl);
    let pole = (1.0 + kh) / (1.0 - kh);
    let b0 = (1.0 - kl) / (1.0 - kh);
    // Unity gain at DC: |1 − p| / (b0·|1 − z|).
    let g = (1.0 - pole).abs() / (b0 * (1.0 - zero).abs());
    if !g.is_finite() {
        return Err(DspError::InvalidSpec(
            "the pre-emphasis corners coincide".into(),
        ));
    }
    Ok((vec![g * b0, -g * b0 * zero], vec![1.0, -pole]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_order_lowpass_and_old_style_signs() {
        // y = 0.5x + 0.5y[-1], written both ways.
        let mut a = DirectIir::<f32>::new(&[0.5], &[1.0, -0.5], false).unwrap();
        let mut b = DirectIir::<f32>::new(&[0.5], &[1.0, 0.5], true).unwrap();
        for _ in 0..3 {
            assert_eq!(a.step(1.0), b.step(1.0));
        }
        assert_eq!(a.step(1.0), 0.9375);
        let (ff, fb) = fm_preemph_taps(48e3, 75e-6, -1.0).unwrap();
        let dc: f64 = ff.iter().sum::<f64>() / fb.iter().sum::<f64>();
        assert!((dc - 1.0).abs() < 1e-9, "{dc}");
    }

    #[test]
    fn new_taps_start_from_a_zero_state() {
        let mut a = DirectIir::<f32>::new(&[0.5], &[1.0, -0.5], false).unwrap();
        for _ in 0..5 {
            a.step(1.0);
        }
        a.set_taps(&[0.2, 0.1], &[1.0, -0.3]).unwrap();
        let mut fresh = DirectIir::<f32>::new(&[0.2, 0.1], &[1.0, -0.3], false).unwrap();
        for x in [1.0, -2.0, 0.5] {
            assert_eq!(a.step(x), fresh.step(x));
        }
        assert!(a.set_taps(&[], &[1.0]).is_err());
        assert_eq!(a.step(0.0), fresh.step(0.0));
    }
}
