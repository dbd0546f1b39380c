//! The conversion loops: stored scalars ↔ `f32`, one function per scalar
//! type and direction, each a straight loop over fixed-size chunks that
//! LLVM vectorises (no per-sample branch: clipping is `max`/`min`, rounding
//! and conversion the addition of 1.5·2^mantissa, which rounds half to even
//! in the default rounding mode and leaves the integer in the low bits,
//! without SSE4.1's `roundps` or a saturating float-to-int cast).
//!
//! [`decode`] and [`encode`] dispatch on the format once per call; on
//! x86-64 the whole dispatch (and so every loop) is compiled twice, once
//! for the baseline target and once with AVX2, and the caller says which
//! to run ([`avx2_available`], checked once per codec). No `unsafe` besides
//! calling the AVX2 copy after that check.

use super::{Endian, ScalarType};

/// What a codec passes to the loops: `decode: (x - offset) * inv`,
/// `encode: clip(round(v * scale + offset), lo, hi)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    pub offset: f64,
    pub scale: f64,
    pub inv: f64,
    /// Float formats with scale 1: decode and encode copy (f64 narrows).
    pub unit: bool,
}

/// Whether the AVX2 build of the loops may run on this CPU.
pub(crate) fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Decodes `bytes` (whole scalars of `scalar`/`endian`) into `out`, one
/// float per scalar. `bytes.len() == out.len() * scalar.bytes()`.
pub(crate) fn decode(
    avx2: bool,
    scalar: ScalarType,
    endian: Endian,
    bytes: &[u8],
    out: &mut [f32],
    p: Params,
) {
    debug_assert_eq!(bytes.len(), out.len() * scalar.bytes());
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is only true when `avx2_available()` said so.
        unsafe { decode_avx2(scalar, endian, bytes, out, p) };
        return;
    }
    let _ = avx2;
    decode_any(scalar, endian, bytes, out, p);
}

