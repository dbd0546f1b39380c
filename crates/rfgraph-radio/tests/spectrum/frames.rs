//! Frames stay whole and labelled: random chunking on every scheduler
//! changes nothing, a retune closes an average early, the input's end
//! makes a last shorter average, messages match the stream, and bad
//! parameters are refused.

use crate::common::*;
use num_complex::Complex32;
use rfgraph::params::{ParamSet, apply};
use rfgraph::scheduler::Single;
use rfgraph::{Block, BlockId, Flowgraph, FlowgraphHandle, Pmt, Tag};
use rfgraph_blocks::{CopyRand, MessageSink, VectorSink, VectorSource};
use rfgraph_dsp::Window;
use rfgraph_radio::spectrum::{
    Average, AverageParams, FRAME_SAMPLES, Interval, PowerSpectrum, PowerSpectrumParams, Scaling,
    SpectrumError, WaterfallDecimator, WaterfallParams,
};

const SIZE: usize = 64;

/// Source → power → average of 4 → every frame kept → sink, with a
/// random-chunk copy between every two blocks when `shake` says so.
fn pipeline(x: &[Complex32], tags: &[Tag], shake: Option<u64>) -> (Flowgraph, BlockId) {
    let mut fg = Flowgraph::new();
    let mut chain = vec![fg.add(VectorSource::new(x.to_vec()).with_tags(tags.to_vec()))];
    let push = |fg: &mut Flowgraph, id: BlockId, chain: &mut Vec<BlockId>| {
        if let Some(seed) = shake {
            let max = 1 + (seed as usize * 37 + chain.len() * 61) % 150;
            let copy = if chain.len() == 1 {
                fg.add(CopyRand::<Complex32>::new(max, seed + chain.len() as u64))
            } else {
                fg.add(CopyRand::<f32>::new(max, seed + chain.len() as u64))
            };
            chain.push(copy);
        }
        chain.push(id);
    };
    let power = fg.add(
        PowerSpectrum::new(SIZE, Window::Hann, Scaling::Density)
            .unwrap()
            .with_sample_rate(1e6)
            .unwrap(),
    );
    push(&mut fg, power, &mut chain);
    let avg = fg.add(Average::new(SIZE, 4).unwrap());
    push(&mut fg, avg, &mut chain);
    let lines = fg.add(WaterfallDecimator::new(SIZE, Interval::Frames(1)).unwrap());
    push(&mut fg, lines, &mut chain);
    let sink = fg.add(VectorSink::<f32>::new());
    push(&mut fg, sink, &mut chain);
    fg.chain(&chain).unwrap();
    (fg, sink)
}

fn output(done: &rfgraph::Finished, sink: BlockId) -> (Vec<f32>, Vec<Tag>) {
    let s = done.block::<VectorSink<f32>>(sink).unwrap();
    (s.items().to_vec(), s.tags().to_vec())
}

/// `(index, key, value)` of every tag, sorted, for comparing runs.
fn tag_list(tags: &[Tag]) -> Vec<(u64, String, String)> {
    let mut v: Vec<_> = tags
        .iter()
        .map(|t| (t.index, t.key.clone(), format!("{:?}", t.value)))
        .collect();
    v.sort();
    v
}

