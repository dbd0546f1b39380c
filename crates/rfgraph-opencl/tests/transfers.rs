//! Locality detection with real OpenCL ports: the flowgraph inserts a
//! host→device or device→host transfer exactly where ports of different
//! memory domains meet, never between device blocks of one context, one
//! shared transfer per boundary however many readers it feeds, and one per
//! context when two contexts take part. Transfers on a single path move
//! every item (`items_consumed`), and the data stays right.

mod common;
use common::RunBounded;

use common::{assert_close, assert_exact, assert_transfers, signal, taps, transfers, transfers_of};
use rfgraph::Flowgraph;
use rfgraph::scheduler::Tpb;
use rfgraph_blocks::{Copy, VectorSink, VectorSource};
use rfgraph_dsp::{Fff, Fir as HostFir};
use rfgraph_opencl::{Elementwise, Fir, OclContext};

fn host_fir(taps: &[f32], x: &[f32]) -> Vec<f32> {
    let mut y = vec![0.0; x.len()];
    HostFir::<Fff>::new(taps).unwrap().process(x, &mut y);
    y
}

/// Source → Copy (host) → gain → FIR → Copy (host) → sink: one transfer in,
/// one out, none between gain and FIR.
#[test]
fn mixed_graph_inserts_exactly_two_transfers() {
    let Some(ctx) = common::context_or_skip("mixed_graph_inserts_exactly_two_transfers") else {
        return;
    };
    let n = 30_011;
    let h = taps(31);
    let x = signal(n);
    let scaled: Vec<f32> = x.iter().map(|v| v * 2.0).collect();
    let want = host_fir(&h, &scaled);
    for in_flight in [1, 8] {
        ctx.set_in_flight(in_flight);
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(VectorSource::new(x.clone()));
        let copy_in = fg.add(Copy::<f32>::new());
        let gain = fg.add(Elementwise::gain(&ctx, 2.0f32).unwrap());
        let fir = fg.add(Fir::<f32>::new(&ctx, &h).unwrap());
        let copy_out = fg.add(Copy::<f32>::new());
        let snk = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, copy_in, gain, fir, copy_out, snk]).unwrap();
        let done = fg.run_bounded(Tpb::new()).unwrap();
        let got = done.block::<VectorSink<f32>>(snk).unwrap().items();
        assert_close(&format!("{in_flight} in flight"), got, &want);
        assert_eq!(done.stats().iter().filter(|s| s.transfer).count(), 2);
        assert_transfers(&done, 2, n);
        assert_eq!(transfers_of(&done, "ToDevice").len(), 1);
        assert_eq!(transfers_of(&done, "ToHost").len(), 1);
        // Six user blocks plus the two transfers, nothing else.
        assert_eq!(done.stats().len(), 8);
    }
}

/// gain on context A → gain on context B: A's data must come back to the
/// host and go out to B, so host→A, A→host, host→B, B→host.
#[test]
fn two_contexts_in_a_chain_need_four_transfers() {
    let Some(a) = common::context_or_skip("two_contexts_in_a_chain_need_four_transfers") else {
        return;
    };
    let b = OclContext::new(&rfgraph_opencl::DeviceSelector::default()).unwrap();
    assert_ne!(a.domain(), b.domain());
    let n = 30_011;
    let x = signal(n);
    let want: Vec<f32> = x.iter().map(|v| v * 3.0 * -0.5).collect();
    for in_flight in [1, 8] {
        a.set_in_flight(in_flight);
        b.set_in_flight(9 - in_flight);
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(12_340);
        let src = fg.add(VectorSource::new(x.clone()));
        let ga = fg.add(Elementwise::gain(&a, 3.0f32).unwrap());
        let gb = fg.add(Elementwise::gain(&b, -0.5f32).unwrap());
        let snk = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, ga, gb, snk]).unwrap();
        let done = fg.run_bounded(Tpb::new()).unwrap();
        let got = done.block::<VectorSink<f32>>(snk).unwrap().items();
        assert_exact(
            &format!("gain on A then on B, {in_flight} in flight"),
            got,
            &want,
        );
        assert_transfers(&done, 4, n);
        assert_eq!(transfers_of(&done, "ToDevice").len(), 2);
        assert_eq!(transfers_of(&done, "ToHost").len(), 2);
    }
}

