//! Sample formats of recordings: what a file's bytes mean, by name, and the
//! conversion between those bytes and the stream items `Complex32` / `f32`.
//!
//! This module owns [`SampleFormat`] (complex or real, scalar type,
//! endianness), its two naming schemes, and [`SampleCodec`], the vectorised
//! decode/encode loops with their scaling convention. It never touches files:
//! the file, SigMF and WAV blocks read and write bytes and hand them here.
//!
//! # Names
//!
//! [`SampleFormat::parse`] accepts, case-insensitively:
//!
//! * every SigMF `core:datatype`: `c` (complex) or `r` (real), then `f32`,
//!   `f64`, `i32`, `i16`, `u32`, `u16` with `_le` or `_be`, or `i8`, `u8`
//!   without a suffix (`cf32_le`, `ri16_be`, `ci8`, `ru8`);
//! * the raw names real tools use, always little-endian: `cu8` (rtl-sdr,
//!   rtl_433, dump1090), `cs8` (HackRF), `cs16` (USRP `sc16`, SDR++),
//!   `cf32` (GNU Radio's `gr_complex` file sink), `f32`, `i16`, `u8`, and
//!   the same pattern for the other types (`cs32`, `cf64`, `f64`, `s16`,
//!   `i8`, `u16`, ...: an optional `c`/`r`, then `s` or `i` for signed, `u`
//!   for unsigned, `f` for float, and the bits). A SigMF name without its
//!   suffix (`cf32`, `ri16`) is little-endian as well; an 8-bit name with a
//!   suffix (`cu8_le`) is accepted and means `cu8`.
//!
//! [`SampleFormat::sigmf_name`] gives the SigMF name back; formats print
//! (`Display`) as it.
//!
//! # Scaling
//!
//! A [`SampleCodec`] maps a stored scalar `x` to the float
//! `(x - offset) / scale` and back with `round(v * scale + offset)`, clipped
//! to the type's range, rounding half to even (as VOLK's `rintf`):
//!
//! | type | `offset` | default `scale` | decoded range |
//! |---|---|---|---|
//! | `f32`, `f64` | 0 | 1 | as stored |
//! | `i8`, `i16`, `i32` (signed, `bits`) | 0 | 2^(bits−1) | [−1, 1) |
//! | `u8`, `u16`, `u32` (unsigned, `bits`) | (2^bits − 1)/2 | (2^bits − 1)/2 | [−1, 1] |
//!
//! So `cs16` 16384 decodes to 0.5, and `cu8` 0 and 255 decode to −1 and +1
//! (the rtl-sdr's 127.5 midpoint: no value decodes to exactly 0, and none is
//! favoured). A user scale ([`SampleCodec::with_scale`]) replaces the
//! default divisor: scale 1 gives the integer values themselves, which is
//! what GNU Radio's `interleaved_short_to_complex` and
//! `interleaved_char_to_complex` produce with their default
//! `scale_factor = 1` (their `scale_factor` is this `scale`).
//!
//! With the default scale, `encode(decode(x)) == x` for every value of
//! every 8- and 16-bit type. `i32`/`u32` carry more bits than an `f32`'s
//! 24-bit mantissa: a value round-trips exactly when its decoded float is
//! exact (`|x| < 2^24` for `i32`, `|x − offset| < 2^22` for `u32`, or low
//! bits zero), otherwise the nearest representable value comes back. Float
//! formats are bit-exact both ways (`f64` → `f32` rounds to nearest).
//!
//! # Speed
//!
//! The loops are branch-free per sample and written for LLVM's
//! auto-vectoriser; on x86-64 they are compiled a second time with AVX2 and
//! chosen at run time ([`SampleCodec`] checks once, at construction).
//! Formats whose bytes are the items (`cf32_le` → `Complex32`, `rf32_le` →
//! `f32` on a little-endian machine, default scale) are plain copies, and
//! callers can skip even that ([`SampleCodec::is_identity`]).

mod codec;
mod item;
mod kernels;
#[cfg(test)]
mod tests;

pub use codec::SampleCodec;
pub use item::SampleItem;

use std::fmt;

/// The scalar type of a stored sample (one component of a complex one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// IEEE-754 binary32.
    F32,
    /// IEEE-754 binary64.
    F64,
    /// Two's-complement 8-bit.
    I8,
    /// Two's-complement 16-bit.
    I16,
    /// Two's-complement 32-bit.
    I32,
    /// Unsigned 8-bit.
    U8,
    /// Unsigned 16-bit.
    U16,
    /// Unsigned 32-bit.
    U32,
}

