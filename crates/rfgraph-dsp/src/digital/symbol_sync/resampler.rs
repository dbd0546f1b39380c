//! [`InterpResampler`]: the interpolating resamplers of GNU Radio 3.10's
//! symbol synchronizer (`interpolating_resampler.cc`): the 8-tap MMSE
//! interpolator (and its MMSE differentiator) at 128 phases, the same
//! taps as a polyphase bank of a power-of-two number of arms, or a
//! polyphase bank built from a prototype (matched) filter, with a
//! derivative bank from its central differences. The MMSE taps are
//! computed by least squares over `0 ≤ f ≤ 0.25` cycles/sample, as GNU
//! Radio's generators did (they agree with its tables to about 1e-6).

use super::kernel::SyncSample;
use crate::error::DspError;

/// MMSE taps per phase.
const NTAPS: usize = 8;
/// MMSE phases between two samples.
const NSTEPS: usize = 128;

/// Which resampler, by GNU Radio's `ir_type`.
#[derive(Clone, Debug, PartialEq)]
pub enum ResamplerKind {
    /// `IR_MMSE_8TAP`.
    Mmse8Tap,
    /// `IR_PFB_NO_MF`: the MMSE taps as a bank of `nfilters` arms
    /// (rounded up to a power of two, at most 128).
    PfbNoMf {
        /// Requested arms (> 1).
        nfilters: usize,
    },
    /// `IR_PFB_MF`: a bank of `nfilters` arms from prototype `taps`.
    PfbMf {
        /// Arms (> 1).
        nfilters: usize,
        /// The prototype filter, at `nfilters` times the sample rate.
        taps: Vec<f32>,
    },
}

/// A bank of filters, one per phase (0..=arms), taps in sample order.
#[derive(Clone, Debug)]
struct Bank {
    arms: usize,
    /// `arms` as a float.
    arms_f32: f32,
    ntaps: usize,
    taps: Vec<f32>,
    diff: Vec<f32>,
    /// For 8-tap arms: each arm's taps twice over (`h0 h0 h1 h1 ...`),
    /// the factors of a complex dot product's interleaved parts.
    taps2: Vec<[f32; 2 * NTAPS]>,
}

impl Bank {
    fn new(arms: usize, ntaps: usize, taps: Vec<f32>, diff: Vec<f32>) -> Self {
        let taps2 = if ntaps == NTAPS {
            taps.chunks_exact(NTAPS)
                .map(|h| std::array::from_fn(|i| h[i / 2]))
                .collect()
        } else {
            Vec::new()
        };
        Self {
            arms,
            arms_f32: arms as f32,
            ntaps,
            taps,
            diff,
            taps2,
        }
    }

    /// The arm nearest `mu` (ties to even), 0 for a negative or
    /// non-finite one. For `x` in `[0, 2²²)` the sum `x + 2²³` rounds `x`
    /// half to even into its low mantissa bits, read there without the
    /// libm call x86-64's baseline makes of `round_ties_even` or a
    /// float-to-integer conversion.
    #[inline(always)]
    fn arm(&self, mu: f32) -> usize {
        const MAGIC: f32 = 8_388_608.0;
        let x = mu * self.arms_f32;
        if (0.0..MAGIC / 2.0).contains(&x) {
            (((x + MAGIC).to_bits() & 0x7f_ffff) as usize).min(self.arms)
        } else if x.is_finite() && x >= 0.0 {
            (x.round_ties_even() as usize).min(self.arms)
        } else {
            0
        }
    }
}

/// The resampler: interpolates (and differentiates) at a fractional
/// phase `mu` in `[0, 1]` from `ntaps()` samples.
#[derive(Clone, Debug)]
pub struct InterpResampler {
    bank: Bank,
}

