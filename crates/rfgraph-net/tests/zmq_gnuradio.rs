//! rfgraph's ZeroMQ blocks against a live GNU Radio 3.10, both ways: the
//! GNU Radio side is `gr/zmq_peer.py`, run by Debian's Python. Items
//! must arrive bit-exact, tags at their offsets with equal values, and
//! messages (PDUs among them) equal.

mod common;

use common::*;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::params::ItemKind;
use rfgraph::scheduler::Tpb;
use rfgraph_blocks::{Head, MessageSink, VectorSink, VectorSource};
use rfgraph_net::zmq::{
    MsgSinkPattern, MsgSocketParams, MsgSourcePattern, PubSinkParams, SinkPattern, SourcePattern,
    StreamSocketParams, SubSourceParams, ZmqMsgSink, ZmqMsgSource, ZmqSink, ZmqSource,
};

const N: usize = 100_000;

fn socket(address: &str, pass_tags: bool) -> StreamSocketParams {
    StreamSocketParams {
        pass_tags,
        ..StreamSocketParams::new(ItemKind::C32, address)
    }
}

/// rfgraph receives `N` items from `source` and checks them (and the
/// reference tags when `pass_tags`).
fn receive_in_rfgraph(source: ZmqSource<Complex32>, pass_tags: bool) {
    let mut fg = Flowgraph::new();
    let src = fg.add(source);
    let head = fg.add(Head::<Complex32>::new(N as u64));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, head, sink]).unwrap();
    let done = fg
        .start(Tpb::new())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let sink = done.block::<VectorSink<Complex32>>(sink).unwrap();
    let want = reference_items(N);
    assert_eq!(sink.items().len(), N);
    let first_difference =
        sink.items().iter().zip(&want).position(|(a, b)| {
            a.re.to_bits() != b.re.to_bits() || a.im.to_bits() != b.im.to_bits()
        });
    if let Some(i) = first_difference {
        panic!("item {i} is {} instead of {}", sink.items()[i], want[i]);
    }
    if pass_tags {
        assert_eq!(sink.tags(), reference_tags().as_slice());
    } else {
        assert!(sink.tags().is_empty());
    }
}

/// rfgraph sends the reference sequence through `sink` (with the
/// reference tags when `pass_tags`) while GNU Radio's `source` pattern
/// takes it; returns GNU Radio's report.
fn send_from_rfgraph(sink: ZmqSink<Complex32>, gr_pattern: &str, address: &str, pass_tags: bool) {
    let mut fg = Flowgraph::new();
    let mut source = VectorSource::new(reference_items(N));
    if pass_tags {
        source = source.with_tags(reference_tags());
    }
    let src = fg.add(source);
    let snk = fg.add(sink);
    fg.connect(src, "out", snk, "in").unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let tags = if pass_tags { "1" } else { "0" };
    let gr = GnuRadio::start(&["source", gr_pattern, address, &N.to_string(), tags]);
    let report = gr.report();
    running.wait_timeout(WATCHDOG).unwrap();
    assert_eq!(report["items"], N, "{report}");
    assert_eq!(report["items_ok"], true, "{report}");
    assert_eq!(report["tag_problems"], serde_json::json!([]), "{report}");
}

#[test]
fn gnuradio_push_sink_feeds_rfgraph_pull_source() {
    if !rfgraph_testkit::gnuradio("zmq push→pull", "gnuradio.zeromq") {
        return;
    }
    for pass_tags in [false, true] {
        let address = free_address();
        let tags = if pass_tags { "1" } else { "0" };
        let _gr = GnuRadio::start(&["sink", "push", &address, &N.to_string(), tags]);
        let source = ZmqSource::new(SourcePattern::Pull, socket(&address, pass_tags));
        receive_in_rfgraph(source, pass_tags);
    }
}

#[test]
fn rfgraph_push_sink_feeds_gnuradio_pull_source() {
    if !rfgraph_testkit::gnuradio("zmq push→pull", "gnuradio.zeromq") {
        return;
    }
    for pass_tags in [false, true] {
        let address = free_address();
        let sink = ZmqSink::new(SinkPattern::Push, socket(&address, pass_tags));
        send_from_rfgraph(sink, "pull", &address, pass_tags);
    }
}

