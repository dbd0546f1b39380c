//! GNU Radio 3.10's `flat_fader_impl`, the fading gain of `fading_model`
//! and of each ray of `selective_fading_model`, reproduced bit for bit:
//! a sum of `N` sinusoids whose arrival angles follow a bounded random
//! walk (Alimohammad, Fard, Cockburn and Schlegel, "Compact Rayleigh and
//! Rician fading simulator based on random walk processes", 2008), with
//! GNU Radio's random numbers (`std::mt19937` and libstdc++'s uniform
//! distribution), its cosine table of 8192 entries read without
//! interpolation, and its mix of `float` and `double` steps.
//!
//! Owns the fader and the table; the blocks own the parameters.

use crate::generate::Mt19937;
use num_complex::Complex32;
use std::f64::consts::PI;
use std::sync::OnceLock;

/// GNU Radio's `sincostable`: `n` cosines, looked up by truncating
/// `x·n/2π` (no interpolation).
#[derive(Clone, Debug)]
pub(crate) struct SinCosTable {
    cos: Vec<f32>,
    scale: f32,
}

impl SinCosTable {
    /// A table of `n` entries (`n` a power of two).
    pub(crate) fn new(n: usize) -> Self {
        Self {
            cos: (0..n)
                .map(|i| (2.0 * PI * i as f64 / n as f64).cos() as f32)
                .collect(),
            scale: (n as f64 / (PI * 2.0)) as f32,
        }
    }

    /// The entry `offset` after the one `x` truncates to, wrapped (GNU
    /// Radio adds its table size as an unsigned number; powers of two
    /// divide 2^64, so the wrap is the plain modulo).
    fn at(&self, x: f32, offset: usize) -> f32 {
        let n = self.cos.len() as i64;
        let i = super::fxpt::truncate(x * self.scale) as i64 + offset as i64;
        self.cos[i.rem_euclid(n) as usize]
    }

    /// The table's cosine of `x`.
    pub(crate) fn cos(&self, x: f32) -> f32 {
        self.at(x, self.cos.len())
    }

    /// The table's sine of `x` (the cosine a quarter turn back).
    pub(crate) fn sin(&self, x: f32) -> f32 {
        let n = self.cos.len();
        self.at(x, n - n / 4)
    }

    /// `sin(x)/x`, 1 at 0.
    pub(crate) fn sinc(&self, x: f32) -> f32 {
        if x == 0.0 { 1.0 } else { self.sin(x) / x }
    }
}

/// The faders' table of 8192 cosines, one for all.
fn fader_table() -> &'static SinCosTable {
    static TABLE: OnceLock<SinCosTable> = OnceLock::new();
    TABLE.get_or_init(|| SinCosTable::new(8 * 1024))
}

/// The settings a fader reads on every sample.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FaderShape {
    /// Normalised maximum Doppler frequency `fD·Ts`.
    pub(crate) fdts: f32,
    /// Rician factor.
    pub(crate) k: f32,
}

/// One flat (single-tap) fading process.
#[derive(Clone, Debug)]
pub(crate) struct FlatFader {
    walk: Mt19937,
    n: usize,
    fdts: f32,
    /// The random walk of the arrival angles' offset.
    theta: f64,
    theta_los: f32,
    step: f32,
    los: bool,
    psi: Vec<f32>,
    phi: Vec<f32>,
    table: &'static SinCosTable,
    scale_sin: f32,
    scale_los: f32,
    scale_nlos: f32,
}

/// `powf(0.00125·fDTs, 1.1)`: the walk's step, GNU Radio's fit of its
/// paper's Table 2.
fn step_of(fdts: f32) -> f32 {
    ((0.00125 * fdts as f64) as f32).powf(1.1)
}

