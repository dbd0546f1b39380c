//! [`SoftDecider`]: GNU Radio 3.10's soft decisions of a constellation
//! (`constellation::calc_soft_dec`, `gen_soft_dec_lut`,
//! `set_soft_dec_lut`, `soft_decision_maker`), and the tables of GNU
//! Radio's Python generators (`digital.soft_dec_table_generator` with
//! `sd_psk_2`, `sd_psk_4`, `sd_qam_16`). Owns only the soft-decision
//! arithmetic; the constellations are [`Constellation`]'s.

use super::constellation::Constellation;
use crate::error::DspError;
use num_complex::Complex32;

/// The largest LUT precision (bits per axis) taken: `4^12` entries.
pub const MAX_PRECISION: u32 = 12;

/// One of GNU Radio's Python soft-decision generators
/// (`digital.sd_psk_2`, `digital.sd_psk_4`, `digital.sd_qam_16`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoftGenerator {
    /// `sd_psk_2_0x0`: `[√2·Es·re]`.
    Psk2,
    /// `sd_psk_4_0x0_0_1`: `[√2·Es·im, √2·Es·re]`.
    Psk4,
    /// `sd_qam_16_0x0_0_1_2_3`.
    Qam16,
}

impl SoftGenerator {
    /// The soft bits of `x` for maximum symbol energy `es`, in `f64` as
    /// GNU Radio's Python computes them.
    pub fn soft(self, re: f64, im: f64, es: f64) -> Vec<f64> {
        let dist = es * std::f64::consts::SQRT_2;
        match self {
            Self::Psk2 => vec![dist * re],
            Self::Psk4 => vec![dist * im, dist * re],
            Self::Qam16 => {
                let boundary = dist / 3.0;
                let dist0 = dist / 6.0;
                let outer = |v: f64| {
                    if v < -boundary {
                        boundary * (v + dist0)
                    } else if v < boundary {
                        v
                    } else {
                        boundary * (v - dist0)
                    }
                };
                let b3 = outer(re);
                let b1 = outer(im);
                let b2 = -re.abs() + boundary;
                let b0 = -im.abs() + boundary;
                let h = es / 2.0;
                vec![h * b3, h * b2, h * b1, h * b0]
            }
        }
    }

    /// GNU Radio's `soft_dec_table_generator(gen, prec, Es)`: `2^prec`
    /// rows of `2^prec` points each from `−Es·√2/2` to `Es·√2/2`
    /// (`numpy.linspace`), row by row from the bottom.
    ///
    /// Errors: `prec` above [`MAX_PRECISION`].
    pub fn table(self, prec: u32, es: f64) -> Result<Vec<Vec<f32>>, DspError> {
        if prec > MAX_PRECISION {
            return Err(DspError::InvalidSpec(format!(
                "a soft-decision table of precision {prec} (at most {MAX_PRECISION})"
            )));
        }
        let n = 1usize << prec;
        let maxd = es * std::f64::consts::SQRT_2 / 2.0;
        let axis = linspace(-maxd, maxd, n);
        let mut out = Vec::with_capacity(n * n);
        for &y in &axis {
            for &x in &axis {
                out.push(self.soft(x, y, es).into_iter().map(|v| v as f32).collect());
            }
        }
        Ok(out)
    }
}

/// `numpy.linspace(a, b, n)`: `a + i·step`, the last exactly `b`.
fn linspace(a: f64, b: f64, n: usize) -> Vec<f64> {
    if n == 1 {
        return vec![a];
    }
    let step = (b - a) / (n - 1) as f64;
    let mut v: Vec<f64> = (0..n).map(|i| a + i as f64 * step).collect();
    if let Some(last) = v.last_mut() {
        *last = b;
    }
    v
}

/// The soft decider of a constellation: its points, the bit values GNU
/// Radio gives them (the pre-diff code when the constellation applies
/// it), and a LUT when one is set.
#[derive(Clone, Debug, PartialEq)]
pub struct SoftDecider {
    points: Vec<Complex32>,
    values: Vec<u32>,
    bits: usize,
    lut: Vec<Vec<f32>>,
    lut_scale: f32,
}

impl SoftDecider {
    /// The decider of `c`, without a LUT (decisions by
    /// [`calc`](Self::calc) at noise power 1).
    pub fn new(c: &Constellation) -> Self {
        let points = c.points().to_vec();
        let values = if c.differential() && c.pre_diff_code().len() == points.len() {
            c.pre_diff_code().iter().map(|&v| u32::from(v)).collect()
        } else {
            (0..points.len() as u32).collect()
        };
        Self {
            bits: points.len().max(1).ilog2() as usize,
            points,
            values,
            lut: Vec::new(),
            lut_scale: 0.0,
        }
    }

    /// Soft bits per sample (GNU Radio's `bits_per_symbol()`).
    pub fn bits(&self) -> usize {
        self.bits
    }

    /// The LUT (empty when none is set).
    pub fn lut(&self) -> &[Vec<f32>] {
        &self.lut
    }

