//! One device chain (host source → gain → 31-tap FIR → saxpy → host sink)
//! on every scheduler: thread-per-block, single, pool, chain, and their
//! one-worker variants. Transfers wait for their OpenCL events through
//! completion callbacks that wake the block, so each scheduler's wake-up
//! path must deliver every item (a lost wake-up hangs the run). Small rings
//! and one copy in flight make the transfers wait often; eight in flight
//! keep several callbacks pending at once.

mod common;
use common::RunBounded;

use common::{assert_close, assert_transfers, signal, taps};
use rfgraph::Flowgraph;
use rfgraph::scheduler::Scheduler;
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_dsp::{Fff, Fir as HostFir};
use rfgraph_opencl::{Elementwise, Fir};

fn device_chain(name: &str, scheduler: impl Fn() -> Box<dyn Scheduler>) {
    let Some(ctx) = common::context_or_skip(name) else {
        return;
    };
    let n = 20_011;
    let h = taps(31);
    let (k, a, b) = (0.5f32, -1.5f32, 0.25f32);
    let x = signal(n);
    let scaled: Vec<f32> = x.iter().map(|v| v * k).collect();
    let mut filtered = vec![0.0; n];
    HostFir::<Fff>::new(&h)
        .unwrap()
        .process(&scaled, &mut filtered);
    let want: Vec<f32> = filtered.iter().map(|y| a * y + b).collect();
    for (ring, in_flight) in [(4096, 1), (12_340, 8)] {
        ctx.set_in_flight(in_flight);
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(ring);
        let src = fg.add(VectorSource::new(x.clone()));
        let gain = fg.add(Elementwise::gain(&ctx, k).unwrap());
        let fir = fg.add(Fir::<f32>::new(&ctx, &h).unwrap());
        let saxpy = fg.add(Elementwise::saxpy(&ctx, a, b).unwrap());
        let snk = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, gain, fir, saxpy, snk]).unwrap();
        let done = fg.run_bounded(scheduler()).unwrap();
        let got = done.block::<VectorSink<f32>>(snk).unwrap().items();
        let what = format!("{name}: {ring}-byte rings, {in_flight} in flight");
        assert_close(&what, got, &want);
        assert_transfers(&done, 2, n);
    }
}

macro_rules! on_every_scheduler {
    ($($name:ident => $scheduler:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                use rfgraph::scheduler::*;
                device_chain(stringify!($name), || Box::new($scheduler));
            }
        )*
    };
}

on_every_scheduler! {
    tpb => Tpb::new(),
    single => Single::new(),
    pool => Pool::new(),
    pool_one_worker => Pool::new().workers(1),
    chain => Chain::new(),
    chain_one_core => Chain::new().workers(1),
}

/// An adder whose shorter input ends first finishes while the transfer
/// feeding its longer input still has copies in flight; that transfer,
/// its reader gone, is finished too. Its copies still read the host items,
/// so the runtime must let them complete (`Block::finishing`) before it
/// hands those items back to the source, which would overwrite them: the
/// adder's last chunk then held items from a later lap of the host ring,
/// in a few runs in a hundred on `pool` and `chain`.
#[test]
fn a_transfer_finished_early_does_not_release_items_its_copies_read() {
    use rfgraph::scheduler::{Chain, Pool};
    let Some(ctx) = common::context_or_skip("early_finish") else {
        return;
    };
    let a: Vec<f32> = (0..30_001).map(|i| i as f32).collect();
    let b = vec![0.5f32; 12_345];
    for run in 0..120 {
        let scheduler: Box<dyn Scheduler> = if run % 2 == 0 {
            Box::new(Pool::new().workers(2))
        } else {
            Box::new(Chain::new().workers(2))
        };
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let sa = fg.add(VectorSource::new(a.clone()));
        let sb = fg.add(VectorSource::new(b.clone()));
        let add = fg.add(Elementwise::<f32>::add(&ctx).unwrap());
        let snk = fg.add(VectorSink::<f32>::new());
        fg.connect(sa, "out", add, "in0").unwrap();
        fg.connect(sb, "out", add, "in1").unwrap();
        fg.connect(add, "out", snk, "in").unwrap();
        let done = fg.run_bounded(scheduler).unwrap();
        let got = done.block::<VectorSink<f32>>(snk).unwrap().items();
        assert_eq!(got.len(), b.len(), "run {run}");
        for (i, &v) in got.iter().enumerate() {
            assert_eq!(v, i as f32 + 0.5, "run {run}: item {i}");
        }
    }
}