impl ScalarType {
    /// Every scalar type.
    pub const ALL: [ScalarType; 8] = [
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::U8,
        ScalarType::U16,
        ScalarType::U32,
    ];

    /// Bytes of one scalar.
    pub const fn bytes(self) -> usize {
        match self {
            ScalarType::I8 | ScalarType::U8 => 1,
            ScalarType::I16 | ScalarType::U16 => 2,
            ScalarType::F32 | ScalarType::I32 | ScalarType::U32 => 4,
            ScalarType::F64 => 8,
        }
    }

    /// True for `f32` and `f64`.
    pub const fn is_float(self) -> bool {
        matches!(self, ScalarType::F32 | ScalarType::F64)
    }

    /// True for the unsigned integer types.
    pub const fn is_unsigned(self) -> bool {
        matches!(self, ScalarType::U8 | ScalarType::U16 | ScalarType::U32)
    }

    /// The SigMF spelling without the `c`/`r` prefix: `f32`, `i16`, `u8`.
    pub const fn name(self) -> &'static str {
        match self {
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::U8 => "u8",
            ScalarType::U16 => "u16",
            ScalarType::U32 => "u32",
        }
    }

    /// The offset subtracted before scaling (see the module's table).
    pub fn offset(self) -> f64 {
        match self {
            ScalarType::U8 => 127.5,
            ScalarType::U16 => 32767.5,
            ScalarType::U32 => 2147483647.5,
            _ => 0.0,
        }
    }

    /// The default divisor (see the module's table).
    pub fn default_scale(self) -> f64 {
        match self {
            ScalarType::F32 | ScalarType::F64 => 1.0,
            ScalarType::I8 => 128.0,
            ScalarType::I16 => 32768.0,
            ScalarType::I32 => 2147483648.0,
            ScalarType::U8 | ScalarType::U16 | ScalarType::U32 => self.offset(),
        }
    }
}

/// Byte order of multi-byte scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Least significant byte first (`_le`; x86, ARM, every raw tool).
    Little,
    /// Most significant byte first (`_be`).
    Big,
}

/// How a recording stores its samples: complex (interleaved I, Q) or real,
/// the scalar type, and the byte order. 8-bit formats are always
/// [`Endian::Little`] (their order does not exist), so equal formats
/// compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SampleFormat {
    complex: bool,
    scalar: ScalarType,
    endian: Endian,
}

impl SampleFormat {
    /// `cu8`: rtl-sdr, rtl_433, dump1090 (unsigned 8-bit I/Q).
    pub const CU8: SampleFormat = SampleFormat::new(true, ScalarType::U8, Endian::Little);
    /// `cs8` (SigMF `ci8`): HackRF (signed 8-bit I/Q).
    pub const CS8: SampleFormat = SampleFormat::new(true, ScalarType::I8, Endian::Little);
    /// `cs16` (SigMF `ci16_le`): USRP `sc16`, SDR++ (signed 16-bit I/Q, little-endian).
    pub const CS16: SampleFormat = SampleFormat::new(true, ScalarType::I16, Endian::Little);
    /// `cf32` (SigMF `cf32_le`): GNU Radio's `gr_complex` file sink.
    pub const CF32: SampleFormat = SampleFormat::new(true, ScalarType::F32, Endian::Little);
    /// `f32` (SigMF `rf32_le`): GNU Radio's `float` file sink.
    pub const F32: SampleFormat = SampleFormat::new(false, ScalarType::F32, Endian::Little);
    /// `i16` (SigMF `ri16_le`): real signed 16-bit, little-endian.
    pub const I16: SampleFormat = SampleFormat::new(false, ScalarType::I16, Endian::Little);
    /// `u8` (SigMF `ru8`): real unsigned 8-bit.
    pub const U8: SampleFormat = SampleFormat::new(false, ScalarType::U8, Endian::Little);

    /// A format; `endian` is ignored (little) for 8-bit scalars.
    pub const fn new(complex: bool, scalar: ScalarType, endian: Endian) -> Self {
        let endian = if scalar.bytes() == 1 {
            Endian::Little
        } else {
            endian
        };
        Self {
            complex,
            scalar,
            endian,
        }
    }

    /// Every distinct format (the 28 SigMF datatypes), complex first.
    pub fn all() -> impl Iterator<Item = SampleFormat> {
        [true, false].into_iter().flat_map(|complex| {
            ScalarType::ALL.into_iter().flat_map(move |scalar| {
                let orders: &[Endian] = if scalar.bytes() == 1 {
                    &[Endian::Little]
                } else {
                    &[Endian::Little, Endian::Big]
                };
                orders
                    .iter()
                    .map(move |&e| SampleFormat::new(complex, scalar, e))
            })
        })
    }

