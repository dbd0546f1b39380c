//! The receivers' readings, as the control port shows them: the stereo
//! decoder's `stereo` and `pilot_level`, the RDS decoder's `rds` (the
//! generated station's PI, PS, RadioText and PTY), and the Mode S
//! decoder's `aircraft` (the generated scene's aircraft, by address).
//! Each graph runs under a watchdog; the readings are read from the
//! finished blocks, which is what a live read between two `work` calls
//! sees at the end.

use num_complex::Complex32;
use rfgraph::scheduler::Chain;
use rfgraph::{Block, Flowgraph, Pmt};
use rfgraph_blocks::{NullSink, VectorSource};
use rfgraph_radio::fm::{FmConfig, Receiver, StereoDemod};
use rfgraph_radio::generate::adsb::Traffic;
use rfgraph_radio::generate::fm::FmStation;
use rfgraph_radio::modes::{ModesDecoder, ReceiverConfig, ReceiverInput, add_receiver};
use rfgraph_radio::rds::{RdsContent, RdsDecoder};
use std::collections::BTreeMap;
use std::time::Duration;

const WATCHDOG: Duration = Duration::from_secs(120);
const RATE: f64 = 240e3;

/// The readings of the stereo decoder and the RDS decoder after
/// receiving `station`.
fn receive_fm(station: &FmStation) -> (BTreeMap<String, Pmt>, BTreeMap<String, Pmt>) {
    let iq: Vec<Complex32> = station.generate().unwrap();
    let rx = Receiver::new(FmConfig {
        input_rate: RATE,
        ..FmConfig::default()
    })
    .unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(iq));
    let ports = rx.build(&mut fg, src, "out").unwrap();
    let left = fg.add(NullSink::<f32>::new());
    fg.connect(ports.left.block, ports.left.port, left, "in")
        .unwrap();
    let right = fg.add(NullSink::<f32>::new());
    fg.connect(ports.right.block, ports.right.port, right, "in")
        .unwrap();
    let stereo = ports.stereo.expect("a stereo receiver").block;
    let rds = ports.rds.expect("an RDS decoder").block;
    let mut done = fg
        .start(Chain::new())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let s = done.block_mut::<StereoDemod>(stereo).unwrap();
    assert_eq!(s.readings(), ["stereo", "pilot_level", "pilot_hz"]);
    let stereo_readings = s
        .readings()
        .iter()
        .map(|n| (n.to_string(), s.reading(n).unwrap()))
        .collect();
    assert_eq!(s.reading("nothing"), None);
    let d = done.block_mut::<RdsDecoder>(rds).unwrap();
    assert_eq!(d.readings(), ["rds"]);
    let Some(Pmt::Map(rds)) = d.reading("rds") else {
        panic!("rds is a map")
    };
    (stereo_readings, rds)
}

fn station(stereo: bool) -> FmStation {
    FmStation {
        stereo,
        cnr_db: Some(30.0),
        rds: Some(RdsContent {
            pi: 0xD3C2,
            ps: "READINGS".into(),
            radiotext: "Shown on the control port".into(),
            pty: 10,
            tp: true,
            ..RdsContent::default()
        }),
        ..FmStation::new(RATE, 3.0)
    }
}

fn string(s: &str) -> Pmt {
    Pmt::String(s.into())
}

