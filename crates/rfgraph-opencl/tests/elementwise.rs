//! The built-in element-wise kernels (gain, saxpy, add, multiply,
//! multiply_conjugate on `f32` and `Complex32`) give the CPU reference's
//! result, for odd stream lengths, rings so small the data wraps them many
//! times, and one or many transfers in flight. `f32` gain, add and multiply
//! are the same IEEE operation on both sides and must match bit for bit;
//! kernels the OpenCL compiler may contract into fused multiply-adds are
//! compared with a tolerance. Every run must insert exactly one host→device
//! transfer per input and one device→host transfer; the transfers of
//! kernels move every item (see `assert_binary_transfers` for how a
//! two-input kernel's transfers get there).

mod common;

use common::{
    SIZES, assert_close, assert_close_c, assert_exact, assert_transfers, csignal, run_binary,
    run_unary, signal, transfers, transfers_of,
};
use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph_opencl::{DeviceItem, Elementwise, OclContext};

/// `(items, ring bytes of every edge, transfers in flight)`. 4096 bytes are
/// 1024 `f32` or 512 `Complex32`; 12 340 bytes are not a power of two.
fn cases() -> [(usize, usize, usize); 4] {
    [
        (SIZES[0], 4096, 8),
        (SIZES[1], 12_340, 1),
        (SIZES[2], 4096, 8),
        (SIZES[3], 12_340, 1),
    ]
}

type Compare<T> = fn(&str, &[T], &[T]);

/// `source → make() → sink` against `reference` applied item by item.
fn check_unary<T: DeviceItem>(
    ctx: &OclContext,
    what: &str,
    make: impl Fn() -> Elementwise<T>,
    input: fn(usize) -> Vec<T>,
    reference: impl Fn(T) -> T,
    compare: Compare<T>,
) {
    for (n, ring, in_flight) in cases() {
        ctx.set_in_flight(in_flight);
        let x = input(n);
        let want: Vec<T> = x.iter().map(|&v| reference(v)).collect();
        let (got, done) = run_unary(make(), x, ring, Tpb::new());
        let label = format!("{what}, {n} items, {ring}-byte rings, {in_flight} in flight");
        compare(&label, &got, &want);
        assert_transfers(&done, 2, n);
    }
}

/// Two sources into `in0`/`in1` of `make()` against `reference`.
fn check_binary<T: DeviceItem>(
    ctx: &OclContext,
    what: &str,
    make: impl Fn() -> Elementwise<T>,
    input: fn(usize) -> Vec<T>,
    reference: impl Fn(T, T) -> T,
    compare: Compare<T>,
) {
    for (n, ring, in_flight) in cases() {
        ctx.set_in_flight(in_flight);
        let a = input(n);
        let b: Vec<T> = input(n).into_iter().rev().collect();
        let want: Vec<T> = a.iter().zip(&b).map(|(&a, &b)| reference(a, b)).collect();
        let (got, done) = run_binary(make(), a, b, ring, Tpb::new());
        let label = format!("{what}, {n} items, {ring}-byte rings, {in_flight} in flight");
        compare(&label, &got, &want);
        assert_binary_transfers(&done, n);
    }
}

/// One transfer per input and one back, each of which moved every item.
/// The host→device transfers are the delicate ones: once the kernel block
/// has consumed one input entirely it finishes, which detaches it from the
/// other input's transfer, and the runtime ends that transfer while its
/// last copies (already enqueued, already read by kernels on the in-order
/// queue) are in flight. Its `finishing` waits for them and counts their
/// host items as consumed; uncounted, `items_consumed` fell short of `n`.
fn assert_binary_transfers(done: &rfgraph::Finished, n: usize) {
    assert_eq!(transfers(done).len(), 3, "{:#?}", transfers(done));
    let to_host = transfers_of(done, "ToHost");
    assert_eq!(to_host.len(), 1, "{to_host:#?}");
    assert_eq!(to_host[0].items_consumed, n as u64);
    assert_eq!(to_host[0].items_produced, n as u64);
    let to_device = transfers_of(done, "ToDevice");
    assert_eq!(to_device.len(), 2, "{to_device:#?}");
    for t in &to_device {
        assert_eq!(t.items_produced, n as u64, "{t:#?}");
        assert_eq!(t.items_consumed, n as u64, "{t:#?}");
    }
}

