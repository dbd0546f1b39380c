//! The RDS blocks in flowgraphs: every scheduler, with the stream cut
//! into random chunks, gives the same messages as the library cores, and
//! the decoder's counters reach the statistics.

mod common;

use common::{decode_mpx, fm_demod_hz};
use rfgraph::scheduler::{Chain, Pool, Single, Tpb};
use rfgraph::{Flowgraph, Scheduler};
use rfgraph_blocks::{CopyRand, MessageSink, VectorSource};
use rfgraph_radio::generate::fm::FmStation;
use rfgraph_radio::rds::{RdsContent, connect_receiver, json_line};
use std::time::Duration;

/// The most any of these flowgraphs may take.
const WATCHDOG: Duration = Duration::from_secs(120);

/// A demodulated multiplex with some noise (so that corrections and
/// erasures happen too).
fn noisy_mpx() -> Vec<f32> {
    let station = FmStation {
        rds: Some(RdsContent {
            pi: 0x2468,
            ps: "SCHEDULE".into(),
            radiotext: "Same messages on every scheduler".into(),
            ..RdsContent::default()
        }),
        cnr_db: Some(13.0),
        seed: 3,
        ..FmStation::new(240e3, 6.0)
    };
    let iq = station.generate().unwrap();
    fm_demod_hz(&iq, 240e3)
        .into_iter()
        .map(|hz| hz / 75e3)
        .collect()
}

/// Runs the multiplex through `CopyRand` (random chunks) and the RDS
/// blocks on `scheduler`: the JSON lines and the decoder's counters.
fn run(
    mpx: &[f32],
    scheduler: Box<dyn Scheduler>,
    seed: u64,
) -> (Vec<String>, std::collections::BTreeMap<String, u64>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(mpx.to_vec()));
    let shuffle = fg.add(CopyRand::<f32>::new(5000, seed));
    fg.connect(src, "out", shuffle, "in").unwrap();
    let rds = connect_receiver(&mut fg, shuffle, "out", 240e3).unwrap();
    let sink = fg.add(MessageSink::new());
    fg.connect_message(rds.decoder, "out", sink, "in").unwrap();
    let done = fg.start(scheduler).unwrap().wait_timeout(WATCHDOG).unwrap();
    let lines = done
        .block::<MessageSink>(sink)
        .unwrap()
        .messages()
        .iter()
        .map(json_line)
        .collect();
    let counters = done
        .stats()
        .iter()
        .find(|s| s.block == "rds_decoder")
        .expect("the decoder's statistics")
        .counters
        .clone();
    (lines, counters)
}

#[test]
fn every_scheduler_gives_the_cores_messages() {
    let mpx = noisy_mpx();
    let reference = decode_mpx(&mpx, 240e3);
    assert!(
        reference
            .lines
            .iter()
            .any(|l| l.contains(r#""ps":"SCHEDULE""#)),
        "{:#?}",
        reference.lines
    );
    let counts = reference.counts.unwrap();
    assert!(
        counts.blocks_corrected > 0,
        "{counts:?}: the test should see corrections"
    );
    let schedulers: Vec<(&str, Box<dyn Scheduler>)> = vec![
        ("single", Box::new(Single::new())),
        ("pool", Box::new(Pool::new())),
        ("chain", Box::new(Chain::new())),
        ("tpb", Box::new(Tpb::new())),
    ];
    for (i, (name, scheduler)) in schedulers.into_iter().enumerate() {
        let (lines, counters) = run(&mpx, scheduler, 11 + i as u64);
        assert_eq!(lines, reference.lines, "{name}");
        assert_eq!(counters["rds_bits"], counts.bits, "{name}");
        assert_eq!(counters["rds_blocks_ok"], counts.blocks_ok, "{name}");
        assert_eq!(
            counters["rds_blocks_corrected"], counts.blocks_corrected,
            "{name}"
        );
        assert_eq!(
            counters["rds_blocks_failed"], counts.blocks_failed,
            "{name}"
        );
        assert_eq!(counters["rds_sync_losses"], counts.sync_losses, "{name}");
        assert_eq!(counters["rds_messages"], lines.len() as u64, "{name}");
        assert!(counters["rds_groups"] > 0, "{name}");
    }
}
