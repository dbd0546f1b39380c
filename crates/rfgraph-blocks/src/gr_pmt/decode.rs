//! [`decode`]: GNU Radio's serialized PMT bytes as a [`Pmt`], read as
//! untrusted input (see [`gr_pmt`](super) for the rules).

use super::{DecodeError, MAX_DEPTH, element, tag};
use rfgraph::Pmt;
use rfgraph::pmt::Uniform;
use std::collections::BTreeMap;

/// The one PMT `bytes` holds, all of them.
pub fn decode(bytes: &[u8]) -> Result<Pmt, DecodeError> {
    let (value, used) = decode_prefix(bytes)?;
    match bytes.len() - used {
        0 => Ok(value),
        left => Err(DecodeError::Trailing(left)),
    }
}

/// The PMT at the start of `bytes` and the number of bytes it took.
pub fn decode_prefix(bytes: &[u8]) -> Result<(Pmt, usize), DecodeError> {
    let mut reader = Reader { bytes, pos: 0 };
    let value = reader.value(0)?;
    Ok((value, reader.pos))
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let end = self.pos.checked_add(N).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(DecodeError::Truncated(self.bytes.len()))?;
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.pos..end]);
        self.pos = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, DecodeError> {
        self.take::<1>().map(|[b]| b)
    }

    fn peek(&self) -> Result<u8, DecodeError> {
        self.bytes
            .get(self.pos)
            .copied()
            .ok_or(DecodeError::Truncated(self.bytes.len()))
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// A length field of `len` elements of at least `min_size` bytes
    /// each, checked against the bytes left.
    fn checked_len(&self, len: u64, min_size: usize, at: usize) -> Result<usize, DecodeError> {
        let need = len.saturating_mul(min_size as u64);
        if need > self.left() as u64 {
            return Err(DecodeError::LengthExceedsFrame {
                len,
                at,
                left: self.left(),
            });
        }
        Ok(len as usize)
    }

    fn value(&mut self, depth: usize) -> Result<Pmt, DecodeError> {
        if depth > MAX_DEPTH {
            return Err(DecodeError::TooDeep);
        }
        let at = self.pos;
        Ok(match self.byte()? {
            tag::TRUE => Pmt::Bool(true),
            tag::FALSE => Pmt::Bool(false),
            tag::SYMBOL => Pmt::String(self.symbol_body()?),
            tag::INT32 => Pmt::I64(i32::from_be_bytes(self.take()?).into()),
            tag::INT64 => Pmt::I64(i64::from_be_bytes(self.take()?)),
            tag::UINT64 => Pmt::U64(u64::from_be_bytes(self.take()?)),
            tag::DOUBLE => Pmt::F64(f64::from_be_bytes(self.take()?)),
            tag::COMPLEX => Pmt::Complex([
                f64::from_be_bytes(self.take()?),
                f64::from_be_bytes(self.take()?),
            ]),
            tag::NULL => Pmt::Null,
            tag::PAIR => self.pairs(depth)?,
            tag::VECTOR => Pmt::List(self.sequence(depth)?),
            tag::TUPLE => Pmt::Tuple(self.sequence(depth)?),
            tag::DICT => self.dict(depth, at)?,
            tag::UNIFORM_VECTOR => self.uniform()?,
            byte => return Err(DecodeError::UnknownType { byte, at }),
        })
    }

    fn symbol_body(&mut self) -> Result<String, DecodeError> {
        let at = self.pos;
        let len = u16::from_be_bytes(self.take()?);
        let len = self.checked_len(len.into(), 1, at)?;
        let raw = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(String::from_utf8_lossy(raw).into_owned())
    }

    /// A pair chain (its first `07` read): a list when it ends in null,
    /// else pairs folded from the right.
    fn pairs(&mut self, depth: usize) -> Result<Pmt, DecodeError> {
        let mut cars = vec![self.value(depth + 1)?];
        loop {
            match self.peek()? {
                tag::PAIR => {
                    self.pos += 1;
                    cars.push(self.value(depth + 1)?);
                }
                tag::NULL => {
                    self.pos += 1;
                    return Ok(Pmt::List(cars));
                }
                _ => {
                    let tail = self.value(depth + 1)?;
                    return Ok(cars
                        .into_iter()
                        .rev()
                        .fold(tail, |cdr, car| Pmt::pair(car, cdr)));
                }
            }
        }
    }

    fn sequence(&mut self, depth: usize) -> Result<Vec<Pmt>, DecodeError> {
        let at = self.pos;
        let len = u32::from_be_bytes(self.take()?);
        let len = self.checked_len(len.into(), 1, at)?;
        let mut items = Vec::with_capacity(len);
        for _ in 0..len {
            items.push(self.value(depth + 1)?);
        }
        Ok(items)
    }

    /// A dict (its first `09` read): `(symbol . value)` pairs, each
    /// after a `09`, then null.
    fn dict(&mut self, depth: usize, at: usize) -> Result<Pmt, DecodeError> {
        let mut map = BTreeMap::new();
        loop {
            let entry = self.pos;
            if self.byte()? != tag::PAIR || self.byte()? != tag::SYMBOL {
                return Err(DecodeError::KeyNotSymbol(entry));
            }
            let key = self.symbol_body()?;
            let value = self.value(depth + 1)?;
            map.insert(key, value);
            match self.byte()? {
                tag::DICT => continue,
                tag::NULL => return Ok(Pmt::Map(map)),
                _ => return Err(DecodeError::BadDict(at)),
            }
        }
    }

    fn uniform(&mut self) -> Result<Pmt, DecodeError> {
        let kind = self.byte()? & !element::FLAGS;
        let at = self.pos;
        let len = u32::from_be_bytes(self.take()?);
        let npad = self.byte()?;
        let npad = self.checked_len(npad.into(), 1, self.pos)?;
        self.pos += npad;
        let size = match kind {
            element::U8 | element::S8 => 1,
            element::U16 | element::S16 => 2,
            element::U32 | element::S32 | element::F32 => 4,
            element::U64 | element::S64 | element::F64 | element::C32 => 8,
            element::C64 => 16,
            other => return Err(DecodeError::UnknownElement(other)),
        };
        let len = self.checked_len(len.into(), size, at)?;
        let body = &self.bytes[self.pos..self.pos + len * size];
        self.pos += len * size;
        Ok(match kind {
            element::U8 => Pmt::Blob(body.to_vec()),
            element::S8 => Pmt::Uniform(Uniform::I8(elements(body, i8::from_be_bytes))),
            element::U16 => Pmt::Uniform(Uniform::U16(elements(body, u16::from_be_bytes))),
            element::S16 => Pmt::Uniform(Uniform::I16(elements(body, i16::from_be_bytes))),
            element::U32 => Pmt::Uniform(Uniform::U32(elements(body, u32::from_be_bytes))),
            element::S32 => Pmt::Uniform(Uniform::I32(elements(body, i32::from_be_bytes))),
            element::U64 => Pmt::Uniform(Uniform::U64(elements(body, u64::from_be_bytes))),
            element::S64 => Pmt::Uniform(Uniform::I64(elements(body, i64::from_be_bytes))),
            element::F32 => Pmt::VecF32(elements(body, f32::from_be_bytes)),
            element::F64 => Pmt::Uniform(Uniform::F64(elements(body, f64::from_be_bytes))),
            element::C32 => Pmt::VecComplexF32(
                elements(body, f32::from_be_bytes)
                    .chunks_exact(2)
                    .map(|c| [c[0], c[1]])
                    .collect(),
            ),
            _ => Pmt::Uniform(Uniform::C64(
                elements(body, f64::from_be_bytes)
                    .chunks_exact(2)
                    .map(|c| [c[0], c[1]])
                    .collect(),
            )),
        })
    }
}

/// Big-endian elements of `N` bytes each.
fn elements<T, const N: usize>(body: &[u8], from: fn([u8; N]) -> T) -> Vec<T> {
    body.chunks_exact(N)
        .map(|c| from(c.try_into().expect("chunks of N")))
        .collect()
}
