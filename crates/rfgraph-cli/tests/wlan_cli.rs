//! `rfgraph wlan` and `rfgraph gen wlan` through the binary: gr-ieee802-11's
//! captures decode to exactly the MPDUs gr-ieee802-11 decodes (at least
//! those at 10 dB), on every scheduler; generated captures in other
//! formats and SigMF decode to the frames sent; the pcap file is
//! Wireshark's format; bad options are refused naming them.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `rfgraph ARGS` in the workspace root with a watchdog: (success,
/// stdout, stderr).
fn rfgraph(args: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rfgraph binary starts");
    let out = std::thread::scope(|s| {
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let o = s.spawn(move || std::io::read_to_string(stdout).unwrap());
        let e = s.spawn(move || std::io::read_to_string(stderr).unwrap());
        let deadline = Instant::now() + Duration::from_secs(300);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                child.kill().unwrap();
                panic!("rfgraph {args:?} hung");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        (o.join().unwrap(), e.join().unwrap())
    });
    (child.wait().unwrap().success(), out.0, out.1)
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rfgraph-wlan-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn expected(name: &str) -> Vec<String> {
    std::fs::read_to_string(root().join("testdata/wlan").join(name))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn gr_ieee802_11s_capture_decodes_to_its_mpdus_on_every_scheduler() {
    let want = expected("wlan-25db.gr-decoded.txt");
    assert_eq!(want.len(), 24);
    for scheduler in ["chain", "single", "pool", "tpb"] {
        let (ok, out, err) = rfgraph(&[
            "wlan",
            "testdata/wlan/wlan-25db.cf32",
            "--json",
            "--scheduler",
            scheduler,
        ]);
        assert!(ok, "{scheduler}: {err}");
        let frames = json_lines(&out);
        let got: Vec<&str> = frames.iter().map(|f| f["mpdu"].as_str().unwrap()).collect();
        assert_eq!(got, want, "{scheduler}");
        for f in &frames {
            assert_eq!(f["fcs_ok"], true);
            assert!(f["snr_db"].as_f64().unwrap() > 15.0, "{f}");
            for key in ["rate_mbps", "encoding", "length", "cfo_hz", "sample"] {
                assert!(!f[key].is_null(), "{key} in {f}");
            }
        }
        assert!(err.contains("24 frames"), "{scheduler}: {err}");
    }
}

#[test]
fn the_10_db_capture_gives_at_least_gr_ieee802_11s_frames() {
    let want = expected("wlan-10db.gr-decoded.txt");
    let (ok, out, err) = rfgraph(&["wlan", "testdata/wlan/wlan-10db.cf32", "--json"]);
    assert!(ok, "{err}");
    let got: Vec<String> = json_lines(&out)
        .iter()
        .map(|f| f["mpdu"].as_str().unwrap().to_string())
        .collect();
    for m in &want {
        assert!(
            got.contains(m),
            "gr-ieee802-11 decodes {m}, rfgraph does not"
        );
    }
    // Every frame reported is one that was sent (the payloads of the
    // capture are known: `wlan-10db.json`).
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("testdata/wlan/wlan-10db.json")).unwrap(),
    )
    .unwrap();
    let payloads: Vec<&str> = truth["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["payload_hex"].as_str().unwrap())
        .collect();
    for m in &got {
        assert!(
            payloads.iter().any(|p| m.ends_with(p)),
            "a frame that was never sent: {m}"
        );
    }
}

#[test]
fn generated_captures_decode_in_every_format() {
    let dir = Scratch::new("formats");
    for (name, extra) in [
        ("frames.sigmf-meta", &[][..]),
        ("frames.cs16", &["--rate", "20e6"][..]),
        ("frames.cs8", &["--rate", "20e6"][..]),
        ("frames.cf32", &[][..]),
    ] {
        let out = dir.path(name);
        let truth = dir.path(&format!("{name}.truth"));
        let (ok, _, err) = rfgraph(&[
            "gen",
            "wlan",
            "-o",
            &out,
            "--frames",
            "16",
            "--snr",
            "30",
            "--cfo",
            "100e3",
            "--taps",
            "3",
            "--payloads",
            "1,200,1500",
            "--truth",
            &truth,
        ]);
        assert!(ok, "gen {name}: {err}");
        let sent: Vec<Value> = json_lines(&std::fs::read_to_string(&truth).unwrap());
        assert_eq!(sent.len(), 16);
        let mut args = vec!["wlan", out.as_str(), "--json"];
        args.extend_from_slice(extra);
        let (ok, stdout, err) = rfgraph(&args);
        assert!(ok, "{name}: {err}");
        let got = json_lines(&stdout);
        let got_mpdus: Vec<&str> = got.iter().map(|f| f["mpdu"].as_str().unwrap()).collect();
        let sent_mpdus: Vec<&str> = sent.iter().map(|f| f["mpdu"].as_str().unwrap()).collect();
        assert_eq!(got_mpdus, sent_mpdus, "{name}");
        for (g, s) in got.iter().zip(&sent) {
            assert_eq!(g["rate_mbps"], s["rate_mbps"], "{name}");
            let dt = g["sample"].as_i64().unwrap() - s["start"].as_i64().unwrap();
            assert!(dt.abs() <= 16, "{name}: found at {g} for {s}");
        }
    }
}

#[test]
fn pcap_holds_every_frame_with_radiotap_headers() {
    let dir = Scratch::new("pcap");
    let pcap = dir.path("frames.pcap");
    let (ok, _, err) = rfgraph(&[
        "wlan",
        "testdata/wlan/wlan-25db.cf32",
        "--pcap",
        &pcap,
        "--no-frames",
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&pcap).unwrap();
    assert_eq!(&bytes[..4], &0xa1b2_c3d4u32.to_le_bytes(), "pcap magic");
    assert_eq!(
        u32::from_le_bytes(bytes[20..24].try_into().unwrap()),
        127,
        "radiotap"
    );
    let want = expected("wlan-25db.gr-decoded.txt");
    let mut at = 24;
    let mut records = 0;
    while at < bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap()) as usize;
        let rec = &bytes[at + 16..at + 16 + len];
        let rt_len = u16::from_le_bytes([rec[2], rec[3]]) as usize;
        // MPDU and its 4-byte FCS follow the radiotap header.
        let mpdu: String = rec[rt_len..len - 4]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(mpdu, want[records]);
        records += 1;
        at += 16 + len;
    }
    assert_eq!(records, 24);
}

