//! The waterfall decimator keeps frames by the signal's own time.

use crate::common::*;
use rfgraph::scheduler::Single;
use rfgraph::{Flowgraph, Tag};
use rfgraph_blocks::{CopyRand, VectorSink, VectorSource};
use rfgraph_radio::spectrum::{FRAME_SAMPLES, Interval, WaterfallDecimator};

const SIZE: usize = 4;

/// 20 frames of 0.1 s (100 samples at 1 kHz), frame `i` filled with `i`;
/// the indices of the frames `interval` keeps.
fn kept(interval: Interval, shake: Option<(u64, Box<dyn rfgraph::Scheduler>)>) -> Vec<usize> {
    let frames: Vec<f32> = (0..20).flat_map(|i| [i as f32; SIZE]).collect();
    let tags = vec![
        Tag::new(0, "core:sample_rate", 1000.0),
        Tag::new(0, FRAME_SAMPLES, 100u64),
    ];
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(frames).with_tags(tags));
    let lines = fg.add(WaterfallDecimator::new(SIZE, interval).unwrap());
    let sink = fg.add(VectorSink::<f32>::new());
    let done = match shake {
        Some((seed, scheduler)) => {
            let a = fg.add(CopyRand::<f32>::new(7, seed));
            let b = fg.add(CopyRand::<f32>::new(5, seed + 1));
            fg.chain(&[src, a, lines, b, sink]).unwrap();
            run(fg, scheduler)
        }
        None => {
            fg.chain(&[src, lines, sink]).unwrap();
            run(fg, Single::new())
        }
    };
    let items = done.block::<VectorSink<f32>>(sink).unwrap().items();
    assert_eq!(items.len() % SIZE, 0);
    items
        .chunks(SIZE)
        .map(|f| {
            assert!(f.iter().all(|&x| x == f[0]), "a frame torn apart: {f:?}");
            f[0] as usize
        })
        .collect()
}

#[test]
fn one_frame_per_period_of_signal_time() {
    // Periods of 0.25 s: the first frames at or after 0, 0.25, 0.5, ...
    assert_eq!(
        kept(Interval::Seconds(0.25), None),
        [0, 3, 5, 8, 10, 13, 15, 18]
    );
    // A period of exactly one frame (sums of 0.1 are not exact) keeps all.
    assert_eq!(
        kept(Interval::Seconds(0.1), None),
        (0..20).collect::<Vec<_>>()
    );
    assert_eq!(kept(Interval::Seconds(0.3), None), [0, 3, 6, 9, 12, 15, 18]);
    // Longer than the input: the first frame only.
    assert_eq!(kept(Interval::Seconds(10.0), None), [0]);
    assert_eq!(kept(Interval::Frames(6), None), [0, 6, 12, 18]);
}

#[test]
fn the_choice_is_the_same_on_every_scheduler_and_chunking() {
    for (seed, scheduler) in every_scheduler().into_iter().enumerate() {
        assert_eq!(
            kept(Interval::Seconds(0.25), Some((seed as u64 + 1, scheduler))),
            [0, 3, 5, 8, 10, 13, 15, 18]
        );
    }
}

#[test]
fn seconds_without_a_rate_fail_the_run_saying_why() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![0f32; SIZE * 3]));
    let lines = fg.add(WaterfallDecimator::new(SIZE, Interval::Seconds(1.0)).unwrap());
    let sink = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, lines, sink]).unwrap();
    let e = fg
        .start(Single::new())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .err()
        .expect("no rate is an error");
    assert!(e.to_string().contains("core:sample_rate"), "{e}");
}
