//! Overflows, underflows and timeouts, which seify's `dummy` device never
//! produces: a scripted seify device (`common::Scripted`) reports them
//! where the test says. They are counted, tagged (RX) and never turn into
//! lost, repeated or reordered items on our side; and tags carry what the
//! device reads back, not what was asked.

mod common;

use common::{Scripted, Step, every_scheduler, run};
use num_complex::Complex32;
use rfgraph::tag::keys;
use rfgraph::{Flowgraph, Pmt};
use rfgraph_blocks::{Head, VectorSink, VectorSource};
use rfgraph_hw::{SdrConfig, SdrSink, SdrSource, keys as hw_keys};

fn config() -> SdrConfig {
    SdrConfig::new("driver=scripted")
        .frequency(100_000_049.0)
        .sample_rate(1_000_400.0)
}

/// Ramp values 0..999, an overflow that lost 500 samples, a timeout, then
/// the ramp from 1500 on: the flowgraph gets every sample the device
/// delivered, once and in order, and the item after the gap carries the
/// overflow tag and a fresh time.
#[test]
fn an_overflow_is_counted_and_tagged_where_samples_were_lost() {
    const N: u64 = 5000;
    for (name, scheduler) in every_scheduler() {
        let dev = Scripted::new(
            &[
                Step::Move(1000),
                Step::Overflow(500),
                Step::Timeout,
                Step::Move(700),
                Step::Timeout,
            ],
            &[],
        );
        let mut fg = Flowgraph::new();
        let src = fg.add(SdrSource::with_device(dev.to_dyn(), config()).unwrap());
        let head = fg.add(Head::<Complex32>::new(N));
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.chain(&[src, head, sink]).unwrap();
        let done = run(fg, scheduler).unwrap_or_else(|e| panic!("{name}: {e}"));

        let sink = done.block::<VectorSink<Complex32>>(sink).unwrap();
        let values: Vec<u64> = sink.items().iter().map(|x| x.re as u64).collect();
        let expected: Vec<u64> = (0..1000).chain(1500..1500 + N - 1000).collect();
        assert_eq!(values, expected, "{name}");

        let tags: Vec<(u64, &str)> = sink
            .tags()
            .iter()
            .map(|t| (t.index, t.key.as_str()))
            .collect();
        assert_eq!(
            tags.iter().filter(|(i, _)| *i == 1000).count(),
            2,
            "{name}: {tags:?}"
        );
        assert!(
            tags.contains(&(1000, hw_keys::OVERFLOW)),
            "{name}: {tags:?}"
        );
        assert!(tags.contains(&(1000, keys::DATETIME)), "{name}: {tags:?}");
        assert!(
            tags.iter().all(|(i, _)| *i == 0 || *i == 1000),
            "{name}: {tags:?}"
        );
        let overflow = sink
            .tags()
            .iter()
            .find(|t| t.key == hw_keys::OVERFLOW)
            .unwrap()
            .value
            .clone();
        assert_eq!(overflow, Pmt::U64(1), "overflows so far");

        let block = done.block::<SdrSource>(src).unwrap();
        assert_eq!(block.overflows(), 1, "{name}");
        assert_eq!(block.counters().timeouts(), 2, "{name}");
        // The same counts in the runtime's statistics.
        let stats = &done.stats()[src.0].counters;
        assert_eq!(stats.get("overflows"), Some(&1), "{name}: {stats:?}");
        assert_eq!(stats.get("timeouts"), Some(&2), "{name}: {stats:?}");
        assert!(!dev.state.lock().unwrap().rx_active, "{name}: deactivated");
    }
}

/// The first tags carry what the device reports (it tunes in 100 Hz and
/// 1 kS/s steps), not what was asked; so does a retune's tag.
#[test]
fn tags_carry_the_values_the_device_reads_back() {
    let dev = Scripted::new(&[], &[]);
    let mut fg = Flowgraph::new();
    let src = fg.add(SdrSource::with_device(dev.to_dyn(), config()).unwrap());
    let head = fg.add(Head::<Complex32>::new(10));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, head, sink]).unwrap();
    let done = run(fg, Box::new(rfgraph::scheduler::Single::new())).unwrap();
    let tags = done.block::<VectorSink<Complex32>>(sink).unwrap().tags();
    let value = |k: &str| tags.iter().find(|t| t.key == k).unwrap().value.clone();
    assert_eq!(value(keys::FREQUENCY), Pmt::F64(100_000_000.0));
    assert_eq!(value(keys::SAMPLE_RATE), Pmt::F64(1_000_000.0));
    let block = done.block::<SdrSource>(src).unwrap();
    assert_eq!(
        (block.frequency(), block.sample_rate()),
        (100_000_000.0, 1_000_000.0)
    );
}

/// An underflow and a timeout on TX are counted, and the samples of the
/// refused writes go out on the next one: the device receives the input
/// exactly once, in order.
#[test]
fn an_underflow_is_counted_and_no_sample_is_lost_or_repeated() {
    const N: usize = 20_000;
    for (name, scheduler) in every_scheduler() {
        let dev = Scripted::new(
            &[],
            &[
                Step::Move(3000),
                Step::Underflow,
                Step::Move(1),
                Step::Timeout,
                Step::Underflow,
                Step::Move(5000),
            ],
        );
        let ramp: Vec<Complex32> = (0..N).map(|k| Complex32::new(k as f32, 0.0)).collect();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(ramp.clone()));
        let tx = fg.add(SdrSink::with_device(dev.to_dyn(), config()).unwrap());
        fg.chain(&[src, tx]).unwrap();
        let done = run(fg, scheduler).unwrap_or_else(|e| panic!("{name}: {e}"));

        let state = dev.state.lock().unwrap();
        assert!(
            state.written == ramp,
            "{name}: the device got the input once, in order"
        );
        assert!(!state.tx_active, "{name}: deactivated");
        let sink = done.block::<SdrSink>(tx).unwrap();
        assert_eq!(sink.underflows(), 2, "{name}");
        assert_eq!(sink.counters().timeouts(), 1, "{name}");
        let stats = &done.stats()[tx.0].counters;
        assert_eq!(stats.get("underflows"), Some(&2), "{name}: {stats:?}");
        assert_eq!(sink.counters().items(), N as u64, "{name}");
    }
}

/// A device that refuses a rate fails `init` with its own message.
#[test]
fn a_refused_rate_fails_init_with_the_devices_message() {
    let dev = Scripted::new(&[], &[]);
    let mut fg = Flowgraph::new();
    let src = fg.add_named(
        "radio",
        SdrSource::with_device(dev.to_dyn(), config().sample_rate(100e6)).unwrap(),
    );
    let head = fg.add(Head::<Complex32>::new(10));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, head, sink]).unwrap();
    let err = run(fg, Box::new(rfgraph::scheduler::Tpb::new()))
        .err()
        .expect("init fails")
        .to_string();
    assert!(
        err.starts_with(
            "block `radio` failed in init: RX channel 0: cannot set sample rate to 100000000 S/s: \
             value 100000000 for sample rate out of range"
        ),
        "{err}"
    );
}
