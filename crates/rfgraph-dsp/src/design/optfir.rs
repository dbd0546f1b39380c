//! Optimal (equiripple) filter designers from ripple specifications, GNU
//! Radio's `filter.optfir`: Herrmann's order estimate (`remezord`,
//! `lporder`) turned into a [`pm_remez`] design, for low, high and band
//! pass filters.

use super::remez::{DEFAULT_GRID_DENSITY, RemezKind, pm_remez};
use crate::error::DspError;

/// A passband ripple in dB as an absolute deviation.
pub fn passband_ripple_to_dev(ripple_db: f64) -> f64 {
    let g = 10f64.powf(ripple_db / 20.0);
    (g - 1.0) / (g + 1.0)
}

/// A stopband attenuation in dB as an absolute deviation.
pub fn stopband_atten_to_dev(atten_db: f64) -> f64 {
    10f64.powf(-atten_db / 20.0)
}

/// Herrmann et al.'s (1973) length estimate of a low pass filter with
/// edges `freq1`, `freq2` (fractions of the sample rate) and deviations
/// `delta_p`, `delta_s` (GNU Radio's `optfir.lporder`).
pub fn lporder(freq1: f64, freq2: f64, delta_p: f64, delta_s: f64) -> f64 {
    let df = (freq2 - freq1).abs();
    let ddp = delta_p.log10();
    let dds = delta_s.log10();
    let (a1, a2, a3, a4, a5, a6) = (
        5.309e-3, 7.114e-2, -4.761e-1, -2.66e-3, -5.941e-1, -4.278e-1,
    );
    let (b1, b2) = (11.01217, 0.5124401);
    let t1 = a1 * ddp * ddp;
    let t2 = a2 * ddp;
    let t3 = a4 * ddp * ddp;
    let t4 = a5 * ddp;
    let dinf = ((t1 + t2 + a3) * dds) + (t3 + t4 + a6);
    let ff = b1 + b2 * (ddp - dds);
    dinf / df - ff * df + 1.0
}

/// A [`pm_remez`] specification: order, band edges (0 ..= 1), response
/// per edge and weight per band.
#[derive(Clone, Debug, PartialEq)]
pub struct RemezSpec {
    /// Filter order (taps − 1); may be negative for impossible specs.
    pub order: i64,
    /// Band edges, 1 being half the sample rate.
    pub bands: Vec<f64>,
    /// Desired response at each edge.
    pub response: Vec<f64>,
    /// Weight of each band.
    pub weight: Vec<f64>,
}

/// GNU Radio's `optfir.remezord`: the order, edges, responses and
/// weights for band edges `fcuts` (Hz), per-band magnitudes `mags` and
/// deviations `devs`, at sample rate `fsamp`.
pub fn remezord(
    fcuts: &[f64],
    mags: &[f64],
    devs: &[f64],
    fsamp: f64,
) -> Result<RemezSpec, DspError> {
    let nbands = mags.len();
    if devs.len() != nbands {
        return Err(DspError::InvalidSpec(
            "remezord: length of mags and devs must be equal".into(),
        ));
    }
    if nbands < 2 || fcuts.len() != 2 * (nbands - 1) {
        return Err(DspError::InvalidSpec(
            "remezord: length of f must be 2 * len (mags) - 2".into(),
        ));
    }
    for &v in fcuts.iter().chain(mags).chain(devs).chain([&fsamp]) {
        DspError::finite("remezord", v)?;
    }
    let fcuts: Vec<f64> = fcuts.iter().map(|f| f / fsamp).collect();
    let devs: Vec<f64> = devs
        .iter()
        .zip(mags)
        .map(|(&d, &m)| if m != 0.0 { d / m } else { d })
        .collect();
    let f1: Vec<f64> = fcuts.iter().step_by(2).copied().collect();
    let f2: Vec<f64> = fcuts.iter().skip(1).step_by(2).copied().collect();
    let mut n = 0;
    let mut min_delta = 2.0;
    for i in 0..f1.len() {
        if f2[i] - f1[i] < min_delta {
            n = i;
            min_delta = f2[i] - f1[i];
        }
    }
    let l = if nbands == 2 {
        lporder(f1[n], f2[n], devs[0], devs[1])
    } else {
        let mut l = 0.0f64;
        for i in 1..nbands - 1 {
            let l1 = lporder(f1[i - 1], f2[i - 1], devs[i], devs[i - 1]);
            let l2 = lporder(f1[i], f2[i], devs[i], devs[i + 1]);
            l = l.max(l1).max(l2);
        }
        l
    };
    if !l.is_finite() || l.abs() > 1e9 {
        return Err(DspError::InvalidSpec(format!(
            "remezord: the estimated length {l} is unusable"
        )));
    }
    let order = l.ceil() as i64 - 1;
    let mut bands = vec![0.0];
    bands.extend(fcuts.iter().map(|f| f * 2.0));
    bands.push(1.0);
    let response = mags.iter().flat_map(|&a| [a, a]).collect();
    let max_dev = devs.iter().copied().fold(f64::MIN, f64::max);
    let weight = devs.iter().map(|d| max_dev / d).collect();
    Ok(RemezSpec {
        order,
        bands,
        response,
        weight,
    })
}

