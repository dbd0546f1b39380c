//! `rfgraph fm --control` and `rfgraph adsb --control` through the
//! binary: generated recordings played at their own rate (`--throttle`)
//! are served on a control port as `fm` / `adsb`; a real HTTP client
//! finds the port where the command says, lists the receiver's blocks,
//! and reads the live readings: the RDS station's PS and the stereo
//! lock, the aircraft table with a known aircraft; the token guards the
//! port when given; a stop over HTTP ends the command cleanly, its
//! output written.

#[path = "common/served.rs"]
mod served;

use serde_json::Value;
use served::Served;
use std::path::PathBuf;
use std::process::Command;

/// A fresh directory for `name` under the target's scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("receivers_control_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `rfgraph ARGS` in `dir` to completion (generators).
fn rfgraph(dir: &std::path::Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the rfgraph binary starts");
    assert!(
        out.status.success(),
        "rfgraph {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The names of the graph's blocks.
fn block_names(graph: &Value) -> Vec<String> {
    graph["blocks"]
        .as_array()
        .unwrap_or_else(|| panic!("no blocks: {graph}"))
        .iter()
        .filter_map(|b| b["name"].as_str().map(str::to_string))
        .collect()
}

/// A tagged map's member `key` (see `rfgraph_control::pmt_json`).
fn member<'a>(map: &'a Value, key: &str) -> &'a Value {
    &map["value"][key]["value"]
}

#[test]
fn fm_serves_its_stereo_lock_and_rds_station() {
    let dir = scratch("fm");
    rfgraph(
        &dir,
        &[
            "gen",
            "fm",
            "-o",
            "station.sigmf-meta",
            "--rate",
            "480e3",
            "--seconds",
            "8",
            "--cnr",
            "30",
            "--offset",
            "100e3",
            "--pi",
            "0xD3C2",
            "--ps",
            "LIVE FM",
        ],
    );
    let mut fm = Served::start(
        &dir,
        &[
            "fm",
            "station.sigmf-meta",
            "--offset",
            "100e3",
            "-o",
            "out.wav",
            "--throttle",
            "--control",
            "127.0.0.1:0",
        ],
        "fm",
        None,
    );
    fm.check(|s| {
        assert_eq!(s.printed, format!("{}/api/flowgraphs/fm", s.origin));
        assert_eq!(s.ui, Some(format!("{}/?fg=fm", s.origin)));
        let names = block_names(&s.get(""));
        for b in [
            "source",
            "throttle",
            "channel",
            "stereo_demod",
            "rds_decoder",
            "wav",
        ] {
            assert!(names.iter().any(|n| n == b), "no {b} in {names:?}");
        }
        let stereo = s.get("/blocks/stereo_demod");
        assert!(stereo.to_string().contains("pilot_level"), "{stereo}");
        // The displays `--control` adds, described for the page.
        let graph = s.get("");
        for (name, kind) in [
            ("band_spectrum", "freq"),
            ("band_waterfall", "waterfall"),
            ("mpx_spectrum", "freq"),
        ] {
            let block = graph["blocks"]
                .as_array()
                .and_then(|b| b.iter().find(|b| b["name"] == name))
                .unwrap_or_else(|| panic!("no display {name} in {graph}"));
            assert_eq!(block["display"]["kind"], kind, "{block}");
        }
    });
    // The band's spectrum shows the station 100 kHz above the centre,
    // well above the noise on the other side.
    let frame = fm.poll("band_spectrum", "frame", |v| {
        member(v, "seq").as_u64() > Some(2)
    });
    if let Some(db) = member(&frame, "db")[0]["value"].as_array() {
        let db: Vec<f64> = db.iter().filter_map(|x| x.as_f64()).collect();
        let n = db.len() as f64;
        // Bin k is at (k + 0.5) / n of 480 kHz from -240 kHz.
        let mean = |lo: f64, hi: f64| {
            let bins: Vec<f64> = (0..db.len())
                .filter(|&k| {
                    let f = -240e3 + (k as f64 + 0.5) * 480e3 / n;
                    (lo..hi).contains(&f)
                })
                .map(|k| db[k])
                .collect();
            bins.iter().sum::<f64>() / bins.len().max(1) as f64
        };
        let (station, elsewhere) = (mean(60e3, 140e3), mean(-200e3, -60e3));
        assert!(
            station > elsewhere + 10.0,
            "station {station:.1} dB, elsewhere {elsewhere:.1} dB"
        );
    } else {
        // The run ended before a frame was read.
        assert!(fm.ended(), "no spectrum in {frame}");
    }
    let rds = fm.poll("rds_decoder", "rds", |v| member(v, "ps") == "LIVE FM ");
    let stereo = fm.poll("stereo_demod", "stereo", |v| v["value"] == true);
    let level = fm.reading("stereo_demod", "pilot_level");
    fm.check(|_| {
        assert_eq!(member(&rds, "ps"), "LIVE FM ", "{rds}");
        assert_eq!(member(&rds, "pi"), "0xD3C2", "{rds}");
        assert_eq!(member(&rds, "pty_name"), "Pop Music", "{rds}");
        assert!(member(&rds, "groups").as_u64() > Some(0), "{rds}");
        assert_eq!(stereo, serde_json::json!({"type": "bool", "value": true}));
        // The generator's pilot is 9 % of the deviation (unless the run
        // ended between the two reads).
        if let Some(level) = level {
            let l = level["value"].as_f64().unwrap_or(f64::NAN);
            assert!((l - 0.09).abs() < 0.015, "{level}");
        }
    });
    if fm.ended() {
        let (status, stderr) = fm.wait();
        assert!(status.success(), "{stderr}");
    } else {
        fm.stop();
    }
    let wav = std::fs::metadata(dir.join("out.wav")).expect("the WAV file");
    assert!(wav.len() > 44, "an empty WAV file");
}

