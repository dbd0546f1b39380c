//! Settable variables changed while a graph built from a file runs: the
//! change reaches the block settings that depend on it (through other
//! variables and expressions) on every scheduler, and the output switches
//! from the old product to the new one exactly once; unknown and
//! non-settable variables and bad values are refused, naming the
//! variable, and nothing changes then; parameters that are no settings
//! are reported as taking effect at the next run.

mod common;

use common::TIMEOUT;
use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph_flowfile::build::{BuildOptions, Built, ControlError, build};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// `src` writes 2.0 forever; `mul` multiplies by `10 ** (gain / 20)`
/// (1 at the file's `gain` of 0 dB); `snk` writes a file the test reads
/// while the graph runs.
const GRAPH: &str = r#"format = 1
connections = ["src -> thr -> mul -> snk"]

[variables]
gain = { value = 0, settable = true }
level = "10 ** (gain / 20)"
samp_rate = { value = 200000, settable = true }
chunk = { value = 1, settable = true }
fixed = 3

[blocks.src]
kind = "const_source"
type = "f32"
constant = 2.0

[blocks.thr]
kind = "throttle"
type = "f32"
sample_rate = "samp_rate"
vlen = "chunk"

[blocks.mul]
kind = "multiply_const"
type = "f32"
constant = "level"

[blocks.snk]
kind = "file_sink"
type = "f32"
path = "OUT"
"#;

fn schedulers() -> Vec<(&'static str, Box<dyn Scheduler>)> {
    vec![
        ("tpb", Box::new(Tpb::new())),
        ("single", Box::new(Single::new())),
        ("pool", Box::new(Pool::new())),
        ("chain", Box::new(Chain::new())),
    ]
}

fn out_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("control");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.f32"));
    let _ = std::fs::remove_file(&path);
    path
}

fn built(out: &Path) -> Built {
    let text = GRAPH.replace("OUT", &out.display().to_string());
    let doc = rfgraph_flowfile::toml::parse(&text, Arc::new(PathBuf::from("control.toml")))
        .expect("parses");
    build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &BuildOptions::default(),
    )
    .expect("builds")
}

