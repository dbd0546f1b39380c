//! The vectorised preamble tests of both slicers (the AVX2 builds, run
//! through their `unsafe` calls) flag exactly the positions their scalar
//! builds flag, on random magnitudes: noise with pulses, runs of full
//! scale and of zero, at any start in the buffer.

use super::{slice2000, slice2400};
use proptest::prelude::*;
use rfgraph_dsp::Isa;

/// Samples after the last flagged position that both tests may read.
const READ_AHEAD: usize = 17;

/// Pulse samples of a preamble at each rate, from its start.
const PREAMBLE_2000: &[usize] = &[0, 2, 7, 9];
const PREAMBLE_2400: &[usize] = &[0, 1, 2, 3, 8, 9, 11, 12];

/// Magnitudes: noise below `base` from `raw` (raw values above 65,000
/// kept as they are: full-scale spikes), with preambles of `pulse`
/// (`pattern`) starting at `at`, and a pulse of it every `every` samples.
fn magnitudes(
    raw: &[u16],
    base: u16,
    pulse: u16,
    every: usize,
    at: &[usize],
    pattern: &[usize],
) -> Vec<u16> {
    let mut m: Vec<u16> = raw
        .iter()
        .enumerate()
        .map(|(k, &r)| match r {
            r if r > 65_000 => r,
            r if k % every.max(1) == 0 => (r % base.max(1)).saturating_add(pulse),
            r => r % base.max(1),
        })
        .collect();
    for &a in at {
        for &k in pattern {
            if let Some(x) = m.get_mut(a + k) {
                *x = x.saturating_add(pulse);
            }
        }
    }
    m
}

fn flags(test: fn(&[u16], usize, &mut [u8], Isa), m: &[u16], start: usize, isa: Isa) -> Vec<u8> {
    let mut f = vec![0u8; m.len() - start - READ_AHEAD];
    test(m, start, &mut f, isa);
    f
}

type Test = fn(&[u16], usize, &mut [u8], Isa);

const TESTS: [(Test, &[usize]); 2] = [
    (slice2000::candidates, PREAMBLE_2000),
    (slice2400::candidates, PREAMBLE_2400),
];

proptest! {
    #[test]
    fn vectorised_preamble_tests_flag_as_the_scalar_ones(
        raw in proptest::collection::vec(any::<u16>(), 40..3000),
        base in 1u16..8000,
        pulse in 0u16..65535,
        every in 1usize..400,
        at in proptest::collection::vec(0usize..3000, 0..20),
        start in 0usize..20,
    ) {
        let simd = Isa::Avx2Fma.resolve();
        for (test, pattern) in TESTS {
            let m = magnitudes(&raw, base, pulse, every, &at, pattern);
            prop_assume!(m.len() > start + READ_AHEAD);
            prop_assert_eq!(flags(test, &m, start, simd), flags(test, &m, start, Isa::Scalar));
        }
    }
}

/// Such cases do flag positions (the equality is not only between empty
/// flag lists), with either rate's test, in both builds.
#[test]
fn the_cases_flag_something() {
    let raw: Vec<u16> = (0..4000u32)
        .map(|k| (k.wrapping_mul(2_654_435_761) >> 16) as u16)
        .collect();
    for (test, pattern) in TESTS {
        let m = magnitudes(&raw, 2000, 30_000, 1000, &[100, 900, 2500], pattern);
        for isa in [Isa::Scalar, Isa::Avx2Fma.resolve()] {
            let f = flags(test, &m, 0, isa);
            assert!([100, 900, 2500].iter().all(|&k| f[k] == 1), "{isa:?}");
        }
    }
}
