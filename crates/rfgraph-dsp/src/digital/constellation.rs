//! [`Constellation`]: GNU Radio's standard constellation objects
//! (`digital.constellation_bpsk()`, `_qpsk()`, `_dqpsk()`, `_8psk()`,
//! `_16qam()`) with the same points in the same order, and the
//! nearest-point decision GNU Radio's `constellation_decoder_cb` makes.

use crate::error::DspError;
use num_complex::Complex32;

/// A named constellation: its points (symbol `i` is `points[i]`), the
/// Gray mapping GNU Radio applies before differential coding, and whether
/// the modulator codes differentially.
#[derive(Clone, Debug, PartialEq)]
pub struct Constellation {
    name: &'static str,
    points: Vec<Complex32>,
    pre_diff_code: Vec<u8>,
    differential: bool,
}

/// The names [`Constellation::by_name`] knows.
pub const NAMES: [&str; 5] = ["bpsk", "qpsk", "dqpsk", "8psk", "16qam"];

impl Constellation {
    /// The constellation GNU Radio builds as `digital.constellation_<name>()`
    /// (`bpsk`, `qpsk`, `dqpsk`, `8psk`, `16qam`; a `constellation_`
    /// prefix and `()` are accepted).
    pub fn by_name(name: &str) -> Result<Self, DspError> {
        let short = name
            .trim()
            .trim_start_matches("digital.")
            .trim_start_matches("constellation_")
            .trim_end_matches("()")
            .to_ascii_lowercase();
        let s2 = std::f32::consts::SQRT_2;
        let c = |re: f32, im: f32| Complex32::new(re, im);
        let (name, points, pre_diff_code, differential): (
            &'static str,
            Vec<Complex32>,
            Vec<u8>,
            bool,
        ) = match short.as_str() {
            "bpsk" => ("bpsk", vec![c(-1.0, 0.0), c(1.0, 0.0)], vec![], false),
            "qpsk" => (
                "qpsk",
                vec![c(-s2, -s2), c(s2, -s2), c(-s2, s2), c(s2, s2)],
                vec![0, 2, 3, 1],
                false,
            ),
            "dqpsk" => (
                "dqpsk",
                vec![c(s2, s2), c(-s2, s2), c(-s2, -s2), c(s2, -s2)],
                vec![0, 1, 3, 2],
                true,
            ),
            "8psk" => {
                // GNU Radio's order, as angles in multiples of 22.5°.
                let steps = [1.0f32, 7.0, -1.0, -7.0, 3.0, 5.0, -3.0, -5.0];
                let points = steps
                    .iter()
                    .map(|s| Complex32::from_polar(1.0, s * std::f32::consts::PI / 8.0))
                    .collect();
                ("8psk", points, vec![], false)
            }
            "16qam" => {
                let (a, b) = (0.316_227_76f32, 0.948_683_3f32);
                let points = vec![
                    c(a, -a),
                    c(-a, -a),
                    c(b, -b),
                    c(-b, -b),
                    c(-b, -a),
                    c(b, -a),
                    c(-a, -b),
                    c(a, -b),
                    c(-b, b),
                    c(b, b),
                    c(-a, a),
                    c(a, a),
                    c(a, b),
                    c(-a, b),
                    c(b, a),
                    c(-b, a),
                ];
                ("16qam", points, vec![], false)
            }
            _ => {
                return Err(DspError::InvalidSpec(format!(
                    "unknown constellation `{name}` (known: {})",
                    NAMES.join(", ")
                )));
            }
        };
        Ok(Self {
            name,
            points,
            pre_diff_code,
            differential,
        })
    }

    /// The constellation's name (`qpsk`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The points; symbol `i` is `points()[i]`.
    pub fn points(&self) -> &[Complex32] {
        &self.points
    }

    /// Number of points.
    pub fn arity(&self) -> usize {
        self.points.len()
    }

    /// Bits carried by one symbol.
    pub fn bits_per_symbol(&self) -> u32 {
        self.points.len().trailing_zeros()
    }

    /// The symbol map GNU Radio's modulator applies to each chunk of bits
    /// when [`differential`](Self::differential) (empty: identity).
    pub fn pre_diff_code(&self) -> &[u8] {
        &self.pre_diff_code
    }

    /// True when GNU Radio applies the pre-diff code and differential
    /// coding in its generic modulator (`dqpsk`).
    pub fn differential(&self) -> bool {
        self.differential
    }

    /// The distance from `x` to the nearest point.
    #[inline]
    pub fn error(&self, x: Complex32) -> f32 {
        self.points
            .iter()
            .map(|p| (x - p).norm_sqr())
            .fold(f32::INFINITY, f32::min)
            .sqrt()
    }

    /// The RMS magnitude of the points (GNU Radio's EVM reference).
    pub fn rms(&self) -> f32 {
        let p: f32 = self.points.iter().map(|p| p.norm_sqr()).sum();
        (p / self.points.len() as f32).sqrt()
    }

    /// The index of the point nearest `x` (the first of equals).
    #[inline]
    pub fn decide(&self, x: Complex32) -> u8 {
        let mut best = 0;
        let mut best_d = f32::INFINITY;
        for (i, p) in self.points.iter().enumerate() {
            let d = (x - p).norm_sqr();
            if d < best_d {
                best_d = d;
                best = i;
            }
        }
        best as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_decides_to_itself() {
        for name in NAMES {
            let c = Constellation::by_name(name).unwrap();
            assert_eq!(1 << c.bits_per_symbol(), c.arity(), "{name}");
            for (i, p) in c.points().iter().enumerate() {
                assert_eq!(c.decide(*p * 0.9) as usize, i, "{name} point {i}");
            }
        }
        assert!(Constellation::by_name("digital.constellation_qpsk()").is_ok());
        assert!(Constellation::by_name("64qam").is_err());
    }
}