impl InterpResampler {
    /// The resampler of `kind`; `derivative` builds the derivative bank.
    ///
    /// Errors: fewer than 2 arms, or fewer prototype taps than arms.
    pub fn new(kind: &ResamplerKind, derivative: bool) -> Result<Self, DspError> {
        let bank = match kind {
            ResamplerKind::Mmse8Tap => mmse_bank(NSTEPS, derivative),
            ResamplerKind::PfbNoMf { nfilters } => {
                if *nfilters <= 1 {
                    return Err(arms_error(*nfilters));
                }
                let log = ((*nfilters - 1) as f32).log2() as u32;
                let n = 1usize.checked_shl(log + 1).unwrap_or(0);
                let n = if n == 0 || n > NSTEPS { NSTEPS } else { n };
                mmse_bank(n, derivative)
            }
            ResamplerKind::PfbMf { nfilters, taps } => pfb_bank(*nfilters, taps, derivative)?,
        };
        Ok(Self { bank })
    }

    /// Input samples read per interpolation.
    pub fn ntaps(&self) -> usize {
        self.bank.ntaps
    }

    /// Interpolates from `x[..ntaps()]` at phase `mu`.
    #[inline(always)]
    pub fn interpolate<T: SyncSample>(&self, x: &[T], mu: f32) -> T {
        let a = self.bank.arm(mu);
        let n = self.bank.ntaps;
        let h = &self.bank.taps[a * n..(a + 1) * n];
        match (
            <&[f32; NTAPS]>::try_from(h),
            self.bank.taps2.get(a),
            x.first_chunk::<NTAPS>(),
        ) {
            (Ok(h), Some(h2), Some(x)) => T::dot8(h, h2, x),
            _ => T::dot(h, x),
        }
    }

    /// The derivative at phase `mu` (zero without a derivative bank).
    #[inline]
    pub fn differentiate<T: SyncSample>(&self, x: &[T], mu: f32) -> T {
        let a = self.bank.arm(mu);
        let n = self.bank.ntaps;
        match self.bank.diff.get(a * n..(a + 1) * n) {
            Some(h) => T::dot(h, x),
            None => T::default(),
        }
    }
}

fn arms_error(n: usize) -> DspError {
    DspError::OutOfRange {
        name: "nfilters",
        value: n as f64,
        expected: "the polyphase bank needs more than 1 arm",
    }
}

/// The MMSE interpolator's (and differentiator's) taps at `arms + 1`
/// phases `0, 1/arms, ..., 1`.
fn mmse_bank(arms: usize, derivative: bool) -> Bank {
    let mut taps = Vec::with_capacity((arms + 1) * NTAPS);
    let mut diff = Vec::new();
    for a in 0..=arms {
        // GNU Radio picks every (128/arms)-th row of its 128-step table.
        let mu = (a * (NSTEPS / arms)) as f64 / NSTEPS as f64;
        taps.extend(mmse_taps(mu, false));
        if derivative {
            diff.extend(mmse_taps(mu, true));
        }
    }
    Bank::new(arms, NTAPS, taps, diff)
}

/// The taps `h[k]` (on `x(k)`) minimising the squared error of
/// `Σ h[k]·e^{jωk}` against `e^{jω(3+mu)}` (or its derivative in `mu`,
/// `jω·e^{jω(3+mu)}`) over `ω ∈ [0, π/2]`.
fn mmse_taps(mu: f64, derivative: bool) -> [f32; NTAPS] {
    let w = std::f64::consts::FRAC_PI_2;
    // ∫0^W cos(ωd) dω
    let cos_int = |d: f64| {
        if d.abs() < 1e-12 {
            w
        } else {
            (w * d).sin() / d
        }
    };
    // ∫0^W −ω·sin(ωd) dω
    let slope_int = |d: f64| {
        if d.abs() < 1e-12 {
            0.0
        } else {
            -((w * d).sin() / (d * d) - w * (w * d).cos() / d)
        }
    };
    let d = 3.0 + mu;
    let mut a = [[0.0f64; NTAPS + 1]; NTAPS];
    for (k, row) in a.iter_mut().enumerate() {
        for (l, v) in row.iter_mut().take(NTAPS).enumerate() {
            *v = cos_int(k as f64 - l as f64);
        }
        row[NTAPS] = if derivative {
            slope_int(d - k as f64)
        } else {
            cos_int(k as f64 - d)
        };
    }
    for col in 0..NTAPS {
        let pivot = (col..NTAPS)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let p = a[col];
        for row in a.iter_mut().skip(col + 1) {
            let f = row[col] / p[col];
            for (v, q) in row.iter_mut().zip(p).skip(col) {
                *v -= f * q;
            }
        }
    }
    let mut h = [0.0f64; NTAPS];
    for r in (0..NTAPS).rev() {
        let s: f64 = (r + 1..NTAPS).map(|c| a[r][c] * h[c]).sum();
        h[r] = (a[r][NTAPS] - s) / a[r][r];
    }
    h.map(|v| v as f32)
}

