//! The displays' frames from known inputs, run in a flowgraph with a
//! watchdog.

use super::*;
use crate::VectorSource;
use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph::{Block, BlockId, Finished, Flowgraph, Item, Pmt};
use std::time::Duration;

/// Runs `inputs` into `sink` (one source per input, `in0`, `in1`, …) to
/// the end, within a minute.
fn run<T: Item, B: Block>(inputs: Vec<Vec<T>>, sink: B) -> (Finished, BlockId) {
    let mut fg = Flowgraph::new();
    let sink = fg.add(sink);
    for (i, items) in inputs.into_iter().enumerate() {
        let src = fg.add(VectorSource::new(items));
        fg.connect(src, "out", sink, &format!("in{i}")).unwrap();
    }
    let running = fg.start(Tpb::new()).unwrap();
    let finished = running
        .wait_timeout(Duration::from_secs(60))
        .expect("finishes within a minute");
    (finished, sink)
}

fn get<'a>(map: &'a Pmt, key: &str) -> &'a Pmt {
    match map {
        Pmt::Map(m) => m
            .get(key)
            .unwrap_or_else(|| panic!("no `{key}` in {map:?}")),
        other => panic!("not a map: {other:?}"),
    }
}

fn rows(p: &Pmt) -> Vec<Vec<f32>> {
    match p {
        Pmt::List(rows) => rows
            .iter()
            .map(|r| match r {
                Pmt::VecF32(v) => v.clone(),
                other => panic!("not an f32 vector: {other:?}"),
            })
            .collect(),
        other => panic!("not a list: {other:?}"),
    }
}

fn tone(bin: f32, size: usize, len: usize) -> Vec<Complex32> {
    (0..len)
        .map(|n| Complex32::from_polar(1.0, std::f32::consts::TAU * bin * n as f32 / size as f32))
        .collect()
}

#[test]
fn a_tone_peaks_in_its_bin_with_dc_in_the_middle() {
    let params = SpectrumSinkParams {
        fft_size: 64,
        bandwidth: 1024.0,
        center_freq: 100e6,
        title: "spectrum".into(),
        ..Default::default()
    };
    // 8 bins above DC: 128 Hz at 1024 Hz.
    let sink = WebFreqSink::<Complex32>::new(SpectrumKind::Freq, params).unwrap();
    let (mut done, id) = run(vec![tone(8.0, 64, 4096)], sink);
    let sink = done.block_mut::<WebFreqSink<Complex32>>(id).unwrap();
    let frame = sink.reading("frame").unwrap();
    // 4096 items, one frame per 0.1 s = 102 items (at least 64).
    assert_eq!(get(&frame, "seq"), &Pmt::U64(4096 / 102));
    let db = rows(get(&frame, "db"));
    assert_eq!(db.len(), 1);
    assert_eq!(db[0].len(), 64);
    let peak = (0..64)
        .max_by(|&a, &b| db[0][a].total_cmp(&db[0][b]))
        .unwrap();
    assert_eq!(peak, 32 + 8);
    assert!(
        db[0][peak].abs() < 0.1,
        "amplitude 1 reads 0 dB: {}",
        db[0][peak]
    );
    assert!(db[0][32] < -60.0);
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "kind"), &Pmt::from("freq"));
    assert_eq!(get(&display, "title"), &Pmt::from("spectrum"));
    assert_eq!(get(&display, "fft_size"), &Pmt::U64(64));
    assert_eq!(get(&display, "center_hz"), &Pmt::F64(100e6));
    assert_eq!(get(&display, "span_hz"), &Pmt::F64(1024.0));
    assert_eq!(
        get(&display, "labels"),
        &Pmt::List(vec![Pmt::from("Data 0")])
    );
    assert_eq!(sink.readings(), ["display", "frame"]);
}

#[test]
fn a_waterfall_says_so_and_a_real_tone_shows_both_sides() {
    let params = SpectrumSinkParams {
        fft_size: 32,
        gui_hint: "tab@1: 0,0,1,2".into(),
        ..Default::default()
    };
    let cosine: Vec<f32> = (0..320)
        .map(|n| (std::f32::consts::TAU * 4.0 * n as f32 / 32.0).cos())
        .collect();
    let sink = WebFreqSink::<f32>::new(SpectrumKind::Waterfall, params).unwrap();
    let (mut done, id) = run(vec![cosine], sink);
    let sink = done.block_mut::<WebFreqSink<f32>>(id).unwrap();
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "kind"), &Pmt::from("waterfall"));
    assert_eq!(get(&display, "gui_hint"), &Pmt::from("tab@1: 0,0,1,2"));
    let db = rows(get(&sink.reading("frame").unwrap(), "db")).remove(0);
    // update_time × bandwidth (0.1 × 1) is less than a frame: every 32.
    assert_eq!(get(&sink.reading("frame").unwrap(), "seq"), &Pmt::U64(10));
    let mut order: Vec<usize> = (0..32).collect();
    order.sort_by(|&a, &b| db[b].total_cmp(&db[a]));
    let mut top = [order[0], order[1]];
    top.sort();
    assert_eq!(top, [16 - 4, 16 + 4]);
}

