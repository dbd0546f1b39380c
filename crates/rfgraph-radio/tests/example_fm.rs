//! The shipped FM example (`examples/fm/`): the recording is what its
//! `expected.json` says, and the RDS decoder finds its PI, PS and
//! RadioText.

mod common;

use common::{decode_mpx, fm_demod_hz, gr_rds_available, run_gr_script, scratch_dir, write_f32};
use num_complex::Complex32;
use rfgraph_blocks::SampleCodec;
use rfgraph_blocks::sigmf::SigmfRecording;
use rfgraph_radio::rds::RdsContent;
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
        ..RdsContent::default()
    };
    let seen = decode_mpx(&mpx, rate);
    seen.assert_exactly(&content, "examples/fm");
    // The decoder's JSON lines, as `examples/fm/rds.jsonl` shows them
    // (regenerate it with RFGRAPH_WRITE_EXAMPLE=1 after changing the
    // decoder on purpose).
    let shipped = example().join("rds.jsonl");
    let lines = seen.lines.join("\n") + "\n";
    if std::env::var_os("RFGRAPH_WRITE_EXAMPLE").is_some() {
        std::fs::write(&shipped, &lines).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&shipped).unwrap(), lines);
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

/// gr-rds, an independent decoder, finds the example's PI, PS and
/// RadioText too.
#[test]
fn gr_rds_agrees_on_the_example() {
    if !gr_rds_available("gr_rds_agrees_on_the_example") {
        return;
    }
    let expected = expected();
    let (mpx, rate) = example_mpx(&expected);
    let dir = scratch_dir("example_gr");
    let path = dir.join("mpx.f32");
    write_f32(&path, &mpx);
    let found = run_gr_script(
        "decode_mpx.py",
        &[path.to_str().unwrap(), &rate.to_string()],
    );
    assert_eq!(found["pi"], expected["rds"]["pi"], "{found}");
    assert_eq!(found["ps"], expected["rds"]["ps"], "{found}");
    assert_eq!(found["rt"], expected["rds"]["rt"], "{found}");
    let _ = std::fs::remove_dir_all(&dir);
}
