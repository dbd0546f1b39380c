//! The message and packet blocks in running flowgraphs on every
//! scheduler: tagged streams to PDUs and back, the strobe, random PDUs,
//! and the debug sinks' stores.

mod common;

use common::{RunBounded, every_scheduler, wait_within};
use rfgraph::{BlockId, Flowgraph, FlowgraphHandle, Pmt, Tag};
use rfgraph_blocks::message::{
    MessageDebug, MessageStrobe, MessageStrobeParams, PduToStream, PduToTaggedStream, RandomPdu,
    RandomPduParams, StreamToTaggedStream, StreamToTaggedStreamParams, TagDebug, TagDebugParams,
    TaggedStreamToPdu, TakeSkipToPdu, TakeSkipToPduParams, parse,
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
        let tagger = fg.add(
            StreamToTaggedStream::<u8>::new(StreamToTaggedStreamParams {
                packet_len: 100,
                ..Default::default()
            })
            .unwrap(),
        );
        let to_pdu = fg.add(TaggedStreamToPdu::<u8>::new(Default::default()).unwrap());
        let store = fg.add(MessageSink::new());
        let from_pdu = fg.add(PduToTaggedStream::<u8>::new(Default::default()).unwrap());
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
        let tagger = fg.add(
            StreamToTaggedStream::<f32>::new(StreamToTaggedStreamParams {
                packet_len: 10,
                vlen: 2,
                len_tag_key: "len".into(),
                ..Default::default()
            })
            .unwrap(),
        );
        let dbg = fg.add(
            TagDebug::<f32>::new(TagDebugParams {
                name: "dbg".into(),
                filter: "len".into(),
                display: false,
                ..Default::default()
            })
            .unwrap(),
        );
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
        let strobe = fg.add(
            MessageStrobe::new(MessageStrobeParams {
                message: Pmt::from("TEST"),
                period: 2.0,
                count: Some(4),
            })
            .unwrap(),
        );
        let debug = fg.add(MessageDebug::default().quiet());
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
        let random = fg.add(
            RandomPdu::new(RandomPduParams {
                min_items: 10,
                max_items: 50,
                mask: 0x0f,
                length_modulo: 4,
                seed: 1,
            })
            .unwrap(),
        );
        let debug = fg.add(MessageDebug::default().quiet());
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

#[test]
fn take_skip_pdus_pass_the_pdu_tools_as_gnu_radio_passes_them() {
    use rfgraph::registry::Registry;
    use std::collections::BTreeMap;
    let mut registry = Registry::new();
    registry.extend(rfgraph_blocks::registry::specs());
    let build = |name: &str, params: &[(&str, Pmt)]| {
        let p: BTreeMap<String, Pmt> = params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        registry.build(name, p).unwrap()
    };
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(
            (0..20).map(|k| k as f32).collect::<Vec<_>>(),
        ));
        let take = fg.add_boxed(
            "take",
            "take_skip_to_pdu",
            build(
                "take_skip_to_pdu",
                &[
                    ("type", "f32".into()),
                    ("take", Pmt::U64(3)),
                    ("skip", Pmt::U64(4)),
                ],
            ),
        );
        let all = fg.add(MessageSink::new());
        // Keep the odd-numbered PDUs, then drop their number, add a time,
        // and split them.
        let set = fg.add_boxed(
            "set",
            "pdu_set",
            build(
                "pdu_set",
                &[("key", "odd".into()), ("value", Pmt::Bool(true))],
            ),
        );
        let filter = fg.add_boxed(
            "filter",
            "pdu_filter",
            build(
                "pdu_filter",
                &[("key", "pdu_num".into()), ("value", Pmt::U64(1))],
            ),
        );
        let remove = fg.add_boxed(
            "remove",
            "pdu_remove",
            build("pdu_remove", &[("key", "pdu_num".into())]),
        );
        let time = fg.add_boxed("time", "add_system_time", build("add_system_time", &[]));
        let delta = fg.add_boxed("delta", "time_delta", build("time_delta", &[]));
        let split = fg.add_boxed("split", "pdu_split", build("pdu_split", &[]));
        let dicts = fg.add(MessageSink::new());
        let vecs = fg.add(MessageSink::new());
        fg.connect(src, "out", take, "in").unwrap();
        fg.connect_message(take, "pdus", all, "in").unwrap();
        fg.connect_message(take, "pdus", set, "pdus").unwrap();
        fg.connect_message(set, "pdus", filter, "pdus").unwrap();
        fg.connect_message(filter, "pdus", remove, "pdus").unwrap();
        fg.connect_message(remove, "pdus", time, "pdu").unwrap();
        fg.connect_message(time, "pdu", delta, "pdu").unwrap();
        fg.connect_message(delta, "pdu", split, "pdu").unwrap();
        fg.connect_message(split, "dict", dicts, "in").unwrap();
        fg.connect_message(split, "vec", vecs, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        // GNU Radio 3.10: (((pdu_num . 0)) . #[0 1 2]), (((pdu_num . 1)) . #[7 8 9]), (((pdu_num . 2)) . #[14 15 16])
        let pdus = done.block::<MessageSink>(all).unwrap().messages();
        let seen: Vec<(Pmt, Pmt)> = pdus
            .iter()
            .map(|m| {
                let (meta, data) = parse(m).unwrap();
                (meta["pdu_num"].clone(), data.clone())
            })
            .collect();
        assert_eq!(
            seen,
            [
                (Pmt::U64(0), Pmt::VecF32(vec![0.0, 1.0, 2.0])),
                (Pmt::U64(1), Pmt::VecF32(vec![7.0, 8.0, 9.0])),
                (Pmt::U64(2), Pmt::VecF32(vec![14.0, 15.0, 16.0])),
            ],
            "{name}"
        );
        let dicts = done.block::<MessageSink>(dicts).unwrap().messages();
        assert_eq!(dicts.len(), 1, "{name}");
        let Pmt::Map(meta) = &dicts[0] else {
            panic!("{name}: not a map")
        };
        assert_eq!(
            meta.keys().collect::<Vec<_>>(),
            ["odd", "system_time", "time_delta_ms"],
            "{name}"
        );
        assert!(meta["system_time"].as_f64().unwrap() > 1.6e9, "{name}");
        let delta = meta["time_delta_ms"].as_f64().unwrap();
        assert!((0.0..60_000.0).contains(&delta), "{name}: {delta} ms");
        assert_eq!(
            done.block::<MessageSink>(vecs).unwrap().messages(),
            &[Pmt::VecF32(vec![7.0, 8.0, 9.0])],
            "{name}"
        );
    }
}

#[test]
fn pdu_to_stream_writes_bursts_tagged_as_gnu_radio_tags_them() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]));
        let take = fg.add(
            TakeSkipToPdu::<f32>::new(TakeSkipToPduParams {
                take: 3,
                skip: 0,
                ..Default::default()
            })
            .unwrap(),
        );
        let bursts = fg.add(PduToStream::<f32>::new(Default::default()).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", take, "in").unwrap();
        fg.connect_message(take, "pdus", bursts, "pdus").unwrap();
        fg.connect(bursts, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let out = done.block::<VectorSink<f32>>(sink).unwrap();
        // GNU Radio 3.10: (0, tx_sob), (2, tx_eob), (3, tx_sob), (5, tx_eob).
        assert_eq!(out.items(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "{name}");
        let tags: Vec<(u64, &str)> = out
            .tags()
            .iter()
            .map(|t| (t.index, t.key.as_str()))
            .collect();
        assert_eq!(
            tags,
            [(0, "tx_sob"), (2, "tx_eob"), (3, "tx_sob"), (5, "tx_eob")],
            "{name}"
        );
    }
}
