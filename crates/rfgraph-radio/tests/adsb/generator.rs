//! The generator's frames, checked by pyModeS rather than by rfgraph's
//! decoder: `adsb_frames` encodes with the decoder's own CRC, CPR and
//! altitude code, so a bug the two shared would cancel out in every test
//! that decodes generated traffic with rfgraph. Here each frame of
//! several scenes (the demonstration scene at both rates and three
//! seeds, the shipped example's truth, and a scene of edge cases: both
//! hemispheres either side of the equator and of the antimeridian, a
//! latitude-zone boundary, 85° north, −1000 and 50 000 ft, every surface
//! speed band, alert squawks, aircraft on the ground) must carry, as
//! pyModeS decodes it, exactly what the generator meant (its truth:
//! `SentFrame`, with the sender's state); `pymodes/generator.py` says
//! what is compared.

use crate::pymodes::{python, run_script};
use rfgraph_radio::generate::adsb::{Flight, FrameKind, SentFrame, Traffic};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

/// An aircraft of the edge-case scene, 10 dB below full scale.
#[allow(clippy::too_many_arguments)]
fn flight(
    icao: u32,
    callsign: &str,
    squawk: &str,
    (lat, lon): (f64, f64),
    altitude_ft: f64,
    (ground_speed_kt, track_deg): (f64, f64),
    vertical_rate_fpm: f64,
    on_ground: bool,
) -> Flight {
    Flight {
        icao,
        callsign: callsign.into(),
        squawk: squawk.into(),
        lat,
        lon,
        altitude_ft,
        ground_speed_kt,
        track_deg,
        vertical_rate_fpm,
        on_ground,
        level_dbfs: -10.0,
    }
}

/// Aircraft where encodings have edges: zones, hemispheres, extremes
/// (one a line, as a table).
#[rustfmt::skip]
fn edge_cases() -> Traffic {
    // The latitude where the number of longitude zones drops from 37 to
    // 36 (DO-260B's NL table).
    const NL_37_36: f64 = 51.893_424_691_687_684;
    let air = |icao, cs, sq, at, alt, motion, vr| flight(icao, cs, sq, at, alt, motion, vr, false);
    let ground = |icao, cs, sq, at, motion| flight(icao, cs, sq, at, 0.0, motion, 0.0, true);
    Traffic {
        rate: 2.0e6,
        seconds: 0.4,
        noise_dbfs: None,
        seed: 5,
        flights: vec![
            // Southern and eastern hemispheres, climbing.
            air(0x7C1234, "QFA1", "1200", (-33.9461, 151.1772), 2500.0, (180.0, 160.0), 1500.0),
            // Western, at the lowest altitude the code has, barely moving,
            // hijack squawk (an alert).
            air(0xA12345, "DAL123", "7500", (40.6413, -73.7781), -1000.0, (5.0, 270.0), 0.0),
            // Eastwards across the antimeridian at 50 000 ft, radio
            // failure squawk.
            air(0x800001, "AIC99", "7600", (-17.0, 179.9999), 50_000.0, (600.0, 90.0), 0.0),
            // 85° north, descending hard.
            air(0x4B0001, "SWR8", "0000", (84.9, 10.0), 36_000.0, (480.0, 0.0), -3000.0),
            // South-west across both the equator and the prime meridian.
            air(0x0D0001, "AB CD", "7777", (0.0002, 0.0002), 12_000.0, (300.0, 225.0), 6000.0),
            // North across a latitude-zone boundary.
            air(0x484001, "12345678", "4321", (NL_37_36 - 0.0002, 4.0), 10_000.0, (400.0, 0.0), -64.0),
            // The fastest a subsonic velocity message carries per
            // component, track 359.9°.
            air(0x3C0001, "A", "7654", (48.35, 11.78), 41_000.0, (1000.0, 359.9), 4000.0),
            // On the ground: every movement band, at airports around the
            // world (Schiphol, Sydney, JFK, Anchorage, Nadi, Quito,
            // Auckland, Ushuaia).
            ground(0x484002, "KLM1", "1000", (52.3086, 4.7639), (0.0, 0.0)),
            ground(0x7C0002, "QFA2", "2000", (-33.9399, 151.1753), (0.5, 45.0)),
            ground(0xA00002, "JBU3", "3000", (40.6398, -73.7789), (1.6, 359.9)),
            ground(0xA00003, "ASA4", "7700", (61.1743, -149.9982), (9.3, 180.0)),
            ground(0xC80002, "FJI5", "5000", (-17.7554, 177.4431), (42.0, 271.4)),
            ground(0xE80002, "LAN6", "6000", (-0.1292, -78.3575), (88.0, 90.0)),
            ground(0xC80003, "ANZ7", "6100", (-37.0082, 174.7850), (140.0, 12.3)),
            ground(0xE00002, "ARG8", "6200", (-54.8433, -68.2958), (200.0, 300.0)),
        ],
        interval_s: 0.004,
        overlaps: 2,
        level_jitter_db: 0.0,
    }
}