/// A device gain feeding a device FIR and a host sink: the FIR reads the
/// gain's device ring directly; the host sink gets one device→host
/// transfer. The FIR's output needs another.
#[test]
fn device_fan_out_to_device_and_host() {
    let Some(ctx) = common::context_or_skip("device_fan_out_to_device_and_host") else {
        return;
    };
    let n = 30_011;
    let h = taps(64);
    let x = signal(n);
    let scaled: Vec<f32> = x.iter().map(|v| v * -1.5).collect();
    let filtered = host_fir(&h, &scaled);
    for (ring, in_flight) in [(4096, 8), (12_340, 1)] {
        ctx.set_in_flight(in_flight);
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(ring);
        let src = fg.add(VectorSource::new(x.clone()));
        let gain = fg.add(Elementwise::gain(&ctx, -1.5f32).unwrap());
        let fir = fg.add(Fir::<f32>::new(&ctx, &h).unwrap());
        let raw = fg.add(VectorSink::<f32>::new());
        let out = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", gain, "in").unwrap();
        fg.connect(gain, "out", fir, "in").unwrap();
        fg.connect(gain, "out", raw, "in").unwrap();
        fg.connect(fir, "out", out, "in").unwrap();
        let done = fg.run_bounded(Tpb::new()).unwrap();
        let what = format!("{ring}-byte rings, {in_flight} in flight");
        let got_raw = done.block::<VectorSink<f32>>(raw).unwrap().items();
        assert_exact(&format!("gain branch, {what}"), got_raw, &scaled);
        let got = done.block::<VectorSink<f32>>(out).unwrap().items();
        assert_close(&format!("FIR branch, {what}"), got, &filtered);
        assert_transfers(&done, 3, n);
        assert_eq!(transfers_of(&done, "ToDevice").len(), 1);
        assert_eq!(transfers_of(&done, "ToHost").len(), 2);
    }
}

/// A host source feeding two device blocks of one context and a host sink:
/// one host→device transfer, shared by both device readers.
#[test]
fn host_fan_out_shares_one_transfer_per_context() {
    let Some(ctx) = common::context_or_skip("host_fan_out_shares_one_transfer_per_context") else {
        return;
    };
    let n = 30_011;
    let x = signal(n);
    let want: Vec<f32> = x.iter().map(|v| v * 0.25 + v * -4.0).collect();
    ctx.set_in_flight(8);
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(x.clone()));
    let g1 = fg.add(Elementwise::gain(&ctx, 0.25f32).unwrap());
    let g2 = fg.add(Elementwise::gain(&ctx, -4.0f32).unwrap());
    let add = fg.add(Elementwise::<f32>::add(&ctx).unwrap());
    let copy = fg.add(VectorSink::<f32>::new());
    let snk = fg.add(VectorSink::<f32>::new());
    fg.connect(src, "out", g1, "in").unwrap();
    fg.connect(src, "out", g2, "in").unwrap();
    fg.connect(src, "out", copy, "in").unwrap();
    fg.connect(g1, "out", add, "in0").unwrap();
    fg.connect(g2, "out", add, "in1").unwrap();
    fg.connect(add, "out", snk, "in").unwrap();
    let done = fg.run_bounded(Tpb::new()).unwrap();
    assert_exact(
        "x/4 + (-4x)",
        done.block::<VectorSink<f32>>(snk).unwrap().items(),
        &want,
    );
    assert_exact(
        "host branch",
        done.block::<VectorSink<f32>>(copy).unwrap().items(),
        &x,
    );
    assert_transfers(&done, 2, n);
}

