//! `SdrSource` and `SdrSink` against seify's `dummy` device, on every
//! scheduler: open, configure, stream a known count, retune by message,
//! and read the device's state back.
//!
//! The dummy device stores every setting (so what the blocks set can be
//! read back from it), delivers zeros as fast as they are asked for and
//! accepts whatever it is sent; it never overflows, underflows or times
//! out (`xruns.rs` covers those with a scripted device).

#![cfg(feature = "dummy")]

mod common;

use common::{Probe, every_scheduler, finish, run, start, wait_until};
use num_complex::Complex32;
use rfgraph::tag::keys;
use rfgraph::{Flowgraph, HandleError, Pmt, Tag};
use rfgraph_blocks::{Head, NullSource, VectorSink, VectorSource};
use rfgraph_hw::{Gain, SdrConfig, SdrSink, SdrSource};
use seify::{AgcControl, AntennaControl, Direction, DynDevice, FrequencyControl, GainControl};
use std::sync::atomic::Ordering;

const PATIENCE: std::time::Duration = common::PATIENCE;

fn dummy(frequency: f64, rate: f64) -> SdrConfig {
    SdrConfig::new("driver=dummy")
        .frequency(frequency)
        .sample_rate(rate)
}

fn open_dummy() -> DynDevice {
    DynDevice::from_args("driver=dummy").expect("seify's dummy driver opens")
}

fn frequency_tags(tags: &[Tag]) -> Vec<(u64, f64)> {
    tags.iter()
        .filter(|t| t.key == keys::FREQUENCY)
        .map(|t| (t.index, t.value.as_f64().unwrap()))
        .collect()
}

/// A source streams exactly what `Head` lets through, the dummy's zeros,
/// and the first item carries frequency, rate and time; nothing else is
/// tagged. The device holds the configuration afterwards.
#[test]
fn a_source_streams_a_known_count_with_its_tags_on_item_zero() {
    const N: u64 = 300_000;
    for (name, scheduler) in every_scheduler() {
        let dev = open_dummy();
        let config = dummy(433.92e6, 2.4e6).gain(Gain::Db(25.0)).antenna("A");
        let mut fg = Flowgraph::new();
        let src = fg.add(SdrSource::with_device(dev.clone(), config).unwrap());
        let head = fg.add(Head::<Complex32>::new(N));
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.chain(&[src, head, sink]).unwrap();
        let done = run(fg, scheduler).unwrap_or_else(|e| panic!("{name}: {e}"));

        let sink = done.block::<VectorSink<Complex32>>(sink).unwrap();
        assert_eq!(sink.items().len() as u64, N, "{name}");
        assert!(sink.items().iter().all(|x| *x == Complex32::new(0.0, 0.0)));
        let tags = sink.tags();
        let mut keys_at_zero: Vec<&str> = tags.iter().map(|t| t.key.as_str()).collect();
        keys_at_zero.sort();
        assert_eq!(
            keys_at_zero,
            [keys::DATETIME, keys::FREQUENCY, keys::SAMPLE_RATE],
            "{name}: exactly the three SigMF tags, {tags:?}"
        );
        assert!(tags.iter().all(|t| t.index == 0), "{name}: {tags:?}");
        let value = |k: &str| tags.iter().find(|t| t.key == k).unwrap().value.clone();
        assert_eq!(value(keys::FREQUENCY), Pmt::F64(433.92e6));
        assert_eq!(value(keys::SAMPLE_RATE), Pmt::F64(2.4e6));
        let datetime = value(keys::DATETIME);
        let text = datetime.as_str().unwrap();
        assert!(
            text.len() == 27 && text.starts_with("20") && text.ends_with('Z'),
            "{text}"
        );

        let block = done.block::<SdrSource>(src).unwrap();
        assert!(block.counters().items() >= N, "{name}");
        assert_eq!(block.overflows(), 0);
        assert!(block.device().is_none(), "{name}: released in deinit");
        assert_eq!(dev.frequency(Direction::Rx, 0).unwrap(), 433.92e6);
        assert_eq!(dev.gain(Direction::Rx, 0).unwrap(), Some(25.0));
    }
}

