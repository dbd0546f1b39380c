//! Parks–McClellan (Remez exchange) equiripple FIR design, GNU Radio's
//! `filter.pm_remez`: the same dense grid, initial extremals, barycentric
//! Lagrange interpolation, extremal search and frequency-sampling step,
//! so its taps agree with GNU Radio's to float rounding.

use crate::error::DspError;
use std::f64::consts::PI;

/// What the filter approximates (GNU Radio's `filter_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemezKind {
    /// Piecewise-linear magnitude (low, high, band pass or stop);
    /// symmetric taps.
    Bandpass,
    /// A differentiator (weight divided by frequency); antisymmetric taps.
    Differentiator,
    /// A Hilbert transformer; antisymmetric taps.
    Hilbert,
}

/// The most taps [`pm_remez`] designs (its work grows with their square).
pub const MAX_REMEZ_TAPS: usize = 1 << 14;

/// Grid points per extremal GNU Radio uses by default.
pub const DEFAULT_GRID_DENSITY: usize = 16;

/// Exchange iterations before giving up.
const MAX_ITERATIONS: usize = 40;

/// The equiripple FIR filter of `order + 1` taps whose response
/// approximates `response` (one value per band edge, linear between a
/// band's two edges) on the bands `bands` (pairs of edges in `0 ..= 1`,
/// 1 being half the sample rate), weighting each band's error by
/// `weight` (one per band; empty: all 1), on a grid of `grid_density`
/// (≥ 16) points per extremal. GNU Radio's
/// `filter.pm_remez(order, bands, response, weight, type, grid_density)`.
///
/// Errors as GNU Radio's: fewer than 4 taps, an odd number of band
/// edges, decreasing edges or edges outside `0 ..= 1`, a response or
/// weight count that does not fit, too low a grid density, no
/// convergence in 40 iterations, or too few / too many extremals; also
/// more than [`MAX_REMEZ_TAPS`] taps and non-finite values.
pub fn pm_remez(
    order: usize,
    bands: &[f64],
    response: &[f64],
    weight: &[f64],
    kind: RemezKind,
    grid_density: usize,
) -> Result<Vec<f64>, DspError> {
    let numtaps = order.saturating_add(1);
    let bad = |why: &str| Err(DspError::InvalidSpec(format!("pm_remez: {why}")));
    if numtaps < 4 {
        return bad("number of taps must be >= 3");
    }
    if numtaps > MAX_REMEZ_TAPS {
        return bad("more than 16384 taps");
    }
    for &v in bands.iter().chain(response).chain(weight) {
        DspError::finite("pm_remez", v)?;
    }
    let numbands = bands.len() / 2;
    if numbands < 1 || bands.len() % 2 == 1 {
        return bad("must have an even number of band edges");
    }
    if bands.windows(2).any(|w| w[1] < w[0]) {
        return bad("band edges must be nondecreasing");
    }
    if bands[0] < 0.0 || bands[bands.len() - 1] > 1.0 {
        return bad("band edges must be in the range [0,1]");
    }
    if response.len() != bands.len() {
        return bad("must have one response magnitude for each band edge");
    }
    let weight = if weight.is_empty() {
        vec![1.0; numbands]
    } else if weight.len() != numbands {
        return bad("need one weight for each band [=length(band)/2]");
    } else {
        weight.to_vec()
    };
    if grid_density < 16 {
        return bad("grid_density is too low; must be >= 16");
    }
    if grid_density > 1024 {
        return bad("grid_density above 1024");
    }
    // The design works on frequencies 0 ..= 0.5 (of the sample rate).
    let half: Vec<f64> = bands.iter().map(|b| b / 2.0).collect();
    match remez(numtaps, &half, response, &weight, kind, grid_density) {
        Ok(h) => Ok(h),
        Err(Failure::NoConvergence) => bad("failed to converge"),
        Err(Failure::TooFew) => bad("insufficient extremals -- cannot continue"),
        Err(Failure::TooMany) => bad("too many extremals -- cannot continue"),
    }
}

/// Why the exchange stopped without a filter.
enum Failure {
    NoConvergence,
    TooFew,
    TooMany,
}

/// The dense grid: frequencies, desired response and weight at each.
struct Grid {
    freq: Vec<f64>,
    des: Vec<f64>,
    wt: Vec<f64>,
}

