//! [`ClockTrackingLoop`]: the second-order (PI) symbol clock loop of GNU
//! Radio 3.10's `clock_tracking_loop`: gains from the normalised loop
//! bandwidth, damping factor and expected TED gain; the average period
//! is limited to `[min, max]`.

use crate::error::DspError;

/// The clock loop state.
#[derive(Clone, Copy, Debug)]
pub struct ClockTrackingLoop {
    avg_period: f32,
    inst_period: f32,
    phase: f32,
    max_avg_period: f32,
    min_avg_period: f32,
    nom_avg_period: f32,
    zeta: f32,
    omega_n_norm: f32,
    ted_gain: f32,
    alpha: f32,
    beta: f32,
}

impl ClockTrackingLoop {
    /// A loop around `nominal_period`, its average limited to
    /// `[min_period, max_period]`.
    ///
    /// Errors: a negative bandwidth or damping, a TED gain ≤ 0.
    pub fn new(
        loop_bw: f32,
        max_period: f32,
        min_period: f32,
        nominal_period: f32,
        damping: f32,
        ted_gain: f32,
    ) -> Result<Self, DspError> {
        let mut l = Self {
            avg_period: nominal_period,
            inst_period: nominal_period,
            phase: 0.0,
            max_avg_period: max_period,
            min_avg_period: min_period,
            nom_avg_period: nominal_period,
            zeta: 0.0,
            omega_n_norm: 0.0,
            ted_gain: 1.0,
            alpha: 0.0,
            beta: 0.0,
        };
        if nominal_period < min_period || nominal_period > max_period {
            l.nom_avg_period = (max_period + min_period) / 2.0;
        }
        l.avg_period = l.nom_avg_period;
        l.inst_period = l.nom_avg_period;
        l.zeta = check("damping", damping, false)?;
        l.omega_n_norm = check("loop_bw", loop_bw, false)?;
        l.ted_gain = check("ted_gain", ted_gain, true)?;
        l.update_gains();
        Ok(l)
    }

    fn update_gains(&mut self) {
        let omega_n_t = self.omega_n_norm;
        let zeta_omega_n_t = self.zeta * omega_n_t;
        let k0 = 2.0 / self.ted_gain;
        let k1 = (-zeta_omega_n_t).exp();
        let sinh_zeta_omega_n_t = zeta_omega_n_t.sinh();
        let cosx_omega_d_t = if self.zeta > 1.0 {
            (omega_n_t * (self.zeta * self.zeta - 1.0).sqrt()).cosh()
        } else if self.zeta == 1.0 {
            1.0
        } else {
            (omega_n_t * ((1.0f64 - (self.zeta * self.zeta) as f64) as f32).sqrt()).cos()
        };
        self.alpha = k0 * k1 * sinh_zeta_omega_n_t;
        self.beta = k0 * (1.0 - k1 * (sinh_zeta_omega_n_t + cosx_omega_d_t));
    }

    /// One loop update with the timing error `error`.
    #[inline]
    pub fn advance(&mut self, error: f32) {
        self.avg_period += self.beta * error;
        self.inst_period = self.avg_period + self.alpha * error;
        self.phase += self.inst_period;
    }

    /// Wraps the phase into `(-avg/2, avg/2]` and limits the average
    /// period.
    #[inline]
    pub fn wrap_and_limit(&mut self) {
        let period = self.avg_period;
        let limit = period / 2.0;
        if period > 0.0 && self.phase.is_finite() {
            if self.phase.abs() > 64.0 * period {
                // A runaway loop: subtracting the period one at a time
                // would never get there in single precision.
                self.phase = self.phase.rem_euclid(period);
            }
            while self.phase > limit {
                self.phase -= period;
            }
            while self.phase <= -limit {
                self.phase += period;
            }
        }
        if self.avg_period > self.max_avg_period {
            self.avg_period = self.max_avg_period;
        } else if self.avg_period < self.min_avg_period {
            self.avg_period = self.min_avg_period;
        }
    }

    /// The instantaneous period (the next symbol's spacing).
    #[inline]
    pub fn inst_period(&self) -> f32 {
        self.inst_period
    }

    /// The average period.
    #[inline]
    pub fn avg_period(&self) -> f32 {
        self.avg_period
    }

    /// The largest average period.
    pub fn max_avg_period(&self) -> f32 {
        self.max_avg_period
    }

    /// The proportional and integral gains `(alpha, beta)`.
    pub fn gains(&self) -> (f32, f32) {
        (self.alpha, self.beta)
    }

    /// GNU Radio's `set_loop_bandwidth`.
    ///
    /// Errors: a negative bandwidth (nothing changes).
    pub fn set_loop_bandwidth(&mut self, bw: f32) -> Result<(), DspError> {
        self.omega_n_norm = check("loop_bw", bw, false)?;
        self.update_gains();
        Ok(())
    }

    /// GNU Radio's `set_damping_factor`.
    ///
    /// Errors: a negative damping factor (nothing changes).
    pub fn set_damping_factor(&mut self, df: f32) -> Result<(), DspError> {
        self.zeta = check("damping", df, false)?;
        self.update_gains();
        Ok(())
    }

    /// GNU Radio's `set_ted_gain`.
    ///
    /// Errors: a gain ≤ 0 (nothing changes).
    pub fn set_ted_gain(&mut self, g: f32) -> Result<(), DspError> {
        self.ted_gain = check("ted_gain", g, true)?;
        self.update_gains();
        Ok(())
    }
}

fn check(name: &'static str, v: f32, strict: bool) -> Result<f32, DspError> {
    let ok = v.is_finite() && if strict { v > 0.0 } else { v >= 0.0 };
    if ok {
        Ok(v)
    } else {
        Err(DspError::OutOfRange {
            name,
            value: v as f64,
            expected: if strict {
                "must be finite and > 0"
            } else {
                "must be finite and >= 0"
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critically_damped_gains() {
        let l = ClockTrackingLoop::new(0.045, 5.5, 2.5, 4.0, 1.0, 1.0).unwrap();
        let (a, b) = l.gains();
        let x = 0.045f32;
        let k1 = (-x).exp();
        assert!((a - 2.0 * k1 * x.sinh()).abs() < 1e-7);
        assert!((b - 2.0 * (1.0 - k1 * (x.sinh() + 1.0))).abs() < 1e-7);
    }
}
