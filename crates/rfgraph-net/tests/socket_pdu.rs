//! `socket_pdu`: PDUs through UDP and TCP, against plain sockets and
//! against itself, with an echo (its output wired to its own input),
//! and what it refuses.

use rfgraph::scheduler::Tpb;
use rfgraph::{Block, BlockId, BoxError, Finished, Flowgraph, Pmt, Ports, Running, WorkIo};
use rfgraph_net::{SocketPdu, SocketPduParams, SocketType};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// Every flowgraph and every wait here must end within this.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Hands every message it receives to the test.
struct Forward(Sender<Pmt>);

impl Block for Forward {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let _ = self.0.send(msg);
        Ok(Pmt::Null)
    }
}

/// A PDU of `bytes` as rfgraph-blocks builds it.
fn pdu(bytes: &[u8]) -> Pmt {
    rfgraph_blocks::message::pdu(BTreeMap::new(), Pmt::Blob(bytes.to_vec()))
}

/// The bytes of a received PDU, checked for rfgraph-blocks' shape.
fn bytes_of(msg: &Pmt) -> Vec<u8> {
    let (meta, data) = rfgraph_blocks::message::parse(msg).expect("a PDU");
    assert!(meta.is_empty());
    match data {
        Pmt::Blob(b) => b.clone(),
        other => panic!("bytes expected, not {other:?}"),
    }
}

/// A running `socket_pdu` whose received PDUs go to the returned
/// channel and, with `echo`, back to its own input.
struct Running1 {
    running: Running,
    id: BlockId,
    received: Receiver<Pmt>,
    addr: SocketAddr,
}

fn start(params: SocketPduParams, echo: bool) -> Running1 {
    let block = SocketPdu::new(params).unwrap();
    let local = block.local_addr();
    let (tx, received) = channel();
    let mut fg = Flowgraph::new();
    let id = fg.add(block);
    let fwd = fg.add(Forward(tx));
    fg.connect_message(id, "pdus", fwd, "in").unwrap();
    if echo {
        fg.connect_message(id, "pdus", id, "pdus").unwrap();
    }
    let running = fg.start(Tpb::new()).unwrap();
    let addr = local.wait(WATCHDOG).expect("the socket opens");
    Running1 {
        running,
        id,
        received,
        addr,
    }
}

fn stop(r: Running1) -> Finished {
    r.running.handle().stop();
    r.running
        .wait_timeout(WATCHDOG)
        .expect("the flowgraph stops")
}

/// Receives PDUs until they hold `len` bytes (TCP may split them).
fn collect(rx: &Receiver<Pmt>, len: usize) -> Vec<u8> {
    let mut all = Vec::new();
    while all.len() < len {
        let msg = rx.recv_timeout(WATCHDOG).expect("a PDU arrives");
        all.extend(bytes_of(&msg));
    }
    all
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
}

#[test]
fn udp_server_turns_datagrams_into_pdus_and_answers_the_sender() {
    let server = start(
        SocketPduParams {
            mtu: 2000,
            ..SocketPduParams::new(SocketType::UdpServer, "127.0.0.1", 0)
        },
        true,
    );
    let client = UdpSocket::bind("127.0.0.1:0").unwrap();
    client.set_read_timeout(Some(WATCHDOG)).unwrap();
    // Longer than the mtu: dropped and counted, never a PDU.
    client.send_to(&[7u8; 2001], server.addr).unwrap();
    let mut buf = [0u8; 4000];
    for message in [b"hello".to_vec(), pattern(2000)] {
        client.send_to(&message, server.addr).unwrap();
        let got = server.received.recv_timeout(WATCHDOG).expect("a PDU");
        assert_eq!(bytes_of(&got), message);
        let (n, from) = client.recv_from(&mut buf).unwrap();
        assert_eq!(from, server.addr);
        assert_eq!(&buf[..n], message.as_slice(), "echoed to the sender");
    }
    let id = server.id;
    let done = stop(server);
    let block = done.block::<SocketPdu>(id).unwrap();
    assert_eq!((block.pdus_received(), block.pdus_sent()), (2, 2));
    let counters: BTreeMap<_, _> = done
        .stats()
        .iter()
        .flat_map(|s| s.counters.clone())
        .collect();
    assert_eq!(counters["frames_dropped"], 1);
}