/// Complex results whose parts are single IEEE additions: bit for bit.
fn assert_exact_c(what: &str, got: &[Complex32], want: &[Complex32]) {
    let parts = |v: &[Complex32]| -> Vec<f32> { v.iter().flat_map(|c| [c.re, c.im]).collect() };
    assert_exact(what, &parts(got), &parts(want));
}

#[test]
fn gain_f32_is_exact() {
    let Some(ctx) = common::context_or_skip("gain_f32_is_exact") else {
        return;
    };
    let k = -0.75f32;
    let make = || Elementwise::gain(&ctx, k).unwrap();
    check_unary(&ctx, "gain f32", make, signal, |x| x * k, assert_exact);
}

#[test]
fn gain_complex() {
    let Some(ctx) = common::context_or_skip("gain_complex") else {
        return;
    };
    let k = Complex32::new(0.5, -1.5);
    let make = || Elementwise::gain(&ctx, k).unwrap();
    check_unary(&ctx, "gain c32", make, csignal, |x| x * k, assert_close_c);
}

#[test]
fn saxpy_f32() {
    let Some(ctx) = common::context_or_skip("saxpy_f32") else {
        return;
    };
    let (a, b) = (1.5f32, -0.25f32);
    let make = || Elementwise::saxpy(&ctx, a, b).unwrap();
    check_unary(&ctx, "saxpy f32", make, signal, |x| a * x + b, assert_close);
}

#[test]
fn saxpy_complex() {
    let Some(ctx) = common::context_or_skip("saxpy_complex") else {
        return;
    };
    let (a, b) = (Complex32::new(0.5, 2.0), Complex32::new(-1.0, 0.25));
    let make = || Elementwise::saxpy(&ctx, a, b).unwrap();
    check_unary(
        &ctx,
        "saxpy c32",
        make,
        csignal,
        |x| a * x + b,
        assert_close_c,
    );
}

#[test]
fn add_f32_is_exact() {
    let Some(ctx) = common::context_or_skip("add_f32_is_exact") else {
        return;
    };
    let make = || Elementwise::add(&ctx).unwrap();
    check_binary(&ctx, "add f32", make, signal, |a, b| a + b, assert_exact);
}

#[test]
fn add_complex_is_exact() {
    let Some(ctx) = common::context_or_skip("add_complex_is_exact") else {
        return;
    };
    let make = || Elementwise::add(&ctx).unwrap();
    check_binary(&ctx, "add c32", make, csignal, |a, b| a + b, assert_exact_c);
}

#[test]
fn multiply_f32_is_exact() {
    let Some(ctx) = common::context_or_skip("multiply_f32_is_exact") else {
        return;
    };
    let make = || Elementwise::multiply(&ctx).unwrap();
    check_binary(
        &ctx,
        "multiply f32",
        make,
        signal,
        |a, b| a * b,
        assert_exact,
    );
}

#[test]
fn multiply_complex() {
    let Some(ctx) = common::context_or_skip("multiply_complex") else {
        return;
    };
    let make = || Elementwise::multiply(&ctx).unwrap();
    check_binary(
        &ctx,
        "multiply c32",
        make,
        csignal,
        |a, b| a * b,
        assert_close_c,
    );
}

#[test]
fn multiply_conjugate_f32_is_exact() {
    let Some(ctx) = common::context_or_skip("multiply_conjugate_f32_is_exact") else {
        return;
    };
    let make = || Elementwise::multiply_conjugate(&ctx).unwrap();
    check_binary(
        &ctx,
        "multiply_conjugate f32",
        make,
        signal,
        |a, b| a * b,
        assert_exact,
    );
}

#[test]
fn multiply_conjugate_complex() {
    let Some(ctx) = common::context_or_skip("multiply_conjugate_complex") else {
        return;
    };
    let make = || Elementwise::multiply_conjugate(&ctx).unwrap();
    let reference = |a: Complex32, b: Complex32| a * b.conj();
    check_binary(
        &ctx,
        "multiply_conjugate c32",
        make,
        csignal,
        reference,
        assert_close_c,
    );
}