/// Spreads points `0.5 / (density·r)` apart over each band (the first
/// band starting above 0 for antisymmetric filters), each band's last
/// point on its upper edge; `size` is the count predicted from the band
/// widths, which the grid keeps.
#[allow(clippy::too_many_arguments)]
fn dense_grid(
    r: usize,
    numtaps: usize,
    bands: &[f64],
    des: &[f64],
    weight: &[f64],
    size: usize,
    symmetric: bool,
    density: usize,
) -> Grid {
    let delf = 0.5 / (density * r) as f64;
    let grid0 = if !symmetric && delf > bands[0] {
        delf
    } else {
        bands[0]
    };
    let mut g = Grid {
        freq: Vec::with_capacity(size),
        des: Vec::with_capacity(size),
        wt: Vec::with_capacity(size),
    };
    for band in 0..bands.len() / 2 {
        let mut lowf = if band == 0 { grid0 } else { bands[2 * band] };
        let highf = bands[2 * band + 1];
        let k = ((highf - lowf) / delf + 0.5) as i64;
        for i in 0..k.max(0) {
            // A one-point band (0/0 in GNU Radio) takes its first value.
            let d = if k == 1 {
                des[2 * band]
            } else {
                des[2 * band] + i as f64 * (des[2 * band + 1] - des[2 * band]) / (k - 1) as f64
            };
            g.des.push(d);
            g.wt.push(weight[band]);
            g.freq.push(lowf);
            lowf += delf;
        }
        if let Some(last) = g.freq.last_mut() {
            *last = highf;
        }
    }
    // Keep the predicted size (GNU Radio allocates that many points).
    let fill = |v: &mut Vec<f64>| {
        let last = v.last().copied().unwrap_or(0.0);
        v.resize(size, last);
    };
    fill(&mut g.freq);
    fill(&mut g.des);
    fill(&mut g.wt);
    if !symmetric && numtaps % 2 == 1 && size > 0 && g.freq[size - 1] > 0.5 - delf {
        g.freq[size - 1] = 0.5 - delf;
    }
    g
}

/// The interpolation through the extremals: abscissas `x`, barycentric
/// weights `ad` and values `y`.
struct Interp {
    x: Vec<f64>,
    ad: Vec<f64>,
    y: Vec<f64>,
}

impl Interp {
    /// The interpolation through extremals `ext` (Oppenheim & Schafer eq.
    /// 7.131–7.133: weights, the ripple `delta`, values).
    fn new(r: usize, ext: &[usize], g: &Grid) -> Interp {
        let x: Vec<f64> = ext.iter().map(|&e| (2.0 * PI * g.freq[e]).cos()).collect();
        // Products in `ld` interleaved passes to avoid over/underflow.
        let ld = (r - 1) / 15 + 1;
        let ad: Vec<f64> = (0..=r)
            .map(|i| {
                let xi = x[i];
                let mut denom = 1.0f64;
                for j in 0..ld {
                    let mut k = j;
                    while k <= r {
                        if k != i {
                            denom *= 2.0 * (xi - x[k]);
                        }
                        k += ld;
                    }
                }
                if denom.abs() < 0.00001 {
                    denom = 0.00001;
                }
                1.0 / denom
            })
            .collect();
        let (mut numer, mut denom, mut sign) = (0.0f64, 0.0f64, 1.0f64);
        for i in 0..=r {
            numer += ad[i] * g.des[ext[i]];
            denom += sign * ad[i] / g.wt[ext[i]];
            sign = -sign;
        }
        let delta = numer / denom;
        let mut sign = 1.0f64;
        let y = (0..=r)
            .map(|i| {
                let v = g.des[ext[i]] - sign * delta / g.wt[ext[i]];
                sign = -sign;
                v
            })
            .collect();
        Interp { x, ad, y }
    }

    /// The response at `freq` (0 ..= 0.5), eq. 7.133a.
    fn at(&self, freq: f64) -> f64 {
        let xc = (2.0 * PI * freq).cos();
        let (mut numer, mut denom) = (0.0f64, 0.0f64);
        for i in 0..self.x.len() {
            let c = xc - self.x[i];
            if c.abs() < 1.0e-7 {
                numer = self.y[i];
                denom = 1.0;
                break;
            }
            let c = self.ad[i] / c;
            denom += c;
            numer += c * self.y[i];
        }
        numer / denom
    }
}