/// GNU Radio's `interp_resampler_pfb_mf`: arm `i` (of `n + 1`, the last
/// one the first shifted by a tap) takes prototype taps `i, i + n, i +
/// 2n, ...`; the derivative prototype is the central difference `p[i+1]
/// − p[i−1]` of the prototype, its ends zeroed, scaled to `n / Σ|d|`.
fn pfb_bank(n: usize, proto: &[f32], derivative: bool) -> Result<Bank, DspError> {
    if n <= 1 {
        return Err(arms_error(n));
    }
    if proto.len() < n {
        return Err(DspError::OutOfRange {
            name: "taps",
            value: proto.len() as f64,
            expected: "the prototype needs at least as many taps as arms",
        });
    }
    let tpf = proto.len().div_ceil(n);
    let m = proto.len();
    // GNU Radio's three-tap truncated ideal differentiator.
    let mut d: Vec<f32> = (0..m)
        .map(|i| {
            let next = if i + 1 < m { proto[i + 1] } else { 0.0 };
            let prev = if i >= 1 { proto[i - 1] } else { 0.0 };
            next - prev
        })
        .collect();
    d[0] = 0.0;
    d[m - 1] = 0.0;
    let mag: f32 = d.iter().map(|v| v.abs()).sum();
    for v in &mut d {
        *v *= n as f32 / mag;
    }
    if derivative && d.iter().any(|v| v.is_nan()) {
        return Err(DspError::OutOfRange {
            name: "taps",
            value: f64::NAN,
            expected: "the prototype's derivative is not a number (all-zero taps?)",
        });
    }
    let arm = |src: &[f32], i: usize| -> Vec<f32> {
        // GNU Radio's FIR applies its taps reversed: sample order here.
        let mut t: Vec<f32> = (0..tpf)
            .map(|j| src.get(i + j * n).copied().unwrap_or(0.0))
            .collect();
        t.reverse();
        t
    };
    let mut taps = Vec::with_capacity((n + 1) * tpf);
    let mut diff = Vec::new();
    for i in 0..=n {
        taps.extend(arm(proto, i));
        if derivative {
            diff.extend(arm(&d, i));
        }
    }
    Ok(Bank::new(n, tpf, taps, diff))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mmse_taps_match_gnu_radios_tables() {
        // interpolator_taps.h row 64 and interp_differentiator_taps.h row
        // 0, in sample order.
        let i = mmse_taps(0.5, false);
        assert!((i[3] - 0.609836).abs() < 2e-6 && (i[0] + 0.00677751).abs() < 2e-6);
        let d = mmse_taps(0.0, true);
        let gr = [
            -0.0255693f32,
            0.160378,
            -0.69894,
            -0.176425,
            1.00394,
            -0.353697,
            0.10918,
            -0.0197975,
        ];
        for (a, b) in d.iter().zip(gr) {
            assert!((a - b).abs() < 5e-6, "{a} vs {b}");
        }
    }
}
