//! [`BitRepack`]: regroups a stream of bits carried `k` per input word into
//! `l` per output word, GNU Radio's `repack_bits_bb` in stream mode, which
//! also gives `unpack_k_bits`, `pack_k_bits`, `packed_to_unpacked` and
//! `unpacked_to_packed`.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};

/// The order bits are read from input words and written into output words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endianness {
    /// Most significant (of the `k` or `l` used bits) first.
    MsbFirst,
    /// Least significant first.
    LsbFirst,
}

impl Endianness {
    /// Parses `msb`/`lsb` (also GNU Radio's `gr.GR_MSB_FIRST`, `msb_first`, ...).
    pub fn parse(name: &str) -> Option<Self> {
        let n = name.to_ascii_lowercase();
        if n.contains("msb") {
            Some(Self::MsbFirst)
        } else if n.contains("lsb") {
            Some(Self::LsbFirst)
        } else {
            None
        }
    }
}

/// An integer stream item whose low bits carry data (`u8`, `i16`, `i32`).
pub trait Word: Copy + Default + Send + 'static {
    /// Bits in the type.
    const BITS: u32;
    /// The word's bit pattern.
    fn to_bits(self) -> u32;
    /// A word with the low bits of `bits`.
    fn from_bits(bits: u32) -> Self;
}

impl Word for u8 {
    const BITS: u32 = 8;
    fn to_bits(self) -> u32 {
        self as u32
    }
    fn from_bits(bits: u32) -> Self {
        bits as u8
    }
}

impl Word for i16 {
    const BITS: u32 = 16;
    fn to_bits(self) -> u32 {
        self as u16 as u32
    }
    fn from_bits(bits: u32) -> Self {
        bits as u16 as i16
    }
}

impl Word for i32 {
    const BITS: u32 = 32;
    fn to_bits(self) -> u32 {
        self as u32
    }
    fn from_bits(bits: u32) -> Self {
        bits as i32
    }
}

/// Reads the low `k` bits of each input word and writes them, `l` to a
/// word, into the low bits of the output words; bits left over at the end
/// of the stream that do not fill an output word are dropped.
///
/// ```
/// use rfgraph_dsp::digital::{BitRepack, Endianness};
/// use rfgraph_dsp::Kernel;
/// let mut unpack = BitRepack::<u8, u8>::new(8, 1, Endianness::MsbFirst).unwrap();
/// let mut bits = [0u8; 8];
/// assert_eq!(unpack.process(&[0b1010_0001], &mut bits), (1, 8));
/// assert_eq!(bits, [1, 0, 1, 0, 0, 0, 0, 1]);
/// ```
#[derive(Clone, Debug)]
pub struct BitRepack<I: Word, O: Word> {
    k: u32,
    l: u32,
    read: Endianness,
    write: Endianness,
    /// Bits read and not yet written, the oldest at the top of the
    /// `held` low bits.
    acc: u64,
    held: u32,
    _types: std::marker::PhantomData<fn(I) -> O>,
}

/// The low `n` bits of `v` in reverse order.
fn reverse(v: u32, n: u32) -> u32 {
    v.reverse_bits() >> (32 - n)
}

impl<I: Word, O: Word> BitRepack<I, O> {
    /// `k` bits from each input word (1 to `I::BITS`), `l` bits into each
    /// output word (1 to `O::BITS`), read and written in the same order.
    pub fn new(k: u32, l: u32, endianness: Endianness) -> Result<Self, DspError> {
        Self::with_orders(k, l, endianness, endianness)
    }

    /// Like [`new`](Self::new) with the reading order of input words and
    /// the writing order of output words set apart (GNU Radio's
    /// `packed_to_unpacked` in LSB mode reads LSB first but writes each
    /// chunk's first bit as its most significant).
    pub fn with_orders(
        k: u32,
        l: u32,
        read: Endianness,
        write: Endianness,
    ) -> Result<Self, DspError> {
        for (name, v, max) in [("k", k, I::BITS), ("l", l, O::BITS)] {
            if v == 0 || v > max {
                return Err(DspError::OutOfRange {
                    name,
                    value: v as f64,
                    expected: "must be between 1 and the item's bit width",
                });
            }
        }
        Ok(Self {
            k,
            l,
            read,
            write,
            acc: 0,
            held: 0,
            _types: std::marker::PhantomData,
        })
    }

    /// Reads `k` bits from each input word and writes `l` into each
    /// output word from now on (GNU Radio's `set_k_and_l`). Bits already
    /// read and not yet written stay queued and go out `l` at a time.
    ///
    /// Errors: `k` or `l` outside 1 to the item's bit width (nothing
    /// changes).
    pub fn set_k_and_l(&mut self, k: u32, l: u32) -> Result<(), DspError> {
        let checked = Self::with_orders(k, l, self.read, self.write)?;
        (self.k, self.l) = (checked.k, checked.l);
        Ok(())
    }

