//! The flowgraph files under `examples/flowgraphs` build with the
//! standard registry and compute what they say.

use rfgraph_flowfile::build::{BuildOptions, build_file};
use std::path::PathBuf;
use std::time::Duration;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/flowgraphs")
        .join(name)
}

/// Asserts that the standard registry has every block of `names` (the
/// examples are shipped with the library, so a missing block is a
/// failure, not a skip).
fn assert_registry_has(test: &str, names: &[&str]) {
    let registry = rfgraph_flowfile::standard::registry();
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| registry.get(n).is_err())
        .collect();
    assert!(
        missing.is_empty(),
        "{test}: the standard registry lacks {missing:?}"
    );
}

/// The example's output for a tone of `freq` Hz, computed directly: the
/// cosine through GNU Radio's low-pass design, zero history.
fn expected(freq: f64) -> Vec<f32> {
    use rfgraph_dsp::firdes::{WinType, low_pass};
    let fs = 48e3;
    let taps = low_pass(1.0, fs, 4e3, 1e3, WinType::Hamming, 6.76).unwrap();
    let x: Vec<f64> = (0..48_000)
        .map(|n| 0.5 * (2.0 * std::f64::consts::PI * freq * n as f64 / fs).cos())
        .collect();
    (0..x.len())
        .map(|n| {
            (0..taps.len().min(n + 1))
                .map(|k| f64::from(taps[k]) * x[n - k])
                .sum::<f64>() as f32
        })
        .collect()
}

