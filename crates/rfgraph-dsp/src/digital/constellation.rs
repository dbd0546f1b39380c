//! [`Constellation`]: GNU Radio's standard constellation objects
//! (`digital.constellation_bpsk()`, `_qpsk()`, `_dqpsk()`, `_8psk()`,
//! `_16qam()`) with the same points in the same order, and the
//! nearest-point decision GNU Radio's `constellation_decoder_cb` makes;
//! also custom constellations (`digital.constellation_calcdist(...)`)
//! normalised as GNU Radio 3.10's constructor does.

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
    decision: Decision,
}

/// How a constellation decides, as GNU Radio's classes do.
#[derive(Clone, Debug, PartialEq)]
enum Decision {
    /// The nearest point (`constellation_calcdist`, `_16qam`).
    Nearest,
    /// `re > 0` (`constellation_bpsk`).
    Bpsk,
    /// `2·(im > 0) + (re > 0)` (`constellation_qpsk`).
    Qpsk,
    /// The quadrant, counter-clockwise from the first (`_dqpsk`).
    Dqpsk,
    /// GNU Radio's `constellation_8psk` slicer.
    Psk8,
    /// The decision of the sample's sector (`constellation_rect`).
    Sectors(Sectors),
}

/// The rectangular sectors of GNU Radio's `constellation_rect`: the
/// decision is the point nearest the centre of the sample's sector.
#[derive(Clone, Debug, PartialEq)]
struct Sectors {
    real: usize,
    imag: usize,
    width_real: f32,
    width_imag: f32,
    /// The decision for each sector (`real_sector · imag + imag_sector`).
    values: Vec<u8>,
}

/// The most sectors [`Constellation::with_sectors`] takes.
pub const MAX_SECTORS: usize = 1 << 16;

