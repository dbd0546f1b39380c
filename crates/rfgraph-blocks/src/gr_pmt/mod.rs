//! GNU Radio's PMT binary serialization (`pmt::serialize` /
//! `pmt::deserialize`), as a conversion between rfgraph's [`Pmt`] and
//! the bytes GNU Radio writes. Metadata files ([`FileMetaSink`](crate::FileMetaSink)'s
//! headers) and `rfgraph-net`'s ZeroMQ message and tag frames use it.
//!
//! Every value starts with one type byte; numbers are big-endian:
//!
//! | byte | GNU Radio type | body | rfgraph |
//! |---|---|---|---|
//! | `00` / `01` | `#t` / `#f` | | `Bool` |
//! | `02` | symbol | u16 length, bytes | `String` |
//! | `03` | int32 | i32 | `I64` |
//! | `0d` | int64 | i64 | `I64` |
//! | `0b` | uint64 | u64 | `U64` |
//! | `04` | double | f64 | `F64` (an `F32` is written as a double) |
//! | `05` | complex | f64 re, f64 im | `Complex` |
//! | `06` | null (`()`, also the empty dict) | | `Null` |
//! | `07` | pair | car, cdr | `Pair`; a chain of pairs ending in null (a list) is a `List` |
//! | `08` | vector | u32 length, elements | `List` |
//! | `0c` | tuple | u32 length, elements | `Tuple` |
//! | `09` | dict | per entry `09`, pair (symbol key . value); then null | `Map` |
//! | `0a` | uniform vector | u8 element type, u32 length, u8 pad count, pad bytes, elements | `Blob` (u8), `VecF32`, `VecComplexF32`, `Uniform` (the others) |
//!
//! An integer is written as GNU Radio's `pmt::from_long` writes it: int32
//! when it fits, else int64. A map is written in key order (GNU Radio
//! writes a dict in the reverse of its insertion order; both read either).
//!
//! What rfgraph cannot hold exactly is said here, not hidden: a dict
//! whose keys are not symbols is refused ([`DecodeError::KeyNotSymbol`]),
//! and a GNU Radio list comes back as a `List`, which is written back as
//! a vector.
//!
//! [`decode`] reads untrusted bytes: it never panics, never allocates
//! more than the input backs (a length field is checked against the
//! bytes left before anything is reserved), and refuses nesting deeper
//! than [`MAX_DEPTH`]. Lists and dicts are chains of pairs on the wire;
//! they are read iteratively, so their length is not nesting.

mod decode;
mod encode;

pub use decode::{decode, decode_prefix};
pub use encode::{encode, encode_dict_into, encode_into};

#[cfg(doc)]
use rfgraph::Pmt;

/// The deepest nesting [`decode`] accepts (a vector in a vector in ...).
pub const MAX_DEPTH: usize = 64;

/// The type bytes (GNU Radio's `pmt_serial_tags.h`).
mod tag {
    pub const TRUE: u8 = 0x00;
    pub const FALSE: u8 = 0x01;
    pub const SYMBOL: u8 = 0x02;
    pub const INT32: u8 = 0x03;
    pub const DOUBLE: u8 = 0x04;
    pub const COMPLEX: u8 = 0x05;
    pub const NULL: u8 = 0x06;
    pub const PAIR: u8 = 0x07;
    pub const VECTOR: u8 = 0x08;
    pub const DICT: u8 = 0x09;
    pub const UNIFORM_VECTOR: u8 = 0x0a;
    pub const UINT64: u8 = 0x0b;
    pub const TUPLE: u8 = 0x0c;
    pub const INT64: u8 = 0x0d;
}

/// Element types of a uniform vector (the byte after `0a`).
mod element {
    pub const U8: u8 = 0x00;
    pub const S8: u8 = 0x01;
    pub const U16: u8 = 0x02;
    pub const S16: u8 = 0x03;
    pub const U32: u8 = 0x04;
    pub const S32: u8 = 0x05;
    pub const U64: u8 = 0x06;
    pub const S64: u8 = 0x07;
    pub const F32: u8 = 0x08;
    pub const F64: u8 = 0x09;
    pub const C32: u8 = 0x0a;
    pub const C64: u8 = 0x0b;
    /// GNU Radio's endianness flag, which it never sets; the elements are
    /// big-endian either way.
    pub const FLAGS: u8 = 0x80;
}

/// Why bytes are not a GNU Radio PMT.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The bytes end inside a value.
    #[error("the PMT is truncated at byte {0}")]
    Truncated(usize),
    /// A type byte GNU Radio does not write.
    #[error("unknown PMT type byte {byte:#04x} at byte {at}")]
    UnknownType {
        /// The byte.
        byte: u8,
        /// Where.
        at: usize,
    },
    /// A uniform vector of an element type GNU Radio does not have.
    #[error("unknown uniform vector element type {0:#04x}")]
    UnknownElement(u8),
    /// A length field larger than the bytes that follow.
    #[error("a length of {len} at byte {at} exceeds the {left} bytes left")]
    LengthExceedsFrame {
        /// The length read.
        len: u64,
        /// Where.
        at: usize,
        /// Bytes left after it.
        left: usize,
    },
    /// Nesting deeper than [`MAX_DEPTH`].
    #[error("the PMT nests deeper than {MAX_DEPTH}")]
    TooDeep,
    /// A dict entry that is not a pair, or whose key is not a symbol.
    #[error("a dict key at byte {0} is not a symbol")]
    KeyNotSymbol(usize),
    /// A dict whose entries do not end in null.
    #[error("a dict at byte {0} does not end in null")]
    BadDict(usize),
    /// Bytes left after the value, where one whole value was expected.
    #[error("{0} bytes follow the PMT")]
    Trailing(usize),
}

/// Why a [`Pmt`] cannot be written in GNU Radio's format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A string longer than a symbol's u16 length.
    #[error("a string of {0} bytes is longer than a GNU Radio symbol (65,535)")]
    SymbolTooLong(usize),
    /// A vector longer than its u32 length.
    #[error("a vector of {0} elements is longer than GNU Radio's u32 length")]
    TooLong(usize),
}

#[cfg(test)]
mod tests;
