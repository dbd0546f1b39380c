//! `chain` runs a run of stateless in-place blocks that its partition
//! cuts between cores data-parallel: every core takes whole chunks through
//! all of them. Items still arrive exactly once and in order, with their
//! tags, statistics count every item once, and an early-finishing reader
//! downstream ends the run.

mod common;

use common::RunBounded;
use rfgraph::scheduler::chain::Chain;
use rfgraph::{
    Block, BlockId, BoxError, Flowgraph, Map, Pmt, Ports, StatelessMap, StreamOutput, Tag, WorkIo,
};
use rfgraph_blocks::{Head, NullSource, VectorSink, VectorSource};

/// Writes `0..count`, then either finishes or (`then_idle`) waits for ever
/// without finishing, like a device with nothing to deliver; optionally
/// marked blocking (a thread of its own).
struct Counter {
    output: StreamOutput<u32>,
    next: u32,
    count: u32,
    then_idle: bool,
    blocking: bool,
}

impl Counter {
    fn new(count: u32, then_idle: bool, blocking: bool) -> Self {
        Self {
            output: StreamOutput::new("out"),
            next: 0,
            count,
            then_idle,
            blocking,
        }
    }
}

impl Block for Counter {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = out.len().min((self.count - self.next) as usize);
        for (i, x) in out[..n].iter_mut().enumerate() {
            *x = self.next + i as u32;
        }
        self.output.produce(n);
        self.next += n as u32;
        if self.next == self.count && !self.then_idle {
            io.finish();
        }
        Ok(())
    }

    fn is_blocking(&self) -> bool {
        self.blocking
    }
}

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
    let done = fg.run_bounded(scheduler.clone()).expect("run");
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
        let done = fg.run_bounded(scheduler.clone()).expect("run");
        check(&done, sink, n, stages);
        assert!(scheduler.parallel_segments().is_empty());
    }
}

#[test]
fn early_finishing_reader_ends_an_endless_segment() {
    let (fg, sink) = head_graph(NullSource::<u32>::new(), 300_000);
    let scheduler = Chain::new().workers(2);
    let done = fg.run_bounded(scheduler.clone()).expect("run");
    assert_eq!(scheduler.parallel_segments().len(), 1);
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), 300_000);
    assert!(items.iter().all(|&x| x == 8));
}

/// `source` followed by eight stateless `+1` steps, unconnected at the end.
fn source_and_eight_steps(fg: &mut Flowgraph, source: impl Block) -> Vec<BlockId> {
    let mut chain = vec![fg.add(source)];
    for _ in 0..8 {
        chain.push(fg.add(StatelessMap::new(|x: u32| x.wrapping_add(1))));
    }
    chain
}

/// `source` → eight `+1` steps → `Head(take)` → sink; returns the sink.
fn head_graph(source: impl Block, take: u64) -> (Flowgraph, BlockId) {
    let mut fg = Flowgraph::new();
    let mut chain = source_and_eight_steps(&mut fg, source);
    let head = fg.add(Head::<u32>::new(take));
    let sink = fg.add(VectorSink::<u32>::new());
    chain.extend([head, sink]);
    fg.chain(&chain).unwrap();
    (fg, sink)
}

#[test]
fn blocking_upstream_feeds_a_segment() {
    let n = 300_000;
    let mut fg = Flowgraph::new();
    let mut chain = source_and_eight_steps(&mut fg, Counter::new(n, false, true));
    let sink = fg.add(VectorSink::<u32>::new());
    chain.push(sink);
    fg.chain(&chain).unwrap();
    let scheduler = Chain::new().workers(2);
    let done = fg.run_bounded(scheduler.clone()).expect("run");
    assert_eq!(scheduler.parallel_segments().len(), 1);
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert!(items.iter().copied().eq((0..n).map(|x| x + 8)));
}

#[test]
fn head_after_a_segment_ends_the_run_while_upstream_idles() {
    // The source writes a little more than `Head` takes, then waits for
    // ever: only `Head` detaching can end the segment (and so the source).
    let (fg, sink) = head_graph(Counter::new(52_000, true, false), 50_000);
    let scheduler = Chain::new().workers(2);
    let running = fg.start(scheduler.clone()).expect("start");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !running.is_finished() {
        if std::time::Instant::now() > deadline {
            running.handle().stop();
            panic!("the run did not end after Head finished");
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let done = running.wait_timeout(common::WATCHDOG).expect("run");
    assert_eq!(scheduler.parallel_segments().len(), 1);
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert!(items.iter().copied().eq((0..50_000).map(|x| x + 8)));
}

#[test]
fn pipelines_kept_whole_stay_sequential() {
    // Two independent pipelines: the partition gives each its own core, so
    // neither run of stateless blocks is cut and neither goes parallel.
    let n = 200_000u32;
    let mut fg = Flowgraph::new();
    let sinks: Vec<BlockId> = (0..2)
        .map(|_| {
            let mut chain =
                source_and_eight_steps(&mut fg, VectorSource::new((0..n).collect::<Vec<u32>>()));
            let sink = fg.add(VectorSink::<u32>::new());
            chain.push(sink);
            fg.chain(&chain).unwrap();
            sink
        })
        .collect();
    let scheduler = Chain::new().workers(2);
    let done = fg.run_bounded(scheduler.clone()).expect("run");
    assert!(scheduler.parallel_segments().is_empty());
    for sink in sinks {
        let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
        assert!(items.iter().copied().eq((0..n).map(|x| x + 8)));
    }
}

#[test]
fn an_idle_segment_reports_exact_live_statistics() {
    // The source writes 4e6 items (past the early calls, which are always
    // counted at once), then waits without finishing: once
    // the lanes have nothing to claim, a live snapshot counts every item
    // each step moved, as an idle runner's does.
    let n = 4_000_000u64;
    let mut fg = Flowgraph::new();
    let mut chain = source_and_eight_steps(&mut fg, Counter::new(n as u32, true, false));
    let sink = fg.add(VectorSink::<u32>::new());
    chain.push(sink);
    fg.chain(&chain).unwrap();
    let steps = chain[1..9].to_vec();
    let scheduler = Chain::new().workers(2);
    let running = fg.start(scheduler.clone()).expect("start");
    let handle = running.handle();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let exact = |stats: &[rfgraph::BlockStats]| {
        stats[sink.0].items_consumed == n
            && steps
                .iter()
                .all(|s| (stats[s.0].items_consumed, stats[s.0].items_produced) == (n, n))
    };
    while !exact(&handle.stats()) {
        assert!(
            std::time::Instant::now() < deadline,
            "live statistics lag: {:?}",
            handle
                .stats()
                .iter()
                .map(|s| s.items_consumed)
                .collect::<Vec<_>>()
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert_eq!(scheduler.parallel_segments().len(), 1);
    handle.stop();
    running.wait_timeout(common::WATCHDOG).expect("run");
}