impl FlatFader {
    /// `flat_fader_impl(N, fDTs, LOS, K, seed)`: `n` sinusoids (at least
    /// one), the phases from `mt19937(seed)`, the walk from
    /// `mt19937(seed + 1)`.
    pub(crate) fn new(n: usize, shape: FaderShape, los: bool, seed: u32) -> Self {
        let mut phases = Mt19937::new(seed);
        let theta = phases.uniform(-PI, PI);
        let theta_los = phases.uniform(-PI, PI) as f32;
        let (mut psi, mut phi) = (vec![0.0f32; n + 1], vec![0.0f32; n + 1]);
        for i in 0..=n {
            psi[i] = phases.uniform(-PI, PI) as f32;
            phi[i] = phases.uniform(-PI, PI) as f32;
        }
        let mut fader = Self {
            walk: Mt19937::new(seed.wrapping_add(1)),
            n,
            fdts: shape.fdts,
            theta,
            theta_los,
            step: step_of(shape.fdts),
            los,
            psi,
            phi,
            table: fader_table(),
            scale_sin: ((1.0 / n as f64) as f32).sqrt(),
            scale_los: 0.0,
            scale_nlos: 0.0,
        };
        fader.set_k(shape.k);
        fader
    }

    /// Follows changed settings: GNU Radio's `set_fDTs` when the Doppler
    /// frequency differs (the walk's step made anew from it, positive
    /// again, as in GNU Radio), and `set_K`.
    pub(crate) fn update(&mut self, shape: FaderShape) {
        if shape.fdts.to_bits() != self.fdts.to_bits() {
            self.fdts = shape.fdts;
            self.step = step_of(shape.fdts);
        }
        self.set_k(shape.k);
    }

    /// `set_K`: a new Rician factor.
    fn set_k(&mut self, k: f32) {
        self.scale_los = k.sqrt() / (k + 1.0).sqrt();
        self.scale_nlos = 1.0 / (k + 1.0).sqrt();
    }

    /// The next gain.
    pub(crate) fn next(&mut self) -> Complex32 {
        let mut h = Complex32::new(0.0, 0.0);
        let advance = 2.0 * PI * self.fdts as f64;
        for i in 1..=self.n {
            let alpha = ((2.0 * PI * i as f64 - PI + self.theta) / (4 * self.n) as f64) as f32;
            let turn = advance * self.table.cos(alpha) as f64;
            self.psi[i] = ((self.psi[i] as f64 + turn) % (2.0 * PI)) as f32;
            self.phi[i] = ((self.phi[i] as f64 + turn) % (2.0 * PI)) as f32;
            h += Complex32::new(
                self.scale_sin * self.table.cos(self.psi[i]),
                self.scale_sin * self.table.sin(self.phi[i]),
            );
        }
        if self.los {
            let turn = advance * self.table.cos(self.theta_los) as f64;
            self.psi[0] = ((self.psi[0] as f64 + turn) % (2.0 * PI)) as f32;
            let los = Complex32::new(
                self.scale_los * self.table.cos(self.psi[0]),
                self.scale_los * self.table.sin(self.psi[0]),
            );
            h = h * self.scale_nlos + los;
        }
        self.update_theta();
        h
    }

    /// One step of the bounded random walk, reflected at ±π.
    fn update_theta(&mut self) {
        self.theta += self.step as f64 * self.walk.canonical();
        if self.theta > PI {
            self.theta = PI;
            self.step = -self.step;
        } else if self.theta < -PI {
            self.theta = -PI;
            self.step = -self.step;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_wraps_both_ways() {
        let t = SinCosTable::new(1024);
        assert_eq!(t.cos(0.0), 1.0);
        assert!((t.sin(std::f32::consts::FRAC_PI_2) - 1.0).abs() < 1e-4);
        assert!((t.cos(-std::f32::consts::PI) + 1.0).abs() < 1e-4);
        assert_eq!(t.sinc(0.0), 1.0);
        // Far out of range, as GNU Radio's x86 conversion: an entry, no panic.
        assert!(t.cos(1e30).is_finite() && t.sin(f32::NAN).is_finite());
    }

    #[test]
    fn the_gain_has_about_unit_power() {
        let shape = FaderShape { fdts: 0.01, k: 4.0 };
        for los in [false, true] {
            let mut f = FlatFader::new(8, shape, los, 3);
            let n = 200_000;
            let p = (0..n).map(|_| f.next().norm_sqr() as f64).sum::<f64>() / n as f64;
            assert!((p - 1.0).abs() < 0.3, "los {los}: {p}");
        }
    }
}
