//! The assembled FM receiver on exact stereo test signals: audio SNR
//! against known tones, stereo separation, mono fallback and the lock
//! reports, input rates and offsets, and identical audio on every
//! scheduler.
//!
//! # How audio SNR is measured
//!
//! After [`SETTLE_S`] (the filters' transients, the PLL's acquisition and
//! the lock detector's 0.1 s hold are over), each channel is fitted by
//! least squares with `a·sin + b·cos + c` at its known tone frequency; the
//! SNR is the tone's power `(a² + b²)/2` over the mean square of what is
//! left (noise, distortion, the other channel's tone, pilot residue). The
//! test signals carry each channel's tone at 0.9 of full scale, 1 kHz on
//! the left and 400 Hz on the right: low enough that 50 µs pre-emphasis
//! keeps the peak deviation under 75 kHz. CNR is the carrier's power over
//! the noise in a 200 kHz channel.

mod fm_support;

use fm_support::{Station, Tone, receive, tone_snr};
use rfgraph::Pmt;
use rfgraph_radio::fm::{Emphasis, FmConfig, STEREO_TAG};

/// Seconds of audio skipped before measuring.
const SETTLE_S: f64 = 0.25;

const LEFT: Tone = Tone {
    freq: 1_000.0,
    amp: 0.9,
};
const RIGHT: Tone = Tone {
    freq: 400.0,
    amp: 0.9,
};

fn steady(x: &[f32]) -> &[f32] {
    &x[(SETTLE_S * 48_000.0) as usize..]
}

fn config() -> FmConfig {
    FmConfig {
        rds: false,
        ..FmConfig::default()
    }
}

/// Separation in dB: the tone's level on its channel over its level on
/// the other one.
fn separation(on: &[f32], off: &[f32], freq: f64) -> f64 {
    let (a, _) = tone_snr(steady(on), 48e3, freq);
    let (b, _) = tone_snr(steady(off), 48e3, freq);
    20.0 * (a / b).log10()
}

#[test]
fn stereo_at_30_db_cnr_has_40_db_snr_and_30_db_separation() {
    let both = Station {
        left: Some(LEFT),
        right: Some(RIGHT),
        cnr_db: Some(30.0),
        ..Station::default()
    };
    let rx = receive(config(), both.samples(2.4e6, 0.5), "chain");
    for (name, audio, tone) in [("left", &rx.left, LEFT), ("right", &rx.right, RIGHT)] {
        let (amp, snr) = tone_snr(steady(audio), 48e3, tone.freq);
        assert!(snr >= 40.0, "{name}: SNR {snr:.1} dB");
        // 0.9 of full scale comes out as 0.9 · 0.9 (the MPX's 90 %).
        assert!((amp / 0.81 - 1.0).abs() < 0.02, "{name}: amplitude {amp}");
    }
    for (tone, on_left) in [(LEFT, true), (RIGHT, false)] {
        let one = Station {
            left: on_left.then_some(tone),
            right: (!on_left).then_some(tone),
            cnr_db: Some(30.0),
            ..Station::default()
        };
        let rx = receive(config(), one.samples(2.4e6, 0.5), "chain");
        let sep = if on_left {
            separation(&rx.left, &rx.right, tone.freq)
        } else {
            separation(&rx.right, &rx.left, tone.freq)
        };
        assert!(
            sep >= 30.0,
            "tone on the {}: separation {sep:.1} dB",
            if on_left { "left" } else { "right" }
        );
    }
}

/// Tags `rfgraph:stereo` on the audio, as (index, state).
fn stereo_tags(rx: &fm_support::Received) -> Vec<(u64, bool)> {
    rx.left_tags
        .iter()
        .filter(|t| t.key == STEREO_TAG)
        .map(|t| (t.index, t.value == Pmt::Bool(true)))
        .collect()
}

