//! `rfgraph bench wlan`: one record per mode, capture and run; the
//! receiver decodes every frame of the 25 dB capture, on 2 cores and on
//! 1, and never reports a frame that was not sent. Never an assertion on
//! how long anything took.

mod common;

#[test]
fn one_record_per_mode_and_capture_with_the_frames_decoded() {
    let dir = std::env::temp_dir().join(format!("rfgraph-bench-wlan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.display().to_string();
    let (ok, lines, err) = common::bench(&[
        "wlan",
        "--frames",
        "48",
        "--snr",
        "25,10",
        "--dir",
        &d,
        "--scheduler",
        "chain",
    ]);
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "{err}");
    assert_eq!(leftovers, 0, "the files are removed without --keep");
    // 2 cores on both captures, 1 core on the speed capture.
    assert_eq!(lines.len(), 3, "{lines:?}");
    for line in &lines {
        common::assert_span(line);
        assert_eq!(line["experiment"], "wlan");
        common::assert_rate(line, "samples_per_s", line["samples"].as_f64().unwrap());
        assert_eq!(line["frames_sent"], 48, "{line}");
        assert_eq!(line["frames_bad"], 0, "{line}");
        if line["snr_db"] == 25.0 {
            assert_eq!(line["frames_decoded"], 48, "{line}");
        } else {
            // At 10 dB the BPSK and QPSK frames get through.
            assert!(line["frames_decoded"].as_u64().unwrap() >= 18, "{line}");
        }
    }
    let modes: Vec<&str> = lines.iter().map(|l| l["mode"].as_str().unwrap()).collect();
    assert_eq!(modes, ["rfgraph-2core", "rfgraph-2core", "rfgraph-1core"]);
    assert!(err.contains("gr-ieee802-11"), "the skip is said: {err}");
}