/// Opened from its argument string, the source configures the dummy and
/// tells through `status` what the device reports while it runs.
#[test]
fn status_reports_what_the_device_reads_back() {
    let mut fg = Flowgraph::new();
    let src = fg.add(SdrSource::new(dummy(100e6, 1e6).gain(Gain::Agc)).unwrap());
    let probe = Probe::new();
    let seen = probe.seen.clone();
    let p = fg.add(probe);
    fg.connect(src, "out", p, "in").unwrap();
    let running = start(fg, Box::new(rfgraph::scheduler::Tpb::new())).unwrap();
    let handle = running.handle();
    wait_until("items", || seen.items.load(Ordering::Relaxed) > 0);

    let Pmt::Map(status) = handle.call(src, "status", Pmt::Null, PATIENCE).unwrap() else {
        panic!("status is a map")
    };
    assert_eq!(status["frequency"], Pmt::F64(100e6));
    assert_eq!(status["sample_rate"], Pmt::F64(1e6));
    assert_eq!(status["agc"], Pmt::Bool(true));
    assert_eq!(status["gain"], Pmt::Null, "no fixed gain under AGC");
    assert_eq!(status["antenna"], Pmt::from("A"));
    assert_eq!(status["overflows"], Pmt::U64(0));
    assert!(status["items"].as_u64().unwrap() > 0);

    handle.stop();
    finish(running).unwrap();
}

/// Messages retune the running source, as GNU Radio's Soapy source: the
/// dummy device holds the new values, and the first item read after a
/// retune carries the new `core:frequency` (the only other frequency tag
/// being the one on item 0).
#[test]
fn messages_retune_the_running_source_and_tag_the_next_item() {
    for (name, scheduler) in every_scheduler() {
        let dev = open_dummy();
        let mut fg = Flowgraph::new();
        let src = fg.add(SdrSource::with_device(dev.clone(), dummy(100e6, 1e6)).unwrap());
        let probe = Probe::until(|t| t.key == keys::FREQUENCY && t.value == Pmt::F64(101.5e6));
        let seen = probe.seen.clone();
        let p = fg.add(probe);
        fg.connect(src, "out", p, "in").unwrap();
        let running = start(fg, scheduler).unwrap();
        let handle = running.handle();
        wait_until("the first items", || seen.items.load(Ordering::Relaxed) > 0);

        assert_eq!(handle.call(src, "gain", 31.5, PATIENCE).unwrap(), Pmt::Null);
        assert_eq!(dev.gain(Direction::Rx, 0).unwrap(), Some(31.5), "{name}");
        handle.call(src, "agc", true, PATIENCE).unwrap();
        assert!(dev.agc_enabled(Direction::Rx, 0).unwrap(), "{name}");
        handle.call(src, "gain", 12, PATIENCE).unwrap();
        assert!(
            !dev.agc_enabled(Direction::Rx, 0).unwrap(),
            "{name}: gain ends AGC"
        );
        assert_eq!(dev.gain(Direction::Rx, 0).unwrap(), Some(12.0));
        handle.call(src, "antenna", "A", PATIENCE).unwrap();
        assert_eq!(dev.antenna(Direction::Rx, 0).unwrap(), "A");
        // The retune last: the probe finishes once it sees its tag.
        handle.call(src, "freq", 101.5e6, PATIENCE).unwrap();
        assert_eq!(dev.frequency(Direction::Rx, 0).unwrap(), 101.5e6, "{name}");

        let done = finish(running).unwrap_or_else(|e| panic!("{name}: {e}"));
        let freqs = frequency_tags(&seen.tags());
        assert_eq!(freqs.len(), 2, "{name}: {freqs:?}");
        assert_eq!(freqs[0], (0, 100e6), "{name}");
        assert_eq!(freqs[1].1, 101.5e6, "{name}");
        assert!(freqs[1].0 > 0, "{name}: the retune came after items flowed");
        assert!(freqs[1].0 <= seen.items.load(Ordering::Relaxed));
        let block = done.block::<SdrSource>(src).unwrap();
        assert_eq!(block.frequency(), 101.5e6);
        assert_eq!(block.config().gain_setting(), Some(Gain::Db(12.0)));
    }
}

