//! Generated traffic through the demodulator and the tracker: every frame
//! the generator says must decode does, with its exact bits and where it
//! was sent; nothing is reported that was not sent; positions lie within
//! 10 m of the aircraft's true track.

use crate::common::{cu8, demodulate, magnitudes, scene, scene_seeded};
use rfgraph_radio::generate::adsb::{FrameKind, SentFrame};
use rfgraph_radio::modes::decode::cpr::distance_m;
use rfgraph_radio::modes::{PositionSource, RawFrame, Tracker};
use std::collections::HashMap;

/// The sent frame a decoded one is, matched by bits and start.
fn sent_for<'a>(sent: &'a [SentFrame], f: &RawFrame, slack: u64) -> Option<&'a SentFrame> {
    let hex = f.hex();
    sent.iter()
        .find(|s| s.hex == hex && f.sample.abs_diff(s.sample) <= slack)
}

/// True when `f` is a DF11 that a sent DF11 explains but for the low
/// seven parity bits: an interrogator code to a receiver, and what one
/// wrong bit there looks like (see `modes::demod::score`).
fn interrogator_variant(sent: &[SentFrame], f: &RawFrame, slack: u64) -> bool {
    f.df() == 11
        && sent.iter().any(|s| {
            let b = rfgraph_radio::modes::frame::parse_hex(&s.hex).unwrap_or_default();
            s.kind == FrameKind::AllCall
                && f.sample.abs_diff(s.sample) <= slack
                && b.len() == 7
                && b[..6] == f.data()[..6]
                && (b[6] ^ f.data()[6]) & 0x80 == 0
        })
}

fn check_rate(rate: f64, slack: u64) {
    // Three scenes: other noise, timings, phases and overlaps each time.
    for seed in [1090, 7, 42] {
        check_scene(rate, slack, seed);
    }
}

fn check_scene(rate: f64, slack: u64, seed: u64) {
    let (traffic, rec) = scene_seeded(rate, 0.5, seed);
    let frames = demodulate(&magnitudes(&cu8(&rec)), rate);
    let must: Vec<&SentFrame> = rec.frames.iter().filter(|f| f.decodable).collect();
    assert!(must.len() > 200, "{} frames must decode", must.len());
    assert!(rec.frames.iter().any(|f| f.hidden));
    for s in &must {
        assert!(
            frames
                .iter()
                .any(|f| f.hex() == s.hex && f.sample.abs_diff(s.sample) <= slack),
            "{rate}: {} ({:?}, {:.1} dBFS, start {:.2}) was not decoded",
            s.hex,
            s.kind,
            s.level_dbfs,
            s.start
        );
    }
    let mut variants = 0;
    for f in &frames {
        if sent_for(&rec.frames, f, slack).is_none() {
            assert!(
                interrogator_variant(&rec.frames, f, slack),
                "{rate}: {} at {} was never sent",
                f.hex(),
                f.sample
            );
            variants += 1;
        }
    }
    // Such variants come only from frames too weak to be required.
    assert!(variants <= 2, "{variants} DF11 interrogator-code variants");
    // Overlaps: in every pair the stronger frame decoded (it is required)
    // and the hidden one is not reported with wrong bits (checked above).
    let overlaps = rec.frames.iter().filter(|f| f.hidden).count();
    assert_eq!(overlaps, traffic.overlaps);
}

#[test]
fn every_required_frame_decodes_at_2_msps() {
    check_rate(2.0e6, 1);
}

#[test]
fn every_required_frame_decodes_at_2_4_msps() {
    check_rate(2.4e6, 2);
}

/// Positions, CPR-decoded from the frames alone (global pairs, then
/// local against the aircraft; surface pairs against the receiver),
/// agree with the position each frame encoded (the aircraft's true
/// position when it was sent) within 10 m, for every rate.
#[test]
fn positions_follow_the_track_within_10_m() {
    for rate in [2.0e6, 2.4e6] {
        let (_, rec) = scene(rate, 0.5);
        let frames = demodulate(&magnitudes(&cu8(&rec)), rate);
        let mut tracker = Tracker::new(rate).with_receiver(52.0, 4.4);
        let mut resolved: HashMap<PositionSource, usize> = HashMap::new();
        let mut positions = 0;
        for f in &frames {
            let m = tracker.process(f);
            let Some(s) = sent_for(&rec.frames, f, 2) else {
                continue;
            };
            if let Some(truth) = s.position {
                positions += 1;
                if let (Some(lat), Some(lon)) = (m.fields.lat, m.fields.lon) {
                    let d = distance_m((lat, lon), truth);
                    assert!(d < 10.0, "{rate}: {} is {d:.1} m off the track", s.hex);
                    *resolved
                        .entry(m.fields.position_source.expect("a source"))
                        .or_default() += 1;
                }
            }
        }
        let total: usize = resolved.values().sum();
        // Each aircraft's first position waits for its pair; after that
        // every decoded position frame resolves.
        assert!(
            total + 12 >= positions,
            "{rate}: {total} of {positions} resolved"
        );
        assert!(resolved.get(&PositionSource::Global).copied().unwrap_or(0) > 20);
        // The taxiing aircraft is decoded at the airport, not elsewhere.
        let taxi = tracker.get(0x484175).expect("the taxiing aircraft");
        let p = taxi.position.expect("its position");
        assert!(distance_m(p, (52.3206, 4.7347)) < 1000.0, "{p:?}");
        assert_eq!(taxi.callsign.as_deref(), Some("KLM1763"));
    }
}

/// The table has every aircraft strong enough, with the values it sent.
#[test]
fn aircraft_table_matches_the_scene() {
    let (traffic, rec) = scene(2.0e6, 0.5);
    let frames = demodulate(&magnitudes(&cu8(&rec)), 2.0e6);
    let mut tracker = Tracker::new(2.0e6);
    for f in &frames {
        tracker.process(f);
    }
    for fl in traffic.flights.iter().filter(|f| f.level_dbfs >= -12.0) {
        let a = tracker.get(fl.icao).expect("every loud aircraft");
        assert_eq!(a.callsign.as_deref(), Some(fl.callsign.as_str()));
        assert_eq!(a.squawk.as_deref(), Some(fl.squawk.as_str()));
        if !fl.on_ground {
            let alt = a.altitude_ft.expect("an altitude");
            assert!((f64::from(alt) - fl.altitude_ft).abs() < 100.0, "{alt}");
            let gs = a.ground_speed_kt.expect("a ground speed");
            assert!((gs - fl.ground_speed_kt).abs() < 2.0, "{gs}");
            let trk = a.track_deg.expect("a track");
            assert!((trk - fl.track_deg).abs() < 1.0, "{trk}");
        }
        assert!(
            (a.signal_dbfs() - fl.level_dbfs).abs() < 3.0,
            "{}",
            a.signal_dbfs()
        );
    }
    let table = tracker.table();
    assert!(
        table.contains("DLH4AB") && table.contains("7700"),
        "{table}"
    );
}
