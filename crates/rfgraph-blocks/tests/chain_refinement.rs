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

/// One run of the refinement scenario. Every item must arrive, in order,
/// whatever the partitions; returns the first and the refined partition
/// (`None` if the run did not refine) and where the two heavy blocks are.
fn refine_heavy_neighbours() -> (Partition, Option<Partition>, (usize, usize)) {
    let n = 60_000u32;
    let input: Vec<u32> = (0..n).collect();
    let mut fg = Flowgraph::new();
    // Small rings: calls of about a millisecond, many per window.
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(input.clone()));
    // Source and both heavy blocks come first in topological order, so an
    // equal-cost split keeps them on one core.
    let heavy_a = fg.add(Map::new(slow_scale(3, Duration::from_micros(1))));
    let heavy_b = fg.add(Map::new(slow_scale(5, Duration::from_micros(1))));
    let mut chain = vec![src, heavy_a, heavy_b];
    for k in 0..6u32 {
        chain.push(fg.add(Map::new(move |v: u32| v.wrapping_add(k))));
    }
    let sink = fg.add(VectorSink::<u32>::new());
    chain.push(sink);
    fg.chain(&chain).unwrap();
    let scheduler = Chain::new().workers(2).refine(Refine {
        warmup: Duration::from_millis(5),
        window: Duration::from_millis(20),
        min_gain: 0.1,
    });
    let done = fg.run_bounded(scheduler.clone()).expect("run");

    let expected: Vec<u32> = input
        .iter()
        .map(|&v| v.wrapping_mul(15).wrapping_add(15))
        .collect();
    let got = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(got.len(), expected.len());
    assert!(got == &expected[..], "items lost, doubled or reordered");

    let mut partitions = scheduler.partitions().into_iter();
    let first = partitions.next().expect("a first partition");
    (first, partitions.next(), (heavy_a.0, heavy_b.0))
}

#[test]
fn expensive_neighbours_are_split_and_every_item_arrives() {
    let core_of = |p: &Partition, b: usize| p.iter().position(|c| c.contains(&b)).unwrap();
    // The refinement acts on sampled time in `work`, and a run this short
    // samples each block only a few times: on a shared VM one preempted
    // sample can mislead it (seen about once in a few hundred runs). Items
    // are checked on every attempt; the split must come in one of three.
    let mut seen = Vec::new();
    for _ in 0..3 {
        let (first, refined, (a, b)) = refine_heavy_neighbours();
        assert_eq!(core_of(&first, a), core_of(&first, b), "{first:?}");
        if let Some(refined) = refined {
            if core_of(&refined, a) != core_of(&refined, b) {
                return;
            }
            seen.push(refined);
        } else {
            seen.push(first);
        }
    }
    panic!("no attempt split the heavy blocks; partitions after refinement: {seen:?}");
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
