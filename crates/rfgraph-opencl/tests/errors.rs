//! OpenCL failures a user can cause come back as errors, never panics or
//! hangs: a kernel source that does not compile (`OclError::Build`, with
//! the compiler's log), a kernel name missing from its program
//! (`OclError::NoKernel`), a device selection that matches nothing
//! (`OclError::NoDevice`), an FIR whose input ring cannot hold its history
//! (the run fails in `init`, naming the block), and a user kernel whose
//! arguments do not match its declaration (the run stops with an error
//! naming the block, on every scheduler).

mod common;
use common::RunBounded;

use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph::{Flowgraph, RunError};
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_opencl::{DeviceSelector, Elementwise, Fir, KernelArg, OclContext, OclError};

const BAD_SOURCE: &str = r#"
__kernel void broken(__global const float *in0, uint in0_off,
                     __global float *out, uint out_off) {
    size_t i = get_global_id(0);
    out[out_off + i] = in0[in0_off + i] * rfgraph_undeclared_gain;
}
"#;

const SCALE: &str = r#"
__kernel void scale(__global const float *in0, uint in0_off,
                    __global float *out, uint out_off, float k) {
    size_t i = get_global_id(0);
    out[out_off + i] = in0[in0_off + i] * k;
}
"#;

#[test]
fn bad_source_returns_the_build_log() {
    let Some(ctx) = common::context_or_skip("bad_source_returns_the_build_log") else {
        return;
    };
    // Twice: a failed build must not be cached as a good program.
    for _ in 0..2 {
        let result = Elementwise::<f32>::from_source(&ctx, BAD_SOURCE, "broken", 1, vec![]);
        let Err(err) = result else {
            panic!("a source with an undeclared identifier compiled");
        };
        let text = err.to_string();
        match err {
            OclError::Build { log, code } => {
                assert!(log.contains("rfgraph_undeclared_gain"), "build log: {log}");
                assert!(log.to_lowercase().contains("error"), "build log: {log}");
                assert!(!code.is_empty());
                assert!(text.contains("build log") && text.contains(&log), "{text}");
            }
            other => panic!("expected OclError::Build, got {other:?}"),
        }
    }
    // The context still compiles good sources.
    Elementwise::<f32>::from_source(&ctx, SCALE, "scale", 1, vec![KernelArg::F32(2.0)]).unwrap();
}

#[test]
fn missing_kernel_name_is_no_kernel() {
    let Some(ctx) = common::context_or_skip("missing_kernel_name_is_no_kernel") else {
        return;
    };
    let result = Elementwise::<f32>::from_source(&ctx, SCALE, "no_such_kernel", 1, vec![]);
    match result {
        Err(OclError::NoKernel { name, .. }) => assert_eq!(name, "no_such_kernel"),
        Err(other) => panic!("expected OclError::NoKernel, got {other:?}"),
        Ok(_) => panic!("a missing kernel name was accepted"),
    }
}

#[test]
fn unmatched_device_selection_is_no_device() {
    let Some(ctx) = common::context_or_skip("unmatched_device_selection_is_no_device") else {
        return;
    };
    let err = OclContext::new(&DeviceSelector::by_name("rfgraph-no-such-device")).unwrap_err();
    let OclError::NoDevice { wanted, available } = &err else {
        panic!("expected OclError::NoDevice, got {err:?}");
    };
    assert!(wanted.contains("rfgraph-no-such-device"), "{err}");
    assert!(available.contains(&ctx.device().name), "{err}");
    // The selector that finds the default device by its own name works.
    let again = OclContext::new(&DeviceSelector::by_name(ctx.device().name.clone())).unwrap();
    assert_eq!(again.device().name, ctx.device().name);
}