    /// Parses a SigMF `core:datatype` or a raw tool's name (see the module
    /// documentation), ignoring case and surrounding white space.
    ///
    /// Errors: [`SampleFormatError::Unknown`] naming the input and the
    /// accepted forms.
    pub fn parse(name: &str) -> Result<Self, SampleFormatError> {
        let unknown = || SampleFormatError::Unknown {
            name: name.to_string(),
        };
        let lower = name.trim().to_ascii_lowercase();
        let (body, endian) = if let Some(b) = lower.strip_suffix("_le") {
            (b, Some(Endian::Little))
        } else if let Some(b) = lower.strip_suffix("_be") {
            (b, Some(Endian::Big))
        } else {
            (lower.as_str(), None)
        };
        let (complex, rest) = if let Some(r) = body.strip_prefix('c') {
            (true, r)
        } else if let Some(r) = body.strip_prefix('r') {
            (false, r)
        } else {
            (false, body)
        };
        let scalar = match rest {
            "f32" => ScalarType::F32,
            "f64" => ScalarType::F64,
            "i8" | "s8" => ScalarType::I8,
            "i16" | "s16" => ScalarType::I16,
            "i32" | "s32" => ScalarType::I32,
            "u8" => ScalarType::U8,
            "u16" => ScalarType::U16,
            "u32" => ScalarType::U32,
            _ => return Err(unknown()),
        };
        Ok(SampleFormat::new(
            complex,
            scalar,
            endian.unwrap_or(Endian::Little),
        ))
    }

    /// True for interleaved I/Q.
    pub const fn is_complex(&self) -> bool {
        self.complex
    }

    /// The scalar type of each component.
    pub const fn scalar(&self) -> ScalarType {
        self.scalar
    }

    /// The byte order (always little for 8-bit types).
    pub const fn endian(&self) -> Endian {
        self.endian
    }

    /// Bytes of one item: one scalar, or two for a complex sample.
    pub const fn bytes_per_item(&self) -> usize {
        self.scalar.bytes() * if self.complex { 2 } else { 1 }
    }

    /// Bytes of one scalar.
    pub const fn bytes_per_scalar(&self) -> usize {
        self.scalar.bytes()
    }

    /// The SigMF `core:datatype`, e.g. `cf32_le`, `ri16_be`, `cu8`.
    pub fn sigmf_name(&self) -> &'static str {
        use Endian::*;
        use ScalarType::*;
        match (self.complex, self.scalar, self.endian) {
            (true, F32, Little) => "cf32_le",
            (true, F32, Big) => "cf32_be",
            (true, F64, Little) => "cf64_le",
            (true, F64, Big) => "cf64_be",
            (true, I32, Little) => "ci32_le",
            (true, I32, Big) => "ci32_be",
            (true, I16, Little) => "ci16_le",
            (true, I16, Big) => "ci16_be",
            (true, U32, Little) => "cu32_le",
            (true, U32, Big) => "cu32_be",
            (true, U16, Little) => "cu16_le",
            (true, U16, Big) => "cu16_be",
            (true, I8, _) => "ci8",
            (true, U8, _) => "cu8",
            (false, F32, Little) => "rf32_le",
            (false, F32, Big) => "rf32_be",
            (false, F64, Little) => "rf64_le",
            (false, F64, Big) => "rf64_be",
            (false, I32, Little) => "ri32_le",
            (false, I32, Big) => "ri32_be",
            (false, I16, Little) => "ri16_le",
            (false, I16, Big) => "ri16_be",
            (false, U32, Little) => "ru32_le",
            (false, U32, Big) => "ru32_be",
            (false, U16, Little) => "ru16_le",
            (false, U16, Big) => "ru16_be",
            (false, I8, _) => "ri8",
            (false, U8, _) => "ru8",
        }
    }

    /// The raw tools' name of a little-endian format (`cu8`, `cs8`, `cs16`,
    /// `cf32`, `f32`, `i16`, `u8`, ...), or `None` for big-endian ones,
    /// which no raw tool writes.
    pub fn raw_name(&self) -> Option<&'static str> {
        use ScalarType::*;
        if self.endian == Endian::Big {
            return None;
        }
        Some(match (self.complex, self.scalar) {
            (true, F32) => "cf32",
            (true, F64) => "cf64",
            (true, I8) => "cs8",
            (true, I16) => "cs16",
            (true, I32) => "cs32",
            (true, U8) => "cu8",
            (true, U16) => "cu16",
            (true, U32) => "cu32",
            (false, F32) => "f32",
            (false, F64) => "f64",
            (false, I8) => "i8",
            (false, I16) => "i16",
            (false, I32) => "i32",
            (false, U8) => "u8",
            (false, U16) => "u16",
            (false, U32) => "u32",
        })
    }

    /// True when the stored bytes of one item are, on this machine, exactly
    /// the bytes of a `Complex32` (complex) or `f32` (real): little-endian
    /// `f32` on a little-endian CPU.
    pub fn is_native_f32(&self) -> bool {
        self.scalar == ScalarType::F32 && self.endian == native_endian()
    }
}

