//! Magnitudes for the Mode S demodulator: [`Cu8Magnitude`] turns the
//! stored bytes of a `cu8` recording or an rtl-sdr into `u16` magnitudes
//! through a 64 K-entry table (dump1090's method), [`ComplexMagnitude`]
//! does the same from `Complex32` samples (any other format, a device).
//!
//! Both scale a magnitude of 1.0 (full scale) to 65535 and clip above it,
//! as dump1090 does, so levels in dBFS agree with its.

use num_complex::Complex32;
use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};
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

/// Turns complex samples into magnitudes, full scale (|z| = 1) 65535,
/// clipped above.
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
}

impl ComplexMagnitude {
    /// The block.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
        }
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
        for (o, z) in o[..n].iter_mut().zip(&i[..n]) {
            let m = (z.re * z.re + z.im * z.im).sqrt();
            // NaN clips to 0 (`as` saturates), never panics.
            *o = (m.min(1.0) * 65535.0).round() as u16;
        }
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
}