/// How GNU Radio's constellation constructor scales custom points
/// (`constellation::normalization_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Normalization {
    /// The points as given (`NO_NORMALIZATION`).
    None,
    /// Mean magnitude 1 (`AMPLITUDE_NORMALIZATION`, GNU Radio's default).
    Amplitude,
    /// Mean power 1 (`POWER_NORMALIZATION`).
    Power,
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
            decision: match name {
                "bpsk" => Decision::Bpsk,
                "qpsk" => Decision::Qpsk,
                "dqpsk" => Decision::Dqpsk,
                "8psk" => Decision::Psk8,
                _ => Decision::Nearest,
            },
            pre_diff_code,
            differential,
        })
    }

    /// A custom constellation, as GNU Radio's
    /// `constellation_calcdist(points, pre_diff_code, rot_sym, 1,
    /// normalization)` builds it: the points scaled by `normalization`
    /// (computed in `f32` as GNU Radio does), and the pre-diff code
    /// applied by the modulator when it is not empty.
    ///
    /// Errors: no points, more than 256 points, a pre-diff code whose
    /// length differs from the points' or with an entry not below the
    /// number of points, all-zero points with a normalization.
    pub fn custom(
        points: &[Complex32],
        pre_diff_code: &[u8],
        normalization: Normalization,
    ) -> Result<Self, DspError> {
        let n = points.len();
        if n == 0 || n > 256 {
            return Err(DspError::InvalidSpec(format!(
                "a constellation needs 1 to 256 points, not {n}"
            )));
        }
        if !pre_diff_code.is_empty() && pre_diff_code.len() != n {
            return Err(DspError::InvalidSpec(format!(
                "the symbol map has {} entries for {n} points",
                pre_diff_code.len()
            )));
        }
        if pre_diff_code.iter().any(|&s| s as usize >= n) {
            return Err(DspError::InvalidSpec(format!(
                "a symbol map entry is not below the number of points ({n})"
            )));
        }
        let scale = Self::scale_factor(points, normalization);
        if !scale.is_finite()
            || points
                .iter()
                .any(|p| !p.re.is_finite() || !p.im.is_finite())
        {
            return Err(DspError::InvalidSpec(
                "the constellation points cannot be normalised".into(),
            ));
        }
        Ok(Self {
            name: "custom",
            points: points.iter().map(|p| p * scale).collect(),
            pre_diff_code: pre_diff_code.to_vec(),
            differential: !pre_diff_code.is_empty(),
            decision: Decision::Nearest,
        })
    }

    /// This constellation deciding as GNU Radio's `constellation_rect`:
    /// the plane is cut into `real × imag` sectors of the given widths
    /// (scaled by the points' normalization factor `scale`), centred on
    /// the origin, the outer ones extending to infinity; a sample decides
    /// to the point nearest its sector's centre.
    ///
    /// Errors: no sectors, more than [`MAX_SECTORS`], a width not
    /// positive and finite.
    pub fn with_sectors(
        mut self,
        real: usize,
        imag: usize,
        width_real: f32,
        width_imag: f32,
    ) -> Result<Self, DspError> {
        if real == 0 || imag == 0 || real.saturating_mul(imag) > MAX_SECTORS {
            return Err(DspError::InvalidSpec(format!(
                "{real} × {imag} sectors: need 1 to {MAX_SECTORS}"
            )));
        }
        if !(width_real > 0.0
            && width_real.is_finite()
            && width_imag > 0.0
            && width_imag.is_finite())
        {
            return Err(DspError::InvalidSpec(
                "the sector widths must be positive".into(),
            ));
        }
        let values = (0..real * imag)
            .map(|sector| {
                let (rs, is) = (sector / imag, sector % imag);
                let centre = Complex32::new(
                    (rs as f32 + 0.5 - real as f32 / 2.0) * width_real,
                    (is as f32 + 0.5 - imag as f32 / 2.0) * width_imag,
                );
                self.nearest(centre)
            })
            .collect();
        self.decision = Decision::Sectors(Sectors {
            real,
            imag,
            width_real,
            width_imag,
            values,
        });
        Ok(self)
    }

    /// The factor [`custom`](Self::custom) scaled the points by under
    /// `normalization` (1 for none).
    pub fn scale_factor(points: &[Complex32], normalization: Normalization) -> f32 {
        let n = points.len() as f32;
        match normalization {
            Normalization::None => 1.0,
            Normalization::Amplitude => n / points.iter().map(|p| p.norm()).sum::<f32>(),
            Normalization::Power => (n / points.iter().map(|p| p.norm_sqr()).sum::<f32>()).sqrt(),
        }
    }

    /// The constellation's name (`qpsk`; `custom` for
    /// [`custom`](Self::custom) ones).
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
        self.points.len().max(1).ilog2()
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

    /// GNU Radio's decision for `x`: the index of the nearest point (the
    /// first of equals), for a sectorised constellation the decision of
    /// `x`'s sector, and for `bpsk`, `qpsk`, `dqpsk` and `8psk` GNU
    /// Radio's slicers (the nearest point but on the boundaries).
    #[inline]
    pub fn decide(&self, x: Complex32) -> u8 {
        let (re, im) = (x.re > 0.0, x.im > 0.0);
        match &self.decision {
            Decision::Nearest => self.nearest(x),
            Decision::Bpsk => re as u8,
            Decision::Qpsk => 2 * im as u8 + re as u8,
            Decision::Dqpsk => match (re, im) {
                (true, true) => 0,
                (false, true) => 1,
                (false, false) => 2,
                (true, false) => 3,
            },
            Decision::Psk8 => {
                let mut d = 0;
                if x.re.abs() <= x.im.abs() {
                    d = 4;
                }
                if x.re <= 0.0 {
                    d |= 1;
                }
                if x.im <= 0.0 {
                    d |= 2;
                }
                d
            }
            Decision::Sectors(s) => {
                let sector = |v: f32, w: f32, n: usize| -> usize {
                    let k = (v / w + n as f32 / 2.0).floor();
                    // NaN and negatives go to 0, as GNU Radio clamps.
                    if k >= 0.0 { (k as usize).min(n - 1) } else { 0 }
                };
                let r = sector(x.re, s.width_real, s.real);
                let i = sector(x.im, s.width_imag, s.imag);
                s.values[r * s.imag + i]
            }
        }
    }

    /// The index of the point nearest `x` (the first of equals).
    #[inline]
    pub fn nearest(&self, x: Complex32) -> u8 {
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

    #[test]
    fn custom_points_are_normalised_as_gnu_radio_does() {
        let pts = [
            Complex32::new(1.0, 1.0),
            Complex32::new(3.0, 0.0),
            Complex32::new(0.0, -2.0),
            Complex32::new(-1.0, 0.0),
        ];
        let p = Constellation::custom(&pts, &[], Normalization::Power).unwrap();
        assert_eq!(p.points()[1], Complex32::new(1.5, 0.0));
        assert!(!p.differential());
        let a = Constellation::custom(&pts, &[0, 1, 2, 3], Normalization::Amplitude).unwrap();
        assert!((a.points()[1].re - 1.618_512_9).abs() < 1e-6);
        assert!(a.differential());
        let n = Constellation::custom(&pts, &[], Normalization::None).unwrap();
        assert_eq!(n.points(), &pts);
        assert!(Constellation::custom(&pts, &[0, 1], Normalization::None).is_err());
        assert!(Constellation::custom(&pts, &[0, 1, 2, 4], Normalization::None).is_err());
        assert!(Constellation::custom(&[], &[], Normalization::None).is_err());
        assert!(Constellation::custom(&[Complex32::default()], &[], Normalization::Power).is_err());
    }
}