/// The weighted error's extremals: every local maximum above zero and
/// minimum below, then the surplus removed (the smallest of the first
/// non-alternating run, else the smaller end), as GNU Radio's `search`.
fn search(r: usize, ext: &mut [usize], e: &[f64]) -> Result<(), Failure> {
    let n = e.len();
    if n < 2 {
        return Err(Failure::TooFew);
    }
    let mut found: Vec<usize> = Vec::with_capacity(2 * r);
    if (e[0] > 0.0 && e[0] > e[1]) || (e[0] < 0.0 && e[0] < e[1]) {
        found.push(0);
    }
    for i in 1..n - 1 {
        if (e[i] >= e[i - 1] && e[i] > e[i + 1] && e[i] > 0.0)
            || (e[i] <= e[i - 1] && e[i] < e[i + 1] && e[i] < 0.0)
        {
            if found.len() >= 2 * r {
                return Err(Failure::TooMany);
            }
            found.push(i);
        }
    }
    let j = n - 1;
    if (e[j] > 0.0 && e[j] > e[j - 1]) || (e[j] < 0.0 && e[j] < e[j - 1]) {
        if found.len() >= 2 * r {
            return Err(Failure::TooMany);
        }
        found.push(j);
    }
    if found.len() < r + 1 {
        return Err(Failure::TooFew);
    }
    let mut extra = found.len() - (r + 1);
    while extra > 0 {
        let k = found.len();
        let mut up = e[found[0]] > 0.0;
        let mut l = 0;
        let mut alt = true;
        for j in 1..k {
            if e[found[j]].abs() < e[found[l]].abs() {
                l = j;
            }
            if up && e[found[j]] < 0.0 {
                up = false;
            } else if !up && e[found[j]] > 0.0 {
                up = true;
            } else {
                alt = false;
                break;
            }
        }
        if alt && extra == 1 {
            l = if e[found[k - 1]].abs() < e[found[0]].abs() {
                k - 1
            } else {
                0
            };
        }
        found.remove(l);
        extra -= 1;
    }
    ext.copy_from_slice(&found[..=r]);
    Ok(())
}

/// Converged: the extremal errors agree to 1e-4 relative.
fn is_done(ext: &[usize], e: &[f64]) -> bool {
    let mut min = e[ext[0]].abs();
    let mut max = min;
    for &x in &ext[1..] {
        let c = e[x].abs();
        min = min.min(c);
        max = max.max(c);
    }
    (max - min) / max < 0.0001
}

/// The impulse response of `n` taps from the amplitude samples `a` at
/// `k / n` (frequency sampling), symmetric or antisymmetric.
fn freq_sample(n: usize, a: &[f64], symmetric: bool) -> Vec<f64> {
    let m = (n as f64 - 1.0) / 2.0;
    let nf = n as f64;
    let upper = if n % 2 == 1 { m as usize } else { n / 2 - 1 };
    (0..n)
        .map(|t| {
            let x = 2.0 * PI * (t as f64 - m) / nf;
            let mut val = if symmetric {
                a[0]
            } else if n % 2 == 1 {
                0.0
            } else {
                a[n / 2] * (PI * (t as f64 - m)).sin()
            };
            for (k, &ak) in a.iter().enumerate().take(upper + 1).skip(1) {
                let arg = x * k as f64;
                val += 2.0 * ak * if symmetric { arg.cos() } else { arg.sin() };
            }
            val / nf
        })
        .collect()
}