#[test]
fn frames_stay_aligned_with_random_chunks_on_every_scheduler() {
    // 50 averages of 4 frames, and a remainder of 30 samples.
    let n = SIZE * 4 * 50 + 30;
    let mut x = noise(n, 0.1, 3);
    for (a, b) in x.iter_mut().zip(tone(n, 0.3, 123_456.0, 1e6)) {
        *a += b;
    }
    let tags = vec![
        Tag::new(0, "core:frequency", 433.92e6),
        Tag::new(100, "core:comment", "inside frame 1"),
        Tag::new(SIZE as u64 * 9 + 5, "core:comment", "inside frame 9"),
    ];
    let (fg, sink) = pipeline(&x, &tags, None);
    let (want, want_tags) = output(&run(fg, Single::new()), sink);
    assert_eq!(want.len(), SIZE * 50);
    // Comments move to the first bin of their average's frame.
    let comments: Vec<u64> = want_tags
        .iter()
        .filter(|t| t.key == "core:comment")
        .map(|t| t.index)
        .collect();
    assert_eq!(comments, [0, 2 * SIZE as u64]);
    for (seed, scheduler) in every_scheduler().into_iter().enumerate() {
        let name = scheduler.name().to_string();
        let (fg, sink) = pipeline(&x, &tags, Some(seed as u64 + 1));
        let (got, got_tags) = output(&run(fg, scheduler), sink);
        assert!(got == want, "{name}: frames differ with random chunks");
        assert_eq!(tag_list(&got_tags), tag_list(&want_tags), "{name}");
        assert!(
            got_tags.iter().all(|t| t.index % SIZE as u64 == 0),
            "{name}: a tag off a frame's start: {got_tags:?}"
        );
    }
}

/// Frame-samples tags of a run, by output frame.
fn frame_samples(tags: &[Tag]) -> Vec<(u64, u64)> {
    tags.iter()
        .filter(|t| t.key == FRAME_SAMPLES)
        .map(|t| (t.index / SIZE as u64, t.value.as_u64().unwrap()))
        .collect()
}

#[test]
fn a_retune_closes_an_average_and_the_end_makes_a_short_one() {
    // 10 frames; the frequency changes inside frame 5: averages of 4 are
    // frames 0-3, 4 (closed early), 5-8, 9 (the end).
    let x = noise(SIZE * 10, 1.0, 5);
    let tags = vec![
        Tag::new(0, "core:frequency", 100e6),
        Tag::new(SIZE as u64 * 5 + 7, "core:frequency", 101e6),
    ];
    for (seed, scheduler) in every_scheduler().into_iter().enumerate() {
        let name = scheduler.name().to_string();
        let (fg, sink) = pipeline(&x, &tags, Some(seed as u64 + 10));
        let (got, got_tags) = output(&run(fg, scheduler), sink);
        assert_eq!(got.len(), SIZE * 4, "{name}");
        let s = SIZE as u64;
        assert_eq!(
            frame_samples(&got_tags),
            [(0, 4 * s), (1, s), (2, 4 * s), (3, s)],
            "{name}"
        );
        let freqs: Vec<(u64, f64)> = got_tags
            .iter()
            .filter(|t| t.key == "core:frequency")
            .map(|t| (t.index / s, t.value.as_f64().unwrap()))
            .collect();
        assert_eq!(
            freqs,
            [(0, 100e6), (1, 100e6), (2, 101e6), (3, 101e6)],
            "{name}"
        );
    }
}

#[test]
fn messages_carry_the_frames_the_stream_carries() {
    let x = noise(SIZE * 4 * 6, 1.0, 9);
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(x).with_tags(vec![Tag::new(0, "core:frequency", 5e6)]));
    let power = fg.add(
        PowerSpectrum::new(SIZE, Window::Hann, Scaling::Density)
            .unwrap()
            .with_sample_rate(1e5)
            .unwrap(),
    );
    let avg = fg.add(Average::new(SIZE, 4).unwrap());
    let sink = fg.add(VectorSink::<f32>::new());
    let msgs = fg.add(MessageSink::new());
    fg.chain(&[src, power, avg, sink]).unwrap();
    fg.connect_message(avg, "frames", msgs, "in").unwrap();
    let done = run(fg, Single::new());
    let items = done
        .block::<VectorSink<f32>>(sink)
        .unwrap()
        .items()
        .to_vec();
    let messages = done.block::<MessageSink>(msgs).unwrap().messages().to_vec();
    assert_eq!(messages.len(), 6);
    for (i, m) in messages.iter().enumerate() {
        let Pmt::Map(m) = m else { panic!("{m:?}") };
        assert_eq!(
            m["bins"],
            Pmt::VecF32(items[i * SIZE..(i + 1) * SIZE].to_vec())
        );
        assert_eq!(m["core:frequency"], Pmt::F64(5e6));
        assert_eq!(m["core:sample_rate"], Pmt::F64(1e5));
        assert_eq!(m[FRAME_SAMPLES], Pmt::U64(4 * SIZE as u64));
    }
}