#[test]
fn a_stereo_station_reads_stereo_with_its_rds() {
    let (stereo, rds) = receive_fm(&station(true));
    assert_eq!(stereo["stereo"], Pmt::Bool(true));
    // The generator's pilot is 0.09 of the deviation.
    let Pmt::F64(level) = stereo["pilot_level"] else {
        panic!("{stereo:?}")
    };
    assert!((level - 0.09).abs() < 0.01, "pilot level {level}");
    let Pmt::F64(hz) = stereo["pilot_hz"] else {
        panic!("{stereo:?}")
    };
    assert!((hz - 19_000.0).abs() < 1.0, "pilot {hz} Hz");
    assert_eq!(rds["pi"], string("0xD3C2"), "{rds:?}");
    assert_eq!(rds["ps"], string("READINGS"), "{rds:?}");
    assert_eq!(rds["rt"], string("Shown on the control port"), "{rds:?}");
    assert_eq!(rds["pty"], Pmt::U64(10), "{rds:?}");
    assert_eq!(rds["pty_name"], string("Pop Music"), "{rds:?}");
    assert_eq!(rds["tp"], Pmt::Bool(true), "{rds:?}");
    assert!(matches!(rds["groups"], Pmt::U64(g) if g > 20), "{rds:?}");
    assert!(
        matches!(rds["bler"], Pmt::F64(b) if (0.0..0.1).contains(&b)),
        "{rds:?}"
    );
    assert_eq!(rds["synced"], Pmt::Bool(true), "{rds:?}");
}

#[test]
fn a_mono_station_reads_mono_and_still_its_rds() {
    let (stereo, rds) = receive_fm(&station(false));
    assert_eq!(stereo["stereo"], Pmt::Bool(false));
    assert!(
        matches!(stereo["pilot_level"], Pmt::F64(l) if l < 0.02),
        "{stereo:?}"
    );
    assert_eq!(rds["ps"], string("READINGS"), "{rds:?}");
}

#[test]
fn the_aircraft_reading_lists_the_scene_by_address() {
    let traffic = Traffic::demo(1.0);
    let rec = traffic.generate().unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(rec.samples));
    let rx = add_receiver(
        &mut fg,
        src,
        "out",
        ReceiverInput::Complex,
        &ReceiverConfig::new(traffic.rate),
    )
    .unwrap();
    let mut done = fg
        .start(Chain::new())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let decoder = done.block_mut::<ModesDecoder>(rx.decoder).unwrap();
    assert_eq!(decoder.readings(), ["aircraft"]);
    let Some(Pmt::List(rows)) = decoder.reading("aircraft") else {
        panic!("aircraft is a list")
    };
    let rows: Vec<&BTreeMap<String, Pmt>> = rows
        .iter()
        .map(|r| match r {
            Pmt::Map(m) => m,
            other => panic!("{other:?}"),
        })
        .collect();
    let icaos: Vec<String> = rows
        .iter()
        .map(|r| match &r["icao"] {
            Pmt::String(s) => s.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    let mut sorted = icaos.clone();
    sorted.sort();
    assert_eq!(icaos, sorted, "rows by address");
    // Every aircraft strong enough to be required (all but the weak one).
    for f in traffic.flights.iter().filter(|f| f.level_dbfs > -20.0) {
        let icao = format!("{:06x}", f.icao);
        let row = rows
            .iter()
            .find(|r| r["icao"] == Pmt::String(icao.clone()))
            .unwrap_or_else(|| panic!("{icao} not in {icaos:?}"));
        assert_eq!(row["callsign"], string(&f.callsign), "{row:?}");
        assert_eq!(row["squawk"], string(&f.squawk), "{row:?}");
        assert!(matches!(row["messages"], Pmt::U64(n) if n > 10), "{row:?}");
        assert!(
            matches!(row["seen_s"], Pmt::F64(s) if (0.0..1.0).contains(&s)),
            "{row:?}"
        );
        assert!(
            matches!(row["rssi_db"], Pmt::F64(db) if db < 0.0),
            "{row:?}"
        );
        // A surface position needs a reference this receiver lacks.
        if !f.on_ground {
            let Pmt::F64(lat) = row["lat"] else {
                panic!("no position: {row:?}")
            };
            assert!((lat - f.lat).abs() < 0.1, "{row:?}");
            let Pmt::I64(alt) = row["altitude_ft"] else {
                panic!("{row:?}")
            };
            assert!((alt as f64 - f.altitude_ft).abs() < 200.0, "{row:?}");
        }
    }
}
