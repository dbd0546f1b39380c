//! The flowgraph files under `examples/flowgraphs` build with the
//! standard registry and compute what they say.

use rfgraph_registry::build::{BuildOptions, build_file};
use std::path::PathBuf;
use std::time::Duration;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/flowgraphs")
        .join(name)
}

/// True when the standard registry has every block of `names`; else one
/// line says which test is skipped.
fn registry_has(test: &str, names: &[&str]) -> bool {
    let registry = rfgraph_registry::standard::registry();
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| registry.get(n).is_err())
        .collect();
    if !missing.is_empty() {
        eprintln!("skipping {test}: the standard registry has no {missing:?} yet");
    }
    missing.is_empty()
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
        &rfgraph_registry::standard::registry(),
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
    if !registry_has(
        "tone_lowpass_passes_1_khz_and_stops_12_khz",
        &["sig_source", "low_pass_filter", "file_sink"],
    ) {
        return;
    }
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