#[test]
fn parameters_are_checked() {
    let param_err = |r: Result<(), SpectrumError>, name: &str| match r {
        Err(SpectrumError::Param(e)) => assert_eq!(e.param, name, "{e}"),
        other => panic!("expected a `{name}` error, got {other:?}"),
    };
    for size in [0, 1, (1 << 20) + 1] {
        param_err(
            PowerSpectrum::new(size, Window::Hann, Scaling::Density).map(drop),
            "size",
        );
        param_err(Average::new(size, 1).map(drop), "size");
        param_err(
            WaterfallDecimator::new(size, Interval::Frames(1)).map(drop),
            "size",
        );
    }
    param_err(
        PowerSpectrum::new(8, Window::Kaiser { beta: -1.0 }, Scaling::Density).map(drop),
        "beta",
    );
    let p = PowerSpectrum::new(8, Window::Hann, Scaling::Density).unwrap();
    param_err(p.with_sample_rate(0.0).map(drop), "sample_rate");
    let p = PowerSpectrum::new(8, Window::Hann, Scaling::Density).unwrap();
    param_err(p.with_frequency(f64::NAN).map(drop), "frequency");
    param_err(Average::new(8, 0).map(drop), "n");
    for (bad, name) in [
        (Interval::Frames(0), "frames"),
        (Interval::Seconds(0.0), "period"),
        (Interval::Seconds(f64::INFINITY), "period"),
    ] {
        param_err(WaterfallDecimator::new(8, bad).map(drop), name);
    }
    // A file meets the same rules as Rust code.
    let registry_error = |block: &str, param: &str, value: Pmt| {
        let given = [(param.to_string(), value)].into_iter().collect();
        let e = match block {
            "power_spectrum" => PowerSpectrumParams::resolve(block, given).map(drop),
            "spectrum_average" => AverageParams::resolve(block, given).map(drop),
            _ => WaterfallParams::resolve(block, given).map(drop),
        }
        .unwrap_err();
        assert_eq!(e.param(), Some(param), "{e}");
    };
    registry_error("power_spectrum", "size", Pmt::U64(1 << 21));
    registry_error("power_spectrum", "window", Pmt::from("triangle"));
    registry_error("power_spectrum", "beta", Pmt::F64(1e6));
    registry_error("spectrum_average", "n", Pmt::U64(0));
    registry_error("waterfall_decimator", "frames", Pmt::U64(0));
    registry_error("waterfall_decimator", "period", Pmt::F64(-1.0));
}

#[test]
fn a_kaiser_window_is_a_parameter_too() {
    let given = [
        ("window".to_string(), Pmt::from("kaiser")),
        ("beta".to_string(), Pmt::F64(8.0)),
        ("size".to_string(), Pmt::U64(16)),
    ]
    .into_iter()
    .collect();
    let p = PowerSpectrumParams::resolve("power_spectrum", given).unwrap();
    assert_eq!(p.dsp_window(), Window::Kaiser { beta: 8.0 });
    assert_eq!(
        p,
        PowerSpectrumParams::new(16, Window::Kaiser { beta: 8.0 }, Scaling::Density)
    );
    assert_eq!(PowerSpectrum::from_params(p).unwrap().size(), 16);
}

