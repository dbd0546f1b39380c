//! GNU Radio's float-to-integer rounding (its VOLK kernels): scale, round
//! half to even, saturate to the target range; NaN gives 0 (and
//! `i32::MIN` for 32-bit integers, as x86's conversion does).

/// `x` rounded half to even and saturated to `[lo, hi]`; NaN gives `nan`.
#[inline(always)]
fn saturate(x: f32, lo: f32, hi: f32) -> f32 {
    x.clamp(lo, hi).round_ties_even()
}

/// To `i16`, as `float_to_short`.
#[inline(always)]
pub fn to_i16(x: f32) -> i16 {
    // `as` maps NaN to 0, as VOLK's kernel does.
    saturate(x, -32768.0, 32767.0) as i16
}

/// To `i8` (a GNU Radio `char`, carried as its byte), as `float_to_char`.
#[inline(always)]
pub fn to_i8(x: f32) -> u8 {
    saturate(x, -128.0, 127.0) as i8 as u8
}

/// To `u8`, as `float_to_uchar`.
#[inline(always)]
pub fn to_u8(x: f32) -> u8 {
    saturate(x, 0.0, 255.0) as u8
}

/// To `i32`, as `float_to_int`: NaN gives `i32::MIN`.
#[inline(always)]
pub fn to_i32(x: f32) -> i32 {
    if x.is_nan() {
        i32::MIN
    } else {
        // Through f64: 2147483647 is not an f32.
        (x as f64)
            .clamp(-2147483648.0, 2147483647.0)
            .round_ties_even() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What GNU Radio 3.10 gives for these inputs (`float_to_short`,
    /// `float_to_char`, `float_to_uchar`, `float_to_int`, scale 1).
    #[test]
    fn rounding_matches_gnu_radio() {
        let x = [
            0.5,
            1.5,
            2.5,
            -0.5,
            -1.5,
            127.6,
            -128.7,
            300.0,
            -300.0,
            1e10,
            -1e10,
            f32::NAN,
        ];
        let s: Vec<i16> = x.iter().map(|&v| to_i16(v)).collect();
        assert_eq!(s, [0, 2, 2, 0, -2, 128, -129, 300, -300, 32767, -32768, 0]);
        let c: Vec<u8> = x.iter().map(|&v| to_i8(v)).collect();
        assert_eq!(c, [0, 2, 2, 0, 254, 127, 128, 127, 128, 127, 128, 0]);
        let u: Vec<u8> = x.iter().map(|&v| to_u8(v)).collect();
        assert_eq!(u, [0, 2, 2, 0, 0, 128, 0, 255, 0, 255, 0, 0]);
        let i: Vec<i32> = x.iter().map(|&v| to_i32(v)).collect();
        assert_eq!(
            i,
            [
                0,
                2,
                2,
                0,
                -2,
                128,
                -129,
                300,
                -300,
                2147483647,
                -2147483648,
                -2147483648
            ]
        );
    }
}
