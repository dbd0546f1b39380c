//! GNU Radio 3.10's noise values, one at a time: what its
//! `noise_source_X` writes and its `fastnoise_source_X` puts in its pool,
//! drawn from `gr::random` ([`GrRandom`]). Owns the arithmetic GNU Radio
//! does around the generator (in which precision each product is taken,
//! the complex sources' `amplitude/√2`, and the order in which the two
//! parts of a complex value draw), and the fast source's pick from its
//! pool; the blocks choose between this and rfgraph's own block-wise
//! generator with their `generator` parameter.

use super::gr_random::GrRandom;
use super::noise::NoiseKind;
use num_complex::Complex32;

/// The threshold of GNU Radio's impulse noise (`impulse(9)`).
const IMPULSE_FACTOR: f32 = 9.0;

/// One real value of `kind` times `amplitude`, as GNU Radio's
/// `noise_source_f` computes it: uniform noise in double precision,
/// rounded once; the others a single-precision product.
pub(crate) fn real(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> f32 {
    match kind {
        NoiseKind::Uniform => uniform(rng, amplitude),
        NoiseKind::Gaussian => amplitude * rng.gasdev(),
        NoiseKind::Laplacian => amplitude * rng.laplacian(),
        NoiseKind::Impulse => amplitude * rng.impulse(IMPULSE_FACTOR),
    }
}

fn uniform(rng: &mut GrRandom, amplitude: f32) -> f32 {
    uniform_wide(rng, amplitude) as f32
}

/// GNU Radio's uniform value before it is rounded to the item type: the
/// integer sources truncate this double, not its `f32` rounding.
pub(crate) fn uniform_wide(rng: &mut GrRandom, amplitude: f32) -> f64 {
    f64::from(amplitude) * (f64::from(rng.ran1()) * 2.0 - 1.0)
}

/// The per-part amplitude of GNU Radio's complex sources: `amplitude/√2`
/// in single precision, so complex noise has total power `amplitude²`.
pub(crate) fn complex_amplitude(amplitude: f32) -> f32 {
    amplitude / 2.0f32.sqrt()
}

/// One complex value of `kind` with per-part amplitude `part` (see
/// [`complex_amplitude`]); `None` for the kinds GNU Radio's complex
/// sources refuse (Laplacian, impulse). GNU Radio builds the value as
/// `gr_complex(draw(), draw())`, whose arguments GCC evaluates right to
/// left: the imaginary part draws first.
pub(crate) fn complex(rng: &mut GrRandom, kind: NoiseKind, part: f32) -> Option<Complex32> {
    match kind {
        NoiseKind::Uniform => {
            let im = uniform(rng, part);
            let re = uniform(rng, part);
            Some(Complex32::new(re, im))
        }
        NoiseKind::Gaussian => {
            let im = rng.gasdev();
            let re = rng.gasdev();
            Some(Complex32::new(part * re, part * im))
        }
        NoiseKind::Laplacian | NoiseKind::Impulse => None,
    }
}

/// A fast noise source's pool as GNU Radio picks from it: the next word
/// masked when the pool's length is a power of two, else its remainder.
/// The mask is worked out once, when the pool is made.
pub(crate) struct GrPool<T> {
    values: Vec<T>,
    /// `len − 1` for a length that is a power of two.
    mask: Option<u64>,
}

impl<T: Copy> GrPool<T> {
    /// The pool of `values` (at least one).
    pub(crate) fn new(values: Vec<T>) -> Self {
        let len = values.len() as u64;
        let mask = len.is_power_of_two().then(|| len - 1);
        Self { values, mask }
    }

    /// GNU Radio's next pick.
    pub(crate) fn pick(&self, rng: &mut GrRandom) -> T {
        let word = rng.next_u64();
        let i = match self.mask {
            Some(mask) => word & mask,
            None => word % self.values.len() as u64,
        };
        self.values[i as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_parts_draw_imaginary_first() {
        let mut a = GrRandom::new(42);
        let mut b = GrRandom::new(42);
        let z = complex(&mut a, NoiseKind::Gaussian, 1.0).unwrap();
        let first = b.gasdev();
        let second = b.gasdev();
        assert_eq!((z.im, z.re), (first, second));
        assert!(complex(&mut a, NoiseKind::Laplacian, 1.0).is_none());
    }

    #[test]
    fn picks_stay_in_the_pool() {
        let mut rng = GrRandom::new(7);
        for len in [1, 2, 1000, 4096, 8191] {
            let pool = GrPool::new((0..len).collect());
            for _ in 0..1000 {
                assert!(pool.pick(&mut rng) < len);
            }
        }
    }

    #[test]
    fn laplacian_and_impulse_have_their_shapes() {
        let mut rng = GrRandom::new(3);
        let lap: Vec<f32> = (0..20_000)
            .map(|_| real(&mut rng, NoiseKind::Laplacian, 1.0))
            .collect();
        // Unit-scale Laplacian: mean |x| = 1.
        let mean_abs = lap.iter().map(|x| f64::from(x.abs())).sum::<f64>() / lap.len() as f64;
        assert!((mean_abs - 1.0).abs() < 0.03, "{mean_abs}");
        let imp: Vec<f32> = (0..20_000)
            .map(|_| real(&mut rng, NoiseKind::Impulse, 1.0))
            .collect();
        // Nonzero only where −√2 ln u > 9: u < e^(−9/√2), about 0.17 %.
        let hits = imp.iter().filter(|x| **x != 0.0).count();
        assert!(hits > 0 && hits < 100, "{hits}");
        assert!(imp.iter().all(|x| *x == 0.0 || *x > 9.0));
    }
}