fn kind_name(kind: FrameKind) -> String {
    format!("{kind:?}")
}

/// Writes `frames` as JSON lines and runs `generator.py` over them.
fn check(py: &Path, name: &str, frames: &[SentFrame], rate: f64) -> String {
    let dir = std::env::temp_dir().join(format!("rfgraph-generator-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("truth.jsonl");
    let text: String = frames
        .iter()
        .map(|f| serde_json::to_string(f).unwrap() + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let (ok, report) = run_script(
        py,
        "generator.py",
        &[file.to_str().unwrap(), name, &rate.to_string()],
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        ok,
        "{name}: pyModeS disagrees with the generator:\n{report}"
    );
    report
}

#[test]
fn pymodes_decodes_what_the_generator_meant() {
    let Some(py) = python("pymodes_decodes_what_the_generator_meant") else {
        return;
    };
    let mut scenes: Vec<(String, Traffic)> = Vec::new();
    for (rate, seed) in [(2.0e6, 1090), (2.0e6, 7), (2.4e6, 42)] {
        let mut t = Traffic::demo(0.5);
        t.rate = rate;
        t.seed = seed;
        scenes.push((format!("demo-{rate}-{seed}"), t));
    }
    scenes.push(("edges".into(), edge_cases()));
    let mut kinds = BTreeSet::new();
    let mut reports = Vec::new();
    for (name, traffic) in &scenes {
        let rec = traffic.generate().expect("the scene generates");
        // Every aircraft of the scene sent frames; nothing fell back to
        // an all-call reply for want of an encodable value.
        for fl in &traffic.flights {
            let sent: BTreeSet<String> = rec
                .frames
                .iter()
                .filter(|f| f.icao == fl.icao)
                .map(|f| kind_name(f.kind))
                .collect();
            let want = if fl.on_ground { 4 } else { 9 };
            assert_eq!(sent.len(), want, "{name}: {:06x} sent {sent:?}", fl.icao);
        }
        kinds.extend(rec.frames.iter().map(|f| kind_name(f.kind)));
        reports.push(check(&py, name, &rec.frames, traffic.rate));
    }
    // The shipped example's truth, as `rfgraph gen adsb` wrote it.
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/adsb/traffic.truth.jsonl");
    let frames: Vec<SentFrame> = std::fs::read_to_string(shipped)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    reports.push(check(&py, "examples/adsb", &frames, 2.0e6));
    // Every kind of frame the generator makes was checked.
    assert_eq!(kinds.len(), 10, "{kinds:?}");
    let all = reports.join("\n");
    for field in [
        "crc",
        "parity address",
        "capability",
        "flight_status",
        "vertical_status",
        "altitude",
        "squawk",
        "callsign",
        "groundspeed",
        "track",
        "vertical_rate",
        "movement",
        "surface track",
        "position (local)",
        "position (pair)",
        "alternation",
    ] {
        assert!(
            all.contains(&format!("{field} ")),
            "{field} never compared: {all}"
        );
    }
    let _ = writeln!(std::io::stderr().lock(), "{all}");
}
