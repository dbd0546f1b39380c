//! The shipped FM example (`examples/fm/`): the recording is what its
//! `expected.json` (the generator's content) says; its RDS lines,
//! `rds.jsonl` (what `rfgraph fm` prints for it, which rfgraph-cli's
//! `fm_cli` compares with), agree field by field with gr-rds's decoder
//! run on the same recording, demodulated by GNU Radio, and with the
//! generator's content; rfgraph's RDS decoder after a plain FM
//! demodulator prints them too.

mod common;

use common::{decode_mpx, fm_demod_hz, gr_rds_available, run_gr_script};
use num_complex::Complex32;
use rfgraph_blocks::SampleCodec;
use rfgraph_blocks::sigmf::SigmfRecording;
use rfgraph_radio::rds::{DecoderId, RdsContent};
use serde_json::{Value, json};
use std::path::PathBuf;

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/fm")
}

fn expected() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(example().join("expected.json")).unwrap())
        .unwrap()
}

/// The example's multiplex after a plain FM demodulator, and its rate.
fn example_mpx(expected: &serde_json::Value) -> (Vec<f32>, f64) {
    let rec = SigmfRecording::open(example().join("station.sigmf-meta")).unwrap();
    let rate = expected["sample_rate"].as_f64().unwrap();
    assert_eq!(rec.meta().global.sample_rate, Some(rate));
    assert_eq!(rec.samples(), expected["samples"].as_u64().unwrap());
    assert_eq!(
        rec.meta().captures[0].frequency,
        expected["center_frequency"].as_f64()
    );
    let bytes = std::fs::read(rec.data_path()).unwrap();
    let mut iq = vec![Complex32::default(); rec.samples() as usize];
    SampleCodec::new(rec.meta().global.datatype).decode(&bytes, &mut iq);
    let offset = expected["carrier_offset"].as_f64().unwrap();
    let mpx: Vec<f32> = fm_demod_hz(&iq, rate)
        .into_iter()
        .map(|hz| ((hz as f64 - offset) / 75e3) as f32)
        .collect();
    (mpx, rate)
}