/// Encodes `input` into `bytes`, one scalar per float.
/// `bytes.len() == input.len() * scalar.bytes()`.
pub(crate) fn encode(
    avx2: bool,
    scalar: ScalarType,
    endian: Endian,
    input: &[f32],
    bytes: &mut [u8],
    p: Params,
) {
    debug_assert_eq!(bytes.len(), input.len() * scalar.bytes());
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is only true when `avx2_available()` said so.
        unsafe { encode_avx2(scalar, endian, input, bytes, p) };
        return;
    }
    let _ = avx2;
    encode_any(scalar, endian, input, bytes, p);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn decode_avx2(scalar: ScalarType, endian: Endian, bytes: &[u8], out: &mut [f32], p: Params) {
    decode_any(scalar, endian, bytes, out, p);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn encode_avx2(scalar: ScalarType, endian: Endian, input: &[f32], bytes: &mut [u8], p: Params) {
    encode_any(scalar, endian, input, bytes, p);
}

/// `x` rounded half to even, as an integer, for |x| ≤ 2^22 (the clipped
/// range of every type encoded through `f32`): adding 1.5·2^23 rounds in
/// the FPU's default mode and leaves the integer in the low mantissa bits.
/// Unlike `as i32` (saturating, so a compare-and-fix per lane that LLVM
/// does not vectorise on SSE2) this is plain integer arithmetic.
#[inline(always)]
fn round_to_int_f32(x: f32) -> i32 {
    const M: f32 = 12_582_912.0; // 1.5 * 2^23
    ((x + M).to_bits() as i32).wrapping_sub(M.to_bits() as i32)
}

/// The same for |x| ≤ 2^51, through `f64`.
#[inline(always)]
fn round_to_int_f64(x: f64) -> i64 {
    const M: f64 = 6_755_399_441_055_744.0; // 1.5 * 2^52
    ((x + M).to_bits() as i64).wrapping_sub(M.to_bits() as i64)
}

/// `x` clipped to `[lo, hi]`; NaN becomes `lo`. Written as compares so
/// that x86 lowers each side to one `maxps`/`minps`.
#[inline(always)]
fn clip<F: PartialOrd + Copy>(x: F, lo: F, hi: F) -> F {
    let x = if x > lo { x } else { lo };
    if x < hi { x } else { hi }
}

/// One integer type's decode and encode, both byte orders. `$w` is the
/// arithmetic type: `f32` holds every 8/16-bit value exactly, 32-bit
/// values go through `f64`.
macro_rules! int_loops {
    ($dec:ident, $enc:ident, $t:ty, $w:ty, $round:ident) => {
        #[inline(always)]
        fn $dec(bytes: &[u8], out: &mut [f32], big: bool, p: Params) {
            const N: usize = std::mem::size_of::<$t>();
            let off = p.offset as $w;
            let inv = p.inv as $w;
            let chunks = bytes.chunks_exact(N);
            if big {
                for (o, c) in out.iter_mut().zip(chunks) {
                    let x = <$t>::from_be_bytes(c.try_into().unwrap());
                    *o = ((x as $w - off) * inv) as f32;
                }
            } else {
                for (o, c) in out.iter_mut().zip(chunks) {
                    let x = <$t>::from_le_bytes(c.try_into().unwrap());
                    *o = ((x as $w - off) * inv) as f32;
                }
            }
        }

        #[inline(always)]
        fn $enc(input: &[f32], bytes: &mut [u8], big: bool, p: Params) {
            const N: usize = std::mem::size_of::<$t>();
            let off = p.offset as $w;
            let scale = p.scale as $w;
            let lo = <$t>::MIN as $w;
            let hi = <$t>::MAX as $w;
            let chunks = bytes.chunks_exact_mut(N);
            // Clipped and rounded, the value is an integer in the type's
            // range, so the narrowing cast is exact.
            if big {
                for (c, &v) in chunks.zip(input) {
                    let y = $round(clip(v as $w * scale + off, lo, hi));
                    c.copy_from_slice(&(y as $t).to_be_bytes());
                }
            } else {
                for (c, &v) in chunks.zip(input) {
                    let y = $round(clip(v as $w * scale + off, lo, hi));
                    c.copy_from_slice(&(y as $t).to_le_bytes());
                }
            }
        }
    };
}

// 8- and 16-bit values convert through i32, which vectorises on SSE2/AVX2.
macro_rules! small_int_loops {
    ($dec:ident, $enc:ident, $t:ty) => {
        #[inline(always)]
        fn $dec(bytes: &[u8], out: &mut [f32], big: bool, p: Params) {
            const N: usize = std::mem::size_of::<$t>();
            let off = p.offset as f32;
            let inv = p.inv as f32;
            let chunks = bytes.chunks_exact(N);
            if big {
                for (o, c) in out.iter_mut().zip(chunks) {
                    let x = <$t>::from_be_bytes(c.try_into().unwrap());
                    *o = (x as i32 as f32 - off) * inv;
                }
            } else {
                for (o, c) in out.iter_mut().zip(chunks) {
                    let x = <$t>::from_le_bytes(c.try_into().unwrap());
                    *o = (x as i32 as f32 - off) * inv;
                }
            }
        }

        #[inline(always)]
        fn $enc(input: &[f32], bytes: &mut [u8], big: bool, p: Params) {
            const N: usize = std::mem::size_of::<$t>();
            let off = p.offset as f32;
            let scale = p.scale as f32;
            let lo = <$t>::MIN as f32;
            let hi = <$t>::MAX as f32;
            let chunks = bytes.chunks_exact_mut(N);
            if big {
                for (c, &v) in chunks.zip(input) {
                    let y = round_to_int_f32(clip(v * scale + off, lo, hi));
                    c.copy_from_slice(&(y as $t).to_be_bytes());
                }
            } else {
                for (c, &v) in chunks.zip(input) {
                    let y = round_to_int_f32(clip(v * scale + off, lo, hi));
                    c.copy_from_slice(&(y as $t).to_le_bytes());
                }
            }
        }
    };
}

small_int_loops!(dec_i8, enc_i8, i8);
small_int_loops!(dec_u8, enc_u8, u8);
small_int_loops!(dec_i16, enc_i16, i16);
small_int_loops!(dec_u16, enc_u16, u16);
int_loops!(dec_i32, enc_i32, i32, f64, round_to_int_f64);
int_loops!(dec_u32, enc_u32, u32, f64, round_to_int_f64);

#[inline(always)]
fn dec_f32(bytes: &[u8], out: &mut [f32], big: bool, p: Params) {
    let chunks = bytes.chunks_exact(4);
    if p.unit {
        if big {
            for (o, c) in out.iter_mut().zip(chunks) {
                *o = f32::from_be_bytes(c.try_into().unwrap());
            }
        } else {
            // Bit for bit (NaN payloads included): a byte copy.
            bytemuck::cast_slice_mut::<f32, u8>(out).copy_from_slice(bytes);
            if cfg!(target_endian = "big") {
                for o in out.iter_mut() {
                    *o = f32::from_bits(o.to_bits().swap_bytes());
                }
            }
        }
        return;
    }
    let inv = p.inv as f32;
    if big {
        for (o, c) in out.iter_mut().zip(chunks) {
            *o = f32::from_be_bytes(c.try_into().unwrap()) * inv;
        }
    } else {
        for (o, c) in out.iter_mut().zip(chunks) {
            *o = f32::from_le_bytes(c.try_into().unwrap()) * inv;
        }
    }
}

#[inline(always)]
fn enc_f32(input: &[f32], bytes: &mut [u8], big: bool, p: Params) {
    let chunks = bytes.chunks_exact_mut(4);
    let scale = if p.unit { 1.0 } else { p.scale as f32 };
    if p.unit && !big && cfg!(target_endian = "little") {
        bytes.copy_from_slice(bytemuck::cast_slice(input));
        return;
    }
    if p.unit {
        for (c, &v) in chunks.zip(input) {
            let b = if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            };
            c.copy_from_slice(&b);
        }
    } else if big {
        for (c, &v) in chunks.zip(input) {
            c.copy_from_slice(&(v * scale).to_be_bytes());
        }
    } else {
        for (c, &v) in chunks.zip(input) {
            c.copy_from_slice(&(v * scale).to_le_bytes());
        }
    }
}

