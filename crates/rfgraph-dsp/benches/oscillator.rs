//! NCO, rotator and frequency-translating FIR.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use num_complex::Complex32;
use rfgraph_dsp::{Ccf, FreqXlatingFir, Nco, Rotator, design};
use std::hint::black_box;

mod common;
use common::*;

fn oscillators(c: &mut Criterion) {
    let x = signal_c32(BLOCK);
    let mut out = vec![Complex32::new(0.0, 0.0); BLOCK];
    let mut g = c.benchmark_group("rotator");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for isa in isas() {
        let mut r = Rotator::with_isa(0.0123, isa).unwrap();
        g.bench_function(isa.name(), |b| {
            b.iter(|| black_box(r.process(black_box(&x), &mut out)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("nco");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for isa in isas() {
        let mut n = Nco::with_isa(0.0123, 0.0, isa).unwrap();
        g.bench_function(isa.name(), |b| {
            b.iter(|| black_box(n.generate(black_box(&mut out))))
        });
    }
    g.finish();

    let taps = design::kaiser_lowpass(1.0, 0.05, 0.05, 60.0).unwrap();
    let mut g = c.benchmark_group("freq_xlating_fir");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for isa in isas() {
        let mut f = FreqXlatingFir::<Ccf>::with_isa(&taps, 8, 0.2, isa).unwrap();
        g.bench_function(format!("{}taps_m8/{}", taps.len(), isa.name()), |b| {
            b.iter(|| black_box(f.process(black_box(&x), &mut out)))
        });
    }
    g.finish();
}

criterion_group!(benches, oscillators);
criterion_main!(benches);
