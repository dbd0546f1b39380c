//! Rational and arbitrary-ratio resamplers with their default designs.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use num_complex::Complex32;
use rfgraph_dsp::{ArbitraryResampler, Ccf, Fff, Isa, RationalResampler};
use std::hint::black_box;

mod common;
use common::*;

fn rational(c: &mut Criterion) {
    let x = signal_c32(BLOCK);
    let xr = signal_f32(BLOCK);
    let mut g = c.benchmark_group("rational_resampler");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for (l, m) in [(3usize, 2usize), (2, 5), (147, 160)] {
        for isa in isas() {
            let taps = rfgraph_dsp::resample::default_taps(l, m).unwrap();
            let mut r = RationalResampler::<Ccf>::with_taps(l, m, &taps, isa).unwrap();
            let mut out = vec![Complex32::new(0.0, 0.0); BLOCK * l / m + 4];
            g.bench_function(format!("ccf_{l}_{m}/{}", isa.name()), |b| {
                b.iter(|| black_box(r.process(black_box(&x), &mut out)))
            });
        }
    }
    let mut r = RationalResampler::<Fff>::new(3, 2).unwrap();
    let mut out = vec![0.0f32; BLOCK * 2];
    g.bench_function(format!("fff_3_2/{}", Isa::detect().name()), |b| {
        b.iter(|| black_box(r.process(black_box(&xr), &mut out)))
    });
    g.finish();
}

fn arbitrary(c: &mut Criterion) {
    let x = signal_c32(BLOCK);
    let mut g = c.benchmark_group("arbitrary_resampler");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for rate in [1.234_567f64, 0.6543] {
        for isa in isas() {
            let proto = rfgraph_dsp::resample::default_prototype(rate, 32).unwrap();
            let mut r = ArbitraryResampler::<Ccf>::with_taps(rate, 32, &proto, isa).unwrap();
            let mut out = vec![Complex32::new(0.0, 0.0); (BLOCK as f64 * rate) as usize + 4];
            g.bench_function(format!("ccf_{rate}/{}", isa.name()), |b| {
                b.iter(|| black_box(r.process(black_box(&x), &mut out)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, rational, arbitrary);
criterion_main!(benches);