#[test]
fn udp_client_and_server_carry_pdus_both_ways() {
    let server = start(
        SocketPduParams::new(SocketType::UdpServer, "127.0.0.1", 0),
        true,
    );
    let client = start(
        SocketPduParams::new(SocketType::UdpClient, "127.0.0.1", server.addr.port()),
        false,
    );
    let handle = client.running.handle();
    for message in [b"one".to_vec(), pattern(5000), b"three".to_vec()] {
        handle.post(client.id, "pdus", pdu(&message)).unwrap();
        let at_server = server.received.recv_timeout(WATCHDOG).expect("a PDU");
        assert_eq!(bytes_of(&at_server), message);
        let back = client.received.recv_timeout(WATCHDOG).expect("the echo");
        assert_eq!(bytes_of(&back), message);
    }
    stop(client);
    stop(server);
}

#[test]
fn tcp_client_and_server_carry_pdus_both_ways() {
    let server = start(
        SocketPduParams {
            tcp_no_delay: true,
            ..SocketPduParams::new(SocketType::TcpServer, "127.0.0.1", 0)
        },
        true,
    );
    let client = start(
        SocketPduParams::new(SocketType::TcpClient, "127.0.0.1", server.addr.port()),
        false,
    );
    let handle = client.running.handle();
    for message in [b"one".to_vec(), pattern(50_000)] {
        handle.post(client.id, "pdus", pdu(&message)).unwrap();
        assert_eq!(collect(&server.received, message.len()), message);
        assert_eq!(collect(&client.received, message.len()), message);
    }
    stop(client);
    stop(server);
}

#[test]
fn tcp_server_serves_plain_clients() {
    let server = start(
        SocketPduParams::new(SocketType::TcpServer, "127.0.0.1", 0),
        true,
    );
    let read = |s: &mut TcpStream, want: &[u8]| {
        let mut buf = vec![0u8; want.len()];
        s.read_exact(&mut buf).unwrap();
        assert_eq!(buf, want);
    };
    let mut a = TcpStream::connect(server.addr).unwrap();
    a.set_read_timeout(Some(WATCHDOG)).unwrap();
    a.write_all(b"x").unwrap();
    assert_eq!(collect(&server.received, 1), b"x");
    read(&mut a, b"x");
    // Once its first bytes are back, each client is surely served.
    let mut b = TcpStream::connect(server.addr).unwrap();
    b.set_read_timeout(Some(WATCHDOG)).unwrap();
    b.write_all(b"y").unwrap();
    assert_eq!(collect(&server.received, 1), b"y");
    read(&mut b, b"y");
    read(&mut a, b"y");
    // Every PDU goes to every client.
    a.write_all(b"ping").unwrap();
    assert_eq!(collect(&server.received, 4), b"ping");
    read(&mut a, b"ping");
    read(&mut b, b"ping");
    stop(server);
}

#[test]
fn pdus_that_are_not_bytes_are_refused() {
    let server = start(
        SocketPduParams::new(SocketType::UdpServer, "127.0.0.1", 0),
        false,
    );
    let handle = server.running.handle();
    for bad in [
        Pmt::pair(Pmt::Map(BTreeMap::new()), Pmt::VecF32(vec![1.0])),
        Pmt::from("not a PDU"),
        Pmt::pair(Pmt::U64(3), Pmt::Blob(vec![1])),
    ] {
        let e = handle
            .call(server.id, "pdus", bad.clone(), WATCHDOG)
            .expect_err("refused");
        assert!(e.to_string().contains("socket_pdu"), "{e}");
    }
    // GNU Radio's empty metadata is a PDU; with no peer yet it goes nowhere.
    let ok = Pmt::pair(Pmt::Null, Pmt::Blob(vec![1, 2]));
    handle.call(server.id, "pdus", ok, WATCHDOG).unwrap();
    let id = server.id;
    let done = stop(server);
    assert_eq!(done.block::<SocketPdu>(id).unwrap().pdus_unsent(), 1);
}

#[test]
fn registry_entry_takes_gnu_radios_names() {
    let specs = rfgraph_net::registry::specs();
    let spec = specs.iter().find(|s| s.name == "socket_pdu").unwrap();
    assert_eq!(spec.message_inputs, ["pdus"]);
    assert_eq!(spec.message_outputs, ["pdus"]);
    for kind in ["TCP_SERVER", "TCP_CLIENT", "UDP_SERVER", "UDP_CLIENT"] {
        let given = BTreeMap::from([
            ("type".to_string(), Pmt::from(kind)),
            ("addr".to_string(), Pmt::from("127.0.0.1")),
            ("MTU".to_string(), Pmt::I64(1500)),
        ]);
        spec.build(given).unwrap_or_else(|e| panic!("{kind}: {e}"));
    }
    let given = BTreeMap::from([
        ("type".to_string(), Pmt::from("UDP_SERVER")),
        ("mtu".to_string(), Pmt::I64(70_000)),
    ]);
    let e = spec.build(given).err().expect("refused");
    assert!(e.to_string().contains("mtu"), "{e}");
}