/// A rate change tags the next item `core:sample_rate`; a GNU Radio-style
/// `cmd` map retunes several things at once.
#[test]
fn a_cmd_map_and_a_rate_change_retune_together() {
    let dev = open_dummy();
    let mut fg = Flowgraph::new();
    let src = fg.add(SdrSource::with_device(dev.clone(), dummy(100e6, 1e6)).unwrap());
    let probe = Probe::until(|t| t.key == keys::FREQUENCY && t.value == Pmt::F64(200e6));
    let seen = probe.seen.clone();
    let p = fg.add(probe);
    fg.connect(src, "out", p, "in").unwrap();
    let running = start(fg, Box::new(rfgraph::scheduler::Tpb::new())).unwrap();
    let handle = running.handle();
    wait_until("the first items", || seen.items.load(Ordering::Relaxed) > 0);

    let cmd = Pmt::Map(
        [
            ("freq".to_string(), Pmt::F64(200e6)),
            ("rate".to_string(), Pmt::U64(2_000_000)),
            ("gain".to_string(), Pmt::F64(7.0)),
            ("chan".to_string(), Pmt::U64(0)),
        ]
        .into_iter()
        .collect(),
    );
    handle.call(src, "cmd", cmd, PATIENCE).unwrap();
    finish(running).unwrap();

    let tags = seen.tags();
    let retune: Vec<&Tag> = tags.iter().filter(|t| t.index > 0).collect();
    assert_eq!(retune.len(), 2, "{tags:?}");
    assert!(
        retune.iter().all(|t| t.index == retune[0].index),
        "same item"
    );
    assert!(
        retune
            .iter()
            .any(|t| t.key == keys::SAMPLE_RATE && t.value == Pmt::F64(2e6))
    );
    assert_eq!(dev.gain(Direction::Rx, 0).unwrap(), Some(7.0));
}

/// A retune the device refuses goes back to the caller with the driver's
/// message, changes nothing, and the stream goes on.
#[test]
fn a_refused_retune_returns_the_drivers_message_and_the_run_goes_on() {
    let dev = open_dummy();
    let mut fg = Flowgraph::new();
    let src = fg.add(SdrSource::with_device(dev.clone(), dummy(100e6, 1e6)).unwrap());
    let probe = Probe::new();
    let seen = probe.seen.clone();
    let p = fg.add(probe);
    fg.connect(src, "out", p, "in").unwrap();
    let running = start(fg, Box::new(rfgraph::scheduler::Tpb::new())).unwrap();
    let handle = running.handle();
    wait_until("the first items", || seen.items.load(Ordering::Relaxed) > 0);

    for (port, value, what) in [
        ("freq", Pmt::F64(-5.0), "frequency to -5 Hz"),
        ("gain", Pmt::F64(-3.0), "gain to -3 dB"),
        ("antenna", Pmt::from("B"), "antenna to \"B\""),
    ] {
        match handle.call(src, port, value, PATIENCE) {
            Err(HandleError::Handler { cause, .. }) => {
                assert!(
                    cause.contains(&format!("RX channel 0: cannot set {what}"))
                        && cause.contains("invalid dummy argument"),
                    "{port}: {cause}"
                );
            }
            other => panic!("{port}: {other:?}"),
        }
    }
    match handle.call(src, "freq", "fast", PATIENCE) {
        Err(HandleError::Handler { cause, .. }) => {
            assert_eq!(
                cause,
                "parameter `frequency`: expected float, found string \"fast\""
            )
        }
        other => panic!("{other:?}"),
    }
    let before = seen.items.load(Ordering::Relaxed);
    wait_until("more items", || seen.items.load(Ordering::Relaxed) > before);
    assert_eq!(dev.frequency(Direction::Rx, 0).unwrap(), 100e6);
    handle.stop();
    let done = finish(running).unwrap();
    assert_eq!(done.block::<SdrSource>(src).unwrap().frequency(), 100e6);
    assert_eq!(frequency_tags(&seen.tags()), [(0, 100e6)]);
}

/// The sink writes every item of a finite stream to the device and then
/// finishes, on every scheduler.
#[test]
fn a_sink_writes_a_known_count_and_finishes() {
    const N: usize = 250_000;
    for (name, scheduler) in every_scheduler() {
        let dev = open_dummy();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, -0.5); N]));
        let config = dummy(2.45e9, 4e6).gain(Gain::Db(10.0));
        let tx = fg.add(SdrSink::with_device(dev.clone(), config).unwrap());
        fg.chain(&[src, tx]).unwrap();
        let done = run(fg, scheduler).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sink = done.block::<SdrSink>(tx).unwrap();
        assert_eq!(sink.counters().items(), N as u64, "{name}");
        assert_eq!(sink.underflows(), 0);
        assert_eq!(dev.frequency(Direction::Tx, 0).unwrap(), 2.45e9);
        assert_eq!(dev.gain(Direction::Tx, 0).unwrap(), Some(10.0));
        assert_eq!(
            dev.frequency(Direction::Rx, 0).unwrap(),
            0.0,
            "{name}: the sink tunes TX only"
        );
    }
}

