//! [`ClockRecoveryMm`]: Mueller & Müller symbol timing recovery, GNU Radio
//! 3.10's `clock_recovery_mm_ff` / `clock_recovery_mm_cc`: the same
//! timing error detector, loop update and limits, with the 8-tap MMSE
//! interpolator of [`super::mmse`]. One output per recovered symbol.

use super::mmse::{MmseInterpolator, NTAPS};
use super::skip::Skip;
use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;

/// A sample type the M&M loop runs on (`f32` or [`Complex32`]).
pub trait MmSample: Copy + Default + Send + 'static {
    /// Zeros GNU Radio's block reads before the first input sample (its
    /// `set_history`): none for `f32`, two for complex.
    const LEAD: usize;
    /// Interpolates `x(3 + mu)` from `x[0..8]`.
    fn interpolate(m: &MmseInterpolator, x: &[Self], mu: f32) -> Self;
    /// The timing error for the new interpolated sample `y`, updating the
    /// detector's history `h`.
    fn error(h: &mut [Self; 6], y: Self) -> f32;
}

fn step(x: f32) -> f32 {
    if x > 0.0 { 1.0 } else { 0.0 }
}

impl MmSample for f32 {
    const LEAD: usize = 0;
    fn interpolate(m: &MmseInterpolator, x: &[f32], mu: f32) -> f32 {
        m.interpolate_f(x, mu)
    }
    fn error(h: &mut [f32; 6], y: f32) -> f32 {
        // GNU Radio's float slicer: −1 below zero, +1 otherwise.
        let slice = |x: f32| if x < 0.0 { -1.0 } else { 1.0 };
        let last = h[0];
        h[0] = y;
        slice(last) * y - slice(y) * last
    }
}

impl MmSample for Complex32 {
    const LEAD: usize = 2;
    fn interpolate(m: &MmseInterpolator, x: &[Complex32], mu: f32) -> Complex32 {
        m.interpolate_c(x, mu)
    }
    fn error(h: &mut [Complex32; 6], y: Complex32) -> f32 {
        // h = [p0, p1, p2, c0, c1, c2]: samples and their decisions, 0T
        // (newest) to 2T.
        h[2] = h[1];
        h[1] = h[0];
        h[0] = y;
        h[5] = h[4];
        h[4] = h[3];
        // GNU Radio's `slicer_0deg`: 1 above zero, else 0 (not −1).
        h[3] = Complex32::new(step(y.re), step(y.im));
        let x = (h[3] - h[5]) * h[1].conj();
        let z = (h[0] - h[2]) * h[4].conj();
        (z - x).re
    }
}

/// Mueller & Müller clock recovery producing one sample per symbol.
#[derive(Clone, Debug)]
pub struct ClockRecoveryMm<T: MmSample> {
    interp: MmseInterpolator,
    omega: f32,
    omega_mid: f32,
    omega_lim: f32,
    omega_relative_limit: f32,
    gain_omega: f32,
    gain_mu: f32,
    mu: f32,
    mu0: f32,
    /// Input samples still to skip before the next interpolation.
    skip: Skip,
    /// Zeros still standing before the input (see [`MmSample::LEAD`]).
    lead: usize,
    history: [T; 6],
}

impl<T: MmSample> ClockRecoveryMm<T> {
    /// `omega`: samples per symbol (> 1); `gain_omega`, `gain_mu`: loop
    /// gains; `mu`: initial fractional phase in `[0, 1)`;
    /// `omega_relative_limit`: how far omega may move, relative.
    pub fn new(
        omega: f32,
        gain_omega: f32,
        mu: f32,
        gain_mu: f32,
        omega_relative_limit: f32,
    ) -> Result<Self, DspError> {
        check_omega(omega)?;
        check_mu(mu)?;
        for (name, v) in [
            ("gain_omega", gain_omega),
            ("gain_mu", gain_mu),
            ("omega_relative_limit", omega_relative_limit),
        ] {
            check_gain(name, v)?;
        }
        Ok(Self {
            interp: MmseInterpolator::new(),
            omega,
            omega_mid: omega,
            omega_lim: omega * omega_relative_limit,
            omega_relative_limit,
            gain_omega,
            gain_mu,
            mu,
            mu0: mu,
            skip: Skip::default(),
            lead: T::LEAD,
            history: [T::default(); 6],
        })
    }

    /// The current samples-per-symbol estimate.
    pub fn omega(&self) -> f32 {
        self.omega
    }

    /// Sets the loop gains.
    pub fn set_gains(&mut self, gain_omega: f32, gain_mu: f32) {
        self.gain_omega = gain_omega;
        self.gain_mu = gain_mu;
    }

    /// Restarts the samples-per-symbol estimate at `omega` and centres its
    /// limits there, as GNU Radio's `set_omega` does; the phase goes on.
    ///
    /// Errors: `omega` not in `(1, 2^20)` (nothing changes).
    pub fn set_omega(&mut self, omega: f32) -> Result<(), DspError> {
        check_omega(omega)?;
        self.omega = omega;
        self.omega_mid = omega;
        self.omega_lim = omega * self.omega_relative_limit;
        Ok(())
    }