#[test]
fn the_example_holds_what_expected_json_says() {
    let expected = expected();
    let (mpx, rate) = example_mpx(&expected);
    let rds = &expected["rds"];
    let content = RdsContent {
        pi: u16::from_str_radix(rds["pi"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap(),
        ps: rds["ps"].as_str().unwrap().trim_end().into(),
        radiotext: rds["rt"].as_str().unwrap().into(),
        pty: rds["pty"].as_u64().unwrap() as u8,
        tp: rds["tp"].as_bool().unwrap(),
        ta: rds["ta"].as_bool().unwrap(),
        music: rds["ms"].as_bool().unwrap(),
        di: DecoderId {
            stereo: rds["di"]["stereo"].as_bool().unwrap(),
            artificial_head: rds["di"]["artificial_head"].as_bool().unwrap(),
            compressed: rds["di"]["compressed"].as_bool().unwrap(),
            dynamic_pty: rds["di"]["dynamic_pty"].as_bool().unwrap(),
        },
        rt_ab: rds["rt_ab"] == "B",
        ..RdsContent::default()
    };
    let seen = decode_mpx(&mpx, rate);
    seen.assert_exactly(&content, "examples/fm");
    // The decoder's JSON lines are the shipped ones, whose every field
    // `rds_jsonl_agrees_with_gr_rds_and_the_generator` establishes.
    let shipped = std::fs::read_to_string(example().join("rds.jsonl")).unwrap();
    assert_eq!(seen.lines.join("\n") + "\n", shipped);
    // With time to spare: the RadioText by 3 s of the 4.
    let rt_at = seen.first_bit["rt"] as f64 / 1187.5;
    assert!(rt_at < 3.0, "RadioText only at {rt_at} s");
    // The tones: left and right as expected.json says, at the audio
    // level (0.87 × amplitude, pre-emphasised), in the sum channel.
    let tone = |f: f64| common::tone(&mpx, rate, f).norm();
    let a = expected["tone_amplitude"].as_f64().unwrap() * 0.87 * 0.5;
    for key in ["left_tone_hz", "right_tone_hz"] {
        let f = expected[key].as_f64().unwrap();
        let pre = (1.0 + (std::f64::consts::TAU * f * 50e-6).powi(2)).sqrt();
        assert!((tone(f) - a * pre).abs() < 0.01, "{key}: {}", tone(f));
    }
}

/// Every field of every line of `rds.jsonl` is what gr-rds decodes from
/// the same recording (GNU Radio's FM demodulator, then gr-rds's
/// receiver chain, decoder and parser: PI, PS, RadioText, TP, TA, MS; PTY
/// and the RadioText A/B flag from its decoder's groups, which the
/// parser does not report; the decoder identification from those groups
/// too, because gr-rds's parser reads the DI segments in reverse (it
/// takes segment 0's bit for stereo, where IEC 62106 3.2.1.5 puts d3,
/// dynamic PTY, and segment 3's, d0 stereo, for static PTY)), and what
/// the generator sent (`expected.json`). Every field rfgraph prints is
/// among them.
#[test]
fn rds_jsonl_agrees_with_gr_rds_and_the_generator() {
    if !gr_rds_available("rds_jsonl_agrees_with_gr_rds_and_the_generator") {
        return;
    }
    let sent = &expected()["rds"];
    let meta = example().join("station.sigmf-meta");
    let gr = run_gr_script("decode_mpx.py", &["--sigmf", meta.to_str().unwrap()]);
    for key in ["pi", "ps", "rt"] {
        assert!(gr[key].is_string(), "gr-rds found no {key}: {gr}");
    }
    // gr-rds saw one value of each field throughout.
    let raw = &gr["raw"];
    let only = |v: &Value| -> Value {
        let all = v.as_array().unwrap_or_else(|| panic!("{v} in {gr}"));
        assert_eq!(all.len(), 1, "gr-rds saw {v}: {gr}");
        all[0].clone()
    };
    for key in ["pi", "ps", "tp", "ta", "ms"] {
        only(&gr["values"][key]);
    }
    // gr-rds's parser and the raw groups agree on TP, TA and MS.
    for key in ["tp", "ta", "ms"] {
        assert_eq!(gr["flags"][key], only(&raw[key]), "{key}: {gr}");
    }
    // What gr-rds says of each field rfgraph prints.
    let gr_rds = |key: &str| -> Value {
        match key {
            "pi" | "ps" | "rt" => gr[key].clone(),
            "tp" | "ta" | "ms" => gr["flags"][key].clone(),
            "pty" | "rt_ab" => only(&raw[key]),
            "di" => json!({
                "stereo": only(&raw["di"]["stereo"]),
                "artificial_head": only(&raw["di"]["artificial_head"]),
                "compressed": only(&raw["di"]["compressed"]),
                "dynamic_pty": only(&raw["di"]["dynamic_pty"]),
            }),
            other => panic!("rds.jsonl has {other}, which nothing here checks"),
        }
    };
    let text = std::fs::read_to_string(example().join("rds.jsonl")).unwrap();
    let mut keys = std::collections::BTreeSet::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        for (key, value) in v.as_object().unwrap() {
            keys.insert(key.clone());
            assert_eq!(*value, gr_rds(key), "{key} in {line}: gr-rds {gr}");
            assert_eq!(*value, sent[key], "{key} in {line}: sent {sent}");
        }
    }
    let want = ["di", "ms", "pi", "ps", "pty", "rt", "rt_ab", "ta", "tp"];
    assert_eq!(keys.iter().collect::<Vec<_>>(), want, "{text}");
    // The programme type by the name gr-rds's parser gives it (its RDS
    // table, not RBDS's): 10 is pop music.
    assert_eq!(sent["pty"], 10);
    assert_eq!(gr["pty"], "Pop Music", "{gr}");
}