fn remez(
    numtaps: usize,
    bands: &[f64],
    des: &[f64],
    weight: &[f64],
    kind: RemezKind,
    density: usize,
) -> Result<Vec<f64>, Failure> {
    let symmetric = kind == RemezKind::Bandpass;
    let mut r = numtaps / 2;
    if numtaps % 2 == 1 && symmetric {
        r += 1;
    }
    let mut size: i64 = 0;
    for i in 0..bands.len() / 2 {
        size += (2.0 * (r * density) as f64 * (bands[2 * i + 1] - bands[2 * i]) + 0.5) as i64;
    }
    if !symmetric {
        size -= 1;
    }
    if size < 2 || (size as usize) < r + 1 {
        return Err(Failure::TooFew);
    }
    let size = size as usize;
    let mut g = dense_grid(r, numtaps, bands, des, weight, size, symmetric, density);
    let mut ext: Vec<usize> = (0..=r).map(|i| i * (size - 1) / r).collect();
    if kind == RemezKind::Differentiator {
        for i in 0..size {
            if g.des[i] > 0.0001 {
                g.wt[i] /= g.freq[i];
            }
        }
    }
    // Odd-length antisymmetric and even-length filters approximate
    // D / c with weight W · c.
    let factor: Option<fn(f64) -> f64> = match (symmetric, numtaps % 2 == 1) {
        (true, true) => None,
        (true, false) => Some(|f| (PI * f).cos()),
        (false, true) => Some(|f| (2.0 * PI * f).sin()),
        (false, false) => Some(|f| (PI * f).sin()),
    };
    if let Some(c) = factor {
        for i in 0..size {
            let c = c(g.freq[i]);
            g.des[i] /= c;
            g.wt[i] *= c;
        }
    }
    let mut e = vec![0.0f64; size];
    let mut iter = 0;
    while iter < MAX_ITERATIONS {
        let p = Interp::new(r, &ext, &g);
        for (i, ei) in e.iter_mut().enumerate() {
            *ei = g.wt[i] * (g.des[i] - p.at(g.freq[i]));
        }
        search(r, &mut ext, &e)?;
        if is_done(&ext, &e) {
            break;
        }
        iter += 1;
    }
    let p = Interp::new(r, &ext, &g);
    let a: Vec<f64> = (0..=numtaps / 2)
        .map(|i| {
            let f = i as f64 / numtaps as f64;
            let c = match (symmetric, numtaps % 2 == 1) {
                (true, true) => 1.0,
                (true, false) => (PI * f).cos(),
                (false, true) => (2.0 * PI * f).sin(),
                (false, false) => (PI * f).sin(),
            };
            p.at(f) * c
        })
        .collect();
    let h = freq_sample(numtaps, &a, symmetric);
    if iter < MAX_ITERATIONS {
        Ok(h)
    } else {
        Err(Failure::NoConvergence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowpass_is_symmetric_and_passes_dc() {
        let h = pm_remez(
            40,
            &[0.0, 0.2, 0.3, 1.0],
            &[1.0, 1.0, 0.0, 0.0],
            &[],
            RemezKind::Bandpass,
            16,
        )
        .unwrap();
        assert_eq!(h.len(), 41);
        for i in 0..h.len() {
            assert!((h[i] - h[h.len() - 1 - i]).abs() < 1e-12);
        }
        let dc: f64 = h.iter().sum();
        assert!((dc - 1.0).abs() < 0.05, "{dc}");
    }

    #[test]
    fn rejects_bad_specifications() {
        let r = |o, b: &[f64], a: &[f64], w: &[f64], d| {
            pm_remez(o, b, a, w, RemezKind::Bandpass, d).is_err()
        };
        assert!(r(2, &[0.0, 0.2, 0.3, 1.0], &[1.0, 1.0, 0.0, 0.0], &[], 16));
        assert!(r(20, &[0.0, 0.2, 0.3], &[1.0, 1.0, 0.0], &[], 16));
        assert!(r(20, &[0.0, 0.3, 0.2, 1.0], &[1.0, 1.0, 0.0, 0.0], &[], 16));
        assert!(r(20, &[0.0, 0.2, 0.3, 1.5], &[1.0, 1.0, 0.0, 0.0], &[], 16));
        assert!(r(20, &[0.0, 0.2, 0.3, 1.0], &[1.0, 1.0, 0.0], &[], 16));
        assert!(r(
            20,
            &[0.0, 0.2, 0.3, 1.0],
            &[1.0, 1.0, 0.0, 0.0],
            &[1.0],
            16
        ));
        assert!(r(20, &[0.0, 0.2, 0.3, 1.0], &[1.0, 1.0, 0.0, 0.0], &[], 8));
        assert!(r(
            20,
            &[0.0, f64::NAN, 0.3, 1.0],
            &[1.0, 1.0, 0.0, 0.0],
            &[],
            16
        ));
    }
}