#[test]
fn gnuradio_rep_sink_answers_rfgraph_req_source_and_back() {
    if !rfgraph_testkit::gnuradio("zmq req/rep", "gnuradio.zeromq") {
        return;
    }
    let address = free_address();
    let _gr = GnuRadio::start(&["sink", "rep", &address, &N.to_string(), "1"]);
    receive_in_rfgraph(
        ZmqSource::new(SourcePattern::Req, socket(&address, true)),
        true,
    );

    let address = free_address();
    let sink = ZmqSink::new(SinkPattern::Rep, socket(&address, true));
    send_from_rfgraph(sink, "req", &address, true);
}

#[test]
fn gnuradio_pub_sink_with_a_key_feeds_rfgraph_sub_source() {
    if !rfgraph_testkit::gnuradio("zmq pub→sub", "gnuradio.zeromq") {
        return;
    }
    let address = free_address();
    let _gr = GnuRadio::start(&["sink", "pub", &address, &N.to_string(), "1", "rx"]);
    let source = ZmqSource::subscribing(
        SourcePattern::Sub,
        SubSourceParams {
            socket: socket(&address, true),
            key: "rx".into(),
        },
    );
    receive_in_rfgraph(source, true);
}

#[test]
fn rfgraph_pub_sink_with_a_key_feeds_gnuradio_sub_source() {
    if !rfgraph_testkit::gnuradio("zmq pub→sub", "gnuradio.zeromq") {
        return;
    }
    // A publisher drops what no one has subscribed to yet, so rfgraph
    // repeats the sequence and GNU Radio checks that what it took is a
    // contiguous run of it.
    let address = free_address();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(reference_items(N)).repeat(u64::MAX));
    let snk = fg.add(ZmqSink::<Complex32>::publishing(
        SinkPattern::Pub,
        PubSinkParams {
            socket: socket(&address, false),
            key: "rx".into(),
            drop_on_hwm: true,
        },
    ));
    fg.connect(src, "out", snk, "in").unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let gr = GnuRadio::start(&[
        "source",
        "sub",
        &address,
        &N.to_string(),
        "0",
        "rx",
        "cyclic",
    ]);
    let report = gr.report();
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
    assert_eq!(report["items"], N, "{report}");
    assert_eq!(report["items_ok"], true, "{report}");
}

#[test]
fn pdus_and_messages_cross_both_ways() {
    if !rfgraph_testkit::gnuradio("zmq messages", "gnuradio.zeromq") {
        return;
    }
    let want = reference_messages();
    // GNU Radio → rfgraph.
    let address = free_address();
    let _gr = GnuRadio::start(&["msg_sink", "push", &address]);
    let mut fg = Flowgraph::new();
    let params = MsgSocketParams {
        address: address.clone(),
        timeout: 100.0,
        bind: None,
    };
    let src = fg.add(ZmqMsgSource::new(MsgSourcePattern::Pull, params.clone()));
    let sink = fg.add(MessageSink::new());
    fg.connect_message(src, "out", sink, "in").unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let handle = running.handle();
    let arrived = eventually(|| counter(&handle.stats(), "messages_received") >= want.len() as u64);
    handle.stop();
    let done = running.wait_timeout(WATCHDOG).unwrap();
    assert!(
        arrived,
        "only {} messages arrived",
        counter(&handle.stats(), "messages_received")
    );
    assert_eq!(
        done.block::<MessageSink>(sink).unwrap().messages(),
        want.as_slice()
    );

    // rfgraph → GNU Radio.
    let address = free_address();
    let mut fg = Flowgraph::new();
    let params = MsgSocketParams {
        address: address.clone(),
        ..params
    };
    let snk = fg.add(ZmqMsgSink::new(MsgSinkPattern::Push, params));
    let running = fg.start(Tpb::new()).unwrap();
    let gr = GnuRadio::start(&["msg_source", "pull", &address, &want.len().to_string()]);
    for msg in &want {
        running.handle().post(snk, "in", msg.clone()).unwrap();
    }
    let report = gr.report();
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
}
