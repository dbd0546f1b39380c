//! The message and packet blocks in running flowgraphs on every
//! scheduler: tagged streams to PDUs and back, the strobe, random PDUs,
//! and the debug sinks' stores.

mod common;

use common::{RunBounded, every_scheduler, wait_within};
use rfgraph::{BlockId, Flowgraph, FlowgraphHandle, Pmt, Tag};
use rfgraph_blocks::message::{
    Interval, MessageDebug, MessageStrobe, PduToTaggedStream, RandomPdu, StreamToTaggedStream,
    TagDebug, TaggedStreamToPdu, parse,
};
use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
use std::time::{Duration, Instant};

/// Waits until `block` handled at least `n` messages.
fn wait_for_messages(handle: &FlowgraphHandle, block: BlockId, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while handle.stats()[block.0].messages_handled < n {
        assert!(Instant::now() < deadline, "the messages never arrived");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn packets_go_to_pdus_and_back_with_their_tags() {
    let data: Vec<u8> = (0..6000).map(|k| (k % 251) as u8).collect();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        // A tag inside packet 2 becomes its metadata, then a tag on its
        // first item.
        let src = fg.add(VectorSource::new(data.clone()).with_tags(vec![Tag::new(
            250,
            "snr",
            Pmt::F64(3.5),
        )]));
        let tagger = fg.add(StreamToTaggedStream::<u8>::new(100, 1, "packet_len").unwrap());
        let to_pdu = fg.add(TaggedStreamToPdu::<u8>::new("packet_len"));
        let store = fg.add(MessageSink::new());
        let from_pdu = fg.add(PduToTaggedStream::<u8>::new("packet_len"));
        let sink = fg.add(VectorSink::<u8>::new());
        fg.chain(&[src, tagger, to_pdu]).unwrap();
        fg.connect_message(to_pdu, "pdus", store, "in").unwrap();
        fg.connect_message(to_pdu, "pdus", from_pdu, "pdus")
            .unwrap();
        fg.connect(from_pdu, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let pdus = done.block::<MessageSink>(store).unwrap().messages();
        assert_eq!(pdus.len(), 60, "{name}");
        let (meta, bytes) = parse(&pdus[2]).unwrap();
        assert_eq!(meta.get("snr"), Some(&Pmt::F64(3.5)), "{name}");
        assert_eq!(bytes, &Pmt::Blob(data[200..300].to_vec()), "{name}");
        let out = done.block::<VectorSink<u8>>(sink).unwrap();
        assert_eq!(out.items(), &data[..], "{name}");
        let lengths: Vec<u64> = out
            .tags()
            .iter()
            .filter(|t| t.key == "packet_len")
            .map(|t| {
                assert_eq!(t.value, Pmt::U64(100));
                t.index
            })
            .collect();
        assert_eq!(
            lengths,
            (0..60).map(|k| k * 100).collect::<Vec<_>>(),
            "{name}"
        );
        let snr: Vec<&Tag> = out.tags().iter().filter(|t| t.key == "snr").collect();
        assert_eq!(snr, [&Tag::new(200, "snr", Pmt::F64(3.5))], "{name}");
    }
}

#[test]
fn tag_debug_keeps_the_tags_it_is_asked_for() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![0.0f32; 1000]));
        let tagger = fg.add(StreamToTaggedStream::<f32>::new(10, 2, "len").unwrap());
        let dbg = fg.add(TagDebug::<f32>::new("dbg", "len").display(false));
        fg.chain(&[src, tagger, dbg]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let tags = done.block::<TagDebug<f32>>(dbg).unwrap().tags();
        assert_eq!(tags.len(), 50, "{name}");
        assert!(
            tags.iter()
                .enumerate()
                .all(|(k, t)| t.index == 20 * k as u64 && t.value == Pmt::U64(10)),
            "{name}"
        );
    }
}

#[test]
fn the_strobe_posts_its_message_count_times_and_takes_a_new_one() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let strobe = fg.add(MessageStrobe::new(Pmt::from("TEST"), Interval::Fixed(2.0)).count(4));
        let debug = fg.add(MessageDebug::new().quiet());
        fg.connect_message(strobe, "strobe", debug, "store")
            .unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        wait_for_messages(&handle, debug, 1);
        handle
            .call(strobe, "message", Pmt::from("NEW"), Duration::from_secs(20))
            .ok();
        wait_for_messages(&handle, debug, 4);
        // Nothing more comes: the strobe finished.
        std::thread::sleep(Duration::from_millis(20));
        handle.stop();
        let done = wait_within(running, Duration::from_secs(60)).unwrap();
        let stored = done.block::<MessageDebug>(debug).unwrap().stored();
        assert_eq!(stored.len(), 4, "{name}");
        assert_eq!(stored[0], Pmt::from("TEST"), "{name}");
        assert_eq!(stored[3], Pmt::from("NEW"), "{name}");
    }
}

#[test]
fn random_pdus_come_at_the_start_and_on_request_within_their_bounds() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let random = fg.add(RandomPdu::new(10, 50, 0x0f, 4, 1).unwrap());
        let debug = fg.add(MessageDebug::new().quiet());
        fg.connect_message(random, "pdus", debug, "store").unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        wait_for_messages(&handle, debug, 1);
        for _ in 0..20 {
            handle.post(random, "generate", Pmt::Null).unwrap();
        }
        wait_for_messages(&handle, debug, 21);
        handle.stop();
        let done = wait_within(running, Duration::from_secs(60)).unwrap();
        let stored = done.block::<MessageDebug>(debug).unwrap().stored();
        assert_eq!(stored.len(), 21, "{name}");
        let mut lengths = Vec::new();
        for msg in stored {
            let (meta, data) = parse(msg).unwrap();
            assert!(meta.is_empty());
            let Pmt::Blob(bytes) = data else {
                panic!("{name}: not bytes")
            };
            assert!(
                (8..=50).contains(&bytes.len()) && bytes.len() % 4 == 0,
                "{name}: {}",
                bytes.len()
            );
            assert!(bytes.iter().all(|b| b & 0xf0 == 0), "{name}: mask");
            lengths.push(bytes.len());
        }
        lengths.sort();
        lengths.dedup();
        assert!(
            lengths.len() > 3,
            "{name}: lengths hardly vary: {lengths:?}"
        );
    }
}
