//! The message and packet blocks in running flowgraphs on every
//! scheduler: tagged streams to PDUs and back, the strobe, random PDUs,
//! and the debug sinks' stores; and the parameters GNU Radio changes
//! while running (its callbacks), changed through the running graph and
//! seen to act at one packet, PDU or message.

mod common;

use common::{RunBounded, WATCHDOG, every_scheduler, wait_within};
use rfgraph::{
    Block, BlockId, BoxError, Flowgraph, FlowgraphHandle, Item, Pmt, Ports, StreamOutput, Tag,
    WorkIo,
};
use rfgraph_blocks::message::{
    Distribution, MessageDebug, MessageStrobe, MessageStrobeParams, MessageStrobeRandom,
    MessageStrobeRandomParams, PduFilter, PduFilterParams, PduRemove, PduRemoveParams, PduSet,
    PduToStream, PduToStreamParams, PduToTaggedStream, RandomPdu, RandomPduParams,
    StreamToTaggedStream, StreamToTaggedStreamParams, TagDebug, TagDebugParams, TaggedStreamToPdu,
    TakeSkipToPdu, TakeSkipToPduParams, parse, pdu,
};
use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// Writes `item(0)`, `item(1)`, … up to the position the test allows
/// (`gate`), then on to `end` once the gate reaches it, and finishes
/// there: the test knows how many items a block saw when it changes a
/// parameter.
struct Gated<T: Item> {
    output: StreamOutput<T>,
    gate: Arc<AtomicU64>,
    end: u64,
    at: u64,
    item: fn(u64) -> T,
}

impl<T: Item> Gated<T> {
    fn new(gate: &Arc<AtomicU64>, end: u64, item: fn(u64) -> T) -> Self {
        Self {
            output: StreamOutput::new("out"),
            gate: gate.clone(),
            end,
            at: 0,
            item,
        }
    }
}

impl<T: Item> Block for Gated<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let open = self.gate.load(Ordering::Acquire).min(self.end);
        let o = self.output.slice();
        let n = o.len().min((open - self.at) as usize);
        for (k, x) in o[..n].iter_mut().enumerate() {
            *x = (self.item)(self.at + k as u64);
        }
        self.output.produce(n);
        self.at += n as u64;
        if self.at == self.end {
            io.finish();
        } else if n == 0 {
            io.call_again_at(Instant::now() + Duration::from_millis(1));
        }
        Ok(())
    }
}

const CALL: Duration = Duration::from_secs(20);

/// Waits until `block` consumed `n` items.
fn wait_for_items(handle: &FlowgraphHandle, block: BlockId, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while handle.stats()[block.0].items_consumed < n {
        assert!(Instant::now() < deadline, "the items never arrived");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_new_packet_len_starts_with_the_next_packet() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let gate = Arc::new(AtomicU64::new(995));
        let mut fg = Flowgraph::new();
        let src = fg.add(Gated::<u8>::new(&gate, 2000, |k| k as u8));
        let tagger = fg.add(
            StreamToTaggedStream::<u8>::new(StreamToTaggedStreamParams {
                packet_len: 10,
                ..Default::default()
            })
            .unwrap(),
        );
        let sink = fg.add(VectorSink::<u8>::new());
        fg.chain(&[src, tagger, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        // Half way through the packet at 990.
        wait_for_items(&handle, tagger, 995);
        handle
            .call(tagger, "packet_len", Pmt::U64(3), CALL)
            .unwrap();
        gate.store(u64::MAX, Ordering::Release);
        let done = wait_within(running, WATCHDOG).unwrap();
        let tags: Vec<(u64, Pmt)> = done
            .block::<VectorSink<u8>>(sink)
            .unwrap()
            .tags()
            .iter()
            .map(|t| (t.index, t.value.clone()))
            .collect();
        // The packet under way keeps its 10 items; the next ones have 3.
        let want: Vec<(u64, Pmt)> = (0..1000)
            .step_by(10)
            .map(|k| (k, Pmt::U64(10)))
            .chain((1000..2000).step_by(3).map(|k| (k, Pmt::U64(3))))
            .collect();
        assert_eq!(tags, want, "{name}");
    }
}

#[test]
fn take_and_skip_change_from_the_next_pdu_or_gap() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let gate = Arc::new(AtomicU64::new(702));
        let mut fg = Flowgraph::new();
        let src = fg.add(Gated::<f32>::new(&gate, 1400, |k| k as f32));
        let take = fg.add(
            TakeSkipToPdu::<f32>::new(TakeSkipToPduParams {
                take: 3,
                skip: 4,
                ..Default::default()
            })
            .unwrap(),
        );
        let sink = fg.add(MessageSink::new());
        fg.connect(src, "out", take, "in").unwrap();
        fg.connect_message(take, "pdus", sink, "in").unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        // Inside the PDU at 700.
        wait_for_items(&handle, take, 702);
        handle.call(take, "take", Pmt::U64(5), CALL).unwrap();
        // At 1000 a PDU (995..1000) has just ended and a gap begun.
        gate.store(1000, Ordering::Release);
        wait_for_items(&handle, take, 1000);
        handle.call(take, "skip", Pmt::U64(1), CALL).unwrap();
        gate.store(u64::MAX, Ordering::Release);
        let done = wait_within(running, WATCHDOG).unwrap();
        let seen: Vec<(Pmt, Pmt)> = done
            .block::<MessageSink>(sink)
            .unwrap()
            .messages()
            .iter()
            .map(|m| {
                let (meta, data) = parse(m).unwrap();
                (meta["pdu_num"].clone(), data.clone())
            })
            .collect();
        // (start, length) of every PDU: 3 every 7 up to the one under way
        // at the first change; 5 every 9 up to the gap under way at the
        // second; then 5 every 6.
        let starts = (0..=700)
            .step_by(7)
            .map(|k| (k, 3))
            .chain((707..1000).step_by(9).map(|k| (k, 5)))
            .chain((1004..=1395).step_by(6).map(|k| (k, 5)));
        let want: Vec<(Pmt, Pmt)> = starts
            .enumerate()
            .map(|(n, (start, len))| {
                let data = (start..start + len).map(|k| k as f32).collect();
                (Pmt::U64(n as u64), Pmt::VecF32(data))
            })
            .collect();
        assert_eq!(seen.len(), want.len(), "{name}");
        assert_eq!(seen, want, "{name}");
    }
}