    /// Sets the fractional phase of the next interpolation (GNU Radio's
    /// `set_mu`).
    ///
    /// Errors: `mu` not in `[0, 1)` (nothing changes).
    pub fn set_mu(&mut self, mu: f32) -> Result<(), DspError> {
        check_mu(mu)?;
        self.mu = mu;
        self.mu0 = mu;
        Ok(())
    }

    /// Sets the omega loop gain (GNU Radio's `set_gain_omega`).
    ///
    /// Errors: a negative or non-finite gain (nothing changes).
    pub fn set_gain_omega(&mut self, gain_omega: f32) -> Result<(), DspError> {
        self.gain_omega = check_gain("gain_omega", gain_omega)?;
        Ok(())
    }

    /// Sets the phase loop gain (GNU Radio's `set_gain_mu`).
    ///
    /// Errors: a negative or non-finite gain (nothing changes).
    pub fn set_gain_mu(&mut self, gain_mu: f32) -> Result<(), DspError> {
        self.gain_mu = check_gain("gain_mu", gain_mu)?;
        Ok(())
    }
}

/// The largest samples-per-symbol estimate (the runtime's largest rate
/// factor).
pub const MAX_OMEGA: f32 = (1u32 << 20) as f32;

fn check_omega(omega: f32) -> Result<(), DspError> {
    if omega.is_finite() && omega > 1.0 && omega < MAX_OMEGA {
        Ok(())
    } else {
        Err(DspError::OutOfRange {
            name: "omega",
            value: omega as f64,
            expected: "samples per symbol must be > 1 and < 2^20",
        })
    }
}

fn check_mu(mu: f32) -> Result<(), DspError> {
    if (0.0..1.0).contains(&mu) {
        Ok(())
    } else {
        Err(DspError::OutOfRange {
            name: "mu",
            value: mu as f64,
            expected: "must be in [0, 1)",
        })
    }
}

fn check_gain(name: &'static str, v: f32) -> Result<f32, DspError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(DspError::OutOfRange {
            name,
            value: v as f64,
            expected: "must be finite and >= 0",
        })
    }
}

impl<T: MmSample> Kernel for ClockRecoveryMm<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let Some(mut ii) = self.skip.pay(input.len()) else {
            return (input.len(), 0);
        };
        let mut oo = 0;
        while oo < output.len() && ii + NTAPS <= input.len() + self.lead {
            let y = if self.lead > 0 {
                let mut window = [T::default(); NTAPS];
                window[self.lead..].copy_from_slice(&input[..NTAPS - self.lead]);
                T::interpolate(&self.interp, &window, self.mu)
            } else {
                T::interpolate(&self.interp, &input[ii..ii + NTAPS], self.mu)
            };
            output[oo] = y;
            oo += 1;
            let e = T::error(&mut self.history, y).clamp(-1.0, 1.0);
            let e = if e.is_finite() { e } else { 0.0 };
            self.omega += self.gain_omega * e;
            self.omega = self.omega_mid
                + (self.omega - self.omega_mid).clamp(-self.omega_lim, self.omega_lim);
            self.mu += self.omega + self.gain_mu * e;
            let step = self.mu.floor();
            self.mu -= step;
            let mut step = step.max(0.0) as usize;
            let zeros = step.min(self.lead);
            self.lead -= zeros;
            step -= zeros;
            if !self.skip.advance(&mut ii, step, input.len()) {
                break;
            }
        }
        (ii, oo)
    }

    fn min_input(&self) -> usize {
        NTAPS
    }

    fn ratio(&self) -> Ratio {
        Ratio::approximate(1.0 / self.omega_mid as f64)
    }

    fn reset(&mut self) {
        self.omega = self.omega_mid;
        self.mu = self.mu0;
        self.skip.clear();
        self.lead = T::LEAD;
        self.history = [T::default(); 6];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_symbols_of_a_shaped_binary_signal() {
        // Bits at 4 samples per symbol, linearly interpolated.
        let bits: Vec<f32> = (0..400)
            .map(|i| if (i * 13 + i / 3) % 5 < 2 { 1.0 } else { -1.0 })
            .collect();
        let mut x = Vec::new();
        for w in bits.windows(2) {
            for k in 0..4 {
                x.push(w[0] + (w[1] - w[0]) * k as f32 / 4.0);
            }
        }
        let mut k =
            ClockRecoveryMm::<f32>::new(4.0, 0.25 * 0.175 * 0.175, 0.5, 0.175, 0.005).unwrap();
        let mut out = vec![0.0f32; 1000];
        let (_, n) = k.process(&x, &mut out);
        assert!((395..=400).contains(&n), "{n}");
        // After settling, every output sits on a symbol.
        let settled = &out[50..n];
        assert!(settled.iter().all(|v| v.abs() > 0.8), "{settled:?}");
    }
}
