//! Behaviour of the math blocks that GNU Radio comparisons
//! (`gr_blocks.rs`) do not cover: an unconnected optional output, the
//! parameter checks of the registry entries, and tags passing 1:1.

mod common;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::registry::Registry;
use rfgraph::{Flowgraph, Pmt, Tag};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::collections::BTreeMap;

fn registry() -> Registry {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r
}

fn params(pairs: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn complex_to_float_runs_with_its_second_output_unconnected() {
    let r = registry();
    let input: Vec<Complex32> = (0..10_000)
        .map(|k| Complex32::new(k as f32, -1.0))
        .collect();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let split = fg.add_boxed(
            "split",
            "complex_to_float",
            r.build("complex_to_float", params(&[])).unwrap(),
        );
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", split, "in").unwrap();
        fg.connect(split, "out0", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done.block::<VectorSink<f32>>(sink).unwrap().items();
        assert_eq!(got.len(), input.len(), "{name}");
        assert!(got.iter().zip(&input).all(|(&g, x)| g == x.re), "{name}");
    }
}

/// GNU Radio's `float_to_complex` runs on its real input alone; so does
/// this one, with zero imaginary parts. `magphase_to_complex` still needs
/// both inputs.
#[test]
fn float_to_complex_runs_with_its_imaginary_input_unconnected() {
    let r = registry();
    let input: Vec<f32> = (0..10_000).map(|k| k as f32).collect();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let join = fg.add_boxed(
            "join",
            "float_to_complex",
            r.build("float_to_complex", params(&[])).unwrap(),
        );
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(src, "out", join, "in0").unwrap();
        fg.connect(join, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done.block::<VectorSink<Complex32>>(sink).unwrap().items();
        let expected: Vec<Complex32> = input.iter().map(|&x| Complex32::new(x, 0.0)).collect();
        assert_eq!(got, expected.as_slice(), "{name}");
    }
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input));
    let join = fg.add_boxed(
        "join",
        "magphase_to_complex",
        r.build("magphase_to_complex", params(&[])).unwrap(),
    );
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, "out", join, "in0").unwrap();
    fg.connect(join, "out", sink, "in").unwrap();
    assert!(fg.run_bounded(rfgraph::scheduler::Tpb::new()).is_err());
}

#[test]
fn combine_stops_at_the_shortest_input_and_keeps_tags() {
    let r = registry();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let a = fg.add(VectorSource::new(vec![1i16; 5000]).with_tags(vec![Tag::new(
            10,
            "a",
            Pmt::U64(1),
        )]));
        let b = fg.add(VectorSource::new(vec![2i16; 3000]));
        let add = fg.add_boxed(
            "add",
            "multiply",
            r.build("multiply", params(&[("type", "i16".into())]))
                .unwrap(),
        );
        let sink = fg.add(VectorSink::<i16>::new());
        fg.connect(a, "out", add, "in0").unwrap();
        fg.connect(b, "out", add, "in1").unwrap();
        fg.connect(add, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let out = done.block::<VectorSink<i16>>(sink).unwrap();
        assert_eq!(out.items(), &[2i16; 3000][..], "{name}");
        assert_eq!(out.tags(), &[Tag::new(10, "a", Pmt::U64(1))], "{name}");
    }
}

#[test]
fn bad_parameters_are_refused_naming_them() {
    let r = registry();
    let err = |name: &str, p: &[(&str, Pmt)]| r.build(name, params(p)).err().unwrap().to_string();
    assert!(err("add", &[("inputs", Pmt::U64(0))]).contains("`inputs`"));
    assert!(err("add", &[("type", "u8".into())]).contains("`type`"));
    assert!(err("char_to_float", &[("scale", Pmt::F64(0.0))]).contains("`scale`"));
    assert!(err("short_to_float", &[("vlen", Pmt::U64(0))]).contains("`vlen`"));
    assert!(err("abs", &[("type", "c32".into())]).contains("`type`"));
}

#[test]
fn peak_detector2_runs_without_its_average_output() {
    use rfgraph_blocks::math::PeakDetector2;
    // A pulse of rising height every 250 items: one peak each, at its top.
    let input: Vec<f32> = (0..10_000)
        .map(|k| 1.0 + if k % 250 < 15 { (k % 250) as f32 } else { 0.0 })
        .collect();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let det = fg.add(PeakDetector2::new(2.0, 20, 0.05).unwrap());
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(src, "out", det, "in").unwrap();
        fg.connect(det, "out0", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let flags = done.block::<VectorSink<u8>>(sink).unwrap().items();
        assert_eq!(flags.len(), input.len(), "{name}");
        let peaks: Vec<usize> = flags
            .iter()
            .enumerate()
            .filter(|(_, f)| **f == 1)
            .map(|(k, _)| k)
            .collect();
        assert_eq!(
            peaks,
            (0..40).map(|p| p * 250 + 14).collect::<Vec<_>>(),
            "{name}"
        );
    }
}