#[inline(always)]
fn dec_f64(bytes: &[u8], out: &mut [f32], big: bool, p: Params) {
    let inv = p.inv;
    let chunks = bytes.chunks_exact(8);
    match (big, p.unit) {
        (true, true) => {
            for (o, c) in out.iter_mut().zip(chunks) {
                *o = f64::from_be_bytes(c.try_into().unwrap()) as f32;
            }
        }
        (false, true) => {
            for (o, c) in out.iter_mut().zip(chunks) {
                *o = f64::from_le_bytes(c.try_into().unwrap()) as f32;
            }
        }
        (true, false) => {
            for (o, c) in out.iter_mut().zip(chunks) {
                *o = (f64::from_be_bytes(c.try_into().unwrap()) * inv) as f32;
            }
        }
        (false, false) => {
            for (o, c) in out.iter_mut().zip(chunks) {
                *o = (f64::from_le_bytes(c.try_into().unwrap()) * inv) as f32;
            }
        }
    }
}

#[inline(always)]
fn enc_f64(input: &[f32], bytes: &mut [u8], big: bool, p: Params) {
    let scale = if p.unit { 1.0 } else { p.scale };
    let chunks = bytes.chunks_exact_mut(8);
    if big {
        for (c, &v) in chunks.zip(input) {
            c.copy_from_slice(&(v as f64 * scale).to_be_bytes());
        }
    } else {
        for (c, &v) in chunks.zip(input) {
            c.copy_from_slice(&(v as f64 * scale).to_le_bytes());
        }
    }
}

#[inline(always)]
fn decode_any(scalar: ScalarType, endian: Endian, bytes: &[u8], out: &mut [f32], p: Params) {
    let big = endian == Endian::Big;
    match scalar {
        ScalarType::F32 => dec_f32(bytes, out, big, p),
        ScalarType::F64 => dec_f64(bytes, out, big, p),
        ScalarType::I8 => dec_i8(bytes, out, big, p),
        ScalarType::I16 => dec_i16(bytes, out, big, p),
        ScalarType::I32 => dec_i32(bytes, out, big, p),
        ScalarType::U8 => dec_u8(bytes, out, big, p),
        ScalarType::U16 => dec_u16(bytes, out, big, p),
        ScalarType::U32 => dec_u32(bytes, out, big, p),
    }
}

#[inline(always)]
fn encode_any(scalar: ScalarType, endian: Endian, input: &[f32], bytes: &mut [u8], p: Params) {
    let big = endian == Endian::Big;
    match scalar {
        ScalarType::F32 => enc_f32(input, bytes, big, p),
        ScalarType::F64 => enc_f64(input, bytes, big, p),
        ScalarType::I8 => enc_i8(input, bytes, big, p),
        ScalarType::I16 => enc_i16(input, bytes, big, p),
        ScalarType::I32 => enc_i32(input, bytes, big, p),
        ScalarType::U8 => enc_u8(input, bytes, big, p),
        ScalarType::U16 => enc_u16(input, bytes, big, p),
        ScalarType::U32 => enc_u32(input, bytes, big, p),
    }
}
