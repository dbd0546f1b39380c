//! From multiplex to IQ: interpolation to the sample rate (delay
//! compensated), frequency modulation with a phase accumulator in `f64`,
//! and the seeded noise.

use super::noise::ComplexNoise;
use super::{FmGenError, FmStation, mpx};
use num_complex::Complex32;
use rfgraph_dsp::resample::default_taps;
use rfgraph_dsp::{Fff, RationalResampler};

/// The multiplex at the IQ sample rate: `n` samples from time 0.
fn mpx_at_sample_rate(station: &FmStation, n: usize) -> Result<Vec<f32>, FmGenError> {
    let k = station.mpx_factor();
    let rate = station.mpx_rate();
    if k == 1 {
        return mpx::build(station, rate, 0, n);
    }
    // The interpolator's delay, in output samples, is dropped: output 0
    // is time 0. (Before time 0 the filter sees silence: the first ~0.1
    // ms carry its start-up.)
    let taps = default_taps(k, 1)?;
    let delay = (taps.len() - 1) / 2;
    let inputs = (n + delay).div_ceil(k) + taps.len() / k + 2;
    let m = mpx::build(station, rate, 0, inputs)?;
    let mut resampler = RationalResampler::<Fff>::new(k, 1)?;
    let mut out = vec![0.0f32; inputs * k];
    let (_, produced) = resampler.process(&m, &mut out);
    out.truncate(produced);
    if out.len() < n + delay {
        out.resize(n + delay, 0.0);
    }
    out.drain(..delay);
    out.truncate(n);
    Ok(out)
}

/// The station's IQ samples (the parameters are already checked).
pub(super) fn generate(station: &FmStation) -> Result<Vec<Complex32>, FmGenError> {
    let n = station.num_samples() as usize;
    let m = mpx_at_sample_rate(station, n)?;
    let a = station.carrier_amplitude();
    let mut noise = station
        .cnr_db
        .map(|_| ComplexNoise::new(station.noise_power(a), station.seed));
    let rate = station.sample_rate;
    let (offset, dev) = (station.carrier_offset, station.deviation);
    let mut phase = 0.0f64; // turns
    Ok(m.iter()
        .map(|&v| {
            phase += (offset + dev * v as f64) / rate;
            phase -= phase.floor();
            let (c, s) = rfgraph_dsp::nco::sincos((phase * 4_294_967_296.0) as u64 as u32);
            let mut x = Complex32::new(a as f32 * c, a as f32 * s);
            if let Some(noise) = &mut noise {
                x += noise.sample();
            }
            x
        })
        .collect())
}
