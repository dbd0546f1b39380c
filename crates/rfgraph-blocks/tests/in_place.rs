//! In-place edges: 1:1 `Map` blocks overwrite their input items when they
//! are its only reader. Results must equal out-of-place processing on
//! every scheduler, a reader that shares the input must never see the
//! transformed items, and tags and early detaching must work through the
//! reused memory.

mod common;

use common::every_scheduler;
use rfgraph::{Flowgraph, Map, Pmt, Scheduler, Tag};
use rfgraph_blocks::{CopyRand, Head, VectorSink, VectorSource};

/// Runs `case` once per scheduler with a fresh flowgraph of small rings
/// (so chunks wrap often); `case` names the scheduler in its assertions.
fn on_every_scheduler(mut case: impl FnMut(&str, Flowgraph, Box<dyn Scheduler>)) {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        case(&name, fg, s);
    }
}

fn ramp(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32).collect()
}

#[test]
fn chains_of_maps_equal_the_arithmetic() {
    let x = ramp(200_000);
    let expected: Vec<f32> = x.iter().map(|&v| ((v * 2.0) + 1.0) * 3.0 - 5.0).collect();
    on_every_scheduler(|name, mut fg, s| {
        let src = fg.add(VectorSource::new(x.clone()));
        let a = fg.add(Map::new(|v: f32| v * 2.0));
        let b = fg.add(Map::new(|v: f32| v + 1.0));
        // Random chunk sizes in the middle break the in-place run in two.
        let shuffle = fg.add(CopyRand::<f32>::new(700, 3));
        let c = fg.add(Map::new(|v: f32| v * 3.0));
        let d = fg.add(Map::new(|v: f32| v - 5.0));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, a, b, shuffle, c, d, sink]).unwrap();
        let done = fg.run(s).unwrap();
        let got = done.block::<VectorSink<f32>>(sink).unwrap().items();
        assert_eq!(got, &expected[..], "{name}");
    });
}

/// The source's ring has two readers, so the map may not overwrite it:
/// the raw sink sees the raw items.
#[test]
fn a_shared_input_is_never_overwritten() {
    let x = ramp(100_000);
    on_every_scheduler(|name, mut fg, s| {
        let src = fg.add(VectorSource::new(x.clone()));
        let map = fg.add(Map::new(|v: f32| -v));
        let mapped = fg.add(VectorSink::<f32>::new());
        let raw = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, map, mapped]).unwrap();
        fg.connect(src, "out", raw, "in").unwrap();
        let done = fg.run(s).unwrap();
        assert_eq!(
            done.block::<VectorSink<f32>>(raw).unwrap().items(),
            &x[..],
            "{name}"
        );
        let neg: Vec<f32> = x.iter().map(|&v| -v).collect();
        assert_eq!(
            done.block::<VectorSink<f32>>(mapped).unwrap().items(),
            &neg[..],
            "{name}"
        );
    });
}

/// A map working in place whose output fans out: both readers see every
/// result, and the second map (its input is shared) works out of place.
#[test]
fn fan_out_after_an_in_place_map_delivers_to_all() {
    let x = ramp(100_000);
    on_every_scheduler(|name, mut fg, s| {
        let src = fg.add(VectorSource::new(x.clone()));
        let double = fg.add(Map::new(|v: f32| v * 2.0));
        let plus = fg.add(Map::new(|v: f32| v + 0.5));
        let doubled = fg.add(VectorSink::<f32>::new());
        let both = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, double, plus, both]).unwrap();
        fg.connect(double, "out", doubled, "in").unwrap();
        let done = fg.run(s).unwrap();
        let d: Vec<f32> = x.iter().map(|&v| v * 2.0).collect();
        let b: Vec<f32> = d.iter().map(|&v| v + 0.5).collect();
        assert_eq!(
            done.block::<VectorSink<f32>>(doubled).unwrap().items(),
            &d[..],
            "{name}"
        );
        assert_eq!(
            done.block::<VectorSink<f32>>(both).unwrap().items(),
            &b[..],
            "{name}"
        );
    });
}

/// Tags ride through maps working in place, and a `Head` after them
/// detaches early without stalling the source.
#[test]
fn tags_and_early_detach_through_in_place_maps() {
    let x = ramp(300_000);
    on_every_scheduler(|name, mut fg, s| {
        let tags = vec![
            Tag::new(10, "k", Pmt::U64(1)),
            Tag::new(50_000, "k", Pmt::U64(2)),
        ];
        let src = fg.add(VectorSource::new(x.clone()).with_tags(tags));
        let a = fg.add(Map::new(|v: f32| v + 1.0));
        let b = fg.add(Map::new(|v: f32| v * 0.5));
        let head = fg.add(Head::<f32>::new(60_000));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, a, b, head, sink]).unwrap();
        let done = fg.run(s).unwrap();
        let sink = done.block::<VectorSink<f32>>(sink).unwrap();
        let want: Vec<f32> = x[..60_000].iter().map(|&v| (v + 1.0) * 0.5).collect();
        assert_eq!(sink.items(), &want[..], "{name}");
        let indices: Vec<u64> = sink.tags().iter().map(|t| t.index).collect();
        assert_eq!(indices, vec![10, 50_000], "{name}");
    });
}