#[test]
fn settable_parameters_change_and_refuse_like_constructors() {
    let mut avg = Average::new(8, 4).unwrap();
    let settable: Vec<&str> = avg
        .params()
        .unwrap()
        .describe()
        .into_iter()
        .filter(|p| p.settable)
        .map(|p| p.name)
        .collect();
    assert_eq!(settable, ["n"]);
    apply(&mut avg, "n", Pmt::U64(2)).unwrap();
    assert_eq!(avg.frames_per_average(), 2);
    let e = apply(&mut avg, "n", Pmt::U64(0)).unwrap_err();
    assert!(
        e.to_string()
            .contains("0 is out of range: must be in [1, 1048576]"),
        "{e}"
    );
    assert_eq!(avg.frames_per_average(), 2);
    assert!(apply(&mut avg, "size", Pmt::U64(16)).is_err(), "fixed");
    let mut w = WaterfallDecimator::new(8, Interval::Frames(2)).unwrap();
    apply(&mut w, "period", Pmt::F64(0.5)).unwrap();
    assert_eq!(w.interval(), Interval::Seconds(0.5));
    assert!(apply(&mut w, "period", Pmt::F64(-1.0)).is_err());
    assert!(apply(&mut w, "period", Pmt::from("soon")).is_err());
    assert_eq!(w.interval(), Interval::Seconds(0.5));
    // No period: back to every `frames`-th frame.
    apply(&mut w, "period", Pmt::Null).unwrap();
    assert_eq!(w.interval(), Interval::Frames(2));
    let mut power = PowerSpectrum::new(8, Window::Hann, Scaling::Density).unwrap();
    assert!(apply(&mut power, "size", Pmt::U64(16)).is_err(), "fixed");
}

/// Frames per average change while the graph runs: the output frames
/// summarise 4 input frames up to one frame boundary, then 2, with no
/// group mixing the two.
#[test]
fn frames_per_average_change_while_running_at_one_frame() {
    for scheduler in every_scheduler() {
        let name = scheduler.name().to_string();
        let x = noise(SIZE * 256, 1.0, 5);
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(x).repeat(u64::MAX));
        let power = fg.add(PowerSpectrum::new(SIZE, Window::Hann, Scaling::Density).unwrap());
        let avg = fg.add(Average::new(SIZE, 4).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, power, avg, sink]).unwrap();
        let running = fg.start(scheduler).unwrap();
        let handle = running.handle();
        wait_for(&handle, sink, SIZE * 64);
        assert_eq!(handle.call(avg, "n", 2u64, WATCHDOG).unwrap(), Pmt::Null);
        let e = handle.call(avg, "n", 0u64, WATCHDOG).unwrap_err();
        assert!(
            e.to_string()
                .contains("0 is out of range: must be in [1, 1048576]"),
            "{name}: {e}"
        );
        // What the average wrote before the change may still be on its
        // way; what it writes after follows it to the sink.
        let after = handle.stats()[avg.0].items_produced as usize;
        wait_for(&handle, sink, after + SIZE * 64);
        handle.stop();
        let done = running.wait_timeout(WATCHDOG).unwrap();
        let sink = done.block::<VectorSink<f32>>(sink).unwrap();
        let s = SIZE as u64;
        let samples: Vec<(u64, u64)> = sink
            .tags()
            .iter()
            .filter(|t| t.key == FRAME_SAMPLES)
            .map(|t| (t.index, t.value.as_u64().unwrap()))
            .collect();
        // Groups of 4, then of 2 from one frame on; a group that held 3
        // when the change came closes at once, just before.
        assert_eq!(samples[0], (0, 4 * s), "{name}");
        let (at, value) = *samples.last().unwrap();
        assert_eq!(value, 2 * s, "{name}: {samples:?}");
        match samples.len() {
            2 => {}
            3 => assert_eq!(samples[1], (at - s, 3 * s), "{name}: {samples:?}"),
            _ => panic!("{name}: {samples:?}"),
        }
        assert!(
            samples.iter().all(|(i, _)| i % s == 0),
            "{name}: frame boundaries"
        );
        assert!(at > 0 && at < sink.items().len() as u64, "{name}: {at}");
    }
}

