//! Host links on loopback: the two halves of a flowgraph in one process,
//! as `rfgraph run --host` runs them on two hosts. Items and tags cross
//! exactly and the end of the stream ends both halves; a slow reader
//! holds the writer back (the bound below holds whatever the speed);
//! a lost peer fails the run naming it, or is waited for and resumed.

mod common;

use common::*;
use rfgraph::params::ItemKind;
use rfgraph::scheduler::Tpb;
use rfgraph::{Flowgraph, RunError, Tag};
use rfgraph_blocks::{Head, NullSource, Throttle, VectorSink, VectorSource};
use rfgraph_net::link::{HostLinkSink, HostLinkSource, LinkParams, OnLoss};

fn params(address: &str, peer: &str) -> LinkParams {
    LinkParams::new(ItemKind::F32, address, peer)
}

/// A fixed even port with the next one free too.
fn link_address() -> String {
    loop {
        let port = free_port();
        if port < 65535 && std::net::TcpListener::bind(("127.0.0.1", port + 1)).is_ok() {
            return format!("tcp://127.0.0.1:{port}");
        }
    }
}

#[test]
fn items_and_tags_cross_and_the_end_ends_both_halves() {
    let address = link_address();
    let items: Vec<f32> = (0..300_000).map(|i| i as f32).collect();
    let tags = vec![
        Tag::new(0, "first", 1i64),
        Tag::new(150_001, "middle", "m"),
        Tag::new(299_999, "last", 2.5),
    ];
    let mut writer = Flowgraph::new();
    let src = writer.add(VectorSource::new(items.clone()).with_tags(tags.clone()));
    let tx = writer.add(HostLinkSink::<f32>::new(LinkParams {
        window: 64 << 10,
        ..params(&address, "reader")
    }));
    writer.connect(src, "out", tx, "in").unwrap();
    let mut reader = Flowgraph::new();
    let rx = reader.add(HostLinkSource::<f32>::new(params(&address, "writer")));
    let sink = reader.add(VectorSink::<f32>::new());
    reader.connect(rx, "out", sink, "in").unwrap();

    let reading = reader.start(Tpb::new()).unwrap();
    let writing = writer.start(Tpb::new()).unwrap();
    writing.wait_timeout(WATCHDOG).unwrap();
    let done = reading.wait_timeout(WATCHDOG).unwrap();
    let got = done.block::<VectorSink<f32>>(sink).unwrap();
    assert_eq!(got.items(), items.as_slice());
    assert_eq!(got.tags(), tags.as_slice());
}

#[test]
fn a_slow_reader_holds_the_writer_back() {
    const WINDOW: usize = 64 << 10;
    let address = link_address();
    let mut writer = Flowgraph::new();
    let src = writer.add(NullSource::<f32>::new());
    let tx = writer.add(HostLinkSink::<f32>::new(LinkParams {
        window: WINDOW,
        ..params(&address, "reader")
    }));
    writer.connect(src, "out", tx, "in").unwrap();
    let mut reader = Flowgraph::new();
    let rx = reader.add(HostLinkSource::<f32>::new(params(&address, "writer")));
    let slow = reader.add(Throttle::<f32>::new(100_000.0).unwrap());
    let head = reader.add(Head::<f32>::new(20_000));
    let sink = reader.add(VectorSink::<f32>::new());
    reader.chain(&[rx, slow, head, sink]).unwrap();

    let writing = writer.start(Tpb::new()).unwrap();
    let reading = reader.start(Tpb::new()).unwrap();
    reading.wait_timeout(WATCHDOG).unwrap();
    let sent = counter(&writing.handle().stats(), "bytes_sent");
    writing.handle().stop();
    let _ = writing.wait_timeout(WATCHDOG);
    // Without back-pressure a null source sends hundreds of megabytes
    // while the reader throttles 20,000 items through; with it, the
    // writer is at most the reader's queues and the window ahead.
    let bound = 20_000 * 4 + (8 << 20) + WINDOW as u64;
    assert!(
        sent > 0 && sent <= bound,
        "sent {sent} bytes, more than {bound}"
    );
}

