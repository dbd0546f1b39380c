//! Magnitudes for the Mode S demodulator: [`Cu8Magnitude`] turns the
//! stored bytes of a `cu8` recording or an rtl-sdr into `u16` magnitudes
//! through a 64 K-entry table (dump1090's method), [`ComplexMagnitude`]
//! does the same from `Complex32` samples (any other format, a device).
//!
//! Both scale a magnitude of 1.0 (full scale) to 65535 and clip above it,
//! as dump1090 does, so levels in dBFS agree with its. The complex path
//! has an AVX2 build ([`complex_magnitudes`] with an [`Isa`]) that gives
//! the same magnitudes as the scalar one; the byte path is a table
//! lookup, which vector gathers do not beat.

use num_complex::Complex32;
use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};
use rfgraph_dsp::Isa;
use std::sync::OnceLock;

/// The magnitude of a `cu8` pair as the table holds it, indexed by the
/// pair read as a little-endian `u16` (I in the low byte, Q in the high).
pub fn cu8_table() -> &'static [u16; 65536] {
    static TABLE: OnceLock<Box<[u16; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0u16; 65536]);
        for (idx, e) in t.iter_mut().enumerate() {
            let i = (idx & 0xFF) as f64;
            let q = (idx >> 8) as f64;
            let (fi, fq) = ((i - 127.5) / 127.5, (q - 127.5) / 127.5);
            *e = scale(fi.hypot(fq));
        }
        t
    })
}

/// A magnitude in full-scale units as the demodulator's `u16`.
#[inline]
fn scale(mag: f64) -> u16 {
    (mag.min(1.0) * 65535.0).round() as u16
}

/// Converts interleaved `cu8` bytes to magnitudes in place of a slice:
/// `out[k]` from bytes `2k`, `2k + 1`.
pub fn cu8_magnitudes(bytes: &[u8], out: &mut [u16]) {
    let t = cu8_table();
    for (o, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        *o = t[usize::from(u16::from_le_bytes([pair[0], pair[1]]))];
    }
}

/// Turns `cu8` bytes (interleaved unsigned I, Q; 127.5 is zero) into
/// magnitudes, full scale 65535, by table lookup.
///
/// # Stream Inputs
/// - `in`: `u8`, the stored bytes (two per sample)
///
/// # Stream Outputs
/// - `out`: `u16` magnitudes, one per sample
///
/// # Usage
/// ```
/// use rfgraph_radio::modes::Cu8Magnitude;
/// let mag = Cu8Magnitude::new();
/// # let _ = mag;
/// ```
pub struct Cu8Magnitude {
    input: StreamInput<u8>,
    output: StreamOutput<u16>,
}

impl Cu8Magnitude {
    /// The block (the table is built once per process).
    pub fn new() -> Self {
        cu8_table();
        Self {
            input: StreamInput::new("in").with_min_items(2),
            output: StreamOutput::new("out"),
        }
    }
}

impl Default for Cu8Magnitude {
    fn default() -> Self {
        Self::new()
    }
}

impl Block for Cu8Magnitude {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = (i.len() / 2).min(o.len());
        cu8_magnitudes(&i[..2 * n], &mut o[..n]);
        self.input.consume(2 * n);
        self.output.produce(n);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: 1,
            decimation: 2,
        }
    }
}

/// Magnitudes of complex samples, full scale (|z| = 1) 65535, clipped
/// above (NaN reads as full scale, as `f32::min` takes the number):
/// `out[k]` from `z[k]`, over the shorter of the two. `isa` picks the
/// AVX2 build of the loop where the CPU runs it; every build gives the
/// same values.
pub fn complex_magnitudes(z: &[Complex32], out: &mut [u16], isa: Isa) {
    #[cfg(target_arch = "x86_64")]
    if isa.resolve() == Isa::Avx2Fma {
        // SAFETY: `resolve` keeps `Avx2Fma` only when this CPU runs AVX2
        // and FMA.
        unsafe { complex_magnitudes_avx2(z, out) };
        return;
    }
    let _ = isa;
    complex_magnitudes_any(z, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn complex_magnitudes_avx2(z: &[Complex32], out: &mut [u16]) {
    complex_magnitudes_any(z, out);
}

/// The loop every build compiles: no branch, so it vectorises; the same
/// IEEE operations in every lane (no fused multiply-add: `mul_add` is
/// not used, so the AVX2 build rounds exactly as the scalar one).
#[inline(always)]
fn complex_magnitudes_any(z: &[Complex32], out: &mut [u16]) {
    for (o, z) in out.iter_mut().zip(z) {
        let m = (z.re * z.re + z.im * z.im).sqrt();
        *o = (m.min(1.0) * 65535.0).round() as u16;
    }
}

/// Turns complex samples into magnitudes, full scale (|z| = 1) 65535,
/// clipped above ([`complex_magnitudes`]).
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `u16` magnitudes
///
/// # Usage
/// ```
/// use rfgraph_radio::modes::ComplexMagnitude;
/// let mag = ComplexMagnitude::new();
/// # let _ = mag;
/// ```
pub struct ComplexMagnitude {
    input: StreamInput<Complex32>,
    output: StreamOutput<u16>,
    isa: Isa,
}

impl ComplexMagnitude {
    /// The block, with the best build of its loop this CPU runs
    /// ([`Isa::detect`]).
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            isa: Isa::detect(),
        }
    }

    /// Runs the loop's `isa` build (one the CPU lacks falls back to
    /// [`Isa::Scalar`]).
    pub fn with_isa(mut self, isa: Isa) -> Self {
        self.isa = isa.resolve();
        self
    }
}

