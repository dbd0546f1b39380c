//! The device FIR filter gives the host filter's result (`rfgraph_dsp::Fir`,
//! zero initial history) on `f32` and `Complex32` input with 31-, 64- and
//! 1-tap filters: for odd stream lengths, streams shorter than the filter
//! and empty ones,
//! rings small (and of odd capacity) so that windows keep crossing the
//! ring's end, output rings smaller than input rings, one or many transfers
//! in flight, and two filters in a row on the device. Sums are compared
//! with a tolerance: the host filter adds in another (SIMD) order.

mod common;
use common::RunBounded;

use common::{
    assert_close, assert_close_c, assert_exact, assert_transfers, csignal, run_unary_rings, signal,
    taps,
};
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::scheduler::Tpb;
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_dsp::{Ccf, Fff, Fir as HostFir};
use rfgraph_opencl::Fir;

fn host_f32(taps: &[f32], x: &[f32]) -> Vec<f32> {
    let mut y = vec![0.0; x.len()];
    assert_eq!(
        HostFir::<Fff>::new(taps).unwrap().process(x, &mut y),
        (x.len(), x.len())
    );
    y
}

fn host_c32(taps: &[f32], x: &[Complex32]) -> Vec<Complex32> {
    let mut y = vec![Complex32::new(0.0, 0.0); x.len()];
    assert_eq!(
        HostFir::<Ccf>::new(taps).unwrap().process(x, &mut y),
        (x.len(), x.len())
    );
    y
}

/// `(items, input ring bytes, output ring bytes, transfers in flight)`.
/// 4096 bytes hold 1024 `f32` / 512 `Complex32`; 12 340 bytes hold 3085
/// `f32` / 1543 `Complex32` (device rings are not rounded to pages).
const CASES: [(usize, usize, usize, usize); 6] = [
    (100_003, 4096, 4096, 8),
    (65_537, 12_340, 12_340, 1),
    // Output ring much smaller than the input ring: the input stream ends
    // while most of it still waits for output space.
    (65_537, 262_144, 4096, 4),
    (7, 4096, 4096, 8),
    (1, 12_340, 4096, 1),
    (0, 4096, 4096, 4),
];

#[test]
fn fir_f32_31_taps() {
    let Some(ctx) = common::context_or_skip("fir_f32_31_taps") else {
        return;
    };
    let h = taps(31);
    for (n, in_ring, out_ring, in_flight) in CASES {
        ctx.set_in_flight(in_flight);
        let x = signal(n);
        let want = host_f32(&h, &x);
        let fir = Fir::<f32>::new(&ctx, &h).unwrap();
        let (got, done) = run_unary_rings(fir, x, in_ring, out_ring, Tpb::new());
        let what = format!(
            "31-tap f32 FIR, {n} items, rings {in_ring}/{out_ring} B, {in_flight} in flight"
        );
        assert_close(&what, &got, &want);
        assert_transfers(&done, 2, n);
    }
}

#[test]
fn fir_complex_64_taps() {
    let Some(ctx) = common::context_or_skip("fir_complex_64_taps") else {
        return;
    };
    let h = taps(64);
    for (n, in_ring, out_ring, in_flight) in CASES {
        ctx.set_in_flight(in_flight);
        let x = csignal(n);
        let want = host_c32(&h, &x);
        let fir = Fir::<Complex32>::new(&ctx, &h).unwrap();
        let (got, done) = run_unary_rings(fir, x, in_ring, out_ring, Tpb::new());
        let what = format!(
            "64-tap c32 FIR, {n} items, rings {in_ring}/{out_ring} B, {in_flight} in flight"
        );
        assert_close_c(&what, &got, &want);
        assert_transfers(&done, 2, n);
    }
}

#[test]
fn fir_f32_64_taps_and_complex_31_taps() {
    let Some(ctx) = common::context_or_skip("fir_f32_64_taps_and_complex_31_taps") else {
        return;
    };
    ctx.set_in_flight(8);
    let n = 65_537;
    let x = signal(n);
    let h = taps(64);
    let (got, _) = run_unary_rings(
        Fir::<f32>::new(&ctx, &h).unwrap(),
        x.clone(),
        4096,
        4096,
        Tpb::new(),
    );
    assert_close("64-tap f32 FIR", &got, &host_f32(&h, &x));
    let x = csignal(n);
    let h = taps(31);
    let (got, _) = run_unary_rings(
        Fir::<Complex32>::new(&ctx, &h).unwrap(),
        x.clone(),
        12_340,
        4096,
        Tpb::new(),
    );
    assert_close_c("31-tap c32 FIR", &got, &host_c32(&h, &x));
}

/// A 1-tap filter is a gain: one rounding on both sides, so bit for bit.
#[test]
fn fir_one_tap_is_exact() {
    let Some(ctx) = common::context_or_skip("fir_one_tap_is_exact") else {
        return;
    };
    let h = [-1.25f32];
    for (n, in_ring, out_ring, in_flight) in CASES {
        ctx.set_in_flight(in_flight);
        let x = signal(n);
        let want: Vec<f32> = x.iter().map(|v| v * h[0]).collect();
        assert_exact("host 1-tap FIR", &host_f32(&h, &x), &want);
        let fir = Fir::<f32>::new(&ctx, &h).unwrap();
        let (got, done) = run_unary_rings(fir, x, in_ring, out_ring, Tpb::new());
        assert_exact(&format!("1-tap FIR, {n} items"), &got, &want);
        assert_transfers(&done, 2, n);
    }
}

/// Two filters back to back on the device: the second reads its history
/// from a device ring the first writes, with no transfer between them.
/// (12 340-byte rings hold 1543 items; one copy in flight.)
#[test]
fn two_firs_in_a_row() {
    let Some(ctx) = common::context_or_skip("two_firs_in_a_row") else {
        return;
    };
    let (h1, h2) = (taps(31), taps(17));
    let (n, ring) = (20_011, 12_340);
    let x = csignal(n);
    let want = host_c32(&h2, &host_c32(&h1, &x));
    ctx.set_in_flight(1);
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(ring);
    let src = fg.add(VectorSource::new(x));
    let a = fg.add(Fir::<Complex32>::new(&ctx, &h1).unwrap());
    let b = fg.add(Fir::<Complex32>::new(&ctx, &h2).unwrap());
    let snk = fg.add(VectorSink::<Complex32>::new());
    fg.connect_with_buffer(src, "out", a, "in", ring).unwrap();
    fg.connect_with_buffer(a, "out", b, "in", ring).unwrap();
    fg.connect_with_buffer(b, "out", snk, "in", ring).unwrap();
    let done = fg.run_bounded(Tpb::new()).unwrap();
    let got = done.block::<VectorSink<Complex32>>(snk).unwrap().items();
    assert_close_c("31- then 17-tap FIR", got, &want);
    assert_transfers(&done, 2, n);
}
