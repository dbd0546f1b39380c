//! The JSON contract of `rfgraph bench fm`: one record per run with the
//! input samples counted exactly, the stereo decoder locked, and the rates
//! being samples per `seconds`. No timing.

mod common;

use common::{assert_rate, assert_span, bench};

#[test]
fn fm_records_count_every_sample_and_lock() {
    let dir = std::env::temp_dir().join(format!("rfgraph-bench-fm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.display().to_string();
    for (scheduler, cores, mono) in [("chain", "1", false), ("single", "1", true)] {
        let mut args = vec![
            "fm",
            "--items",
            "480000",
            "--dir",
            &d,
            "--scheduler",
            scheduler,
            "--cores",
            cores,
            "--repeat",
            "2",
        ];
        if mono {
            args.push("--mono");
        }
        let (ok, lines, err) = bench(&args);
        assert!(ok, "{err}");
        assert_eq!(lines.len(), 2, "{lines:?}");
        for l in &lines {
            assert_eq!(l["experiment"], "fm");
            assert_eq!(l["scheduler"], scheduler);
            assert_eq!(l["items"], 480_000);
            assert_eq!(l["mode"], if mono { "mono" } else { "stereo" });
            assert_eq!(l["stereo_locked"], !mono);
            assert_eq!(l["audio_samples"], 9_600);
            assert_eq!(l["channel_taps"], 33 + 45);
            assert_span(l);
            assert_rate(l, "items_per_s", 480_000.0);
            let rate = 480_000.0 / l["seconds"].as_f64().unwrap();
            assert!((l["real_time"].as_f64().unwrap() * 2.4e6 / rate - 1.0).abs() < 1e-9);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