#[test]
fn strobes_take_a_new_interval_and_message_at_once() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        // An hour between two messages: only a change can make them come.
        let strobe = fg.add(
            MessageStrobe::new(MessageStrobeParams {
                message: Pmt::from("A"),
                period: 3_600_000.0,
                count: None,
            })
            .unwrap(),
        );
        let random = fg.add(
            MessageStrobeRandom::new(MessageStrobeRandomParams {
                message: Pmt::from("A"),
                distribution: Distribution::Uniform,
                mean: 3_600_000.0,
                std: 0.0,
                ..Default::default()
            })
            .unwrap(),
        );
        let fixed = fg.add(MessageDebug::default().quiet());
        let drawn = fg.add(MessageDebug::default().quiet());
        fg.connect_message(strobe, "strobe", fixed, "store")
            .unwrap();
        fg.connect_message(random, "strobe", drawn, "store")
            .unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(handle.stats()[fixed.0].messages_handled, 0, "{name}");
        // The interval under way shrinks: messages come within ms.
        handle.call(strobe, "period", 2.0f64, CALL).unwrap();
        handle.call(random, "mean", 2.0f64, CALL).unwrap();
        wait_for_messages(&handle, fixed, 3);
        wait_for_messages(&handle, drawn, 3);
        // GNU Radio's port and the parameter's alias set the message.
        handle
            .call(strobe, "set_msg", Pmt::from("B"), CALL)
            .unwrap();
        handle.call(random, "msg", Pmt::from("B"), CALL).unwrap();
        handle
            .call(random, "distribution", "gaussian", CALL)
            .unwrap();
        handle.call(random, "std", 1.0f64, CALL).unwrap();
        let (a, b) = (
            handle.stats()[fixed.0].messages_handled,
            handle.stats()[drawn.0].messages_handled,
        );
        wait_for_messages(&handle, fixed, a + 3);
        wait_for_messages(&handle, drawn, b + 3);
        // A refused value changes nothing.
        assert!(handle.call(strobe, "period", -1.0f64, CALL).is_err());
        assert!(handle.call(random, "distribution", "cauchy", CALL).is_err());
        handle.stop();
        let done = wait_within(running, WATCHDOG).unwrap();
        for debug in [fixed, drawn] {
            let stored = done.block::<MessageDebug>(debug).unwrap().stored();
            // One switch from A to B.
            let a = stored.iter().take_while(|m| **m == Pmt::from("A")).count();
            assert!(a >= 3, "{name}: {stored:?}");
            assert!(stored.len() >= a + 3, "{name}: {stored:?}");
            assert!(
                stored[a..].iter().all(|m| *m == Pmt::from("B")),
                "{name}: {stored:?}"
            );
        }
    }
}

