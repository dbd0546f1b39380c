//! [`MaxStar`]: the Jacobian logarithm `max*(x, y) = max(x, y) + ln(1 +
//! e^−|x−y|)` and GNU Radio's approximations of it (`maxstar.h`, from
//! the Iterative Solutions Coded Modulation Library), value for value:
//! their constants are doubles, so the corrections are computed in
//! doubles and rounded to floats, as GNU Radio's C++ does.

/// Which max* a TPC decoder uses (GNU Radio's `decoder_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MaxStar {
    /// 0: linear approximation of the correction.
    Linear,
    /// 1: max-log-MAP, `max(x, y)`.
    Max,
    /// 2: constant correction.
    Constant,
    /// 3: correction from a piecewise linear table.
    Table,
    /// 4: the exact correction by `exp` and `log`.
    Exact,
}

const AJIAN: f64 = -0.249_041_631_954_36;
const TJIAN: f64 = 2.506_817_404_209_44;
const CVALUE: f64 = 0.5;
const TVALUE: f64 = 1.5;
const BOUNDARY: [f64; 9] = [0.0, 0.42, 0.85, 1.31, 1.83, 2.41, 3.13, 4.08, 5.6];
const SLOPE: [f64; 8] = [
    -0.447_881_397_005_22,
    -0.346_911_454_361_76,
    -0.254_325_795_427_05,
    -0.173_266_801_967_15,
    -0.108_221_100_278_77,
    -0.060_026_504_980_09,
    -0.027_392_650_955_22,
    -0.008_602_027_592_80,
];
const VALUE: [f64; 8] = [
    0.689_547_180_559_95,
    0.501_536_993_817_75,
    0.352_565_068_442_19,
    0.235_675_202_545_75,
    0.146_076_465_522_83,
    0.083_608_227_361_13,
    0.040_889_143_775_47,
    0.015_166_125_368_01,
];

impl MaxStar {
    /// GNU Radio's `decoder_type`: 0 to 4, anything else linear.
    pub(crate) fn of(decoder_type: i64) -> Self {
        match decoder_type {
            1 => Self::Max,
            2 => Self::Constant,
            3 => Self::Table,
            4 => Self::Exact,
            _ => Self::Linear,
        }
    }

    /// `max*(d1, d2)`.
    #[inline]
    pub(crate) fn apply(self, d1: f32, d2: f32) -> f32 {
        match self {
            Self::Max => {
                if d1 > d2 {
                    d1
                } else {
                    d2
                }
            }
            Self::Linear => {
                let diff = (d2 - d1) as f64;
                if diff > TJIAN {
                    d2
                } else if diff < -TJIAN {
                    d1
                } else if diff > 0.0 {
                    (d2 as f64 + AJIAN * (diff - TJIAN)) as f32
                } else {
                    (d1 as f64 - AJIAN * (diff + TJIAN)) as f32
                }
            }
            Self::Constant => {
                let diff = (d2 - d1) as f64;
                if diff > TVALUE {
                    d2
                } else if diff < -TVALUE {
                    d1
                } else if diff > 0.0 {
                    (d2 as f64 + CVALUE) as f32
                } else {
                    (d1 as f64 + CVALUE) as f32
                }
            }
            Self::Table => {
                let diff = (d2 - d1).abs() as f64;
                let top = if d1 > d2 { d1 } else { d2 };
                if diff > BOUNDARY[8] {
                    return top;
                }
                // The segment: the last boundary below `diff` (the
                // first segment takes 0 too).
                let i = (1..8).rev().find(|&i| diff > BOUNDARY[i]).unwrap_or(0);
                (top as f64 + VALUE[i] + SLOPE[i] * (diff - BOUNDARY[i])) as f32
            }
            Self::Exact => {
                if d1 > d2 {
                    d1 + (1.0 + (d2 - d1).exp()).ln()
                } else {
                    d2 + (1.0 + (d1 - d2).exp()).ln()
                }
            }
        }
    }
}