#[test]
fn non_finite_input_reads_the_floor_and_the_average_recovers() {
    let params = SpectrumSinkParams {
        fft_size: 16,
        average: 0.5,
        ..Default::default()
    };
    let mut items = vec![Complex32::new(f32::NAN, 0.0); 16];
    items.extend(vec![Complex32::new(1.0, 0.0); 16 * 20]);
    let sink = WebFreqSink::<Complex32>::new(SpectrumKind::Freq, params).unwrap();
    let (mut done, id) = run(vec![items], sink);
    let sink = done.block_mut::<WebFreqSink<Complex32>>(id).unwrap();
    let db = rows(get(&sink.reading("frame").unwrap(), "db")).remove(0);
    assert!(db.iter().all(|v| v.is_finite() && *v >= DB_FLOOR));
    assert!(db[8].abs() < 0.1, "DC of ones: {}", db[8]);
}

#[test]
fn time_frames_are_the_input_at_the_start_of_each_slot() {
    let ramp: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let params = TimeSinkParams {
        points: 10,
        sample_rate: 250.0,
        ..Default::default()
    };
    // 0.1 s at 250 Hz: a frame of 10 every 25 items.
    let sink = WebTimeSink::<f32>::new(params).unwrap();
    let (mut done, id) = run(vec![ramp], sink);
    let sink = done.block_mut::<WebTimeSink<f32>>(id).unwrap();
    let frame = sink.reading("frame").unwrap();
    assert_eq!(get(&frame, "seq"), &Pmt::U64(4));
    assert_eq!(get(&frame, "t0"), &Pmt::U64(75));
    let y = rows(get(&frame, "y"));
    assert_eq!(y, vec![(75..85).map(|i| i as f32).collect::<Vec<_>>()]);
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "kind"), &Pmt::from("time"));
    assert_eq!(get(&display, "complex"), &Pmt::Bool(false));
    assert_eq!(get(&display, "points"), &Pmt::U64(10));
    assert_eq!(get(&display, "sample_rate"), &Pmt::F64(250.0));
}

#[test]
fn complex_time_frames_have_a_real_and_an_imaginary_trace_per_input() {
    let a: Vec<Complex32> = (0..8)
        .map(|i| Complex32::new(i as f32, -(i as f32)))
        .collect();
    let b: Vec<Complex32> = (0..8)
        .map(|i| Complex32::new(f32::NAN, i as f32 * 2.0))
        .collect();
    let params = TimeSinkParams {
        points: 4,
        nconnections: 2,
        update_time: 0.0,
        labels: Pmt::List(vec![Pmt::from("a"), Pmt::from("b")]),
        ..Default::default()
    };
    let sink = WebTimeSink::<Complex32>::new(params).unwrap();
    let (mut done, id) = run(vec![a, b], sink);
    let sink = done.block_mut::<WebTimeSink<Complex32>>(id).unwrap();
    let frame = sink.reading("frame").unwrap();
    assert_eq!(get(&frame, "seq"), &Pmt::U64(2));
    assert_eq!(
        rows(get(&frame, "y")),
        vec![
            vec![4.0, 5.0, 6.0, 7.0],
            vec![-4.0, -5.0, -6.0, -7.0],
            vec![0.0; 4],
            vec![8.0, 10.0, 12.0, 14.0],
        ]
    );
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "complex"), &Pmt::Bool(true));
    assert_eq!(get(&display, "inputs"), &Pmt::U64(2));
    assert_eq!(
        get(&display, "labels"),
        &Pmt::List(vec![Pmt::from("a"), Pmt::from("b")])
    );
}

#[test]
fn constellation_frames_equal_the_input() {
    let points: Vec<Complex32> = (0..12)
        .map(|i| Complex32::new(i as f32, 0.5 - i as f32))
        .collect();
    let params = ConstSinkParams {
        points: 6,
        sample_rate: 1.0,
        update_time: 0.0,
        ..Default::default()
    };
    let (mut done, id) = run(vec![points.clone()], WebConstSink::new(params).unwrap());
    let sink = done.block_mut::<WebConstSink>(id).unwrap();
    let frame = sink.reading("frame").unwrap();
    assert_eq!(get(&frame, "seq"), &Pmt::U64(2));
    let re: Vec<f32> = points[6..].iter().map(|c| c.re).collect();
    let im: Vec<f32> = points[6..].iter().map(|c| c.im).collect();
    assert_eq!(rows(get(&frame, "re")), vec![re]);
    assert_eq!(rows(get(&frame, "im")), vec![im]);
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "kind"), &Pmt::from("const"));
    assert_eq!(get(&display, "x_min"), &Pmt::F64(-2.0));
}

#[test]
fn a_wall_clock_constellation_takes_its_first_frame_at_once() {
    let params = ConstSinkParams {
        points: 4,
        update_time: 3600.0,
        ..Default::default()
    };
    let items = vec![Complex32::new(1.0, 2.0); 1000];
    let (mut done, id) = run(vec![items], WebConstSink::new(params).unwrap());
    let sink = done.block_mut::<WebConstSink>(id).unwrap();
    let frame = sink.reading("frame").unwrap();
    // The next is an hour away.
    assert_eq!(get(&frame, "seq"), &Pmt::U64(1));
    assert_eq!(rows(get(&frame, "re")), vec![vec![1.0; 4]]);
}