/// Designs `spec` with `extra` more taps than estimated.
fn design(spec: RemezSpec, extra: i64) -> Result<Vec<f64>, DspError> {
    let order = spec.order + extra;
    if order < 3 {
        return Err(DspError::InvalidSpec(format!(
            "optfir: the estimated order {order} is too small (pm_remez needs 4 taps)"
        )));
    }
    pm_remez(
        order as usize,
        &spec.bands,
        &spec.response,
        &spec.weight,
        RemezKind::Bandpass,
        DEFAULT_GRID_DENSITY,
    )
}

/// GNU Radio's `optfir.low_pass(gain, Fs, freq1, freq2,
/// passband_ripple_db, stopband_atten_db, nextra_taps)`: pass band to
/// `freq1`, stop band from `freq2` (Hz at sample rate `fs`).
pub fn low_pass(
    gain: f64,
    fs: f64,
    freq1: f64,
    freq2: f64,
    passband_ripple_db: f64,
    stopband_atten_db: f64,
    nextra_taps: i64,
) -> Result<Vec<f64>, DspError> {
    let spec = remezord(
        &[freq1, freq2],
        &[gain, 0.0],
        &[
            passband_ripple_to_dev(passband_ripple_db),
            stopband_atten_to_dev(stopband_atten_db),
        ],
        fs,
    )?;
    design(spec, nextra_taps)
}

/// GNU Radio's `optfir.high_pass(gain, Fs, freq1, freq2, ...)`: stop
/// band to `freq1`, pass band from `freq2`, an odd number of taps. As
/// GNU Radio's, the pass band's gain is 1 whatever `gain` says.
pub fn high_pass(
    _gain: f64,
    fs: f64,
    freq1: f64,
    freq2: f64,
    passband_ripple_db: f64,
    stopband_atten_db: f64,
    nextra_taps: i64,
) -> Result<Vec<f64>, DspError> {
    let mut spec = remezord(
        &[freq1, freq2],
        &[0.0, 1.0],
        &[
            stopband_atten_to_dev(stopband_atten_db),
            passband_ripple_to_dev(passband_ripple_db),
        ],
        fs,
    )?;
    if (spec.order + nextra_taps).rem_euclid(2) == 1 {
        spec.order += 1;
    }
    design(spec, nextra_taps)
}

/// GNU Radio's `optfir.band_pass(gain, Fs, freq_sb1, freq_pb1, freq_pb2,
/// freq_sb2, ...)`.
#[allow(clippy::too_many_arguments)]
pub fn band_pass(
    gain: f64,
    fs: f64,
    freq_sb1: f64,
    freq_pb1: f64,
    freq_pb2: f64,
    freq_sb2: f64,
    passband_ripple_db: f64,
    stopband_atten_db: f64,
    nextra_taps: i64,
) -> Result<Vec<f64>, DspError> {
    let pass = passband_ripple_to_dev(passband_ripple_db);
    let stop = stopband_atten_to_dev(stopband_atten_db);
    let spec = remezord(
        &[freq_sb1, freq_pb1, freq_pb2, freq_sb2],
        &[0.0, gain, 0.0],
        &[stop, pass, stop],
        fs,
    )?;
    design(spec, nextra_taps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_pass_meets_its_specification_roughly() {
        let h = low_pass(1.0, 8.0, 1.0, 1.5, 0.1, 60.0, 2).unwrap();
        let dc: f64 = h.iter().sum();
        assert!((dc - 1.0).abs() < 0.02, "{dc}");
        // Nyquist: alternate signs.
        let ny: f64 = h
            .iter()
            .enumerate()
            .map(|(i, t)| if i % 2 == 0 { *t } else { -t })
            .sum();
        assert!(ny.abs() < 0.01, "{ny}");
    }

    #[test]
    fn impossible_specifications_are_errors() {
        assert!(low_pass(1.0, 8.0, 1.5, 1.0, 0.1, 60.0, 2).is_err());
        assert!(low_pass(1.0, 8.0, f64::NAN, 1.5, 0.1, 60.0, 2).is_err());
        assert!(remezord(&[1.0], &[1.0, 0.0], &[0.1, 0.1], 8.0).is_err());
    }
}
