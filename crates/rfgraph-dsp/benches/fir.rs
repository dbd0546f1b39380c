//! FIR kernels: fff / ccf / ccc with 64 taps (the GNU Radio comparison point),
//! decimating, interpolating, and the IIR biquad cascade.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use num_complex::Complex32;
use rfgraph_dsp::{BiquadCascade, Ccc, Ccf, DecimatingFir, Fff, Fir, InterpolatingFir, Kernel};
use std::hint::black_box;

mod common;
use common::*;

fn run<K: Kernel>(
    c: &mut Criterion,
    group: &str,
    id: String,
    mut k: K,
    input: Vec<K::Input>,
    out_len: usize,
) where
    K::Output: Default + Clone,
{
    let mut out = vec![K::Output::default(); out_len];
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(input.len() as u64));
    g.bench_function(BenchmarkId::from_parameter(id), |b| {
        b.iter(|| black_box(k.process(black_box(&input), &mut out)))
    });
    g.finish();
}

fn fir(c: &mut Criterion) {
    for ntaps in [64usize, 16, 256] {
        let taps = signal_f32(ntaps);
        let ctaps = signal_c32(ntaps);
        for isa in isas() {
            let id = format!("{}taps/{}", ntaps, isa.name());
            run(
                c,
                "fir_fff",
                id.clone(),
                Fir::<Fff>::with_isa(&taps, isa).unwrap(),
                signal_f32(BLOCK),
                BLOCK,
            );
            run(
                c,
                "fir_ccf",
                id.clone(),
                Fir::<Ccf>::with_isa(&taps, isa).unwrap(),
                signal_c32(BLOCK),
                BLOCK,
            );
            run(
                c,
                "fir_ccc",
                id,
                Fir::<Ccc>::with_isa(&ctaps, isa).unwrap(),
                signal_c32(BLOCK),
                BLOCK,
            );
        }
    }
}

fn decimating(c: &mut Criterion) {
    let taps = signal_f32(64);
    for isa in isas() {
        let id = format!("64taps_m4/{}", isa.name());
        run(
            c,
            "decim_fir_fff",
            id.clone(),
            DecimatingFir::<Fff>::with_isa(&taps, 4, isa).unwrap(),
            signal_f32(BLOCK),
            BLOCK,
        );
        run(
            c,
            "decim_fir_ccf",
            id,
            DecimatingFir::<Ccf>::with_isa(&taps, 4, isa).unwrap(),
            signal_c32(BLOCK),
            BLOCK,
        );
    }
}

fn interpolating(c: &mut Criterion) {
    let taps = signal_f32(64);
    for isa in isas() {
        let id = format!("64taps_l4/{}", isa.name());
        run(
            c,
            "interp_fir_ccf",
            id,
            InterpolatingFir::<Ccf>::with_isa(&taps, 4, isa).unwrap(),
            signal_c32(BLOCK),
            4 * BLOCK,
        );
    }
}

fn iir(c: &mut Criterion) {
    run(
        c,
        "iir_biquad",
        "butter4_f32".into(),
        BiquadCascade::<f32>::butterworth_lowpass(4, 1.0, 0.1).unwrap(),
        signal_f32(BLOCK),
        BLOCK,
    );
    run(
        c,
        "iir_biquad",
        "butter4_c32".into(),
        BiquadCascade::<Complex32>::butterworth_lowpass(4, 1.0, 0.1).unwrap(),
        signal_c32(BLOCK),
        BLOCK,
    );
}

criterion_group!(benches, fir, decimating, interpolating, iir);
criterion_main!(benches);
