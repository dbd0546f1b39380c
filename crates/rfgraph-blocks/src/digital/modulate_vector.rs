//! [`modulate_vector`]: GNU Radio's `digital.modulate_vector_bc(mod,
//! data, taps)` for a `generic_mod` modulator (GRC's
//! `variable_modulate_vector`): the modulator run over the bytes, then a
//! FIR filter with the taps, giving every sample GNU Radio's flowgraph
//! gives. Owns only this computation; expressions call it.

use super::gr_arb_resampler::GrArbResampler;
use num_complex::Complex32;
use rfgraph_dsp::digital::{BitRepack, Constellation, DiffEncoder, Endianness};
use rfgraph_dsp::{DspError, Kernel};

/// The settings of GNU Radio's `digital.generic_mod`.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericMod {
    /// The constellation.
    pub constellation: Constellation,
    /// Differential coding of the symbols.
    pub differential: bool,
    /// Samples per symbol (the resampler's rate; the pulse has
    /// `32·11·⌊sps⌋` taps).
    pub samples_per_symbol: f64,
    /// Map the symbols through the constellation's pre-diff code when
    /// it has one (`pre_diff_code`).
    pub pre_diff_code: bool,
    /// Roll-off of the root-raised-cosine pulse.
    pub excess_bw: f64,
}

/// The most samples [`modulate_vector`] makes.
const MAX_SAMPLES: usize = 1 << 22;

/// GNU Radio's `modulate_vector_bc(modulator, data, taps)` for a
/// `generic_mod`: `data` (bytes) split MSB first into symbols, mapped
/// (pre-diff code, differential coding) to points, shaped by GNU Radio's
/// 32-arm polyphase resampler, then filtered by `taps` (`fir_filter_ccf`,
/// zero history).
///
/// Errors: a pulse that cannot be designed, a rate below 1, more than
/// 2²² samples.
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{GenericMod, modulate_vector};
/// use rfgraph_dsp::digital::Constellation;
/// let m = GenericMod {
///     constellation: Constellation::by_name("bpsk")?,
///     differential: false,
///     samples_per_symbol: 4.0,
///     pre_diff_code: true,
///     excess_bw: 0.35,
/// };
/// let v = modulate_vector(&m, &[0xac, 0xdd], &[1.0])?;
/// assert_eq!(v.len(), 64);
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn modulate_vector(
    m: &GenericMod,
    data: &[u8],
    taps: &[f32],
) -> Result<Vec<Complex32>, DspError> {
    let c = &m.constellation;
    let sps = m.samples_per_symbol;
    if !(1.0..=4096.0).contains(&sps) {
        return Err(DspError::InvalidSpec(format!(
            "generic_mod: {sps} samples per symbol (1 to 4096)"
        )));
    }
    let bps = c.bits_per_symbol().max(1);
    let symbols = data.len() * 8 / bps as usize;
    if (symbols as f64) * sps.ceil() > MAX_SAMPLES as f64 {
        return Err(DspError::InvalidSpec(format!(
            "modulate_vector: more than {MAX_SAMPLES} samples"
        )));
    }
    const NFILTS: usize = 32;
    let n = NFILTS as f64;
    let pulse = rfgraph_dsp::firdes::root_raised_cosine(
        n,
        n,
        1.0,
        m.excess_bw,
        NFILTS * 11 * sps as usize,
    )?;
    let mut repack = BitRepack::new(8, bps, Endianness::MsbFirst)?;
    let mut indices = vec![0u8; symbols + 8];
    let (_, k) = repack.process(data, &mut indices);
    indices.truncate(k);
    let mut diff = if m.differential {
        Some(DiffEncoder::new(c.arity() as u32)?)
    } else {
        None
    };
    let map = (m.pre_diff_code && c.differential()).then(|| c.pre_diff_code());
    let points: Vec<Complex32> = indices
        .iter()
        .map(|&i| {
            let mut s = map.and_then(|m| m.get(i as usize).copied()).unwrap_or(i);
            if let Some(d) = &mut diff {
                s = d.step(s);
            }
            c.points().get(s as usize).copied().unwrap_or_default()
        })
        .collect();
    let mut shaped = Vec::with_capacity(points.len() * sps.ceil() as usize + 1);
    GrArbResampler::new(sps as f32, &pulse, NFILTS).process(&points, &mut shaped);
    if taps.is_empty() {
        return Ok(Vec::new());
    }
    Ok((0..shaped.len())
        .map(|i| {
            taps.iter()
                .enumerate()
                .take(i + 1)
                .fold(Complex32::new(0.0, 0.0), |s, (k, &t)| s + shaped[i - k] * t)
        })
        .collect())
}
