//! `tcp_sink` and `tcp_source`: each as server and as client against
//! the other, items split across reads, a peer that closes early, and
//! the registry entries.

use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::scheduler::Tpb;
use rfgraph::{BlockId, Finished, Flowgraph, Pmt, Running};
use rfgraph_blocks::{NullSource, VectorSink, VectorSource};
use rfgraph_net::{TcpMode, TcpSink, TcpSinkParams, TcpSource, TcpSourceParams};
use std::collections::BTreeMap;
use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

/// Every flowgraph here must end within this.
const WATCHDOG: Duration = Duration::from_secs(60);

fn sequence(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| Complex32::new(i as f32, -0.5 * i as f32))
        .collect()
}

fn finish(running: Running) -> Finished {
    running.wait_timeout(WATCHDOG).expect("the flowgraph ends")
}

/// A running vector source into `sink`.
fn start_sending(items: Vec<Complex32>, sink: TcpSink<Complex32>) -> Running {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items));
    let sink = fg.add(sink);
    fg.chain(&[src, sink]).unwrap();
    fg.start(Tpb::new()).unwrap()
}

/// A running `source` into a vector sink, and the sink's id.
fn start_receiving<T: rfgraph::Item>(source: TcpSource<T>) -> (Running, BlockId) {
    let mut fg = Flowgraph::new();
    let src = fg.add(source);
    let sink = fg.add(VectorSink::<T>::new());
    fg.chain(&[src, sink]).unwrap();
    (fg.start(Tpb::new()).unwrap(), sink)
}

fn received(done: &Finished, sink: BlockId) -> Vec<Complex32> {
    done.block::<VectorSink<Complex32>>(sink)
        .unwrap()
        .items()
        .to_vec()
}

fn listening(local: rfgraph_net::LocalAddr) -> SocketAddr {
    local.wait(WATCHDOG).expect("the server listens")
}

#[test]
fn tcp_sink_server_to_tcp_source_client_bit_exact() {
    let items = sequence(100_000);
    let sink = TcpSink::<Complex32>::new(TcpSinkParams::new(
        ItemKind::C32,
        "127.0.0.1",
        0,
        TcpMode::Server,
    ))
    .unwrap();
    let local = sink.local_addr();
    let sending = start_sending(items.clone(), sink);
    let addr = listening(local);
    let source = TcpSource::<Complex32>::new(TcpSourceParams::new(
        ItemKind::C32,
        "127.0.0.1",
        addr.port(),
        false,
    ))
    .unwrap();
    let (receiving, id) = start_receiving(source);
    finish(sending);
    // The sink's end of stream ends the source.
    let got = received(&finish(receiving), id);
    assert_eq!(got.len(), items.len());
    assert!(got == items, "the items arrive bit-exact");
}

#[test]
fn tcp_sink_client_to_tcp_source_server_bit_exact() {
    let items = sequence(100_000);
    let source =
        TcpSource::<Complex32>::new(TcpSourceParams::new(ItemKind::C32, "127.0.0.1", 0, true))
            .unwrap();
    let local = source.local_addr();
    let (receiving, id) = start_receiving(source);
    let addr = listening(local);
    let sink = TcpSink::<Complex32>::new(TcpSinkParams::new(
        ItemKind::C32,
        "127.0.0.1",
        addr.port(),
        TcpMode::Client,
    ))
    .unwrap();
    finish(start_sending(items.clone(), sink));
    let got = received(&finish(receiving), id);
    assert_eq!(got.len(), items.len());
    assert!(got == items, "the items arrive bit-exact");
}

#[test]
fn items_split_across_writes_are_put_back_together() {
    let source = TcpSource::<f32>::new(TcpSourceParams {
        vlen: 3,
        ..TcpSourceParams::new(ItemKind::F32, "127.0.0.1", 0, true)
    })
    .unwrap();
    let local = source.local_addr();
    let (receiving, id) = start_receiving(source);
    let addr = listening(local);
    let values: Vec<f32> = (0..3000).map(|i| i as f32 + 0.5).collect();
    let mut bytes = bytemuck::cast_slice::<f32, u8>(&values).to_vec();
    // Half a vector more, which the source must drop at the end.
    bytes.extend([1, 2, 3, 4, 5, 6]);
    let mut client = TcpStream::connect(addr).unwrap();
    client.set_nodelay(true).unwrap();
    for chunk in bytes.chunks(7) {
        client.write_all(chunk).unwrap();
    }
    drop(client);
    let done = finish(receiving);
    let got = done.block::<VectorSink<f32>>(id).unwrap().items();
    assert!(got == values.as_slice(), "whole vectors, in order");
}

#[test]
fn a_peer_that_closes_ends_the_sink() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let sink = TcpSink::<f32>::new(TcpSinkParams::new(
        ItemKind::F32,
        "127.0.0.1",
        addr.port(),
        TcpMode::Client,
    ))
    .unwrap();
    let mut fg = Flowgraph::new();
    // Endless: only the sink's end can end the flowgraph.
    let src = fg.add(NullSource::<f32>::new());
    let sink = fg.add(sink);
    fg.chain(&[src, sink]).unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let (peer, _) = listener.accept().unwrap();
    drop(peer);
    finish(running);
}

#[test]
fn registry_entries_build_for_every_type_and_take_gnu_radios_names() {
    let specs = rfgraph_net::registry::specs();
    let spec = |name: &str| specs.iter().find(|s| s.name == name).unwrap();
    for name in ["tcp_sink", "tcp_source"] {
        for kind in ["c32", "f32", "i32", "i16", "u8"] {
            let given = BTreeMap::from([("type".to_string(), Pmt::from(kind))]);
            spec(name)
                .build(given)
                .unwrap_or_else(|e| panic!("`{name}` {kind}: {e}"));
        }
    }
    // GNU Radio's names and mode numbers: 1 is the client, 2 the server.
    let given = BTreeMap::from([
        ("type".to_string(), Pmt::from("complex")),
        ("addr".to_string(), Pmt::from("127.0.0.1")),
        ("mode".to_string(), Pmt::from("2")),
        ("port".to_string(), Pmt::I64(0)),
    ]);
    spec("tcp_sink").build(given).unwrap();
    let given = BTreeMap::from([
        ("type".to_string(), Pmt::from("float")),
        ("sinkmode".to_string(), Pmt::from("1")),
        ("port".to_string(), Pmt::I64(0)),
    ]);
    let e = spec("tcp_sink").build(given).err().expect("refused");
    assert!(e.to_string().contains("port"), "{e}");
    let given = BTreeMap::from([
        ("type".to_string(), Pmt::from("byte")),
        ("server".to_string(), Pmt::Bool(false)),
        ("addr".to_string(), Pmt::from("::1")),
    ]);
    spec("tcp_source").build(given).unwrap();
}
