//! [`SampleCodec`]: a [`SampleFormat`] with its scale, converting whole
//! buffers between stored bytes and `f32` / `Complex32` / raw items.

use super::kernels::{self, Params};
use super::{SampleFormat, SampleFormatError, SampleItem};

/// Converts between a format's bytes and floats: decoding gives
/// `(x - offset) / scale`, encoding `round(v * scale + offset)` clipped to
/// the type's range (NaN encodes as the lowest value); see the
/// [module](super) for the offsets and default scales. Cheap to copy; the
/// CPU check for the AVX2 loops happens once, in the constructor.
#[derive(Clone, Copy, Debug)]
pub struct SampleCodec {
    format: SampleFormat,
    params: Params,
    avx2: bool,
}

impl SampleCodec {
    /// The codec of `format` with its default scale (full scale ±1 for
    /// integer types, 1 for floats).
    pub fn new(format: SampleFormat) -> Self {
        Self::build(format, format.scalar().default_scale())
    }

    /// The codec of `format` dividing by `scale` instead of the default:
    /// `1.0` keeps integer values as they are (GNU Radio's
    /// `interleaved_short_to_complex` with `scale_factor = 1`).
    ///
    /// Errors: [`SampleFormatError::BadScale`] for a scale that is not a
    /// positive finite number.
    pub fn with_scale(format: SampleFormat, scale: f64) -> Result<Self, SampleFormatError> {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(SampleFormatError::BadScale { scale });
        }
        Ok(Self::build(format, scale))
    }

    fn build(format: SampleFormat, scale: f64) -> Self {
        let float = format.scalar().is_float();
        Self {
            format,
            params: Params {
                offset: format.scalar().offset(),
                scale,
                inv: 1.0 / scale,
                unit: float && scale == 1.0,
            },
            avx2: kernels::avx2_available(),
        }
    }

    /// The format.
    pub fn format(&self) -> SampleFormat {
        self.format
    }

    /// The divisor in use.
    pub fn scale(&self) -> f64 {
        self.params.scale
    }

    /// True when decoding is a plain byte copy: the stored bytes are this
    /// machine's `f32`s (`cf32_le`/`rf32_le` on little-endian CPUs) and the
    /// scale is 1. Readers may then read straight into their `f32` or
    /// `Complex32` items and writers write them as they are.
    pub fn is_identity(&self) -> bool {
        self.format.is_native_f32() && self.params.unit
    }

    /// Decodes whole scalars (I and Q count separately) into `out`.
    ///
    /// # Panics
    /// If `bytes.len() != out.len() * format.bytes_per_scalar()`.
    pub fn decode_scalars(&self, bytes: &[u8], out: &mut [f32]) {
        let f = self.format;
        assert_eq!(
            bytes.len(),
            out.len() * f.bytes_per_scalar(),
            "decode_scalars: {} bytes for {} `{f}` scalars",
            bytes.len(),
            out.len()
        );
        kernels::decode(self.avx2, f.scalar(), f.endian(), bytes, out, self.params);
    }

    /// Encodes floats into whole scalars (I and Q count separately).
    ///
    /// # Panics
    /// If `bytes.len() != input.len() * format.bytes_per_scalar()`.
    pub fn encode_scalars(&self, input: &[f32], bytes: &mut [u8]) {
        let f = self.format;
        assert_eq!(
            bytes.len(),
            input.len() * f.bytes_per_scalar(),
            "encode_scalars: {} bytes for {} `{f}` scalars",
            bytes.len(),
            input.len()
        );
        kernels::encode(self.avx2, f.scalar(), f.endian(), input, bytes, self.params);
    }

    /// Decodes `bytes` into items `T` (`Complex32` for complex formats,
    /// `f32` for real ones, `u8` to copy the bytes as they are).
    ///
    /// # Panics
    /// If `T` does not fit the format (check it once with
    /// [`SampleItem::check_format`]) or `bytes` is not exactly `out`'s
    /// worth.
    pub fn decode<T: SampleItem>(&self, bytes: &[u8], out: &mut [T]) {
        T::decode(self, bytes, out);
    }

    /// Encodes items `T` into `bytes`.
    ///
    /// # Panics
    /// As [`decode`](Self::decode).
    pub fn encode<T: SampleItem>(&self, input: &[T], bytes: &mut [u8]) {
        T::encode(self, input, bytes);
    }
}