#[test]
fn a_lost_peer_fails_the_run_naming_it() {
    let address = link_address();
    let quick = |p: LinkParams| LinkParams {
        peer_timeout: 0.5,
        on_loss: OnLoss::Stop,
        ..p
    };
    let mut writer = Flowgraph::new();
    let src = writer.add(NullSource::<f32>::new());
    let tx = writer.add(HostLinkSink::<f32>::new(quick(params(
        &address, "dsp-host",
    ))));
    writer.connect(src, "out", tx, "in").unwrap();
    let mut reader = Flowgraph::new();
    let rx = reader.add(HostLinkSource::<f32>::new(quick(params(
        &address,
        "radio-host",
    ))));
    let sink = reader.add(rfgraph_blocks::NullSink::<f32>::new());
    reader.connect(rx, "out", sink, "in").unwrap();

    let writing = writer.start(Tpb::new()).unwrap();
    let reading = reader.start(Tpb::new()).unwrap();
    assert!(eventually(|| counter(
        &reading.handle().stats(),
        "bytes_received"
    ) > 0));
    // The reader host goes away: the writer names it.
    reading.handle().stop();
    reading.wait_timeout(WATCHDOG).unwrap();
    let err = writing
        .wait_timeout(WATCHDOG)
        .err()
        .expect("the writer fails");
    assert!(!matches!(err, RunError::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("host `dsp-host`"), "{err}");

    // And the other way: a reader whose writer host dies (no end of
    // stream, sockets gone) names it.
    let address = link_address();
    let mut reader = Flowgraph::new();
    let rx = reader.add(HostLinkSource::<f32>::new(quick(params(
        &address,
        "radio-host",
    ))));
    let sink = reader.add(rfgraph_blocks::NullSink::<f32>::new());
    reader.connect(rx, "out", sink, "in").unwrap();
    let reading = reader.start(Tpb::new()).unwrap();
    let mut writer = RawWriter::bind(&address);
    writer.send_items(&[1.0; 100]);
    assert!(eventually(|| counter(
        &reading.handle().stats(),
        "bytes_received"
    ) > 0));
    drop(writer);
    let err = reading
        .wait_timeout(WATCHDOG)
        .err()
        .expect("the reader fails");
    assert!(!matches!(err, RunError::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("host `radio-host`"), "{err}");
}

/// A writer host that can die: a link sink's two sockets, bare, so that
/// dropping them is a crash (no end of stream).
struct RawWriter {
    data: zeromq::PushSocket,
    _credit: zeromq::PullSocket,
}

impl RawWriter {
    fn bind(address: &str) -> Self {
        use zeromq::Socket;
        let credit_at = rfgraph_net::link::credit_address(address).unwrap();
        let _context = rfgraph_net::runtime::handle().enter();
        let mut data = zeromq::PushSocket::new();
        let mut credit = zeromq::PullSocket::new();
        rfgraph_net::runtime::block_on(data.bind(address)).unwrap();
        rfgraph_net::runtime::block_on(credit.bind(&credit_at)).unwrap();
        Self {
            data,
            _credit: credit,
        }
    }

    fn send_items(&mut self, items: &[f32]) {
        use zeromq::SocketSend;
        let frame =
            rfgraph_net::zmq::frame::build(bytemuck::cast_slice(items), 0, &[], true).unwrap();
        let mut message = zeromq::ZmqMessage::from(frame);
        // Until the reader has connected, the socket hands the frame back.
        loop {
            match rfgraph_net::runtime::block_on(self.data.send(message)) {
                Ok(()) => return,
                Err(zeromq::ZmqError::ReturnToSender { message: back, .. }) => {
                    message = back;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
}

#[test]
fn a_reader_told_to_reconnect_resumes_when_its_writer_comes_back() {
    let address = link_address();
    let patient = |p: LinkParams| LinkParams {
        peer_timeout: 0.5,
        on_loss: OnLoss::Reconnect,
        ..p
    };
    let mut reader = Flowgraph::new();
    let rx = reader.add(HostLinkSource::<f32>::new(patient(params(
        &address, "radio",
    ))));
    let sink = reader.add(VectorSink::<f32>::new());
    reader.connect(rx, "out", sink, "in").unwrap();
    let reading = reader.start(Tpb::new()).unwrap();

    // A first writer host that dies without ending its stream.
    let mut first = RawWriter::bind(&address);
    first.send_items(&[1.0; 1000]);
    assert!(eventually(|| counter(
        &reading.handle().stats(),
        "bytes_received"
    ) > 0));
    drop(first);
    assert!(eventually(|| counter(
        &reading.handle().stats(),
        "peer_losses"
    ) > 0));

    // It comes back, sends 1000 twos and ends its stream.
    let mut second = Flowgraph::new();
    let src = second.add(VectorSource::new(vec![2.0f32; 1000]));
    let tx = second.add(HostLinkSink::<f32>::new(patient(params(&address, "dsp"))));
    second.connect(src, "out", tx, "in").unwrap();
    second
        .start(Tpb::new())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let done = reading.wait_timeout(WATCHDOG).unwrap();
    let items = done.block::<VectorSink<f32>>(sink).unwrap().items();
    assert_eq!(items.len(), 2000);
    assert!(items[..1000].iter().all(|&x| x == 1.0));
    assert!(items[1000..].iter().all(|&x| x == 2.0));
}
