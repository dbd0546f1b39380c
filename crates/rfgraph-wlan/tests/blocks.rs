//! The receiver's blocks in flowgraphs: on every scheduler, with one
//! lane and with several, with the stream cut into random chunks, every
//! frame of a capture with carrier offsets, multipath and noise comes out
//! bit for bit, once, in order.

use rfgraph::scheduler::{Chain, Pool, Single, Tpb};
use rfgraph::{Flowgraph, Scheduler};
use rfgraph_blocks::{CopyRand, MessageSink, VectorSource};
use rfgraph_wlan::block::{WlanFrames, WlanFramesParams, add_receiver, frame_pdu};
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::scene::{Capture, Scene};
use std::time::Duration;

/// The most any of these flowgraphs may take.
const WATCHDOG: Duration = Duration::from_secs(300);

fn capture() -> Capture {
    Scene {
        frames: 24,
        rates: Rate::ALL.to_vec(),
        payloads: vec![1, 300, 1500],
        busy: 0.5,
        snr_db: Some(28.0),
        max_cfo_hz: 100e3,
        multipath: Some((3, 1.0)),
        lead: 3000,
        seed: 5,
    }
    .generate()
}

fn schedulers() -> Vec<(&'static str, Box<dyn Scheduler>)> {
    vec![
        ("single", Box::new(Single::new())),
        ("pool", Box::new(Pool::new())),
        ("chain", Box::new(Chain::new().workers(2))),
        ("tpb", Box::new(Tpb::new())),
    ]
}

#[test]
fn every_scheduler_and_lane_count_gives_every_frame_in_order() {
    let c = capture();
    for lanes in [1, 3] {
        for (i, (name, scheduler)) in schedulers().into_iter().enumerate() {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(c.samples.clone()));
            let chunks = fg.add(CopyRand::<num_complex::Complex32>::new(7000, 40 + i as u64));
            fg.connect(src, "out", chunks, "in").unwrap();
            let frames = WlanFrames::from_params(WlanFramesParams::default()).keeping();
            let rx = add_receiver(&mut fg, chunks, "out", lanes, frames).unwrap();
            let sink = fg.add(MessageSink::new());
            fg.connect_message(rx.frames, "out", sink, "in").unwrap();
            let done = fg.start(scheduler).unwrap().wait_timeout(WATCHDOG).unwrap();
            let posted: Vec<_> = done
                .block::<MessageSink>(sink)
                .unwrap()
                .messages()
                .iter()
                .map(|m| frame_pdu::from_pdu(m).expect("a frame PDU"))
                .collect();
            let what = format!("{name} with {lanes} lanes");
            assert_eq!(posted.len(), c.frames.len(), "{what}: frames");
            for (got, sent) in posted.iter().zip(&c.frames) {
                assert!(got.fcs_ok, "{what}: frame {}", sent.seq);
                assert_eq!(got.mpdu, sent.mpdu, "{what}: frame {}", sent.seq);
                assert_eq!(got.rate, sent.rate, "{what}: frame {}", sent.seq);
                assert_eq!(got.seq, sent.seq, "{what}: order");
                assert!(
                    got.start.abs_diff(sent.start) <= 16,
                    "{what}: frame {} found at {} for {}",
                    sent.seq,
                    got.start,
                    sent.start
                );
                assert!(
                    (got.cfo_hz as f64 - sent.cfo_hz).abs() < 2e3,
                    "{what}: frame {} CFO {} for {}",
                    sent.seq,
                    got.cfo_hz,
                    sent.cfo_hz
                );
            }
            let kept = done.block::<WlanFrames>(rx.frames).unwrap().frames();
            assert_eq!(kept, &posted[..], "{what}: kept = posted");
            let stats = done.stats();
            let decoded: u64 = stats
                .iter()
                .filter(|s| s.block.starts_with("wlan_decoder"))
                .map(|s| s.counters["frames"])
                .sum();
            assert_eq!(decoded, c.frames.len() as u64, "{what}: decoder counters");
            if lanes > 1 {
                let busy = stats
                    .iter()
                    .filter(|s| s.block.starts_with("wlan_decoder"))
                    .filter(|s| s.counters["frames"] > 0)
                    .count();
                assert!(busy > 1, "{what}: the frames went to one lane only");
            }
        }
    }
}

#[test]
fn noise_alone_gives_no_frames() {
    let c = Scene {
        frames: 0,
        lead: 400_000,
        ..Scene::busy_channel(0, Some(0.0), 3)
    }
    .generate();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(c.samples));
    let frames = WlanFrames::from_params(WlanFramesParams { with_bad_fcs: true }).keeping();
    let rx = add_receiver(&mut fg, src, "out", 2, frames).unwrap();
    let done = fg
        .start(Chain::new().workers(2))
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let kept = done.block::<WlanFrames>(rx.frames).unwrap().frames();
    assert!(kept.is_empty(), "{} frames from noise", kept.len());
}