    /// Bits read from each input word.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Bits written into each output word.
    pub fn l(&self) -> u32 {
        self.l
    }
}

impl<I: Word, O: Word> Kernel for BitRepack<I, O> {
    type Input = I;
    type Output = O;

    fn process(&mut self, input: &[I], output: &mut [O]) -> (usize, usize) {
        let (k, l) = (self.k, self.l);
        let in_mask = if k == 32 { u32::MAX } else { (1u32 << k) - 1 };
        let (mut consumed, mut produced) = (0, 0);
        loop {
            while self.held >= l {
                if produced == output.len() {
                    return (consumed, produced);
                }
                self.held -= l;
                let w = ((self.acc >> self.held) & ((1u64 << l) - 1)) as u32;
                self.acc &= (1u64 << self.held) - 1;
                output[produced] = O::from_bits(match self.write {
                    Endianness::MsbFirst => w,
                    Endianness::LsbFirst => reverse(w, l),
                });
                produced += 1;
            }
            if consumed == input.len() {
                return (consumed, produced);
            }
            let v = input[consumed].to_bits() & in_mask;
            consumed += 1;
            let bits = match self.read {
                Endianness::MsbFirst => v,
                Endianness::LsbFirst => reverse(v, k),
            };
            self.acc = (self.acc << k) | bits as u64;
            self.held += k;
        }
    }

    fn min_output(&self) -> usize {
        self.k.div_ceil(self.l) as usize
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(self.k as u64, self.l as u64)
    }

    fn reset(&mut self) {
        self.acc = 0;
        self.held = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<I: Word, O: Word>(k: u32, l: u32, e: Endianness, input: &[I], chunk: usize) -> Vec<O> {
        let mut r = BitRepack::<I, O>::new(k, l, e).unwrap();
        let mut out = Vec::new();
        for c in input.chunks(chunk) {
            let mut buf = vec![O::default(); 64];
            let mut rest = c;
            loop {
                let (n, m) = r.process(rest, &mut buf);
                out.extend_from_slice(&buf[..m]);
                rest = &rest[n..];
                if rest.is_empty() && m < buf.len() {
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn msb_and_lsb_regroup_bits_whatever_the_split() {
        let input: Vec<u8> = (0..50u32).map(|i| (i * 37 + 11) as u8).collect();
        for e in [Endianness::MsbFirst, Endianness::LsbFirst] {
            let whole: Vec<u8> = run(8, 3, e, &input, 1000);
            let split: Vec<u8> = run(8, 3, e, &input, 7);
            assert_eq!(whole, split);
            assert_eq!(whole.len(), 50 * 8 / 3);
            let back: Vec<u8> = run(3, 8, e, &whole, 5);
            assert_eq!(back[..], input[..back.len()]);
        }
        let lsb: Vec<u8> = run(8, 2, Endianness::LsbFirst, &[0b1110_0100u8], 1);
        assert_eq!(lsb, [0, 1, 2, 3]);
        let msb: Vec<u8> = run(8, 2, Endianness::MsbFirst, &[0b1110_0100u8], 1);
        assert_eq!(msb, [3, 2, 1, 0]);
    }

    #[test]
    fn wide_words_carry_all_their_bits() {
        let input = [-2i32, 7];
        let bytes: Vec<u8> = run(32, 8, Endianness::MsbFirst, &input, 1);
        assert_eq!(bytes, [0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 7]);
        let back: Vec<i32> = run(8, 32, Endianness::MsbFirst, &bytes, 3);
        assert_eq!(back, input);
    }

    #[test]
    fn new_widths_apply_to_the_next_bits() {
        let mut r = BitRepack::<u8, u8>::new(8, 1, Endianness::MsbFirst).unwrap();
        let mut out = [0u8; 16];
        // Three of the first byte's bits go out one by one, five wait.
        assert_eq!(r.process(&[0b1011_0110], &mut out[..3]), (1, 3));
        assert_eq!(out[..3], [1, 0, 1]);
        r.set_k_and_l(4, 2).unwrap();
        assert_eq!(r.ratio(), Ratio::new(4, 2));
        // The five waiting bits 10110 then the low four of 0b1001: pairs.
        assert_eq!(r.process(&[0b1111_1001], &mut out), (1, 4));
        assert_eq!(out[..4], [0b10, 0b11, 0b01, 0b00]);
        assert!(r.set_k_and_l(9, 2).is_err());
        assert_eq!((r.k(), r.l()), (4, 2));
    }

    #[test]
    fn bad_widths_are_rejected() {
        assert!(BitRepack::<u8, u8>::new(0, 1, Endianness::MsbFirst).is_err());
        assert!(BitRepack::<u8, u8>::new(9, 1, Endianness::MsbFirst).is_err());
        assert!(BitRepack::<u8, i16>::new(8, 16, Endianness::MsbFirst).is_ok());
    }
}
