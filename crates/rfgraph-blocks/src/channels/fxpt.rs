//! GNU Radio 3.10's fixed-point oscillator (`gr::fxpt` and `fxpt_nco`),
//! reproduced bit for bit: a 32-bit phase word, a 1024-entry table of
//! line segments (slope and value, made as GNU Radio's
//! `gen_sine_table.py` makes them, printed to 16 digits and read back as
//! `f32`), and the `float_to_fixed` conversion of a frequency through
//! `f32`. Owns the oscillator of `analog.sig_source_c` that GNU Radio's
//! `impairments` block uses for its frequency offset, so the offset is
//! GNU Radio's to the last bit (the crate's own `Nco` is more accurate
//! and differs by a few 10⁻⁶).

use std::sync::OnceLock;

/// Table entries: 2^10.
const NBITS: u32 = 10;
/// The bits of the phase word below the table index.
const ACCUM_MASK: u32 = (1 << (32 - NBITS)) - 1;

/// GNU Radio's `fxpt::PI`, `TAU` and `TWO_TO_THE_31` (as `f32`).
const PI: f32 = std::f32::consts::PI;
const TAU: f32 = std::f32::consts::TAU;
const TWO_TO_THE_31: f32 = 2_147_483_648.0;

/// The table: per segment of the phase word, the slope (per phase unit)
/// and the sine at its start.
fn table() -> &'static [[f32; 2]; 1 << NBITS] {
    static TABLE: OnceLock<[[f32; 2]; 1 << NBITS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let n = 1usize << NBITS;
        let incx = (u32::MAX as f64) / n as f64;
        let f = |x: f64| (x * std::f64::consts::PI / 2_147_483_648.0).sin();
        // GNU Radio writes each value with `%22.15e` into a C header,
        // where the compiler reads it as a `double` and stores a `float`.
        let printed = |v: f64| -> f32 {
            let text = format!("{v:.15e}");
            text.parse::<f64>().expect("a formatted float parses") as f32
        };
        let mut t = [[0.0f32; 2]; 1 << NBITS];
        for (i, entry) in t.iter_mut().enumerate() {
            let a = i as f64 * incx;
            let b = (i + 1) as f64 * incx;
            *entry = [printed((f(b) - f(a)) / (b - a)), printed(f(a))];
        }
        t
    })
}

/// The sine of the phase word `x` (one turn = 2^32).
pub(crate) fn sin(x: u32) -> f32 {
    let [slope, start] = table()[(x >> (32 - NBITS)) as usize];
    slope * (x & ACCUM_MASK) as f32 + start
}

/// The cosine of the phase word `x`.
pub(crate) fn cos(x: u32) -> f32 {
    sin(x.wrapping_add(0x4000_0000))
}

/// `fxpt::float_to_fixed`: radians to a phase word, folded into
/// `[−π, π)` in `f32` first (a value that leaves the `i32` range gives
/// `i32::MIN`, as x86's conversion does).
pub(crate) fn float_to_fixed(x: f32) -> i32 {
    let d = ((x / TAU) as f64 + 0.5).floor() as i32;
    let x = x - d as f32 * TAU;
    truncate(x * TWO_TO_THE_31 / PI)
}

/// `(int32_t) v` as x86 computes it: towards zero, and `i32::MIN` for NaN
/// or a value out of range.
pub(crate) fn truncate(v: f32) -> i32 {
    if v > -2_147_483_904.0 && v < 2_147_483_648.0 {
        v as i32
    } else {
        i32::MIN
    }
}

/// GNU Radio's `fxpt_nco`, as `sig_source_c` runs it for a cosine wave
/// of amplitude 1 at a rate of 1 sample per second.
#[derive(Clone, Debug, Default)]
pub(crate) struct FxptNco {
    phase: u32,
    step: u32,
}

impl FxptNco {
    /// An oscillator at `frequency` cycles per sample, phase 0.
    pub(crate) fn new(frequency: f64) -> Self {
        let mut nco = Self::default();
        nco.set_frequency(frequency);
        nco
    }

    /// A new frequency from the next sample on (the phase stays):
    /// `sig_source_c`'s `set_frequency`, which passes `2π·f` as `f32`.
    pub(crate) fn set_frequency(&mut self, frequency: f64) {
        self.step = float_to_fixed((std::f64::consts::TAU * frequency) as f32) as u32;
    }

    /// The next sample, `cos + j·sin` of the phase, and one step on.
    pub(crate) fn next(&mut self) -> num_complex::Complex32 {
        let out = num_complex::Complex32::new(cos(self.phase), sin(self.phase));
        self.phase = self.phase.wrapping_add(self.step);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_a_close_sine() {
        for k in 0..4096u32 {
            let x = k.wrapping_mul(1_048_573);
            let exact = (x as f64 * std::f64::consts::TAU / 4_294_967_296.0).sin();
            assert!((sin(x) as f64 - exact).abs() < 5e-6, "{x}");
            let exact = (x as f64 * std::f64::consts::TAU / 4_294_967_296.0).cos();
            assert!((cos(x) as f64 - exact).abs() < 5e-6, "{x}");
        }
    }

    /// GNU Radio 3.10.5's `analog.sig_source_c(1, GR_COS_WAVE, 0.0123, 1, 0)`.
    #[test]
    fn the_oscillator_is_gnu_radios() {
        let gnuradio = [
            (1.0f64, 0.0f64),
            (0.997_010_588_645_935_1, 0.077_205_926_179_885_86),
            (0.988_075_554_370_880_1, 0.153_951_197_862_625_12),
            (0.973_239_958_286_285_4, 0.229_777_231_812_477_1),
        ];
        let mut nco = FxptNco::new(0.0123);
        for (re, im) in gnuradio {
            let c = nco.next();
            assert_eq!((c.re, c.im), (re as f32, im as f32));
        }
    }

    #[test]
    fn conversion_folds_and_saturates_as_x86() {
        assert_eq!(float_to_fixed(0.0), 0);
        assert_eq!(float_to_fixed(TAU), float_to_fixed(0.0));
        assert_eq!(truncate(f32::NAN), i32::MIN);
        assert_eq!(truncate(3.0e9), i32::MIN);
        assert_eq!(truncate(-2.5), -2);
    }
}