#[test]
fn fir_ring_too_small_for_its_history_fails_init() {
    let Some(ctx) = common::context_or_skip("fir_ring_too_small_for_its_history_fails_init") else {
        return;
    };
    // 64 taps keep 63 items of history: the input ring must hold over 126.
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(common::signal(1000)));
    let fir = fg.add_named(
        "small_fir",
        Fir::<f32>::new(&ctx, &common::taps(64)).unwrap(),
    );
    let snk = fg.add(VectorSink::<f32>::new());
    fg.connect_with_buffer(src, "out", fir, "in", 126 * 4)
        .unwrap();
    fg.connect(fir, "out", snk, "in").unwrap();
    match fg.run_bounded(Tpb::new()) {
        Err(RunError::Init { block, cause }) => {
            assert_eq!(block, "small_fir");
            assert!(cause.contains("126 items"), "{cause}");
        }
        Err(other) => panic!("expected an init error, got {other}"),
        Ok(_) => panic!("a 64-tap FIR ran on a 126-item ring"),
    }
}

/// Runs `source → bad → gain → sink` where `bad` runs `scale` with `args`,
/// and returns the run's error.
fn run_with_bad_args(
    ctx: &OclContext,
    args: Vec<KernelArg>,
    scheduler: impl Scheduler,
) -> RunError {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(common::signal(100_003)));
    let bad = Elementwise::<f32>::from_source(ctx, SCALE, "scale", 1, args).unwrap();
    let bad = fg.add_named("bad_kernel", bad);
    let gain = fg.add(Elementwise::gain(ctx, 2.0f32).unwrap());
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, bad, gain, snk]).unwrap();
    match fg.run_bounded(scheduler) {
        Err(e) => e,
        Ok(_) => panic!("a kernel launched with wrong arguments ran"),
    }
}

fn assert_bad_kernel_failed(err: RunError, call: &str, scheduler: &str) {
    match &err {
        RunError::BlockFailed { block, cause } => {
            assert_eq!(block, "bad_kernel", "{scheduler}: {err}");
            assert!(cause.contains(call), "{scheduler}: {err}");
        }
        other => panic!("{scheduler}: expected bad_kernel to fail, got {other}"),
    }
}

#[test]
fn wrong_kernel_arguments_stop_the_run() {
    let Some(ctx) = common::context_or_skip("wrong_kernel_arguments_stop_the_run") else {
        return;
    };
    type MakeScheduler = fn() -> Box<dyn Scheduler>;
    let schedulers: [(&str, MakeScheduler); 4] = [
        ("tpb", || Box::new(Tpb::new())),
        ("single", || Box::new(Single::new())),
        ("pool", || Box::new(Pool::new())),
        ("chain", || Box::new(Chain::new())),
    ];
    for (name, scheduler) in schedulers {
        // `k` never set: the launch is refused.
        let err = run_with_bad_args(&ctx, vec![], scheduler());
        assert_bad_kernel_failed(err, "clEnqueueNDRangeKernel", name);
        // One argument too many.
        let args = vec![KernelArg::F32(1.0), KernelArg::F32(2.0)];
        let err = run_with_bad_args(&ctx, args, scheduler());
        assert_bad_kernel_failed(err, "clSetKernelArg", name);
        // A `float2` where the kernel takes a `float`.
        let args = vec![KernelArg::C32(num_complex::Complex32::new(1.0, 2.0))];
        let err = run_with_bad_args(&ctx, args, scheduler());
        assert_bad_kernel_failed(err, "clSetKernelArg", name);
    }
}

#[test]
fn an_fir_without_taps_is_an_error() {
    let Some(ctx) = common::context_or_skip("an_fir_without_taps_is_an_error") else {
        return;
    };
    match Fir::<f32>::new(&ctx, &[]) {
        Err(OclError::InvalidParameter { block, reason }) => {
            assert_eq!(block, "Fir");
            assert!(reason.contains("at least one tap"), "{reason}");
        }
        Err(other) => panic!("expected an invalid parameter, got {other}"),
        Ok(_) => panic!("an FIR without taps was accepted"),
    }
}
