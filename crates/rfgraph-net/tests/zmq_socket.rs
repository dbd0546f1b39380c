//! The ZeroMQ socket under the gr-zeromq blocks: an address is free
//! again as soon as its socket is dropped, and a REQ/REP conversation
//! survives its server going away (the request is sent again).

use rfgraph_net::zmq::socket::{Kind, Sent, ZmqSocket};
use std::time::{Duration, Instant};
use zeromq::ZmqMessage;

const WAIT: Duration = Duration::from_millis(100);
/// Far longer than any of these exchanges takes: only a broken
/// conversation reaches it.
const GIVE_UP: Duration = Duration::from_secs(20);

fn message(text: &str) -> ZmqMessage {
    ZmqMessage::from(text.as_bytes().to_vec())
}

fn text(m: &ZmqMessage) -> String {
    String::from_utf8(m.get(0).expect("one part").to_vec()).expect("utf-8")
}

/// A REP bound to an ephemeral port; its resolved address.
fn server() -> (ZmqSocket, String) {
    let rep = ZmqSocket::open(Kind::Rep, "tcp://127.0.0.1:0", true, "").expect("bind");
    let address = rep.endpoint().to_string();
    (rep, address)
}

/// One request answered: the REQ asks until the REP has the request,
/// the REP answers, the REQ reads the reply.
fn exchange(req: &mut ZmqSocket, rep: &mut ZmqSocket, ask: &str, answer: &str) -> String {
    let start = Instant::now();
    loop {
        assert!(start.elapsed() < GIVE_UP, "no reply to `{ask}`");
        if let Some(reply) = req.ask(|| message(ask), WAIT).expect("ask") {
            return text(&reply);
        }
        let Some(request) = rep.pending_request(WAIT).expect("request") else {
            continue;
        };
        assert_eq!(text(request), ask);
        while !matches!(rep.send(message(answer), WAIT).expect("reply"), Sent::Yes) {
            assert!(start.elapsed() < GIVE_UP, "cannot answer `{ask}`");
        }
    }
}

#[test]
fn an_address_is_free_again_once_its_socket_is_dropped() {
    let (rep, address) = server();
    // A peer connected makes the listener busy, as in a running graph.
    let mut req = ZmqSocket::open(Kind::Req, &address, false, "").expect("connect");
    assert!(req.ready(Duration::from_secs(5)));
    drop(rep);
    for kind in [Kind::Push, Kind::Rep, Kind::Pub] {
        let again = ZmqSocket::open(kind, &address, true, "")
            .unwrap_or_else(|e| panic!("{kind:?} cannot bind {address} again: {e}"));
        drop(again);
    }
}

#[test]
fn a_request_lost_with_its_server_is_sent_again() {
    let (mut rep, address) = server();
    let mut req = ZmqSocket::open(Kind::Req, &address, false, "").expect("connect");
    assert_eq!(exchange(&mut req, &mut rep, "one", "1"), "1");
    // The REQ's next request goes out; its server dies before replying.
    let start = Instant::now();
    while rep.pending_request(WAIT).expect("request").is_none() {
        assert!(start.elapsed() < GIVE_UP, "the second request never came");
        assert!(req.ask(|| message("two"), WAIT).expect("ask").is_none());
    }
    drop(rep);
    let mut rep = ZmqSocket::open(Kind::Rep, &address, true, "").expect("bind again");
    // The new server gets the request again and the REQ its reply.
    assert_eq!(exchange(&mut req, &mut rep, "two", "2"), "2");
    assert_eq!(exchange(&mut req, &mut rep, "three", "3"), "3");
}

#[test]
fn a_reply_waits_for_its_request_across_calls() {
    let (mut rep, address) = server();
    let mut req = ZmqSocket::open(Kind::Req, &address, false, "").expect("connect");
    let start = Instant::now();
    while rep.pending_request(WAIT).expect("request").is_none() {
        assert!(start.elapsed() < GIVE_UP, "the request never came");
        assert!(req.ask(|| message("q"), WAIT).expect("ask").is_none());
    }
    // Asking for the pending request again does not read another one.
    for _ in 0..3 {
        let request = rep.pending_request(WAIT).expect("request").expect("kept");
        assert_eq!(text(request), "q");
    }
    assert!(matches!(
        rep.send(message("a"), WAIT).expect("reply"),
        Sent::Yes
    ));
    let start = Instant::now();
    loop {
        assert!(start.elapsed() < GIVE_UP, "the reply never came");
        if let Some(reply) = req.ask(|| message("unused"), WAIT).expect("ask") {
            assert_eq!(text(&reply), "a");
            break;
        }
    }
    // Answered: the REP waits for a new request.
    assert!(rep.pending_request(WAIT).expect("request").is_none());
}
