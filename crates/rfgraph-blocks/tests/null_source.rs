//! `NullSource::without_writing` (qsdr's "Dummy Source"): it produces
//! exactly its limit on every scheduler, and readers see valid items: the
//! ring's zeros, or what blocks working in place left there.

mod common;
use common::RunBounded;

use common::every_scheduler;
use rfgraph::{BlockId, Flowgraph, Map};
use rfgraph_blocks::{NullSource, VectorSink};

const ITEMS: u64 = 100_000;

/// Runs an unwritten source of [`ITEMS`] items through `middle` (which
/// adds its blocks and returns the chain between source and sink) on every
/// scheduler, with small rings whose memory goes round many laps; checks
/// the count and hands each scheduler's items to `check`.
fn on_every_scheduler(
    middle: impl Fn(&mut Flowgraph) -> Vec<BlockId>,
    check: impl Fn(&str, &[f32]),
) {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(NullSource::<f32>::limited(ITEMS).without_writing());
        let sink = fg.add(VectorSink::<f32>::new());
        let mut chain = vec![src];
        chain.extend(middle(&mut fg));
        chain.push(sink);
        fg.chain(&chain).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done.block::<VectorSink<f32>>(sink).unwrap().items();
        assert_eq!(got.len() as u64, ITEMS, "{name}");
        check(&name, got);
    }
}

/// The count, and memory that was never written reads as zeros (the next
/// test shows the source really writes nothing).
#[test]
fn an_unwritten_source_delivers_its_count_of_untouched_zeros() {
    on_every_scheduler(
        |_| Vec::new(),
        // Nobody ever wrote the ring: it still holds its fresh zeros.
        |name, got| assert!(got.iter().all(|&x| x == 0.0), "{name}"),
    );
}

#[test]
fn a_map_in_place_after_an_unwritten_source_sees_its_own_last_lap() {
    on_every_scheduler(
        |fg| vec![fg.add(Map::new(|x: f32| x + 1.0))],
        |name, got| {
            // The map works in place on the source's ring, so each lap
            // increments what the previous lap left: item i is from lap
            // i / capacity, and reads 1 + that lap. (A source that wrote
            // zeros would make every item 1.)
            let capacity = got
                .iter()
                .position(|&x| x != 1.0)
                .unwrap_or_else(|| panic!("{name}: the ring never went round"));
            for (i, &x) in got.iter().enumerate() {
                assert_eq!(x, (i / capacity + 1) as f32, "{name}: item {i}");
            }
        },
    );
}