/// A period set while the graph runs: every frame is kept up to one
/// frame, then one per period of signal time.
#[test]
fn a_waterfall_period_set_while_running_takes_over_at_one_frame() {
    const N: usize = 4096;
    for scheduler in every_scheduler() {
        let name = scheduler.name().to_string();
        // Frame k holds k everywhere; each lasts 1 s (4 samples at 4 S/s).
        let frames: Vec<f32> = (0..N).flat_map(|k| [k as f32; 4]).collect();
        let tags = vec![
            Tag::new(0, "core:sample_rate", 4.0),
            Tag::new(0, FRAME_SAMPLES, 4u64),
        ];
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(frames).with_tags(tags).repeat(u64::MAX));
        let lines = fg.add(WaterfallDecimator::new(4, Interval::Frames(1)).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, lines, sink]).unwrap();
        let running = fg.start(scheduler).unwrap();
        let handle = running.handle();
        wait_for(&handle, sink, 4 * 64);
        assert_eq!(
            handle.call(lines, "period", 3.0, WATCHDOG).unwrap(),
            Pmt::Null
        );
        let after = handle.stats()[lines.0].items_produced as usize;
        wait_for(&handle, sink, after + 4 * 64);
        handle.stop();
        let done = running.wait_timeout(WATCHDOG).unwrap();
        let items = done.block::<VectorSink<f32>>(sink).unwrap().items();
        let kept: Vec<usize> = items.chunks(4).map(|f| f[0] as usize).collect();
        let steps: Vec<usize> = kept.windows(2).map(|w| (w[1] + N - w[0]) % N).collect();
        let switch = steps
            .iter()
            .position(|&d| d != 1)
            .unwrap_or_else(|| panic!("{name}: the period never took over"));
        assert!(switch > 0, "{name}: {steps:?}");
        assert!((1..=3).contains(&steps[switch]), "{name}: {steps:?}");
        assert!(
            steps[switch + 1..].iter().all(|&d| d == 3),
            "{name}: one frame per 3 s after the change: {steps:?}"
        );
    }
}

#[test]
fn the_last_short_average_waits_for_room_in_a_full_output() {
    // Frames of one page, an output ring of about two frames drained a
    // few items at a time: the last group (frame 8) must wait for room.
    let size = 1024;
    let x = noise(size * 9, 1.0, 13);
    for scheduler in every_scheduler() {
        let name = scheduler.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(x.clone()));
        let power = fg.add(PowerSpectrum::new(size, Window::Hann, Scaling::Density).unwrap());
        let avg = fg.add(Average::new(size, 2).unwrap());
        let slow = fg.add(CopyRand::<f32>::new(5, 77));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, power, avg]).unwrap();
        fg.connect_with_buffer(avg, "out", slow, "in", size * 4)
            .unwrap();
        fg.chain(&[slow, sink]).unwrap();
        let (items, tags) = output(&run(fg, scheduler), sink);
        assert_eq!(items.len(), size * 5, "{name}");
        let s = size as u64;
        let by_frame: Vec<(u64, u64)> = tags
            .iter()
            .filter(|t| t.key == FRAME_SAMPLES)
            .map(|t| (t.index / s, t.value.as_u64().unwrap()))
            .collect();
        assert_eq!(by_frame, [(0, 2 * s), (4, s)], "{name}");
    }
}

/// Waits (at most [`WATCHDOG`]) until `sink` consumed `items`.
fn wait_for(handle: &FlowgraphHandle, sink: BlockId, items: usize) {
    let deadline = std::time::Instant::now() + WATCHDOG;
    while (handle.stats()[sink.0].items_consumed as usize) < items {
        assert!(std::time::Instant::now() < deadline, "no progress");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
