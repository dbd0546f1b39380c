//! Demodulators and small helpers: quadrature demod, de-emphasis, AM, DC
//! blocker, AGC, moving average, complex magnitude, conjugate multiply.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use num_complex::Complex32;
use rfgraph_dsp::complex_ops::multiply_conjugate;
use rfgraph_dsp::{
    Agc, AmDemod, ComplexToMag, ComplexToMagSquared, DcBlocker, Deemphasis, MovingAverage,
    QuadratureDemod,
};
use std::hint::black_box;

mod common;
use common::*;

fn demod(c: &mut Criterion) {
    let x = signal_c32(BLOCK);
    let xr = signal_f32(BLOCK);
    let mut outf = vec![0.0f32; BLOCK];
    let mut outc = vec![Complex32::new(0.0, 0.0); BLOCK];

    let mut g = c.benchmark_group("quadrature_demod");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for isa in isas() {
        let mut q = QuadratureDemod::with_isa(1.0, isa).unwrap();
        g.bench_function(isa.name(), |b| {
            b.iter(|| black_box(q.process(black_box(&x), &mut outf)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("complex_to_mag");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for isa in isas() {
        let mut m = ComplexToMag::with_isa(isa);
        g.bench_function(format!("mag/{}", isa.name()), |b| {
            b.iter(|| black_box(m.process(black_box(&x), &mut outf)))
        });
        let mut m = ComplexToMagSquared::with_isa(isa);
        g.bench_function(format!("mag_squared/{}", isa.name()), |b| {
            b.iter(|| black_box(m.process(black_box(&x), &mut outf)))
        });
        let mut a = AmDemod::with_isa(isa);
        g.bench_function(format!("am_demod/{}", isa.name()), |b| {
            b.iter(|| black_box(a.process(black_box(&x), &mut outf)))
        });
    }
    g.bench_function("multiply_conjugate", |b| {
        b.iter(|| black_box(multiply_conjugate(black_box(&x), black_box(&x), &mut outc)))
    });
    g.finish();

    let mut g = c.benchmark_group("small_kernels");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let mut d = Deemphasis::new(48_000.0, Deemphasis::TAU_75US).unwrap();
    g.bench_function("deemphasis", |b| {
        b.iter(|| black_box(d.process(black_box(&xr), &mut outf)))
    });
    let mut dc = DcBlocker::<Complex32>::new(0.999).unwrap();
    g.bench_function("dc_blocker_c32", |b| {
        b.iter(|| black_box(dc.process(black_box(&x), &mut outc)))
    });
    let mut agc = Agc::<Complex32>::new(1e-4, 1.0, 1.0, 1e5).unwrap();
    g.bench_function("agc_c32", |b| {
        b.iter(|| black_box(agc.process(black_box(&x), &mut outc)))
    });
    let mut ma = MovingAverage::<f32>::average(32).unwrap();
    g.bench_function("moving_average_f32", |b| {
        b.iter(|| black_box(ma.process(black_box(&xr), &mut outf)))
    });
    let mut ma = MovingAverage::<Complex32>::average(32).unwrap();
    g.bench_function("moving_average_c32", |b| {
        b.iter(|| black_box(ma.process(black_box(&x), &mut outc)))
    });
    g.finish();
}

criterion_group!(benches, demod);
criterion_main!(benches);
