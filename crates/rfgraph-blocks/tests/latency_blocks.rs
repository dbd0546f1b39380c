//! The latency benchmark's blocks (`rfgraph_blocks::timing`): a paced
//! source through copies into a latency sink delivers every item of every
//! burst, in order, on every scheduler, even through rings smaller than a
//! burst; an item out of sequence fails the run. Outcomes only, never
//! timing: the instants are checked for order (nothing arrives before it
//! was due), not for size.

mod common;

use common::{RunBounded, every_scheduler};
use rfgraph::Flowgraph;
use rfgraph_blocks::timing::{LatencySink, PacedSource, Pacing};
use rfgraph_blocks::{Copy, VectorSource};
use std::time::Duration;

/// 50 bursts at 1 MS/s, 1 ms apart.
fn pacing() -> Pacing {
    Pacing::at_rate(1e6, Duration::from_millis(1), 50)
}

/// What a run showed of the runtime's queues.
struct Seen {
    /// The most free items the source saw on its output.
    room: usize,
    /// The most items the sink saw at once.
    batch: usize,
    latency: rfgraph::LatencyReport,
}

/// Runs source → `stages` copies → sink on `scheduler`, with latency
/// budget `budget` if any; checks that every burst arrived whole, in
/// order, and never before it was due.
fn run_and_check(
    scheduler: Box<dyn rfgraph::Scheduler>,
    stages: usize,
    ring: Option<usize>,
    budget: Option<Duration>,
) -> Seen {
    let name = scheduler.name().to_string();
    let pacing = pacing();
    let mut fg = Flowgraph::new();
    if let Some(bytes) = ring {
        fg.set_buffer_bytes(bytes);
    }
    if let Some(budget) = budget {
        fg.set_max_latency(budget);
    }
    let src = fg.add(PacedSource::new(pacing));
    let mut chain = vec![src];
    chain.extend((0..stages).map(|_| fg.add(Copy::<u32>::new())));
    let sink = fg.add(LatencySink::new(pacing.burst, pacing.bursts));
    chain.push(sink);
    fg.chain(&chain).unwrap();
    let done = fg
        .run_bounded(scheduler)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let source = done.block::<PacedSource>(src).unwrap();
    let sink = done.block::<LatencySink>(sink).unwrap();
    assert_eq!(pacing.burst, 1000);
    assert_eq!(source.written(), pacing.items(), "{name}");
    assert_eq!(sink.received(), pacing.items(), "{name}");
    assert_eq!(source.lateness().len(), pacing.bursts, "{name}");
    assert_eq!(sink.first_arrivals().len(), pacing.bursts, "{name}");
    assert_eq!(sink.last_arrivals().len(), pacing.bursts, "{name}");
    for (k, (first, last)) in sink
        .first_arrivals()
        .iter()
        .zip(sink.last_arrivals())
        .enumerate()
    {
        let due = source.due(k).unwrap();
        assert!(*first >= due, "{name}: burst {k} arrived before it was due");
        assert!(last >= first, "{name}: burst {k} ended before it began");
    }
    Seen {
        room: source.largest_room(),
        batch: sink.largest_batch(),
        latency: done.latency().clone(),
    }
}

#[test]
fn every_burst_arrives_in_order_on_every_scheduler() {
    for scheduler in every_scheduler() {
        run_and_check(scheduler, 3, None, None);
    }
}

/// With a 0.5 ms budget, 1 MS/s from a paced source through 3 copies
/// (nothing pulls on these edges: each gets half the budget) caps every
/// edge at 250 items queued, and as many seen at once. Without a budget,
/// the paced default (200 ms) caps nothing below a 64 KiB ring: the source
/// sees all of its 16,384 items free and the sink takes a whole 1000-item
/// burst. Every burst arrives either way.
#[test]
fn a_latency_budget_caps_batches_and_ring_fill_on_every_scheduler() {
    let ring = Some(64 * 1024);
    let budget = Duration::from_micros(500);
    for (with, without) in every_scheduler().into_iter().zip(every_scheduler()) {
        let name = with.name().to_string();
        let capped = run_and_check(with, 3, ring, Some(budget));
        let free = run_and_check(without, 3, ring, None);
        let report = &capped.latency;
        assert_eq!(report.budget, Some(budget), "{name}");
        assert!(report.set, "{name}");
        assert!(report.short_shares.is_empty(), "{name}: {report}");
        let first = report
            .edges
            .iter()
            .find(|e| e.writer.starts_with("PacedSource"))
            .unwrap_or_else(|| panic!("{name}: the source's edge is capped: {report}"));
        assert_eq!(first.capacity, 16_384, "{name}: {report}");
        assert_eq!(report.edges.len(), 4, "{name}: {report}");
        for e in &report.edges {
            assert_eq!((e.fill, e.batch), (250, 250), "{name}: {report}");
        }
        assert!(capped.room <= 250, "{name}: saw {} free", capped.room);
        assert!(
            capped.batch <= 250,
            "{name}: sink saw {} at once",
            capped.batch
        );
        assert!(capped.batch > 0);
        // Without a budget nothing is paced tighter than the 200 ms default,
        // which at 1 MS/s caps nothing below the ring.
        assert_eq!(
            free.latency.budget,
            Some(Duration::from_millis(200)),
            "{name}"
        );
        assert!(!free.latency.set && free.latency.edges.is_empty(), "{name}");
        assert_eq!(free.room, 16_384, "{name}");
        assert!(free.batch > 500, "{name}: sink saw {} at once", free.batch);
    }
}

#[test]
fn rings_smaller_than_a_burst_lose_nothing() {
    // 1 KiB rings hold 256 items, a quarter of a burst: the source writes
    // what fits and goes on when room appears.
    for scheduler in every_scheduler() {
        run_and_check(scheduler, 3, Some(1024), None);
    }
}

#[test]
fn an_item_out_of_sequence_fails_the_run() {
    let mut items: Vec<u32> = (0..100).collect();
    items.swap(40, 41);
    for scheduler in every_scheduler() {
        let name = scheduler.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(items.clone()));
        let copy = fg.add(Copy::<u32>::new());
        let sink = fg.add(LatencySink::new(10, 10));
        fg.chain(&[src, copy, sink]).unwrap();
        let err = fg.run_bounded(scheduler).err().expect("the run fails");
        assert!(
            err.to_string().contains("item 40 holds 41, expected 40"),
            "{name}: {err}"
        );
    }
}

#[test]
fn bursts_follow_the_rate() {
    let p = Pacing::at_rate(20e6, Duration::from_micros(500), 4);
    assert_eq!((p.burst, p.items()), (10_000, 40_000));
    assert_eq!(p.offset(3), Duration::from_micros(1500));
    // A rate too slow for one item per period still sends one.
    assert_eq!(Pacing::at_rate(10.0, Duration::from_millis(1), 1).burst, 1);
}
