//! `chain` runs a run of stateless in-place blocks that its partition
//! cuts between cores data-parallel: every core takes whole chunks through
//! all of them. Items still arrive exactly once and in order, with their
//! tags, statistics count every item once, and an early-finishing reader
//! downstream ends the run.

use rfgraph::scheduler::chain::Chain;
use rfgraph::{BlockId, Flowgraph, Map, Pmt, StatelessMap, Tag};
use rfgraph_blocks::{Head, NullSource, VectorSink, VectorSource};

/// Source of `0..n` (tagged every 10 007 items) → `stages` × `x·3 + k`
/// → sink; returns the graph, the stage ids and the sink.
fn graph(n: u32, stages: u32, stateless: bool) -> (Flowgraph, Vec<BlockId>, BlockId) {
    let tags = (0..n as u64)
        .step_by(10_007)
        .map(|i| Tag::new(i, "test:index", Pmt::U64(i)))
        .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..n).collect::<Vec<u32>>()).with_tags(tags));
    let steps: Vec<BlockId> = (0..stages)
        .map(|k| {
            let f = move |x: u32| x.wrapping_mul(3).wrapping_add(k);
            if stateless {
                fg.add(StatelessMap::new(f))
            } else {
                fg.add(Map::new(f))
            }
        })
        .collect();
    let sink = fg.add(VectorSink::<u32>::new());
    let mut chain = vec![src];
    chain.extend(&steps);
    chain.push(sink);
    fg.chain(&chain).unwrap();
    (fg, steps, sink)
}

fn expected(n: u32, stages: u32) -> Vec<u32> {
    (0..n)
        .map(|mut x| {
            for k in 0..stages {
                x = x.wrapping_mul(3).wrapping_add(k);
            }
            x
        })
        .collect()
}

fn check(done: &rfgraph::Finished, sink: BlockId, n: u32, stages: u32) {
    let sink = done.block::<VectorSink<u32>>(sink).unwrap();
    assert!(
        sink.items() == &expected(n, stages)[..],
        "items lost, doubled or reordered"
    );
    let tag_indices: Vec<u64> = sink.tags().iter().map(|t| t.index).collect();
    let want: Vec<u64> = (0..n as u64).step_by(10_007).collect();
    assert_eq!(tag_indices, want);
    for t in sink.tags() {
        assert_eq!(t.value, Pmt::U64(t.index));
    }
}

#[test]
fn cut_stateless_run_goes_data_parallel_and_keeps_every_item() {
    let (n, stages) = (1_000_000, 10);
    let (fg, steps, sink) = graph(n, stages, true);
    let scheduler = Chain::new().workers(2);
    let done = fg.run(scheduler.clone()).expect("run");
    check(&done, sink, n, stages);
    let ids: Vec<usize> = steps.iter().map(|b| b.0).collect();
    assert_eq!(scheduler.parallel_segments(), vec![ids]);
    for id in &steps {
        let st = &done.stats()[id.0];
        assert_eq!((st.items_consumed, st.items_produced), (n as u64, n as u64));
        assert!(st.work_calls > 0);
    }
}

#[test]
fn stateful_blocks_or_one_core_stay_sequential() {
    let (n, stages) = (200_000, 6);
    for (stateless, scheduler) in [
        (false, Chain::new().workers(2)),
        (true, Chain::new().workers(1)),
        (true, Chain::new().workers(2).data_parallel(false)),
    ] {
        let (fg, _, sink) = graph(n, stages, stateless);
        let done = fg.run(scheduler.clone()).expect("run");
        check(&done, sink, n, stages);
        assert!(scheduler.parallel_segments().is_empty());
    }
}

#[test]
fn early_finishing_reader_ends_an_endless_segment() {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let mut chain = vec![src];
    for _ in 0..8 {
        chain.push(fg.add(StatelessMap::new(|x: u32| x + 1)));
    }
    let head = fg.add(Head::<u32>::new(300_000));
    let sink = fg.add(VectorSink::<u32>::new());
    chain.extend([head, sink]);
    fg.chain(&chain).unwrap();
    let scheduler = Chain::new().workers(2);
    let done = fg.run(scheduler.clone()).expect("run");
    assert_eq!(scheduler.parallel_segments().len(), 1);
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), 300_000);
    assert!(items.iter().all(|&x| x == 8));
}
