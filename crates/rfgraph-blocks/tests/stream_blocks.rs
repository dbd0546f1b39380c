//! Behaviour of the stream operators beyond what the GNU Radio
//! comparisons (`gr_blocks.rs`) check: tags moving with their items
//! through blocks that move items irregularly, bounded sources, and
//! settings.

mod common;

use common::{RunBounded, every_scheduler};
use rfgraph::params::apply;
use rfgraph::registry::Registry;
use rfgraph::{Block, Flowgraph, Pmt, Tag};
use rfgraph_blocks::stream::{
    ConstSourceParams, Selector, SelectorParams, StreamDemux, StreamMux, StreamMuxParams,
    TagsStrobeParams,
};
use rfgraph_blocks::{ConstSource, Delay, SkipHead, VectorSink, VectorSource};
use std::collections::BTreeMap;

fn tagged(n: usize, at: &[u64]) -> VectorSource<f32> {
    VectorSource::new((0..n).map(|k| k as f32).collect())
        .with_tags(at.iter().map(|&i| Tag::new(i, "k", Pmt::U64(i))).collect())
}

/// The tags' (index, value) pairs, and that each sits on the item that
/// carried it in (items are their original index).
fn tags_on_their_items(sink: &VectorSink<f32>) -> Vec<(u64, u64)> {
    sink.tags()
        .iter()
        .map(|t| {
            let v = t.value.as_u64().unwrap();
            assert_eq!(
                sink.items()[t.index as usize],
                v as f32,
                "tag {t:?} moved off its item"
            );
            (t.index, v)
        })
        .collect()
}

#[test]
fn tags_move_with_their_items_through_delay_skiphead_and_mux() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(tagged(20_000, &[0, 3, 9_999, 19_999]));
        let skip = fg.add(SkipHead::<f32>::new(3));
        let delay = fg.add(Delay::<f32>::new(4));
        let other = fg.add(VectorSource::new(vec![-1.0f32; 20_000]));
        let mux = fg.add(StreamMux::<f32>::new(StreamMuxParams::default()).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, skip, delay]).unwrap();
        fg.connect(delay, "out", mux, "in0").unwrap();
        fg.connect(other, "out", mux, "in1").unwrap();
        fg.connect(mux, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let out = done.block::<VectorSink<f32>>(sink).unwrap();
        // Item k of the source is item k - 3 + 4 after skip and delay,
        // and twice that after the mux.
        assert_eq!(
            out.items()[..10],
            [0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 3.0, -1.0],
            "{name}"
        );
        assert_eq!(
            tags_on_their_items(out),
            vec![(8, 3), (2 * 10_000, 9_999), (2 * 20_000, 19_999)],
            "{name}"
        );
    }
}

#[test]
fn tags_move_with_their_items_through_a_demux_of_short_turns() {
    // Turns of 2 and 1 items: thousands of runs per call, each tag on
    // the item it came in on, in whichever output that item went to.
    let at = [0, 1, 2, 3, 4_000, 29_998, 29_999];
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(tagged(30_000, &at));
        let demux = fg.add(
            StreamDemux::<f32>::new(StreamMuxParams {
                lengths: vec![2, 1],
                ..Default::default()
            })
            .unwrap(),
        );
        let a = fg.add(VectorSink::<f32>::new());
        let b = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", demux, "in").unwrap();
        fg.connect(demux, "out0", a, "in").unwrap();
        fg.connect(demux, "out1", b, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let a = tags_on_their_items(done.block::<VectorSink<f32>>(a).unwrap());
        let b = tags_on_their_items(done.block::<VectorSink<f32>>(b).unwrap());
        // Item i goes to out0 at 2·(i/3) + i%3 when i%3 < 2, else to out1
        // at i/3.
        assert_eq!(
            a,
            vec![(0, 0), (1, 1), (2, 3), (2_667, 4_000), (19_999, 29_998)],
            "{name}"
        );
        assert_eq!(b, vec![(0, 2), (9_999, 29_999)], "{name}");
    }
}