/// The same source feeding device blocks on two contexts: one host→device
/// transfer per context, and each context's result comes back on its own.
#[test]
fn host_fan_out_to_two_contexts() {
    let Some(a) = common::context_or_skip("host_fan_out_to_two_contexts") else {
        return;
    };
    let b = OclContext::any().unwrap();
    let n = 30_011;
    let x = signal(n);
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(x.clone()));
    let ga = fg.add(Elementwise::gain(&a, 2.0f32).unwrap());
    let gb = fg.add(Elementwise::gain(&b, -3.0f32).unwrap());
    let sa = fg.add(VectorSink::<f32>::new());
    let sb = fg.add(VectorSink::<f32>::new());
    fg.connect(src, "out", ga, "in").unwrap();
    fg.connect(src, "out", gb, "in").unwrap();
    fg.connect(ga, "out", sa, "in").unwrap();
    fg.connect(gb, "out", sb, "in").unwrap();
    let done = fg.run_bounded(Tpb::new()).unwrap();
    let want_a: Vec<f32> = x.iter().map(|v| v * 2.0).collect();
    let want_b: Vec<f32> = x.iter().map(|v| v * -3.0).collect();
    assert_exact(
        "context A",
        done.block::<VectorSink<f32>>(sa).unwrap().items(),
        &want_a,
    );
    assert_exact(
        "context B",
        done.block::<VectorSink<f32>>(sb).unwrap().items(),
        &want_b,
    );
    assert_transfers(&done, 4, n);
    let names: Vec<String> = transfers(&done).into_iter().map(|s| s.block).collect();
    assert_eq!(transfers_of(&done, "ToDevice").len(), 2, "{names:?}");
}

/// Blocks built on `OclContext::shared` for the same device share one
/// context, so a chain of them stays on the device.
#[test]
fn shared_contexts_are_one_domain() {
    if common::context_or_skip("shared_contexts_are_one_domain").is_none() {
        return;
    }
    let selector = rfgraph_opencl::DeviceSelector::any();
    let a = OclContext::shared(&selector).unwrap();
    let b = OclContext::shared(&selector).unwrap();
    assert!(a.same_context(&b) && a.domain() == b.domain());
    let n = 5_003;
    let x = signal(n);
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(x.clone()));
    let g1 = fg.add(Elementwise::gain(&a, 2.0f32).unwrap());
    let g2 = fg.add(Elementwise::gain(&b, 0.5f32).unwrap());
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, g1, g2, snk]).unwrap();
    let done = fg.run_bounded(Tpb::new()).unwrap();
    assert_exact(
        "shared",
        done.block::<VectorSink<f32>>(snk).unwrap().items(),
        &x,
    );
    assert_transfers(&done, 2, n);
}

/// Device→host copies land in host ring memory the transfer holds as raw
/// pointers while they are in flight: with eight copies in flight on
/// rings far smaller than the stream, the host ring is written by several
/// copies at once, lap after lap, while the transfer's later calls take
/// new free space next to them. Every item arrives, in order, on every
/// ring size, and the transfer counts each item once.
#[test]
fn device_to_host_with_many_copies_in_flight() {
    let Some(ctx) = common::context_or_skip("device_to_host_with_many_copies_in_flight") else {
        return;
    };
    let n = 200_003;
    let x = signal(n);
    let want: Vec<f32> = x.iter().map(|v| v * 4.0).collect();
    for (ring, in_flight) in [(4096, 8), (12_340, 8), (4096, 3)] {
        ctx.set_in_flight(in_flight);
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(ring);
        let src = fg.add(VectorSource::new(x.clone()));
        let gain = fg.add(Elementwise::gain(&ctx, 4.0f32).unwrap());
        let snk = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, gain, snk]).unwrap();
        let done = fg.run_bounded(Tpb::new()).unwrap();
        let what = format!("{ring}-byte rings, {in_flight} in flight");
        assert_exact(
            &what,
            done.block::<VectorSink<f32>>(snk).unwrap().items(),
            &want,
        );
        assert_transfers(&done, 2, n);
        assert_eq!(transfers_of(&done, "ToHost").len(), 1, "{what}");
    }
}
