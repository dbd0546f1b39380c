//! [`encode`]: a [`Pmt`] in GNU Radio's serialized form (see the module
//! table in [`gr_pmt`](super)).

use super::{EncodeError, element, tag};
use rfgraph::Pmt;
use rfgraph::pmt::Uniform;

/// `value` as GNU Radio's `pmt::serialize` writes it.
pub fn encode(value: &Pmt) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    encode_into(value, &mut out)?;
    Ok(out)
}

/// Appends `value`, serialized, to `out` (on an error, `out` may hold
/// part of it).
pub fn encode_into(value: &Pmt, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    match value {
        Pmt::Null => out.push(tag::NULL),
        Pmt::Bool(b) => out.push(if *b { tag::TRUE } else { tag::FALSE }),
        Pmt::I64(v) => match i32::try_from(*v) {
            Ok(small) => {
                out.push(tag::INT32);
                out.extend_from_slice(&small.to_be_bytes());
            }
            Err(_) => {
                out.push(tag::INT64);
                out.extend_from_slice(&v.to_be_bytes());
            }
        },
        Pmt::U64(v) => {
            out.push(tag::UINT64);
            out.extend_from_slice(&v.to_be_bytes());
        }
        Pmt::F32(v) => double(f64::from(*v), out),
        Pmt::F64(v) => double(*v, out),
        Pmt::Complex([re, im]) => {
            out.push(tag::COMPLEX);
            out.extend_from_slice(&re.to_be_bytes());
            out.extend_from_slice(&im.to_be_bytes());
        }
        Pmt::String(s) => symbol(s, out)?,
        Pmt::Blob(b) => uniform(element::U8, b, |x, o| o.push(*x), out)?,
        Pmt::VecF32(v) => uniform(element::F32, v, |x, o| be(o, x.to_be_bytes()), out)?,
        Pmt::VecComplexF32(v) => uniform(
            element::C32,
            v,
            |[re, im], o| {
                be(o, re.to_be_bytes());
                be(o, im.to_be_bytes());
            },
            out,
        )?,
        Pmt::Uniform(u) => uniform_other(u, out)?,
        Pmt::List(items) => sequence(tag::VECTOR, items, out)?,
        Pmt::Tuple(items) => sequence(tag::TUPLE, items, out)?,
        Pmt::Pair(pair) => {
            out.push(tag::PAIR);
            encode_into(&pair.0, out)?;
            encode_into(&pair.1, out)?;
        }
        Pmt::Map(map) => encode_dict_into(map.iter().map(|(k, v)| (k.as_str(), v)), out)?,
    }
    Ok(())
}

/// Appends a GNU Radio dict of `entries`, in the order given (GNU Radio
/// writes its newest entry first; a [`Pmt::Map`] is written in key
/// order): what a header whose order must match GNU Radio's byte for
/// byte needs.
pub fn encode_dict_into<'a>(
    entries: impl IntoIterator<Item = (&'a str, &'a Pmt)>,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    // GNU Radio's dict is a chain of (key . value) pairs, each link
    // marked `09`; the empty dict is null.
    for (key, value) in entries {
        out.push(tag::DICT);
        out.push(tag::PAIR);
        symbol(key, out)?;
        encode_into(value, out)?;
    }
    out.push(tag::NULL);
    Ok(())
}

fn double(v: f64, out: &mut Vec<u8>) {
    out.push(tag::DOUBLE);
    out.extend_from_slice(&v.to_be_bytes());
}

fn be<const N: usize>(out: &mut Vec<u8>, bytes: [u8; N]) {
    out.extend_from_slice(&bytes);
}

fn symbol(s: &str, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let len = u16::try_from(s.len()).map_err(|_| EncodeError::SymbolTooLong(s.len()))?;
    out.push(tag::SYMBOL);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

fn length(n: usize) -> Result<[u8; 4], EncodeError> {
    u32::try_from(n)
        .map(u32::to_be_bytes)
        .map_err(|_| EncodeError::TooLong(n))
}

fn sequence(kind: u8, items: &[Pmt], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    out.push(kind);
    out.extend_from_slice(&length(items.len())?);
    items.iter().try_for_each(|item| encode_into(item, out))
}

/// A uniform vector: type, element type, length, one pad byte (as GNU
/// Radio writes), then each element big-endian.
fn uniform<T>(
    kind: u8,
    items: &[T],
    write: impl Fn(&T, &mut Vec<u8>),
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    out.push(tag::UNIFORM_VECTOR);
    out.push(kind);
    out.extend_from_slice(&length(items.len())?);
    out.extend_from_slice(&[1, 0]);
    out.reserve(size_of_val(items));
    items.iter().for_each(|x| write(x, out));
    Ok(())
}

fn uniform_other(u: &Uniform, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    match u {
        Uniform::I8(v) => uniform(element::S8, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::U16(v) => uniform(element::U16, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::I16(v) => uniform(element::S16, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::U32(v) => uniform(element::U32, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::I32(v) => uniform(element::S32, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::U64(v) => uniform(element::U64, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::I64(v) => uniform(element::S64, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::F64(v) => uniform(element::F64, v, |x, o| be(o, x.to_be_bytes()), out),
        Uniform::C64(v) => uniform(
            element::C64,
            v,
            |[re, im], o| {
                be(o, re.to_be_bytes());
                be(o, im.to_be_bytes());
            },
            out,
        ),
    }
}