impl Default for ComplexMagnitude {
    fn default() -> Self {
        Self::new()
    }
}

impl Block for ComplexMagnitude {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        complex_magnitudes(&i[..n], &mut o[..n], self.isa);
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// The registry entry: `modes_cu8_magnitude`.
pub(crate) fn cu8_spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::params::NoParams;
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<NoParams>(
        "modes_cu8_magnitude",
        "Receivers",
        "Mode S front end: cu8 bytes in, dump1090's u16 magnitudes out.",
        |NoParams| Ok(Box::new(Cu8Magnitude::new()) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Reads an RTL-SDR's interleaved `cu8` bytes (two per sample) and writes each \
         sample's magnitude as dump1090 does (a table, 0 to 65535), the input of \
         `modes_demod`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)).doc("cu8 bytes, I then Q"))
    .output(PortSpec::new("out", PortItem::Other("u16")).doc("magnitudes"))
}

/// The registry entry: `modes_magnitude`.
pub(crate) fn complex_spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::params::NoParams;
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<NoParams>(
        "modes_magnitude",
        "Receivers",
        "Mode S front end: complex samples in, u16 magnitudes out.",
        |NoParams| Ok(Box::new(ComplexMagnitude::new()) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Writes each complex sample's magnitude scaled to dump1090's 0 to 65535 range \
         (full scale 1.0 → 65535), the input of `modes_demod`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Other("u16")).doc("magnitudes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_values() {
        let t = cu8_table();
        // 127/128 are the nearest to zero: |±0.5/127.5| in each component.
        assert_eq!(t[0x7F7F], scale((2.0f64).sqrt() * 0.5 / 127.5));
        assert_eq!(t[0x80FF], scale(1.0f64.hypot(0.5 / 127.5)));
        assert_eq!(t[0xFFFF], 65535);
        assert_eq!(t[0x0000], 65535);
        let mut out = [0u16; 2];
        cu8_magnitudes(&[255, 127, 127, 127], &mut out);
        assert_eq!(out[0], t[0x7FFF]);
        assert_eq!(out[1], t[0x7F7F]);
        assert!(t[0x7FFF] > 65000);
    }

    /// The AVX2 build (its `unsafe` call) gives exactly the scalar
    /// build's magnitudes, on random samples with every special value.
    #[test]
    fn complex_builds_agree() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f32::from_bits((state >> 32) as u32)
        };
        let mut z: Vec<Complex32> = (0..10_000)
            .map(|k| {
                let (a, b) = (next(), next());
                // Half raw bit patterns (any float), half in ±1.5.
                if k % 2 == 0 {
                    Complex32::new(a, b)
                } else {
                    Complex32::new((a.to_bits() % 3000) as f32 / 1000.0 - 1.5, b.fract())
                }
            })
            .collect();
        for v in [
            0.0,
            -0.0,
            1.0,
            f32::NAN,
            f32::INFINITY,
            f32::MIN_POSITIVE,
            1e-30,
        ] {
            z.push(Complex32::new(v, 0.0));
            z.push(Complex32::new(0.0, -v));
        }
        let (mut a, mut b) = (vec![0u16; z.len()], vec![0u16; z.len()]);
        complex_magnitudes(&z, &mut a, Isa::Avx2Fma);
        complex_magnitudes(&z, &mut b, Isa::Scalar);
        assert_eq!(a, b);
        assert_eq!(b[z.len() - 8], 65535, "NaN reads as full scale");
        assert!(b.iter().any(|&x| x > 0 && x < 65535));
    }
}