fn run(freq: Option<&str>, out: &std::path::Path) -> Vec<f32> {
    let mut options = BuildOptions::default();
    options.set(&format!("path={}", out.display())).unwrap();
    if let Some(f) = freq {
        options.set(&format!("freq={f}")).unwrap();
    }
    let built = build_file(
        &example("tone_lowpass.toml"),
        &rfgraph_flowfile::standard::registry(),
        &options,
    )
    .unwrap();
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(Duration::from_secs(60))
        .unwrap();
    std::fs::read(out)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn tone_lowpass_passes_1_khz_and_stops_12_khz() {
    assert_registry_has(
        "tone_lowpass_passes_1_khz_and_stops_12_khz",
        &["sig_source", "low_pass_filter", "file_sink"],
    );
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("examples");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("tone.f32");
    for (freq, f) in [(None, 1e3), (Some("12e3"), 12e3)] {
        let got = run(freq, &out);
        let want = expected(f);
        assert_eq!(got.len(), want.len());
        let worst = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(worst < 1e-4, "{f} Hz: off by {worst}");
        let peak = got[1000..].iter().map(|v| v.abs()).fold(0f32, f32::max);
        if f < 4e3 {
            assert!((peak - 0.5).abs() < 0.01, "passes: peak {peak}");
        } else {
            assert!(peak < 0.005, "stops: peak {peak}");
        }
    }
}

/// Power of `x` at `freq` Hz (Goertzel), per sample.
fn tone_power(x: &[f32], rate: f64, freq: f64) -> f64 {
    let w = 2.0 * std::f64::consts::PI * freq / rate;
    let (mut s1, mut s2) = (0.0f64, 0.0f64);
    for &v in x {
        let s = f64::from(v) + 2.0 * w.cos() * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    (s1 * s1 + s2 * s2 - 2.0 * w.cos() * s1 * s2) / (x.len() as f64).powi(2)
}

#[test]
fn fm_receiver_hears_both_tones_of_the_shipped_station() {
    assert_registry_has(
        "fm_receiver_hears_both_tones_of_the_shipped_station",
        &["sigmf_source", "wfm_rcv", "wavfile_sink"],
    );
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("examples");
    std::fs::create_dir_all(&dir).unwrap();
    let wav = dir.join("fm_mono.wav");
    let mut options = BuildOptions::default();
    let recording = root.join("examples/fm/station.sigmf-meta");
    options
        .set(&format!("recording={}", recording.display()))
        .unwrap();
    options.set(&format!("out={}", wav.display())).unwrap();
    let built = build_file(
        &example("fm_receiver.toml"),
        &rfgraph_flowfile::standard::registry(),
        &options,
    )
    .unwrap();
    // The progress bar's total: 4 s of cu8 at 240 kS/s.
    assert_eq!(built.sources.len(), 1);
    assert_eq!(built.sources[0].total_items, 960_000);
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(Duration::from_secs(120))
        .unwrap();
    let mut reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!((spec.channels, spec.sample_rate), (1, 48_000));
    let samples: Vec<f32> = match spec.sample_format {
        hound::SampleFormat::Float => reader.samples::<f32>().map(Result::unwrap).collect(),
        hound::SampleFormat::Int => reader
            .samples::<i32>()
            .map(|s| s.unwrap() as f32 / (1u32 << (spec.bits_per_sample - 1)) as f32)
            .collect(),
    };
    assert_eq!(samples.len(), 192_000, "4 s at 48 kHz");
    // Mono is (L + R) / 2: both tones, nothing between them.
    let settled = &samples[48_000..];
    let left = tone_power(settled, 48e3, 1000.0);
    let right = tone_power(settled, 48e3, 2500.0);
    let between = tone_power(settled, 48e3, 1700.0);
    assert!(left > 100.0 * between, "1 kHz {left} vs {between}");
    assert!(right > 100.0 * between, "2.5 kHz {right} vs {between}");
}

#[test]
fn adsb_receiver_decodes_what_rfgraph_adsb_prints() {
    assert_registry_has(
        "adsb_receiver_decodes_what_rfgraph_adsb_prints",
        &[
            "sigmf_source",
            "modes_cu8_magnitude",
            "modes_demod",
            "modes_decoder",
            "message_sink",
        ],
    );
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut options = BuildOptions::default();
    let recording = root.join("examples/adsb/traffic.sigmf-meta");
    options
        .set(&format!("recording={}", recording.display()))
        .unwrap();
    let built = build_file(
        &example("adsb_receiver.toml"),
        &rfgraph_flowfile::standard::registry(),
        &options,
    )
    .unwrap();
    let sink = built
        .blocks
        .iter()
        .find(|b| b.name == "messages")
        .unwrap()
        .id;
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(Duration::from_secs(120))
        .unwrap();
    let got: Vec<serde_json::Value> = done
        .block::<rfgraph_blocks::MessageSink>(sink)
        .unwrap()
        .messages()
        .iter()
        .map(|m| match m {
            rfgraph::Pmt::String(s) => serde_json::from_str(s).unwrap(),
            other => panic!("not a JSON string: {other:?}"),
        })
        .collect();
    let expected: Vec<serde_json::Value> =
        std::fs::read_to_string(root.join("examples/adsb/traffic.expected.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    assert_eq!(got.len(), expected.len());
    assert_eq!(got, expected);
}

/// The loopback modem's recovered bits: the access code, then the
/// payload (`list(range(256)) * 4`) bit for bit, on every scheduler.
#[test]
fn loopback_modem_recovers_the_payload_bit_for_bit() {
    let dir = std::env::temp_dir().join(format!("rfgraph-loopback-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["tpb", "single", "pool", "chain"] {
        let out = dir.join(format!("{name}.u8"));
        let mut options = BuildOptions::default();
        options.set(&format!("out={}", out.display())).unwrap();
        options.scheduler = Some(name.to_string());
        let built = build_file(
            &example("loopback_modem.toml"),
            &rfgraph_flowfile::standard::registry(),
            &options,
        )
        .unwrap();
        let scheduler = built.scheduler.scheduler().unwrap();
        built
            .flowgraph
            .start(scheduler)
            .unwrap()
            .wait_timeout(Duration::from_secs(60))
            .unwrap();
        let bits: Vec<u8> = std::fs::read(&out).unwrap().iter().map(|b| b & 1).collect();
        let access: Vec<u8> = [0xacu8, 0xdd, 0xa4, 0xe2]
            .iter()
            .flat_map(|&b| (0..8).rev().map(move |i| (b >> i) & 1))
            .collect();
        let at = bits
            .windows(access.len())
            .position(|w| w == access.as_slice())
            .unwrap_or_else(|| panic!("{name}: no access code in {} bits", bits.len()));
        let payload: Vec<u8> = bits[at + access.len()..]
            .chunks_exact(8)
            .take(1024)
            .map(|c| c.iter().fold(0u8, |acc, &b| (acc << 1) | b))
            .collect();
        let expected: Vec<u8> = (0..4).flat_map(|_| 0..=255u8).collect();
        assert_eq!(payload, expected, "{name}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `web_displays.toml`: every display shows frames of the tone, and the
/// variables carry their widgets.
#[test]
fn web_displays_show_the_tone() {
    use rfgraph::{Block, Pmt};
    use rfgraph_blocks::display::{WebFreqSink, WebNumberSink};
    let mut options = BuildOptions::default();
    options.set("items=960000").unwrap();
    options.set("samp_rate=4.8e6").unwrap();
    let built = build_file(
        &example("web_displays.toml"),
        &rfgraph_flowfile::standard::registry(),
        &options,
    )
    .unwrap();
    let slider = built.control.widget("freq").unwrap().to_json();
    assert_eq!(slider["style"], "slider");
    assert_eq!(built.control.label("noise_level"), Some("Noise"));
    let id = |name: &str| built.blocks.iter().find(|b| b.name == name).unwrap().id;
    let (spectrum, level) = (id("spectrum"), id("level"));
    let scheduler = built.scheduler.scheduler().unwrap();
    let mut done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(Duration::from_secs(60))
        .unwrap();
    let frame = done
        .block_mut::<WebFreqSink<num_complex::Complex32>>(spectrum)
        .unwrap()
        .reading("frame")
        .unwrap();
    let Pmt::Map(frame) = frame else {
        panic!("a map")
    };
    // 960000 items at 4.8 MHz: a frame each 480000 items (0.1 s).
    assert_eq!(frame["seq"], Pmt::U64(2));
    let Pmt::List(db) = &frame["db"] else {
        panic!("db")
    };
    let Pmt::VecF32(db) = &db[0] else {
        panic!("db[0]")
    };
    // 5 kHz of 4.8 MHz over 1024 bins: one bin above DC.
    let peak = (0..1024).max_by(|&a, &b| db[a].total_cmp(&db[b])).unwrap();
    assert_eq!(peak, 512 + 1);
    let level = done.block_mut::<WebNumberSink>(level).unwrap();
    let Pmt::Map(frame) = level.reading("frame").unwrap() else {
        panic!("a map")
    };
    assert_eq!(frame["seq"], Pmt::U64(2));
    // The tone's magnitude, averaged, with some noise: near 1.
    let Pmt::List(values) = &frame["values"] else {
        panic!("values")
    };
    assert!(
        matches!(values[0], Pmt::F64(v) if (v - 1.0).abs() < 0.2),
        "{values:?}"
    );
}
