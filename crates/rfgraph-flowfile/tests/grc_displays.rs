//! GNU Radio's Qt GUI sinks imported as web displays
//! (`grc_displays/displays.grc`): each maps to its `web_*_sink` with GNU
//! Radio's parameters, builds, runs, and shows frames; a message-input
//! sink stays a null sink with a notice.

use num_complex::Complex32;
use rfgraph::{Block, Pmt};
use rfgraph_blocks::display::{WebConstSink, WebFreqSink, WebNumberSink, WebTimeSink};
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use rfgraph_flowfile::model::{Document, Value};
use std::path::Path;
use std::time::Duration;

const WATCHDOG: Duration = Duration::from_secs(60);

fn load() -> Document {
    let registry = rfgraph_flowfile::standard::registry();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grc_displays/displays.grc");
    grc::load(&path, &registry).unwrap()
}

fn param(doc: &Document, block: &str, name: &str) -> Option<Value> {
    doc.block(block)?.param(name).map(|p| p.value.clone())
}

fn get<'a>(map: &'a Pmt, key: &str) -> &'a Pmt {
    match map {
        Pmt::Map(m) => m
            .get(key)
            .unwrap_or_else(|| panic!("no `{key}` in {map:?}")),
        other => panic!("not a map: {other:?}"),
    }
}

fn expr(text: &str) -> Option<Value> {
    Some(Value::Expr(text.into()))
}

fn text(text: &str) -> Option<Value> {
    Some(Value::Text(text.into()))
}

#[test]
fn qt_gui_sinks_map_to_web_displays_with_their_parameters() {
    let doc = load();
    let kind = |name: &str| doc.block(name).map(|b| b.kind.as_str());
    assert_eq!(kind("spectrum"), Some("web_freq_sink"));
    assert_eq!(kind("waterfall"), Some("web_waterfall_sink"));
    assert_eq!(kind("scope"), Some("web_time_sink"));
    assert_eq!(kind("constellation"), Some("web_const_sink"));
    assert_eq!(kind("level"), Some("web_number_sink"));
    assert_eq!(kind("fresh"), Some("web_freq_sink"));
    // Message input: no stream to show, still a null sink with a notice.
    assert_eq!(kind("msg_spectrum"), None);
    assert!(
        doc.notices.iter().any(|n| n.contains("msg_spectrum")),
        "{:?}",
        doc.notices
    );

    let p = |b, n| param(&doc, b, n);
    assert_eq!(p("spectrum", "type"), text("c32"));
    assert_eq!(p("spectrum", "fft_size"), expr("2048"));
    assert_eq!(p("spectrum", "center_freq"), expr("100e6"));
    assert_eq!(p("spectrum", "bandwidth"), expr("samp_rate"));
    assert_eq!(p("spectrum", "y_min"), expr("-120"));
    assert_eq!(p("spectrum", "average"), expr("0.2"));
    assert_eq!(p("spectrum", "nconnections"), expr("2"));
    assert_eq!(p("spectrum", "window"), text("hamming"));
    assert_eq!(p("spectrum", "labels"), expr("[\"RX\"]"));
    // GRC 3.10 writes a freq sink's untouched `average` as `False`: none.
    assert_eq!(p("fresh", "average"), expr("1.0"));
    // No flat-top window here: the default.
    assert_eq!(p("fresh", "window"), text("blackman_harris"));
    assert_eq!(p("waterfall", "y_min"), expr("-100"));
    assert_eq!(p("waterfall", "y_max"), expr("0"));
    assert_eq!(p("waterfall", "labels"), None);
    assert_eq!(p("scope", "type"), text("f32"));
    assert_eq!(p("scope", "points"), expr("256"));
    assert_eq!(p("scope", "sample_rate"), expr("samp_rate"));
    assert_eq!(p("scope", "labels"), expr("[\"Signal 1\", \"Signal 2\"]"));
    assert_eq!(p("constellation", "x_min"), expr("-1.5"));
    assert_eq!(p("level", "graph_type"), text("vertical"));
    assert_eq!(p("level", "average"), expr("0.01"));
    assert_eq!(p("level", "factor"), expr("2"));
}

#[test]
fn the_imported_displays_run_and_show_frames() {
    let doc = load();
    let registry = rfgraph_flowfile::standard::registry();
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let id = |name: &str| built.blocks.iter().find(|b| b.name == name).unwrap().id;
    let (spectrum, scope, constellation, level) = (
        id("spectrum"),
        id("scope"),
        id("constellation"),
        id("level"),
    );
    let scheduler = built.scheduler.scheduler().unwrap();
    let mut done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();

    let sink = done.block_mut::<WebFreqSink<Complex32>>(spectrum).unwrap();
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "title"), &Pmt::from("Spectrum"));
    assert_eq!(get(&display, "gui_hint"), &Pmt::from("tab@1:0,0,1,2"));
    assert_eq!(get(&display, "span_hz"), &Pmt::F64(32000.0));
    assert_eq!(
        get(&display, "labels"),
        &Pmt::List(vec![Pmt::from("RX"), Pmt::from("Data 1")])
    );
    let frame = sink.reading("frame").unwrap();
    // 320000 items at 32 kHz: ten seconds, a frame each 0.1 s.
    assert_eq!(get(&frame, "seq"), &Pmt::U64(100));
    let Pmt::List(db) = get(&frame, "db") else {
        panic!("db")
    };
    let Pmt::VecF32(db) = &db[1] else {
        panic!("db[1]")
    };
    // 4 kHz of 32 kHz over 2048 bins: bin 1024 + 256.
    let peak = (0..2048).max_by(|&a, &b| db[a].total_cmp(&db[b])).unwrap();
    assert_eq!(peak, 1024 + 256);

    let sink = done.block_mut::<WebTimeSink<f32>>(scope).unwrap();
    assert_eq!(get(&sink.reading("frame").unwrap(), "seq"), &Pmt::U64(100));
    assert_eq!(
        get(&sink.reading("display").unwrap(), "units"),
        &Pmt::from("V")
    );
    let sink = done.block_mut::<WebConstSink>(constellation).unwrap();
    assert_ne!(get(&sink.reading("frame").unwrap(), "seq"), &Pmt::U64(0));
    let sink = done.block_mut::<WebNumberSink>(level).unwrap();
    assert_ne!(get(&sink.reading("frame").unwrap(), "seq"), &Pmt::U64(0));
    let display = sink.reading("display").unwrap();
    assert_eq!(get(&display, "units"), &Pmt::from("V"));
    assert_eq!(get(&display, "gui_hint"), &Pmt::from("2,0,1,1"));
}
