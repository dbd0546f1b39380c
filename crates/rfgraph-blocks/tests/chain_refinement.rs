//! `chain` refines its first (equal-cost) partition from measured time in
//! `work`: two expensive blocks that the first partition put on one core
//! end up on different cores, blocks migrate between workers mid-run, and
//! every item still arrives exactly once, in order.

mod common;

use common::RunBounded;
use rfgraph::scheduler::chain::Chain;
use rfgraph::scheduler::refine::Refine;
use rfgraph::{Flowgraph, Map};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::time::{Duration, Instant};

/// `v * factor`, after spinning `spin` per item: a block whose cost does
/// not depend on the build profile.
fn slow_scale(factor: u32, spin: Duration) -> impl FnMut(u32) -> u32 + Send + 'static {
    move |v: u32| {
        let start = Instant::now();
        while start.elapsed() < spin {
            std::hint::spin_loop();
        }
        v.wrapping_mul(factor)
    }
}

/// Blocks (flowgraph indices) per core.
type Partition = Vec<Vec<usize>>;

#[test]
fn expensive_neighbours_are_split_and_every_item_arrives() {
    // The refinement acts on injected costs, not on the time it measures,
    // so its decision is the same on any machine: the two "heavy" blocks,
    // which the first (equal-cost) partition puts on one core, go to
    // different cores mid-run.
    let n = 60_000u32;
    let laps = 10_000u64;
    let mut fg = Flowgraph::new();
    // Small rings: many calls per window, so blocks move mid-stream.
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new((0..n).collect::<Vec<u32>>()).repeat(laps));
    // Source and both heavy blocks come first in topological order, so an
    // equal-cost split keeps them on one core.
    let heavy_a = fg.add(Map::new(|v: u32| v.wrapping_mul(3)));
    let heavy_b = fg.add(Map::new(|v: u32| v.wrapping_mul(5)));
    let mut chain = vec![src, heavy_a, heavy_b];
    for k in 0..6u32 {
        chain.push(fg.add(Map::new(move |v: u32| v.wrapping_add(k))));
    }
    let sink = fg.add(VectorSink::<u32>::new());
    chain.push(sink);
    fg.chain(&chain).unwrap();
    let scheduler = Chain::new()
        .workers(2)
        .refine(Refine {
            warmup: Duration::from_millis(5),
            window: Duration::from_millis(20),
            min_gain: 0.1,
            ..Refine::default()
        })
        .refine_with_costs([(heavy_a.0, 1000.0), (heavy_b.0, 1000.0)]);
    let running = fg.start(scheduler.clone()).expect("start");
    // Run until the refined partition is in place and the blocks have
    // moved on with it for a while, then stop.
    let deadline = Instant::now() + common::WATCHDOG;
    while scheduler.partitions().len() < 2 {
        assert!(Instant::now() < deadline, "the partition was never refined");
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(50));
    running.handle().stop();
    let done = running.wait_timeout(common::WATCHDOG).expect("run");

    let partitions: Vec<Partition> = scheduler.partitions();
    let core_of = |p: &Partition, b: usize| p.iter().position(|c| c.contains(&b)).unwrap();
    let (first, refined) = (&partitions[0], &partitions[1]);
    assert_eq!(
        core_of(first, heavy_a.0),
        core_of(first, heavy_b.0),
        "{first:?}"
    );
    assert_ne!(
        core_of(refined, heavy_a.0),
        core_of(refined, heavy_b.0),
        "{refined:?}"
    );
    // Items before and after the move: none lost, doubled or reordered.
    let got = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert!(got.len() > n as usize, "too few items to span the move");
    let expected = (0..n).cycle().map(|v| v.wrapping_mul(15).wrapping_add(15));
    assert!(
        got.iter().copied().eq(expected.take(got.len())),
        "items lost, doubled or reordered"
    );
}

#[test]
fn static_partition_keeps_the_first_split() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..20_000u32).collect::<Vec<_>>()));
    let heavy = fg.add(Map::new(slow_scale(2, Duration::from_nanos(400))));
    let light = fg.add(Map::new(|v: u32| v + 1));
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, heavy, light, sink]).unwrap();
    let scheduler = Chain::new().workers(2).static_partition();
    let done = fg.run_bounded(scheduler.clone()).expect("run");
    let got = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert!(got.iter().enumerate().all(|(i, &v)| v == 2 * i as u32 + 1));
    assert_eq!(scheduler.partitions().len(), 1);
}