#[test]
fn const_source_ends_after_items_and_takes_a_new_constant() {
    let mut registry = Registry::new();
    registry.extend(rfgraph_blocks::registry::specs());
    for s in every_scheduler() {
        let name = s.name().to_string();
        let params: BTreeMap<String, Pmt> = [
            ("type".to_string(), Pmt::from("i16")),
            ("constant".to_string(), Pmt::I64(-3)),
            ("items".to_string(), Pmt::U64(50_000)),
        ]
        .into_iter()
        .collect();
        let mut fg = Flowgraph::new();
        let src = fg.add_boxed(
            "src",
            "const_source",
            registry.build("const_source", params).unwrap(),
        );
        let sink = fg.add(VectorSink::<i16>::new());
        fg.connect(src, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        assert_eq!(
            done.block::<VectorSink<i16>>(sink).unwrap().items(),
            &[-3i16; 50_000][..],
            "{name}"
        );
    }
    let mut src = ConstSource::<f32>::new(ConstSourceParams {
        constant: Pmt::F64(1.0),
        ..Default::default()
    })
    .unwrap();
    apply(&mut src, "constant", Pmt::F64(2.5)).unwrap();
    assert_eq!(src.value(), 2.5);
    assert!(apply(&mut src, "constant", Pmt::VecF32(vec![1.0, 2.0])).is_err());
    assert!(apply(&mut src, "constant", Pmt::F64(1e300)).is_err());
    assert_eq!(src.value(), 2.5);
    let mut bytes = ConstSource::<u8>::new(ConstSourceParams {
        constant: Pmt::I64(7),
        ..Default::default()
    })
    .unwrap();
    let e = apply(&mut bytes, "constant", Pmt::I64(300)).unwrap_err();
    assert!(e.to_string().contains("constant"), "{e}");
    assert_eq!(bytes.value(), 7);
    let e = registry
        .build(
            "const_source",
            [
                ("type".to_string(), Pmt::from("u8")),
                ("constant".to_string(), Pmt::I64(300)),
            ]
            .into_iter()
            .collect(),
        )
        .err()
        .unwrap();
    assert!(e.to_string().contains("`constant`"), "{e}");
}

#[test]
fn a_disabled_selector_drains_its_inputs_and_refuses_missing_ports() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let a = fg.add(VectorSource::new(vec![1u8; 10_000]));
        let b = fg.add(VectorSource::new(vec![2u8; 10_000]));
        let sel = fg.add(
            Selector::<u8>::new(SelectorParams {
                enabled: false,
                ..Default::default()
            })
            .unwrap(),
        );
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(a, "out", sel, "in0").unwrap();
        fg.connect(b, "out", sel, "in1").unwrap();
        fg.connect(sel, "out0", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        assert!(
            done.block::<VectorSink<u8>>(sink)
                .unwrap()
                .items()
                .is_empty(),
            "{name}"
        );
        assert_eq!(done.stats()[sel.0].items_consumed, 20_000, "{name}");
    }
    let mut sel = Selector::<u8>::new(SelectorParams {
        outputs: 2,
        ..Default::default()
    })
    .unwrap();
    apply(&mut sel, "output_index", Pmt::U64(1)).unwrap();
    let e = apply(&mut sel, "input_index", Pmt::U64(2)).unwrap_err();
    assert!(e.to_string().contains("there are 2 inputs"), "{e}");
    let names: Vec<_> = sel
        .params()
        .unwrap()
        .describe()
        .into_iter()
        .filter(|p| p.settable)
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["input_index", "output_index", "enabled"]);
    assert!(
        Selector::<u8>::new(SelectorParams {
            input_index: 2,
            ..Default::default()
        })
        .is_err()
    );
}

#[test]
fn tags_strobe_tags_every_interval_after_the_first_and_ends_after_items() {
    use rfgraph_blocks::stream::TagsStrobe;
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(
            TagsStrobe::<f32>::new(TagsStrobeParams {
                value: Pmt::U64(5),
                items: Some(100_000),
                ..Default::default()
            })
            .unwrap(),
        );
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let out = done.block::<VectorSink<f32>>(sink).unwrap();
        assert_eq!(out.items().len(), 100_000, "{name}");
        let at: Vec<u64> = out.tags().iter().map(|t| t.index).collect();
        assert_eq!(at, (1..100).map(|k| k * 1000).collect::<Vec<_>>(), "{name}");
    }
}