#[test]
fn adsb_serves_its_aircraft_table_behind_a_token() {
    let dir = scratch("adsb");
    rfgraph(
        &dir,
        &["gen", "adsb", "-o", "traffic.sigmf-meta", "--seconds", "6"],
    );
    let token = "s3cret-token";
    let mut adsb = Served::start(
        &dir,
        &[
            "adsb",
            "traffic.sigmf-meta",
            "--throttle",
            "--no-table",
            "--control",
            "127.0.0.1:0",
            "--token",
            token,
        ],
        "adsb",
        Some(token),
    );
    adsb.check(|s| {
        assert_eq!(s.printed, format!("{}/api/flowgraphs/adsb", s.origin));
        assert_eq!(s.printed_rest, "(token s3cret-token)");
        assert_eq!(s.ui, Some(format!("{}/?fg=adsb&token={token}", s.origin)));
        // Without the token: refused.
        let (status, _) = s.get_url(&s.url(""), false).expect("the port answers");
        assert_eq!(status, 401);
        let names = block_names(&s.get(""));
        for b in ["source", "throttle", "magnitude", "demod", "decoder"] {
            assert!(names.iter().any(|n| n == b), "no {b} in {names:?}");
        }
    });
    // EZY85MH of the demonstration scene, with its callsign decoded.
    let has = |v: &Value| {
        v["value"].as_array().is_some_and(|rows| {
            rows.iter().any(|r| {
                r["value"]["icao"]["value"] == "40621d"
                    && r["value"]["callsign"]["value"] == "EZY85MH"
            })
        })
    };
    let aircraft = adsb.poll("decoder", "aircraft", has);
    adsb.check(|_| {
        assert!(has(&aircraft), "{aircraft}");
        let rows = aircraft["value"].as_array().unwrap();
        let icaos: Vec<&str> = rows
            .iter()
            .filter_map(|r| r["value"]["icao"]["value"].as_str())
            .collect();
        let mut sorted = icaos.clone();
        sorted.sort_unstable();
        assert_eq!(icaos, sorted, "rows by address");
        let row = rows
            .iter()
            .find(|r| r["value"]["icao"]["value"] == "40621d")
            .unwrap();
        assert!(
            row["value"]["messages"]["value"].as_u64() > Some(0),
            "{row}"
        );
        assert!(row["value"]["seen_s"]["value"].is_number(), "{row}");
    });
    if adsb.ended() {
        let (status, stderr) = adsb.wait();
        assert!(status.success(), "{stderr}");
    } else {
        adsb.stop();
    }
}