/// Messages retune a running sink's TX channel.
#[test]
fn messages_retune_the_running_sink() {
    for (name, scheduler) in every_scheduler() {
        let dev = open_dummy();
        let mut fg = Flowgraph::new();
        let src = fg.add(NullSource::<Complex32>::new());
        let tx = fg.add(SdrSink::with_device(dev.clone(), dummy(433e6, 1e6)).unwrap());
        fg.chain(&[src, tx]).unwrap();
        let running = start(fg, scheduler).unwrap();
        let handle = running.handle();
        handle.call(tx, "freq", 434e6, PATIENCE).unwrap();
        handle.call(tx, "gain", 40, PATIENCE).unwrap();
        assert_eq!(dev.frequency(Direction::Tx, 0).unwrap(), 434e6, "{name}");
        assert_eq!(dev.gain(Direction::Tx, 0).unwrap(), Some(40.0), "{name}");
        let Pmt::Map(status) = handle.call(tx, "status", Pmt::Null, PATIENCE).unwrap() else {
            panic!("status is a map")
        };
        assert_eq!(status["frequency"], Pmt::F64(434e6));
        assert_eq!(status["underflows"], Pmt::U64(0));
        match handle.post(tx, "volume", 11) {
            Err(HandleError::UnknownPort { available, .. }) => assert_eq!(
                available,
                "cmd, status, frequency, freq, center_freq, sample_rate, samp_rate, gain, agc, \
                 antenna, bandwidth"
            ),
            other => panic!("{other:?}"),
        }
        handle.stop();
        finish(running).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// A retune tags the first item read after it, whose sample is the
/// first one taken at the new frequency: the items before it carry the
/// old one (item 0), those from it the new one, and the config, the
/// device and `status` agree, whichever input name (`frequency`, `freq`,
/// `center_freq`) it came on.
#[test]
fn every_name_of_the_frequency_retunes_at_one_item() {
    for input in ["frequency", "center_freq"] {
        let dev = open_dummy();
        let mut fg = Flowgraph::new();
        let src = fg.add(SdrSource::with_device(dev.clone(), dummy(100e6, 1e6)).unwrap());
        // The probe runs until stopped, so the source still answers
        // `status` after the retune's tag went by.
        let probe = Probe::new();
        let seen = probe.seen.clone();
        let p = fg.add(probe);
        fg.connect(src, "out", p, "in").unwrap();
        let running = start(fg, Box::new(rfgraph::scheduler::Tpb::new())).unwrap();
        let handle = running.handle();
        wait_until("the first items", || seen.items.load(Ordering::Relaxed) > 0);
        let before = seen.items.load(Ordering::Relaxed);
        assert_eq!(handle.call(src, input, 105e6, PATIENCE).unwrap(), Pmt::Null);
        assert_eq!(dev.frequency(Direction::Rx, 0).unwrap(), 105e6, "{input}");
        let Pmt::Map(status) = handle.call(src, "status", Pmt::Null, PATIENCE).unwrap() else {
            panic!("status is a map")
        };
        assert_eq!(status["frequency"], Pmt::F64(105e6));
        wait_until("the retune's tag", || {
            frequency_tags(&seen.tags())
                .iter()
                .any(|&(_, f)| f == 105e6)
        });
        handle.stop();
        let done = finish(running).unwrap();
        let freqs = frequency_tags(&seen.tags());
        assert_eq!(freqs.len(), 2, "{input}: {freqs:?}");
        assert_eq!(freqs[0], (0, 100e6));
        assert!(
            freqs[1].0 >= before,
            "{input}: tagged after the items already seen"
        );
        assert_eq!(freqs[1].1, 105e6);
        assert_eq!(
            done.block::<SdrSource>(src).unwrap().config().frequency,
            105e6
        );
    }
}

/// The source and the sink read one declaration: the settable
/// parameters, with their units, each a message input.
#[test]
fn the_settable_parameters_are_listed_with_their_units() {
    use rfgraph::Block;
    let mut src = SdrSource::new(dummy(1e6, 1e6)).unwrap();
    let listed: Vec<(&str, &str)> = src
        .params()
        .unwrap()
        .describe()
        .into_iter()
        .filter(|p| p.settable)
        .map(|p| (p.name, p.unit))
        .collect();
    assert_eq!(
        listed,
        [
            ("frequency", "Hz"),
            ("sample_rate", "Hz"),
            ("gain", "dB"),
            ("agc", ""),
            ("antenna", ""),
            ("bandwidth", "Hz"),
        ]
    );
    let mut sink = SdrSink::new(dummy(1e6, 1e6)).unwrap();
    assert_eq!(
        sink.params().unwrap().describe(),
        src.params().unwrap().describe()
    );
}
