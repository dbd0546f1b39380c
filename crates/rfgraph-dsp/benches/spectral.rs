//! FFT (cached plans) and windowed spectra.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use num_complex::Complex32;
use rfgraph_dsp::{Fft, FftDirection, Spectrum, SpectrumMode, Window};
use std::hint::black_box;

mod common;
use common::*;

fn fft(c: &mut Criterion) {
    let x = signal_c32(BLOCK);
    let mut g = c.benchmark_group("fft");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for size in [64usize, 1024, 8192] {
        let mut f = Fft::new(size, FftDirection::Forward).unwrap();
        let mut out = vec![Complex32::new(0.0, 0.0); BLOCK];
        g.bench_function(format!("forward_{size}"), |b| {
            b.iter(|| black_box(f.process(black_box(&x), &mut out)))
        });
        let mut f = Fft::new(size, FftDirection::Forward)
            .unwrap()
            .with_window(Window::Hann)
            .unwrap();
        g.bench_function(format!("forward_hann_{size}"), |b| {
            b.iter(|| black_box(f.process(black_box(&x), &mut out)))
        });
    }
    g.finish();
}

fn spectrum(c: &mut Criterion) {
    let x = signal_c32(BLOCK);
    let mut g = c.benchmark_group("spectrum");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for mode in [SpectrumMode::Magnitude, SpectrumMode::PowerDb] {
        let mut s = Spectrum::new(1024, Window::BlackmanHarris, mode).unwrap();
        let mut out = vec![0.0f32; BLOCK];
        g.bench_function(format!("{mode:?}_1024"), |b| {
            b.iter(|| black_box(s.process(black_box(&x), &mut out)))
        });
    }
    g.finish();
}

criterion_group!(benches, fft, spectrum);
criterion_main!(benches);
