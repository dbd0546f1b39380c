//! User kernels through `Elementwise::from_source`, written to the calling
//! convention documented in `kernels/elementwise.rs` (per input a buffer and
//! an offset, then the output buffer and offset, then the scalar arguments
//! in order), give the CPU reference's result: one input with two `float`
//! scalars, two inputs with `int`/`uint` scalars, a `float2` stream with a
//! `float2` scalar, three inputs, and a user kernel chained with a built-in
//! one on the device. Small rings, odd lengths, 1 and 8 transfers in flight.

mod common;
use common::RunBounded;

use common::{
    SIZES, assert_close, assert_close_c, assert_exact, assert_transfers, csignal, run_binary,
    run_unary, signal, transfers_of,
};
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::scheduler::Tpb;
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_opencl::{Elementwise, KernelArg};

const QUADRATIC: &str = r#"
__kernel void quadratic(__global const float *in0, uint in0_off,
                        __global float *out, uint out_off,
                        float a, float b) {
    size_t i = get_global_id(0);
    float x = in0[in0_off + i];
    out[out_off + i] = a * x * x + b;
}
"#;

const WEIGHTED_DIFFERENCE: &str = r#"
__kernel void weighted_difference(__global const float *in0, uint in0_off,
                                  __global const float *in1, uint in1_off,
                                  __global float *out, uint out_off,
                                  int k, uint m) {
    size_t i = get_global_id(0);
    out[out_off + i] = in0[in0_off + i] * (float)k - in1[in1_off + i] * (float)m;
}
"#;

const SCALE_SHIFT: &str = r#"
__kernel void scale_shift(__global const float2 *in0, uint in0_off,
                          __global float2 *out, uint out_off,
                          float s, float2 c) {
    size_t i = get_global_id(0);
    out[out_off + i] = in0[in0_off + i] * s + c;
}
"#;

const SUM3: &str = r#"
__kernel void sum3(__global const float *in0, uint in0_off,
                   __global const float *in1, uint in1_off,
                   __global const float *in2, uint in2_off,
                   __global float *out, uint out_off) {
    size_t i = get_global_id(0);
    out[out_off + i] = in0[in0_off + i] + in1[in1_off + i] + in2[in2_off + i];
}
"#;

/// `(items, ring bytes of every edge, transfers in flight)`.
fn cases() -> [(usize, usize, usize); 4] {
    [
        (SIZES[0], 4096, 8),
        (SIZES[1], 12_340, 1),
        (SIZES[2], 4096, 1),
        (SIZES[3], 4096, 8),
    ]
}

#[test]
fn one_input_two_float_scalars() {
    let Some(ctx) = common::context_or_skip("one_input_two_float_scalars") else {
        return;
    };
    let (a, b) = (0.375f32, -2.5f32);
    for (n, ring, in_flight) in cases() {
        ctx.set_in_flight(in_flight);
        let x = signal(n);
        let want: Vec<f32> = x.iter().map(|&x| a * x * x + b).collect();
        let args = vec![KernelArg::F32(a), KernelArg::F32(b)];
        let block = Elementwise::<f32>::from_source(&ctx, QUADRATIC, "quadratic", 1, args).unwrap();
        let (got, done) = run_unary(block, x, ring, Tpb::new());
        assert_close(
            &format!("a*x*x+b, {n} items, {ring}-byte rings"),
            &got,
            &want,
        );
        assert_transfers(&done, 2, n);
    }
}

#[test]
fn two_inputs_int_and_uint_scalars() {
    let Some(ctx) = common::context_or_skip("two_inputs_int_and_uint_scalars") else {
        return;
    };
    let (k, m) = (-3i32, 2u32);
    for (n, ring, in_flight) in cases() {
        ctx.set_in_flight(in_flight);
        let a = signal(n);
        let b: Vec<f32> = csignal(n).iter().map(|c| c.im).collect();
        let want: Vec<f32> = a
            .iter()
            .zip(&b)
            .map(|(&a, &b)| a * k as f32 - b * m as f32)
            .collect();
        let args = vec![KernelArg::from(k), KernelArg::from(m)];
        let block = Elementwise::<f32>::from_source(
            &ctx,
            WEIGHTED_DIFFERENCE,
            "weighted_difference",
            2,
            args,
        )
        .unwrap();
        let (got, done) = run_binary(block, a, b, ring, Tpb::new());
        assert_close(
            &format!("in0*k - in1*m, {n} items, {ring}-byte rings"),
            &got,
            &want,
        );
        let to_host = transfers_of(&done, "ToHost");
        assert_eq!(to_host.len(), 1);
        assert_eq!(to_host[0].items_consumed, n as u64);
        assert_eq!(transfers_of(&done, "ToDevice").len(), 2);
    }
}

#[test]
fn complex_stream_with_float2_scalar() {
    let Some(ctx) = common::context_or_skip("complex_stream_with_float2_scalar") else {
        return;
    };
    let (s, c) = (-1.75f32, Complex32::new(0.5, -3.25));
    for (n, ring, in_flight) in cases() {
        ctx.set_in_flight(in_flight);
        let x = csignal(n);
        let want: Vec<Complex32> = x.iter().map(|&x| x * s + c).collect();
        let args = vec![KernelArg::from(s), KernelArg::from(c)];
        let block =
            Elementwise::<Complex32>::from_source(&ctx, SCALE_SHIFT, "scale_shift", 1, args)
                .unwrap();
        let (got, done) = run_unary(block, x, ring, Tpb::new());
        assert_close_c(&format!("x*s+c, {n} items, {ring}-byte rings"), &got, &want);
        assert_transfers(&done, 2, n);
    }
}

/// Three inputs (`in0`..`in2`) and a built-in gain after the user kernel on
/// the same context: no transfer between them. Every addition and the gain
/// by a power of two are exact roundings on both sides.
#[test]
fn three_inputs_then_builtin_gain() {
    let Some(ctx) = common::context_or_skip("three_inputs_then_builtin_gain") else {
        return;
    };
    for (n, ring, in_flight) in cases() {
        ctx.set_in_flight(in_flight);
        let a = signal(n);
        let b: Vec<f32> = a.iter().rev().copied().collect();
        let c: Vec<f32> = csignal(n).iter().map(|c| c.im).collect();
        let want: Vec<f32> = (0..n).map(|i| (a[i] + b[i] + c[i]) * 0.5).collect();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(ring);
        let sum = fg.add(Elementwise::<f32>::from_source(&ctx, SUM3, "sum3", 3, vec![]).unwrap());
        for (input, port) in [(a, "in0"), (b, "in1"), (c, "in2")] {
            let src = fg.add(VectorSource::new(input));
            fg.connect_with_buffer(src, "out", sum, port, ring).unwrap();
        }
        let half = fg.add(Elementwise::gain(&ctx, 0.5f32).unwrap());
        let snk = fg.add(VectorSink::<f32>::new());
        fg.connect_with_buffer(sum, "out", half, "in", ring)
            .unwrap();
        fg.connect_with_buffer(half, "out", snk, "in", ring)
            .unwrap();
        let done = fg.run_bounded(Tpb::new()).unwrap();
        let got = done.block::<VectorSink<f32>>(snk).unwrap().items();
        assert_exact(
            &format!("(in0+in1+in2)/2, {n} items, {ring}-byte rings"),
            got,
            &want,
        );
        assert_eq!(transfers_of(&done, "ToDevice").len(), 3);
        let to_host = transfers_of(&done, "ToHost");
        assert_eq!(to_host.len(), 1);
        assert_eq!(to_host[0].items_consumed, n as u64);
    }
}