#[test]
fn numbers_are_the_scaled_running_average() {
    let params = NumberSinkParams {
        average: 0.5,
        factor: 2.0,
        sample_rate: 1.0,
        update_time: 0.0,
        nconnections: 2,
        graph_type: GraphType::Vertical,
        units: "V".into(),
        ..Default::default()
    };
    let (mut done, id) = run(
        vec![vec![1.0f32, 3.0], vec![f32::NAN, -1.0]],
        WebNumberSink::new(params).unwrap(),
    );
    let sink = done.block_mut::<WebNumberSink>(id).unwrap();
    let frame = sink.reading("frame").unwrap();
    assert_eq!(get(&frame, "seq"), &Pmt::U64(2));
    // in0: 1, then 0.5·3 + 0.5·1 = 2; in1: NaN reads 0, then -0.5.
    assert_eq!(
        get(&frame, "values"),
        &Pmt::List(vec![Pmt::F64(4.0), Pmt::F64(-1.0)])
    );
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "kind"), &Pmt::from("number"));
    assert_eq!(get(&display, "graph_type"), &Pmt::from("vertical"));
    assert_eq!(get(&display, "units"), &Pmt::from("V"));
    assert_eq!(get(&display, "factor"), &Pmt::F64(2.0));
    assert_eq!(get(&display, "min"), &Pmt::F64(-1.0));
}

#[test]
fn before_any_frame_seq_is_zero() {
    let mut sink = WebTimeSink::<f32>::new(TimeSinkParams::default()).unwrap();
    assert_eq!(get(&sink.reading("frame").unwrap(), "seq"), &Pmt::U64(0));
    assert_eq!(sink.reading("level"), None);
}

#[test]
fn memory_stays_constant_over_many_frames() {
    let params = SpectrumSinkParams {
        fft_size: 256,
        update_time: 0.0,
        average: 0.3,
        ..Default::default()
    };
    let sink = WebFreqSink::<Complex32>::new(SpectrumKind::Freq, params).unwrap();
    let (_, before) = sink.footprint();
    // 2000 frames.
    let (mut done, id) = run(vec![tone(3.0, 256, 256 * 2000)], sink);
    let sink = done.block_mut::<WebFreqSink<Complex32>>(id).unwrap();
    let (seq, after) = sink.footprint();
    assert_eq!(seq, 2000);
    assert_eq!(before, after);
    let db = rows(get(&sink.reading("frame").unwrap(), "db"));
    assert_eq!(db.len(), 1);
    assert_eq!(db[0].len(), 256);
}

#[test]
fn registry_entries_build_every_display() {
    let specs = crate::registry::specs();
    for (name, ty) in [
        ("web_freq_sink", "c32"),
        ("web_freq_sink", "f32"),
        ("web_waterfall_sink", "c32"),
        ("web_time_sink", "f32"),
        ("web_const_sink", "c32"),
        ("web_number_sink", "f32"),
    ] {
        let spec = specs.iter().find(|s| s.name == name).unwrap();
        let values = [
            ("type".to_string(), Pmt::from(ty)),
            ("nconnections".to_string(), Pmt::U64(3)),
        ]
        .into_iter()
        .collect();
        let mut block = spec.build(values).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(block.readings(), ["display", "frame"], "{name}");
        let display = block.reading("display").unwrap();
        assert_eq!(get(&display, "inputs"), &Pmt::U64(3), "{name}");
        assert_eq!(spec.inputs[0].count, Some("nconnections"));
    }
    let spec = specs.iter().find(|s| s.name == "web_const_sink").unwrap();
    let bad = [("type".to_string(), Pmt::from("f32"))]
        .into_iter()
        .collect();
    assert!(spec.build(bad).is_err());
}

#[test]
fn settings_change_a_running_display() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 1024]).repeat(u64::MAX));
    let params = SpectrumSinkParams {
        fft_size: 64,
        ..Default::default()
    };
    let sink = fg.add(WebFreqSink::<Complex32>::new(SpectrumKind::Freq, params).unwrap());
    fg.connect(src, "out", sink, "in0").unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let handle = running.handle();
    let wait = Duration::from_secs(30);
    handle.call(sink, "bandwidth", Pmt::F64(2e6), wait).unwrap();
    handle
        .call(sink, "center_freq", Pmt::F64(1e9), wait)
        .unwrap();
    let display = handle.reading(sink, "display", wait).unwrap();
    assert_eq!(get(&display, "span_hz"), &Pmt::F64(2e6));
    assert_eq!(get(&display, "center_hz"), &Pmt::F64(1e9));
    // Not settable: the FFT size.
    assert!(handle.call(sink, "fft_size", Pmt::U64(128), wait).is_err());
    handle.stop();
    running.wait_timeout(Duration::from_secs(60)).unwrap();
}