impl fmt::Display for SampleFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.sigmf_name())
    }
}

/// Every name [`SampleFormat::parse`] takes, in lower case: an optional
/// `c`/`r`, a scalar name (`s` and `i` both signed), an optional `_le`/`_be`.
static SPELLINGS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    let scalars = [
        "f32", "f64", "i8", "s8", "i16", "s16", "i32", "s32", "u8", "u16", "u32",
    ];
    ["", "c", "r"]
        .iter()
        .flat_map(|prefix| {
            scalars.iter().flat_map(move |scalar| {
                ["", "_le", "_be"]
                    .iter()
                    .map(move |suffix| format!("{prefix}{scalar}{suffix}"))
            })
        })
        .collect()
});

/// A sample format as a parameter: a text [`SampleFormat::parse`] takes;
/// the choices listed are one name per format (the raw tools' name of the
/// little-endian ones, SigMF's of the big-endian ones).
impl rfgraph::params::ParamValue for SampleFormat {
    const TYPE: rfgraph::params::ParamType = rfgraph::params::ParamType::String;

    fn from_pmt(pmt: rfgraph::Pmt) -> Result<Self, rfgraph::params::PmtTypeError> {
        match &pmt {
            rfgraph::Pmt::String(s) => SampleFormat::parse(s).ok(),
            _ => None,
        }
        .ok_or_else(|| rfgraph::params::PmtTypeError::new(Self::TYPE, &pmt))
    }

    fn to_pmt(&self) -> rfgraph::Pmt {
        rfgraph::Pmt::from(self.raw_name().unwrap_or(self.sigmf_name()))
    }

    fn choices() -> Vec<&'static str> {
        SampleFormat::all()
            .map(|f| f.raw_name().unwrap_or(f.sigmf_name()))
            .collect()
    }

    fn spellings() -> Vec<&'static str> {
        SPELLINGS.iter().map(String::as_str).collect()
    }
}

impl std::str::FromStr for SampleFormat {
    type Err = SampleFormatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SampleFormat::parse(s)
    }
}

/// This CPU's byte order.
pub const fn native_endian() -> Endian {
    if cfg!(target_endian = "little") {
        Endian::Little
    } else {
        Endian::Big
    }
}

/// A sample format that cannot be used as asked.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleFormatError {
    /// A name neither naming scheme knows.
    Unknown {
        /// The name as given.
        name: String,
    },
    /// A complex format asked for real items or the reverse.
    ItemMismatch {
        /// The format.
        format: SampleFormat,
        /// The item type asked for (`Complex32`, `f32`).
        item: &'static str,
    },
    /// A scale that is not a positive finite number.
    BadScale {
        /// The value given.
        scale: f64,
    },
}

impl fmt::Display for SampleFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleFormatError::Unknown { name } => write!(
                f,
                "unknown sample format `{name}`: expected a SigMF datatype \
                 (`cf32_le`, `ci16_be`, `ri8`, `cu8`, ...: c or r, then f32, f64, \
                 i32, i16, u32, u16 with _le or _be, or i8, u8) or a raw name \
                 (`cu8`, `cs8`, `cs16`, `cf32`, `f32`, `i16`, `u8`, ...)"
            ),
            SampleFormatError::ItemMismatch { format, item } => {
                let kind = if format.is_complex() {
                    "complex, so it gives `Complex32` items"
                } else {
                    "real, so it gives `f32` items"
                };
                write!(f, "sample format `{format}` is {kind}, not `{item}` items")
            }
            SampleFormatError::BadScale { scale } => write!(
                f,
                "sample scale must be a positive finite number, not {scale}"
            ),
        }
    }
}

impl std::error::Error for SampleFormatError {}
