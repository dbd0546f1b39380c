//! [`SampleItem`]: the stream item types a sample format converts to, so
//! that file, SigMF and WAV blocks can be generic over them.

use super::{SampleCodec, SampleFormat, SampleFormatError};
use num_complex::Complex32;

/// A stream item a recording's samples convert to: `Complex32` (complex
/// formats), `f32` (real formats) or `u8` (the stored bytes as they are,
/// any format, for decoders that want them).
pub trait SampleItem: rfgraph::Item {
    /// The type's name in messages.
    const NAME: &'static str;

    /// The item kind flowgraph files call this type.
    const KIND: rfgraph::params::ItemKind;

    /// The format of these items as they are in memory (`cf32`, `f32`,
    /// `u8`): what a file block stores when given no format.
    const NATIVE: SampleFormat;

    /// Checks that `format` converts to this item type.
    ///
    /// Errors: [`SampleFormatError::ItemMismatch`] (`Complex32` from a real
    /// format, `f32` from a complex one).
    fn check_format(format: SampleFormat) -> Result<(), SampleFormatError>;

    /// Stream items per stored item of `format`: 1, or the item's bytes for
    /// `u8`.
    fn per_stored_item(format: SampleFormat) -> usize;

    /// True when the stored bytes are this type's items unchanged, so a
    /// reader may read straight into its output and a writer write its
    /// input as it is.
    fn is_passthrough(codec: &SampleCodec) -> bool;

    /// Decodes `bytes` into `out` (see [`SampleCodec::decode`]).
    fn decode(codec: &SampleCodec, bytes: &[u8], out: &mut [Self]);

    /// Encodes `input` into `bytes` (see [`SampleCodec::encode`]).
    fn encode(codec: &SampleCodec, input: &[Self], bytes: &mut [u8]);
}

fn mismatch(format: SampleFormat, item: &'static str) -> SampleFormatError {
    SampleFormatError::ItemMismatch { format, item }
}

impl SampleItem for Complex32 {
    const NAME: &'static str = "Complex32";
    const KIND: rfgraph::params::ItemKind = rfgraph::params::ItemKind::C32;
    const NATIVE: SampleFormat = SampleFormat::CF32;

    fn check_format(format: SampleFormat) -> Result<(), SampleFormatError> {
        if format.is_complex() {
            Ok(())
        } else {
            Err(mismatch(format, Self::NAME))
        }
    }

    fn per_stored_item(_format: SampleFormat) -> usize {
        1
    }

    fn is_passthrough(codec: &SampleCodec) -> bool {
        codec.format().is_complex() && codec.is_identity()
    }

    fn decode(codec: &SampleCodec, bytes: &[u8], out: &mut [Self]) {
        assert!(
            codec.format().is_complex(),
            "{}",
            mismatch(codec.format(), Self::NAME)
        );
        codec.decode_scalars(bytes, bytemuck::cast_slice_mut(out));
    }

    fn encode(codec: &SampleCodec, input: &[Self], bytes: &mut [u8]) {
        assert!(
            codec.format().is_complex(),
            "{}",
            mismatch(codec.format(), Self::NAME)
        );
        codec.encode_scalars(bytemuck::cast_slice(input), bytes);
    }
}

impl SampleItem for f32 {
    const NAME: &'static str = "f32";
    const KIND: rfgraph::params::ItemKind = rfgraph::params::ItemKind::F32;
    const NATIVE: SampleFormat = SampleFormat::F32;

    fn check_format(format: SampleFormat) -> Result<(), SampleFormatError> {
        if format.is_complex() {
            Err(mismatch(format, Self::NAME))
        } else {
            Ok(())
        }
    }

    fn per_stored_item(_format: SampleFormat) -> usize {
        1
    }

    fn is_passthrough(codec: &SampleCodec) -> bool {
        !codec.format().is_complex() && codec.is_identity()
    }

    fn decode(codec: &SampleCodec, bytes: &[u8], out: &mut [Self]) {
        assert!(
            !codec.format().is_complex(),
            "{}",
            mismatch(codec.format(), Self::NAME)
        );
        codec.decode_scalars(bytes, out);
    }

    fn encode(codec: &SampleCodec, input: &[Self], bytes: &mut [u8]) {
        assert!(
            !codec.format().is_complex(),
            "{}",
            mismatch(codec.format(), Self::NAME)
        );
        codec.encode_scalars(input, bytes);
    }
}

impl SampleItem for u8 {
    const NAME: &'static str = "u8";
    const KIND: rfgraph::params::ItemKind = rfgraph::params::ItemKind::U8;
    const NATIVE: SampleFormat = SampleFormat::U8;

    fn check_format(_format: SampleFormat) -> Result<(), SampleFormatError> {
        Ok(())
    }

    fn per_stored_item(format: SampleFormat) -> usize {
        format.bytes_per_item()
    }

    fn is_passthrough(_codec: &SampleCodec) -> bool {
        true
    }

    fn decode(_codec: &SampleCodec, bytes: &[u8], out: &mut [Self]) {
        out.copy_from_slice(bytes);
    }

    fn encode(_codec: &SampleCodec, input: &[Self], bytes: &mut [u8]) {
        bytes.copy_from_slice(input);
    }
}
