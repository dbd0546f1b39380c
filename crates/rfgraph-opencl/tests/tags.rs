//! Stream tags cross the device with their items: through the transfers
//! alone, through a device kernel, and through the FIR (whose inputs stay
//! as history long after their outputs are published). Device blocks
//! publish items when a command is enqueued, before their inputs are
//! consumed, so tags must go out with the outputs, not with the inputs'
//! consumption, or readers have moved past them by then.

mod common;
use common::RunBounded;

use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph::{BlockId, Flowgraph, Tag};
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_opencl::{Elementwise, Fir, OclContext, ToDevice, ToHost};

fn schedulers() -> Vec<(&'static str, Box<dyn Scheduler>)> {
    vec![
        ("tpb", Box::new(Tpb::new())),
        ("single", Box::new(Single::new())),
        ("pool", Box::new(Pool::new().workers(2))),
        ("chain", Box::new(Chain::new().workers(2))),
    ]
}

/// Runs `n` tagged items from a source through `middle` (its first and
/// last block) to a sink, on every scheduler and with 1 and 4 copies in
/// flight; every tag must arrive at its item's index with its value.
fn tags_survive(test: &str, build: impl Fn(&OclContext, &mut Flowgraph) -> (BlockId, BlockId)) {
    let Some(ctx) = common::context_or_skip(test) else {
        return;
    };
    let n = 20_011;
    let tags: Vec<Tag> = (0..n as u64)
        .step_by(997)
        .map(|i| Tag::new(i, "k", i))
        .collect();
    for in_flight in [1, 4] {
        for (name, scheduler) in schedulers() {
            ctx.set_in_flight(in_flight);
            let mut fg = Flowgraph::new();
            fg.set_buffer_bytes(4096);
            let src = fg.add(VectorSource::new(common::signal(n)).with_tags(tags.clone()));
            let (first, last) = build(&ctx, &mut fg);
            let sink = fg.add(VectorSink::<f32>::new());
            fg.chain(&[src, first]).unwrap();
            fg.chain(&[last, sink]).unwrap();
            let done = fg.run_bounded(scheduler).unwrap();
            let got = done.block::<VectorSink<f32>>(sink).unwrap();
            assert_eq!(got.items().len(), n, "{test} {name}");
            assert_eq!(
                got.tags(),
                &tags[..],
                "{test}, {name}, {in_flight} in flight: tags lost or moved"
            );
        }
    }
}

#[test]
fn tags_cross_the_transfers() {
    tags_survive("tags_cross_the_transfers", |ctx, fg| {
        let to = fg.add(ToDevice::<f32>::new(ctx));
        let back = fg.add(ToHost::<f32>::new(ctx));
        fg.chain(&[to, back]).unwrap();
        (to, back)
    });
}

#[test]
fn tags_cross_a_device_kernel() {
    tags_survive("tags_cross_a_device_kernel", |ctx, fg| {
        let gain = fg.add(Elementwise::gain(ctx, 2.0f32).unwrap());
        (gain, gain)
    });
}

#[test]
fn tags_cross_the_device_fir() {
    tags_survive("tags_cross_the_device_fir", |ctx, fg| {
        let fir = fg.add(Fir::<f32>::new(ctx, &common::taps(64)).unwrap());
        (fir, fir)
    });
}