    /// GNU Radio's `calc_soft_dec(x, npwr)`: for each bit, `ln` of the
    /// summed `exp(−|x − p|/npwr)` of the points whose value has the bit
    /// set, minus that of the points where it is clear; the most
    /// significant bit first.
    pub fn calc(&self, x: Complex32, npwr: f32, out: &mut [f32]) {
        let k = self.bits;
        let mut tmp = [0f32; 64];
        let tmp = &mut tmp[..2 * k.min(32)];
        for (p, &v) in self.points.iter().zip(&self.values) {
            let dist = (x - p).norm();
            let d = (-dist / npwr).exp();
            for j in 0..k.min(32) {
                tmp[2 * j + ((v >> j) & 1) as usize] += d;
            }
        }
        for i in 0..k.min(32).min(out.len()) {
            out[k - 1 - i] = tmp[2 * i + 1].ln() - tmp[2 * i].ln();
        }
    }

    /// GNU Radio's `gen_soft_dec_lut(precision)`: [`calc`](Self::calc)
    /// at noise power 1 over a `2^precision`-square grid from −1 to 1
    /// (coordinates accumulated in `f32` as GNU Radio does).
    ///
    /// Errors: `precision` above [`MAX_PRECISION`].
    pub fn gen_lut(&mut self, precision: u32) -> Result<(), DspError> {
        check_precision(precision)?;
        let scale = 2f32.powi(precision as i32);
        let n = 1usize << precision;
        let step = 2.0f32 / (scale - 1.0);
        let mut lut = Vec::with_capacity(n * n);
        let mut y = -1.0f32;
        for _ in 0..n {
            let mut x = -1.0f32;
            for _ in 0..n {
                let mut s = vec![0f32; self.bits];
                self.calc(Complex32::new(x, y), 1.0, &mut s);
                lut.push(s);
                x += step;
            }
            y += step;
        }
        self.lut = lut;
        self.lut_scale = scale;
        Ok(())
    }

    /// GNU Radio's `set_soft_dec_lut(table, precision)`.
    ///
    /// Errors: `precision` above [`MAX_PRECISION`], an empty table.
    pub fn set_lut(&mut self, table: Vec<Vec<f32>>, precision: u32) -> Result<(), DspError> {
        check_precision(precision)?;
        if table.is_empty() {
            return Err(DspError::InvalidSpec("an empty soft-decision table".into()));
        }
        self.lut = table;
        self.lut_scale = 2f32.powi(precision as i32);
        Ok(())
    }

    /// GNU Radio's `soft_decision_maker(x)`: the LUT entry of `x`'s
    /// cell (each axis clipped to ±0.99, then
    /// `⌊(1 + v)·2^precision/2⌋`), or without a LUT
    /// [`calc`](Self::calc) at noise power 1. Writes
    /// [`bits`](Self::bits) values; a LUT entry shorter than that is
    /// padded with 0 and an index past a short table takes its last
    /// entry (GNU Radio reads past its memory there), and a NaN
    /// coordinate is taken as 0.
    pub fn decide(&self, x: Complex32, out: &mut [f32]) {
        if self.lut.is_empty() {
            self.calc(x, 1.0, out);
            return;
        }
        let half = self.lut_scale / 2.0;
        let cell = |v: f32| {
            let v = if v.is_nan() {
                0.0
            } else {
                v.clamp(-0.99, 0.99)
            };
            ((1.0 + v) * half).floor()
        };
        let index = (self.lut_scale * cell(x.im) + cell(x.re)) as usize;
        let entry = self
            .lut
            .get(index)
            .or(self.lut.last())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for (i, o) in out.iter_mut().enumerate().take(self.bits) {
            *o = entry.get(i).copied().unwrap_or(0.0);
        }
    }
}

fn check_precision(precision: u32) -> Result<(), DspError> {
    if precision > MAX_PRECISION {
        return Err(DspError::InvalidSpec(format!(
            "a soft-decision LUT precision of {precision} (at most {MAX_PRECISION})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bpsk_soft_bit_is_the_distance_difference() {
        let d = SoftDecider::new(&Constellation::by_name("bpsk").unwrap());
        let mut s = [0f32];
        d.calc(Complex32::new(0.3, 0.2), 1.0, &mut s);
        // GNU Radio 3.10: 0.5872836709022522
        assert!((s[0] - 0.587_283_7).abs() < 1e-6, "{s:?}");
    }

    #[test]
    fn lut_cells_follow_gnu_radio() {
        let mut d = SoftDecider::new(&Constellation::by_name("bpsk").unwrap());
        let table: Vec<Vec<f32>> = (0..65536).map(|i| vec![i as f32]).collect();
        d.set_lut(table, 8).unwrap();
        let mut s = [0f32];
        for (x, want) in [
            (Complex32::new(0.0, 0.0), 32896.0),
            (Complex32::new(2.0, 0.0), 33022.0),
            (Complex32::new(-1.0, 0.0), 32769.0),
            (Complex32::new(0.3, 0.5), 49318.0),
            (Complex32::new(-0.5, -0.25), 24640.0),
        ] {
            d.decide(x, &mut s);
            assert_eq!(s[0], want, "{x}");
        }
        d.decide(Complex32::new(f32::NAN, f32::INFINITY), &mut s);
    }
}
