//! `VectorSource`: repetitions and their tags, and an endless source that
//! ends when its reader leaves, even while it is writing.

mod common;

use common::{RunBounded, every_scheduler};
use rfgraph::{Flowgraph, Pmt, Tag};
use rfgraph_blocks::{Head, VectorSink, VectorSource};

#[test]
fn repetitions_carry_their_tags() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(
            VectorSource::new((0..1000u32).collect())
                .with_tags(vec![
                    Tag::new(0, "start", Pmt::Null),
                    Tag::new(999, "end", Pmt::Null),
                ])
                .repeat(7),
        );
        let sink = fg.add(VectorSink::<u32>::new());
        fg.chain(&[src, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let sink = done.block::<VectorSink<u32>>(sink).unwrap();
        assert!(
            sink.items()
                .iter()
                .copied()
                .eq((0..1000u32).cycle().take(7000)),
            "{name}"
        );
        let tags: Vec<(u64, &str)> = sink
            .tags()
            .iter()
            .map(|t| (t.index, t.key.as_str()))
            .collect();
        let want: Vec<(u64, &str)> = (0..7u64)
            .flat_map(|r| [(r * 1000, "start"), (r * 1000 + 999, "end")])
            .collect();
        assert_eq!(tags, want, "{name}");
    }
}

#[test]
fn an_endless_vector_source_ends_when_its_reader_leaves() {
    // The source's rings hold far more than the vector: each call spans
    // many repetitions. A call used to ask for room again until there was
    // none, which never happens once the reader has gone, so a reader
    // leaving mid-call left the source writing for ever.
    for name in rfgraph::scheduler::SCHEDULERS {
        for _ in 0..20 {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(vec![1u8; 3]).repeat(u64::MAX / 4));
            let head = fg.add(Head::<u8>::new(100_000));
            let sink = fg.add(VectorSink::<u8>::new());
            fg.chain(&[src, head, sink]).unwrap();
            let s = rfgraph::scheduler::by_name(name).unwrap();
            let done = fg.run_bounded(s).unwrap();
            assert_eq!(
                done.block::<VectorSink<u8>>(sink).unwrap().items().len(),
                100_000
            );
        }
    }
}
