//! Polynomial approximations shared by the scalar and AVX2 loops: sine/cosine of
//! a 32-bit fixed-point phase and a four-quadrant arctangent. Owns the
//! coefficients, so both paths evaluate the same polynomials.

/// Radians per unit of a 32-bit phase (`2π / 2^32`).
pub(crate) const RAD_PER_PHASE: f32 = (core::f64::consts::TAU / 4_294_967_296.0) as f32;

/// Taylor coefficients of `sin x / x` in `x²` (error < 2e-9 on `|x| ≤ π/4`).
pub(crate) const SIN: [f32; 4] = [-1.0 / 6.0, 1.0 / 120.0, -1.0 / 5040.0, 1.0 / 362_880.0];
/// Taylor coefficients of `cos x` in `x²` (error < 3e-8 on `|x| ≤ π/4`).
pub(crate) const COS: [f32; 4] = [-0.5, 1.0 / 24.0, -1.0 / 720.0, 1.0 / 40_320.0];

/// Coefficients `a2..a16` of `atan(t) ≈ t (1 + a2 t² + … + a16 t¹⁶)` on
/// `0 ≤ t ≤ 1` (Abramowitz & Stegun 4.4.49, error ≈ 2e-8).
pub(crate) const ATAN: [f32; 8] = [
    -0.333_331_45,
    0.199_935_51,
    -0.142_089,
    0.106_562_64,
    -0.075_289_64,
    0.042_909_61,
    -0.016_165_737,
    0.002_866_225_7,
];

/// `(cos, sin)` of `2π · phase / 2^32`.
#[inline]
pub(crate) fn sincos(phase: u32) -> (f32, f32) {
    // Nearest quarter turn, and the remainder in [-1/8, 1/8) turn.
    let q = phase.wrapping_add(1 << 29) >> 30;
    let r = phase.wrapping_sub(q << 30) as i32;
    let x = r as f32 * RAD_PER_PHASE;
    let x2 = x * x;
    let s = x * (1.0 + x2 * (SIN[0] + x2 * (SIN[1] + x2 * (SIN[2] + x2 * SIN[3]))));
    let c = 1.0 + x2 * (COS[0] + x2 * (COS[1] + x2 * (COS[2] + x2 * COS[3])));
    let (c, s) = if q & 1 == 1 { (s, c) } else { (c, s) };
    let c_sign = ((q.wrapping_add(1)) & 2) << 30;
    let s_sign = (q & 2) << 30;
    (
        f32::from_bits(c.to_bits() ^ c_sign),
        f32::from_bits(s.to_bits() ^ s_sign),
    )
}

/// Four-quadrant arctangent `atan2(y, x)` in radians (absolute error ≈ 1e-7).
#[inline]
pub(crate) fn atan2(y: f32, x: f32) -> f32 {
    let ax = x.abs();
    let ay = y.abs();
    let mx = ax.max(ay);
    let mn = ax.min(ay);
    let t = mn / mx.max(f32::MIN_POSITIVE);
    let t2 = t * t;
    let mut p = ATAN[7];
    for &a in ATAN[..7].iter().rev() {
        p = p * t2 + a;
    }
    p = p * t2 + 1.0;
    let mut r = t * p;
    if ay > ax {
        r = core::f32::consts::FRAC_PI_2 - r;
    }
    if x < 0.0 {
        r = core::f32::consts::PI - r;
    }
    f32::from_bits(r.to_bits() | (y.to_bits() & 0x8000_0000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sincos_accuracy() {
        let mut worst = 0.0f64;
        let mut p = 0u32;
        for _ in 0..100_000 {
            let (c, s) = sincos(p);
            let a = p as f64 * core::f64::consts::TAU / 4_294_967_296.0;
            worst = worst
                .max((c as f64 - a.cos()).abs())
                .max((s as f64 - a.sin()).abs());
            p = p.wrapping_add(42_949_673 + 12_345);
        }
        assert!(worst < 3e-7, "worst {worst}");
    }

    #[test]
    fn atan2_accuracy() {
        let mut worst = 0.0f64;
        for i in 0..2000 {
            let a = i as f64 * 0.00314 - 3.1;
            for r in [1e-3f64, 1.0, 1e3] {
                let (y, x) = ((r * a.sin()) as f32, (r * a.cos()) as f32);
                let e = (atan2(y, x) as f64 - (y as f64).atan2(x as f64)).abs();
                worst = worst.max(e);
            }
        }
        assert!(worst < 5e-7, "worst {worst}");
        assert_eq!(atan2(0.0, 0.0), 0.0);
        assert!((atan2(0.0, -1.0) - core::f32::consts::PI).abs() < 1e-6);
        assert!((atan2(-0.0, -1.0) + core::f32::consts::PI).abs() < 1e-6);
    }
}