#[test]
fn bad_options_are_refused_naming_them() {
    let (ok, _, err) = rfgraph(&["wlan", "testdata/wlan/wlan-25db.cf32", "--rate", "10e6"]);
    assert!(!ok && err.contains("20 MS/s"), "{err}");
    let (ok, _, err) = rfgraph(&["wlan", "testdata/wlan/wlan-25db.cf32", "--lanes", "0"]);
    assert!(!ok && err.contains("--lanes"), "{err}");
    let dir = Scratch::new("bad");
    let (ok, _, err) = rfgraph(&["gen", "wlan", "-o", &dir.path("x.cf32"), "--rates", "7"]);
    assert!(!ok && err.contains("--rates"), "{err}");
}

/// A device (seify's `dummy`) runs at 20 MS/s on the channel asked for,
/// for as many samples as asked, and finds nothing in its noise.
#[test]
fn a_device_runs_at_20_msps() {
    let (ok, out, err) = rfgraph(&[
        "wlan",
        "--device",
        "driver=dummy",
        "--freq",
        "5.18e9",
        "--samples",
        "400000",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("20000000 samples/s"), "{err}");
    assert!(err.contains("0 frames"), "{err}");
}

/// The receiver's blocks from a flowgraph file (the registry's
/// declarations): two decoders, the frames in order.
#[test]
fn the_example_flowgraph_file_prints_every_frame_in_order() {
    let (ok, out, err) = rfgraph(&["run", "examples/flowgraphs/wlan_receiver.toml"]);
    assert!(ok, "{err}");
    let seqs: Vec<u64> = out
        .match_indices("(seq . ")
        .map(|(i, m)| {
            let rest = &out[i + m.len()..];
            rest[..rest.find(')').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(seqs, (0..24).collect::<Vec<u64>>(), "{out}");
    assert_eq!(out.matches("(fcs_ok . #t)").count(), 24);
}