#[test]
fn pdu_tools_follow_new_keys_and_values_from_the_next_pdu() {
    let meta = |pairs: &[(&str, u64)]| -> BTreeMap<String, Pmt> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Pmt::U64(*v)))
            .collect()
    };
    let packet = |pairs: &[(&str, u64)]| pdu(meta(pairs), Pmt::Blob(vec![1, 2]));
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let set = fg.add(PduSet::new(Default::default()).unwrap());
        let filter = fg.add(
            PduFilter::new(PduFilterParams {
                key: "n".into(),
                value: Pmt::U64(1),
                invert: false,
            })
            .unwrap(),
        );
        let remove = fg.add(PduRemove::new(PduRemoveParams { key: "a".into() }).unwrap());
        let sinks: Vec<BlockId> = (0..3).map(|_| fg.add(MessageSink::new())).collect();
        for (block, sink) in [set, filter, remove].into_iter().zip(&sinks) {
            fg.connect_message(block, "pdus", *sink, "in").unwrap();
        }
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        // Messages to a block are handled in order: each PDU meets the
        // parameters set before it was posted.
        let post = |block, p: Pmt| handle.post(block, "pdus", p).unwrap();
        post(set, packet(&[]));
        handle.call(set, "k", "b", CALL).unwrap();
        handle.call(set, "value", Pmt::U64(2), CALL).unwrap();
        post(set, packet(&[]));

        post(filter, packet(&[("n", 1)]));
        post(filter, packet(&[("n", 2)]));
        handle.call(filter, "invert", true, CALL).unwrap();
        post(filter, packet(&[("n", 1)]));
        post(filter, packet(&[("n", 3)]));
        handle.call(filter, "v", Pmt::U64(3), CALL).unwrap();
        post(filter, packet(&[("n", 3)]));
        post(filter, packet(&[("n", 4)]));
        handle.call(filter, "key", "m", CALL).unwrap();
        post(filter, packet(&[("n", 3)]));

        post(remove, packet(&[("a", 1), ("b", 2)]));
        handle.call(remove, "key", "b", CALL).unwrap();
        post(remove, packet(&[("a", 1), ("b", 2)]));

        for (sink, n) in sinks.iter().zip([2, 4, 2]) {
            wait_for_messages(&handle, *sink, n);
        }
        handle.stop();
        let done = wait_within(running, WATCHDOG).unwrap();
        let got = |k: usize| done.block::<MessageSink>(sinks[k]).unwrap().messages();
        let mut with_key = meta(&[]);
        with_key.insert("key".into(), Pmt::Bool(true));
        assert_eq!(
            got(0),
            [pdu(with_key, Pmt::Blob(vec![1, 2])), packet(&[("b", 2)])],
            "{name}"
        );
        assert_eq!(
            got(1),
            [
                packet(&[("n", 1)]),
                packet(&[("n", 3)]),
                packet(&[("n", 4)]),
                packet(&[("n", 3)])
            ],
            "{name}"
        );
        assert_eq!(got(2), [packet(&[("b", 2)]), packet(&[("a", 1)])], "{name}");
    }
}

#[test]
fn pdu_to_stream_meets_a_new_depth_with_the_next_pdu() {
    use rfgraph::params::apply;
    let mut bursts = PduToStream::<u8>::new(PduToStreamParams {
        depth: 1,
        ..Default::default()
    })
    .unwrap();
    let two = pdu(BTreeMap::new(), Pmt::Blob(vec![1, 2]));
    let mut io = WorkIo::default();
    for _ in 0..2 {
        bursts.handle_message("pdus", two.clone(), &mut io).unwrap();
    }
    assert_eq!(bursts.queued(), 2, "the second PDU found the queue full");
    apply(&mut bursts, "depth", Pmt::U64(3)).unwrap();
    for _ in 0..3 {
        bursts.handle_message("pdus", two.clone(), &mut io).unwrap();
    }
    assert_eq!(bursts.queued(), 6, "two more fit");
    // Lowering it keeps those waiting and drops the next.
    apply(&mut bursts, "depth", Pmt::U64(1)).unwrap();
    bursts.handle_message("pdus", two, &mut io).unwrap();
    assert_eq!(bursts.queued(), 6);
    assert!(apply(&mut bursts, "depth", Pmt::U64(0)).is_err());
    assert!(apply(&mut bursts, "depth", Pmt::F64(1e12)).is_err());
}

#[test]
fn rust_constructors_refuse_what_files_refuse() {
    use rfgraph_blocks::message::{TaggedStreamMux, TaggedStreamMuxParams};
    let e = RandomPdu::new(RandomPduParams {
        min_items: 10,
        max_items: 5,
        ..Default::default()
    })
    .err()
    .unwrap();
    assert_eq!(e.param, "max_items");
    let e = StreamToTaggedStream::<u8>::new(StreamToTaggedStreamParams {
        packet_len: u64::MAX,
        vlen: 2,
        ..Default::default()
    })
    .err()
    .unwrap();
    assert_eq!(e.param, "packet_len");
    let e = TaggedStreamMux::<u8>::new(TaggedStreamMuxParams {
        inputs: 2,
        preserve_head: 2,
        ..Default::default()
    })
    .err()
    .unwrap();
    assert_eq!(e.param, "preserve_head");
    let e = TakeSkipToPdu::<u8>::new(TakeSkipToPduParams {
        take: 0,
        ..Default::default()
    })
    .err()
    .unwrap();
    assert_eq!(e.param, "take");
    let e = MessageStrobe::new(MessageStrobeParams {
        period: f64::NAN,
        ..Default::default()
    })
    .err()
    .unwrap();
    assert_eq!(e.param, "period");
}