/// The whole items written so far.
fn read_f32(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Waits (at most [`TIMEOUT`]) until the file at `path` holds an item
/// for which `ok` holds.
fn wait_for(path: &Path, what: &str, ok: impl Fn(f32) -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !read_f32(path).into_iter().any(&ok) {
        assert!(Instant::now() < deadline, "no {what} written in time");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// `[a, a, ..., b, b, ...]`: `(count of a, count of b)`, or the first
/// item that is neither in its place.
fn runs(items: &[f32], a: f32, b: f32) -> Result<(usize, usize), (usize, f32)> {
    let k = items.iter().take_while(|&&x| x == a).count();
    match items[k..].iter().position(|&x| x != b) {
        Some(i) => Err((k + i, items[k + i])),
        None => Ok((k, items.len() - k)),
    }
}

#[test]
fn setting_gain_switches_the_product_once_on_every_scheduler() {
    let old = 2.0f32;
    let new = 2.0f32 * 10f64.powf(20.0 / 20.0) as f32;
    for (name, scheduler) in schedulers() {
        let out = out_file(&format!("switch_{name}"));
        let built = built(&out);
        let mut control = built.control;
        let running = built.flowgraph.start(scheduler).expect("starts");
        let handle = running.handle();
        // Some items at the old gain first, so both runs are there.
        wait_for(&out, "item at the old gain", |x| x == old);
        let change = control.set(&handle, "gain", "20");
        // Wait for the new product before stopping (a failed change never
        // writes it: the watchdog fails the test).
        if change.is_ok() {
            wait_for(&out, "item at the new gain", |x| x == new);
        }
        handle.stop();
        running.wait_timeout(TIMEOUT).expect("stops in time");
        let change = change.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(change.to_string(), "gain = 20: mul.constant = 10.0");
        assert_eq!(
            change.variables,
            vec![(
                "level".to_string(),
                rfgraph_flowfile::expr::Value::Float(10.0)
            )]
        );
        assert!(change.failed.is_empty() && change.deferred.is_empty());
        assert_eq!(
            control.value("level"),
            Some(&rfgraph_flowfile::expr::Value::Float(10.0))
        );
        let items = read_f32(&out);
        match runs(&items, old, new) {
            Ok((before, after)) => {
                assert!(before > 0 && after > 0, "{name}: {before} then {after}")
            }
            Err((i, x)) => panic!("{name}: item {i} is {x}, neither {old} then {new}"),
        }
    }
}

#[test]
fn mistakes_are_refused_and_change_nothing() {
    let out = out_file("mistakes");
    let built = built(&out);
    let mut control = built.control;
    assert_eq!(control.settable(), vec!["gain", "samp_rate", "chunk"]);
    let running = built.flowgraph.start(Single::new()).expect("starts");
    let handle = running.handle();
    wait_for(&out, "first item", |x| x == 2.0);
    let results = [
        control.set(&handle, "gian", "3").map(|c| c.to_string()),
        control.set(&handle, "fixed", "4").map(|c| c.to_string()),
        control.set(&handle, "gain", "1 / 0").map(|c| c.to_string()),
        // Text that is no expression is a string; `level` cannot divide it.
        control.set(&handle, "gain", "loud").map(|c| c.to_string()),
        control
            .set_line(&handle, "no assignment")
            .map(|c| c.to_string()),
        // `samp_rate` reaches the throttle's rate, live as GNU Radio's
        // set_sample_rate.
        control
            .set_line(&handle, " samp_rate = 1e5 ")
            .map(|c| c.to_string()),
        // `chunk` reaches the throttle's vector length, which is no
        // setting.
        control.set(&handle, "chunk", "1").map(|c| c.to_string()),
        // A string where the throttle's rate (a float) is needed.
        control
            .set(&handle, "samp_rate", "'fast'")
            .map(|c| c.to_string()),
    ];
    handle.stop();
    running.wait_timeout(TIMEOUT).expect("stops in time");
    match &results[0] {
        Err(ControlError::UnknownVariable { name, suggest }) => {
            assert_eq!(name, "gian");
            assert_eq!(suggest.as_deref(), Some("gain"));
        }
        other => panic!("{other:?}"),
    }
    let e = results[0].as_ref().unwrap_err().to_string();
    assert_eq!(e, "no variable `gian` (did you mean `gain`?)");
    let e = results[1].as_ref().unwrap_err();
    assert!(matches!(e, ControlError::NotSettable { name, .. } if name == "fixed"));
    assert!(e.to_string().contains("control.toml:"), "{e}");
    let e = results[2].as_ref().unwrap_err();
    assert!(
        matches!(e, ControlError::Value { variable, target, .. } if variable == "gain" && target == "gain"),
        "{e:?}"
    );
    assert!(e.to_string().contains("division by zero"), "{e}");
    let e = results[3].as_ref().unwrap_err();
    assert!(
        matches!(e, ControlError::Value { variable, target, .. } if variable == "gain" && target == "level"),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with("cannot set `gain` to `loud`"),
        "{e}"
    );
    assert!(matches!(
        results[4].as_ref().unwrap_err(),
        ControlError::Assignment(_)
    ));
    assert_eq!(
        results[5].as_ref().unwrap(),
        "samp_rate = 100000.0: thr.sample_rate = 100000.0"
    );
    assert_eq!(
        results[6].as_ref().unwrap(),
        "chunk = 1: no block setting reached; takes effect at the next run: thr.vlen"
    );
    let e = results[7].as_ref().unwrap_err().to_string();
    assert_eq!(
        e,
        "cannot set `samp_rate` to `'fast'`: `thr.sample_rate`: expected float, found str \"fast\""
    );
    assert_eq!(
        control.value("samp_rate"),
        Some(&rfgraph_flowfile::expr::Value::Float(1e5))
    );
    // All or nothing: the failed values left `gain` and `level` as they
    // were, and only the old product was ever written.
    assert_eq!(
        control.value("gain"),
        Some(&rfgraph_flowfile::expr::Value::Int(0))
    );
    assert_eq!(
        control.value("level"),
        Some(&rfgraph_flowfile::expr::Value::Float(1.0))
    );
    let items = read_f32(&out);
    assert!(!items.is_empty() && items.iter().all(|&x| x == 2.0));
}

/// A radio's frequency and gain follow settable variables while the
/// graph runs, as GNU Radio's hardware sources follow theirs through
/// `set_center_freq` and `set_gain` (here on seify's dummy device, which
/// stores what it is set to): the change is a setting, not a next-run
/// value, and the device's `status` reads it back.
#[test]
fn a_radio_retunes_when_its_variables_change() {
    const RADIO: &str = r#"format = 1
connections = ["radio -> snk"]

[variables]
freq = { value = 100e6, settable = true }
gain = { value = 10, settable = true }

[blocks.radio]
kind = "sdr_source"
args = "driver=dummy"
frequency = "freq"
gain = "gain"
sample_rate = 1e6

[blocks.snk]
kind = "null_sink"
type = "c32"
"#;
    let doc = rfgraph_flowfile::toml::parse(RADIO, Arc::new(PathBuf::from("radio.toml")))
        .expect("parses");
    let built = build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &BuildOptions::default(),
    )
    .expect("builds");
    let radio = built.blocks.iter().find(|b| b.name == "radio").unwrap().id;
    let mut control = built.control;
    let running = built.flowgraph.start(Tpb::new()).expect("starts");
    let handle = running.handle();
    let results = [
        control
            .set(&handle, "freq", "101.5e6")
            .map(|c| c.to_string()),
        control.set(&handle, "gain", "20").map(|c| c.to_string()),
    ];
    let status = handle.call(radio, "status", rfgraph::Pmt::Null, TIMEOUT);
    handle.stop();
    running.wait_timeout(TIMEOUT).expect("stops in time");
    assert_eq!(
        results[0].as_deref(),
        Ok("freq = 101500000.0: radio.frequency = 101500000.0")
    );
    assert_eq!(results[1].as_deref(), Ok("gain = 20: radio.gain = 20"));
    let Ok(rfgraph::Pmt::Map(status)) = status else {
        panic!("{status:?}")
    };
    assert_eq!(status["frequency"], rfgraph::Pmt::F64(101.5e6));
    assert_eq!(status["gain"], rfgraph::Pmt::F64(20.0));
}

/// What a user interface needs to draw each variable: its label and
/// widget, from the file.
#[test]
fn the_controller_gives_each_variables_label_and_widget() {
    let text = r#"format = 1
connections = ["src -> snk"]

[variables]
gain = { value = 1, settable = true, label = "Gain", widget = "slider", range = [0, 10, 1], gui_hint = "1,0" }
mode = { value = 0, settable = true, options = [0, 1], labels = ["AM", "FM"] }
plain = 3

[blocks.src]
kind = "null_source"
type = "f32"

[blocks.snk]
kind = "null_sink"
type = "f32"
"#;
    let doc = rfgraph_flowfile::toml::parse(text, Arc::new(PathBuf::from("widgets.toml")))
        .expect("parses");
    let built = build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &BuildOptions::default(),
    )
    .expect("builds");
    let control = built.control;
    assert_eq!(control.label("gain"), Some("Gain"));
    assert_eq!(control.label("mode"), None);
    assert_eq!(
        control.widget("gain").map(|w| w.to_json()),
        Some(serde_json::json!({
            "kind": "range", "style": "slider", "orient": "horizontal",
            "start": 0.0, "stop": 10.0, "step": 1.0,
            "gui_hint": {"tab": null, "tab_index": null, "row": 1, "col": 0,
                         "row_span": 1, "col_span": 1}
        }))
    );
    assert_eq!(
        control
            .widget("mode")
            .map(|w| w.to_json()["labels"].clone()),
        Some(serde_json::json!(["AM", "FM"]))
    );
    assert!(control.widget("plain").is_none());
    assert!(control.widget("nothing").is_none());
}