#[test]
fn without_a_pilot_the_receiver_falls_back_to_mono() {
    // No pilot, then a pilot too weak to trust (1 kHz of deviation).
    for pilot in [0.0, 0.013] {
        let station = Station {
            left: Some(LEFT),
            pilot,
            cnr_db: Some(40.0),
            ..Station::default()
        };
        let rx = receive(config(), station.samples(2.4e6, 0.5), "single");
        assert_eq!(rx.left, rx.right, "pilot {pilot}: channels differ");
        assert!(rx.stereo_messages.is_empty());
        assert_eq!(stereo_tags(&rx), vec![(0, false)]);
        // The left tone, mono: (L+R)/2 · 0.9.
        let (amp, snr) = tone_snr(steady(&rx.left), 48e3, LEFT.freq);
        assert!(
            (amp / 0.405 - 1.0).abs() < 0.02 && snr > 40.0,
            "{amp} {snr}"
        );
        // No pilot or 38 kHz residue (38 kHz would alias to 10 kHz).
        for residue in [19_000.0, 10_000.0] {
            let (r, _) = tone_snr(steady(&rx.left), 48e3, residue);
            assert!(r < 1e-4 * amp, "pilot {pilot}: {residue} Hz at {r}");
        }
    }
}

#[test]
fn the_lock_is_reported_as_messages_and_audio_tags() {
    let on = Station {
        left: Some(LEFT),
        right: Some(RIGHT),
        ..Station::default()
    };
    let off = Station {
        pilot: 0.0,
        ..on.clone()
    };
    let mut input = on.samples(2.4e6, 0.4);
    input.extend(off.samples(2.4e6, 0.3));
    let rx = receive(config(), input, "pool");
    let changes: Vec<(bool, u64)> = rx
        .stereo_messages
        .iter()
        .map(|m| match m {
            Pmt::Map(m) => (
                m["stereo"] == Pmt::Bool(true),
                m["sample"].as_u64().unwrap(),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(changes.len(), 2, "{changes:?}");
    let (lock, unlock) = (changes[0], changes[1]);
    assert!(lock.0 && !unlock.0);
    // MPX samples: locked within 0.25 s, unlocked within 0.1 s of the end
    // of the pilot.
    assert!(lock.1 < 60_000, "{lock:?}");
    assert!((96_000..120_000).contains(&unlock.1), "{unlock:?}");
    // The audio carries the same changes, a fifth of the MPX index on
    // (give or take the channel filter's delay in MPX samples).
    let tags = stereo_tags(&rx);
    assert_eq!(tags.len(), 3, "{tags:?}");
    assert_eq!(tags[0], (0, false));
    for (tag, (state, sample)) in tags[1..].iter().zip([lock, unlock]) {
        assert_eq!(tag.1, state);
        assert!(tag.0.abs_diff(sample / 5) <= 1, "{tag:?} vs {sample}");
    }
    // In stereo the channels carry their own tones; once the pilot is gone
    // and the audio filter's memory has passed, they are equal.
    let locked = &rx.left[(lock.1 / 5) as usize + 2_400..(0.4 * 48e3) as usize - 500];
    assert!(tone_snr(locked, 48e3, LEFT.freq).1 > 40.0);
    let mono = (unlock.1 / 5) as usize + 100;
    assert_eq!(rx.left[mono..], rx.right[mono..]);
}

#[test]
fn receives_at_several_input_rates_and_offsets() {
    for (rate, offset) in [
        (240e3, 0.0),
        (240e3, 15e3),
        (1e6, -200e3),
        (2.048e6, 500e3),
        (2.4e6, 300e3),
        (2.4e6 + 7.0, -1.0e6),
    ] {
        let station = Station {
            left: Some(LEFT),
            right: Some(RIGHT),
            offset,
            ..Station::default()
        };
        let cfg = FmConfig {
            input_rate: rate,
            offset,
            ..config()
        };
        let rx = receive(cfg, station.samples(rate, 0.5), "chain");
        // At 240 kS/s the input itself cannot hold the station's Carson
        // bandwidth (about ±128 kHz): what lies beyond ±120 kHz is already
        // folded into the samples. Higher rates leave the receiver's own
        // distortion, about 50 dB below the tones.
        let floor = if rate < 480e3 { 40.0 } else { 48.0 };
        for (name, audio, tone) in [("left", &rx.left, LEFT), ("right", &rx.right, RIGHT)] {
            let (amp, snr) = tone_snr(steady(audio), 48e3, tone.freq);
            assert!(
                snr > floor && (amp / 0.81 - 1.0).abs() < 0.02,
                "{rate} S/s, offset {offset} Hz, {name}: amplitude {amp}, SNR {snr:.1} dB"
            );
        }
        assert_eq!(rx.stereo_messages.len(), 1, "{rate} S/s");
    }
}

#[test]
fn de_emphasis_and_audio_rate_follow_the_configuration() {
    // A 5 kHz tone pre-emphasised with 75 µs, mono, received at 44.1 kHz.
    let tone = Tone {
        freq: 5_000.0,
        amp: 0.3,
    };
    let station = Station {
        left: Some(tone),
        right: Some(tone),
        tau: 75e-6,
        ..Station::default()
    };
    let input = station.samples(2.4e6, 0.5);
    let skip = (SETTLE_S * 44_100.0) as usize;
    let mut amps = Vec::new();
    for emphasis in [Emphasis::Tau75us, Emphasis::Tau50us, Emphasis::None] {
        let cfg = FmConfig {
            audio_rate: 44_100,
            emphasis,
            stereo: false,
            ..config()
        };
        let rx = receive(cfg, input.clone(), "single");
        assert_eq!(rx.left, rx.right);
        assert!(rx.stereo_messages.is_empty());
        let n = rx.left.len() as f64 / 44_100.0;
        assert!((n - 0.5).abs() < 0.01, "{n} s of audio");
        let (amp, snr) = tone_snr(&rx.left[skip..], 44_100.0, tone.freq);
        assert!(snr > 45.0, "{emphasis:?}: {snr:.1} dB");
        amps.push(amp);
    }
    // Matching de-emphasis restores 0.9 · 0.3; 50 µs leaves 5 kHz louder by
    // |1 + jω·75µs| / |1 + jω·50µs|; none leaves the whole pre-emphasis.
    let w = std::f64::consts::TAU * 5_000.0;
    let gain = |tau: f64| (1.0 + (w * tau).powi(2)).sqrt();
    for (amp, want) in amps
        .iter()
        .zip([0.27, 0.27 * gain(75e-6) / gain(50e-6), 0.27 * gain(75e-6)])
    {
        assert!((amp / want - 1.0).abs() < 0.01, "{amps:?}");
    }
}

#[test]
fn every_scheduler_writes_the_same_wav_bytes() {
    use rfgraph::Flowgraph;
    use rfgraph_blocks::{MessageSink, VectorSource, WavFormat, WavSink};
    use rfgraph_radio::fm::Receiver;

    let station = Station {
        left: Some(LEFT),
        right: Some(RIGHT),
        cnr_db: Some(30.0),
        offset: -250e3,
        ..Station::default()
    };
    let input = station.samples(2.4e6, 0.4);
    let rx = Receiver::new(FmConfig {
        offset: -250e3,
        ..config()
    })
    .unwrap();
    let dir = std::env::temp_dir().join(format!("rfgraph-fm-wav-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for name in ["single", "pool", "chain", "tpb"] {
        let path = dir.join(format!("{name}.wav"));
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let ports = rx.build(&mut fg, src, "out").unwrap();
        let wav = fg.add(WavSink::new(&path, 2, 48_000, WavFormat::Float32).unwrap());
        fg.connect(ports.left.block, ports.left.port, wav, "in0")
            .unwrap();
        fg.connect(ports.right.block, ports.right.port, wav, "in1")
            .unwrap();
        let stereo = ports.stereo.unwrap();
        let msgs = fg.add(MessageSink::new());
        fg.connect_message(stereo.block, stereo.port, msgs, "in")
            .unwrap();
        let done = fm_support::wait(fg.start(fm_support::scheduler(name)).unwrap());
        let messages = done.block::<MessageSink>(msgs).unwrap().messages().to_vec();
        files.push((name, std::fs::read(&path).unwrap(), messages));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let (first, bytes, messages) = &files[0];
    // 0.4 s of float stereo: 19 200 frames of 8 bytes, and one lock.
    assert!(bytes.len() > 19_000 * 8, "{first}: {} bytes", bytes.len());
    assert_eq!(messages.len(), 1);
    for (name, b, m) in &files[1..] {
        assert!(b == bytes, "{name} wrote other audio than {first}");
        assert_eq!(m, messages, "{name}");
    }
}

/// The channel filter's `offset` retunes the running receiver: a carrier
/// 20 kHz above the station reads +20/75 on the MPX, and after a retune
/// 30 kHz up it reads −10/75, the change settling within the filters'
/// span at one place in the stream; a value that is no frequency is
/// refused and changes nothing.
#[test]
fn the_offset_retunes_the_running_receiver() {
    use num_complex::Complex32;
    use rfgraph::{BlockId, Flowgraph, FlowgraphHandle};
    use rfgraph_blocks::{NullSink, VectorSink, VectorSource};
    use rfgraph_radio::fm::Receiver;
    use std::time::{Duration, Instant};

    const RATE: f64 = 2.4e6;
    const CARRIER: f64 = 300e3;
    let wait_for = |handle: &FlowgraphHandle, sink: BlockId, items: u64| {
        let deadline = Instant::now() + fm_support::WATCHDOG;
        while handle.stats()[sink.0].items_consumed < items {
            assert!(Instant::now() < deadline, "no progress");
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    // 300 kHz is 8 samples per cycle: the vector repeats seamlessly.
    let carrier: Vec<Complex32> = (0..8 * 4096)
        .map(|k| {
            Complex32::from_polar(
                0.5,
                (std::f64::consts::TAU * CARRIER * k as f64 / RATE) as f32,
            )
        })
        .collect();
    for name in ["tpb", "single", "pool", "chain"] {
        let rx = Receiver::new(FmConfig {
            input_rate: RATE,
            offset: CARRIER - 20e3,
            stereo: false,
            rds: false,
            emphasis: Emphasis::None,
            ..FmConfig::default()
        })
        .unwrap();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(carrier.clone()).repeat(u64::MAX));
        let ports = rx.build(&mut fg, src, "out").unwrap();
        let audio = fg.add(NullSink::<f32>::new());
        fg.connect(ports.left.block, ports.left.port, audio, "in")
            .unwrap();
        let mpx = fg.add(VectorSink::<f32>::new());
        fg.connect(ports.mpx.block, ports.mpx.port, mpx, "in")
            .unwrap();
        let running = fg.start(fm_support::scheduler(name)).unwrap();
        let handle = running.handle();
        let call = fm_support::WATCHDOG;
        wait_for(&handle, mpx, 48_000);
        assert!(handle.call(ports.channel, "offset", "far", call).is_err());
        assert_eq!(
            handle.param(ports.channel, "offset", call).unwrap(),
            Pmt::F64(CARRIER - 20e3),
            "{name}: refused, unchanged"
        );
        assert_eq!(
            handle
                .call(ports.channel, "offset", CARRIER + 10e3, call)
                .unwrap(),
            Pmt::Null
        );
        // What the demodulator wrote after the change reaches the sink.
        let at_change = handle.stats()[ports.mpx.block.0].items_produced;
        wait_for(&handle, mpx, at_change + 48_000);
        handle.stop();
        let done = fm_support::wait(running);
        let x = done.block::<VectorSink<f32>>(mpx).unwrap().items();
        let (before, after) = (20.0 / 75.0, -10.0 / 75.0);
        let near = |v: f32, level: f64| (v as f64 - level).abs() < 1e-3;
        // Past the start-up transient: the old reading, a transition no
        // longer than the filters' span, the new reading to the end.
        let settled = 4_096;
        let leaves = settled
            + x[settled..]
                .iter()
                .position(|&v| !near(v, before))
                .unwrap_or_else(|| panic!("{name}: the retune never showed"));
        let arrives = 1 + x.iter().rposition(|&v| !near(v, after)).unwrap_or(0);
        assert!(
            leaves < arrives && arrives - leaves < 256,
            "{name}: the reading moved over {leaves}..{arrives} of {}",
            x.len()
        );
        assert!(arrives < x.len(), "{name}: the new reading holds");
    }
}
