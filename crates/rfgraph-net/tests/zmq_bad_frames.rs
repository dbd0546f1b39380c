//! Untrusted frames against the ZeroMQ stream source: deliberately bad
//! frames (each kind the source must survive) and randomly mutated ones
//! go through a real socket into a running `ZmqSource`, between good
//! frames. The source must behave exactly as the frame parser says:
//! the items of frames that parse arrive in order with their tags, the
//! others are dropped and counted, and nothing panics or hangs.

mod common;

use bytes::Bytes;
use common::*;
use num_complex::Complex32;
use proptest::prelude::*;
use rfgraph::params::ItemKind;
use rfgraph::scheduler::Tpb;
use rfgraph::{Flowgraph, Tag};
use rfgraph_blocks::{Head, VectorSink};
use rfgraph_net::runtime;
use rfgraph_net::tag_header;
use rfgraph_net::zmq::{SourcePattern, StreamSocketParams, ZmqSource, frame};
use zeromq::{PushSocket, Socket, SocketSend, ZmqMessage};

const ITEM: usize = 8;

fn good(first: u64, n: usize, tags: &[Tag]) -> Vec<u8> {
    let items: Vec<u8> = (0..n * ITEM).map(|i| (i % 251) as u8).collect();
    frame::build(&items, first, tags, true).unwrap().to_vec()
}

/// One frame of each kind of damage the source must survive.
fn bad_frames() -> Vec<Vec<u8>> {
    let valid = good(0, 4, &[Tag::new(1, "k", 1i64)]);
    let mut wrong_magic = valid.clone();
    wrong_magic[0] ^= 0xff;
    let mut wrong_version = valid.clone();
    wrong_version[2] = 9;
    let mut many_tags = valid.clone();
    many_tags[11..19].copy_from_slice(&u64::MAX.to_ne_bytes());
    let mut deep = Vec::new();
    tag_header::encode(0, &[], &mut deep).unwrap();
    deep[11..19].copy_from_slice(&1u64.to_ne_bytes());
    deep.extend_from_slice(&0u64.to_ne_bytes());
    deep.extend_from_slice(&[0x02, 0x00, 0x01, b'k']);
    for _ in 0..1000 {
        deep.extend_from_slice(&[0x0c, 0, 0, 0, 1]);
    }
    deep.push(0x06);
    let mut long_symbol = Vec::new();
    tag_header::encode(0, &[], &mut long_symbol).unwrap();
    long_symbol[11..19].copy_from_slice(&1u64.to_ne_bytes());
    long_symbol.extend_from_slice(&0u64.to_ne_bytes());
    long_symbol.extend_from_slice(&[0x02, 0xff, 0xff, b'k']);
    let mut partial = valid.clone();
    partial.pop();
    let stray_tag = good(10, 2, &[Tag::new(50, "k", 1i64)]);
    vec![
        valid[..5].to_vec(),
        wrong_magic,
        wrong_version,
        many_tags,
        deep,
        long_symbol,
        partial,
        stray_tag,
        Vec::new(),
    ]
}

/// Sends `frames` into a running source and checks it against the parser.
fn check_source_against_parser(frames: Vec<Vec<u8>>) {
    let mut push = PushSocket::new();
    let endpoint = runtime::block_on(push.bind("tcp://127.0.0.1:0"))
        .unwrap()
        .to_string();
    let params = StreamSocketParams {
        pass_tags: true,
        ..StreamSocketParams::new(ItemKind::C32, endpoint.as_str())
    };
    // What the parser says the source must deliver.
    let mut want_items = Vec::new();
    let mut want_tags = Vec::new();
    let mut want_dropped = 0;
    for f in &frames {
        match frame::parse(Bytes::from(f.clone()), true, ITEM) {
            Ok(parsed) => {
                let base = (want_items.len() / ITEM) as u64;
                want_tags.extend(parsed.tags.into_iter().map(|mut t| {
                    t.index += base;
                    t
                }));
                want_items.extend_from_slice(&parsed.payload);
            }
            Err(_) => want_dropped += 1,
        }
    }
    let n = want_items.len() / ITEM;
    assert!(n > 0, "the good frames carry items");

    let mut fg = Flowgraph::new();
    let src = fg.add(ZmqSource::<Complex32>::new(SourcePattern::Pull, params));
    let head = fg.add(Head::<Complex32>::new(n as u64));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, head, sink]).unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    for f in frames {
        let mut message = ZmqMessage::from(Bytes::from(f));
        loop {
            match runtime::block_on(push.send(message)) {
                Ok(()) => break,
                Err(zeromq::ZmqError::ReturnToSender { message: back, .. }) => {
                    message = back;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    let handle = running.handle();
    let done = running.wait_timeout(WATCHDOG).unwrap();
    let got = done.block::<VectorSink<Complex32>>(sink).unwrap();
    assert_eq!(
        bytemuck::cast_slice::<Complex32, u8>(got.items()),
        &want_items[..]
    );
    assert_eq!(got.tags(), want_tags.as_slice());
    assert_eq!(counter(&handle.stats(), "frames_dropped"), want_dropped);
}

#[test]
fn every_kind_of_bad_frame_is_dropped_and_counted() {
    let mut frames = vec![good(0, 5, &[Tag::new(2, "first", 1i64)])];
    frames.extend(bad_frames());
    frames.push(good(100, 3, &[Tag::new(100, "last", "x")]));
    check_source_against_parser(frames);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The parser on random and mutated frames: never a panic, and
    /// what it accepts is whole items with tags inside the frame.
    #[test]
    fn the_frame_parser_takes_any_bytes(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        seed in good_frames(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    ) {
        for mut candidate in [bytes, seed] {
            for (at, byte) in &flips {
                if !candidate.is_empty() {
                    let i = at.index(candidate.len());
                    candidate[i] = *byte;
                }
            }
            if let Ok(parsed) = frame::parse(Bytes::from(candidate), true, ITEM) {
                prop_assert_eq!(parsed.payload.len() % ITEM, 0);
                let n = (parsed.payload.len() / ITEM) as u64;
                prop_assert!(parsed.tags.iter().all(|t| t.index < n));
            }
        }
    }
}

fn good_frames() -> impl Strategy<Value = Vec<u8>> {
    (0u64..1000, 0usize..6, prop::collection::vec(0u64..6, 0..3)).prop_map(|(first, n, at)| {
        let tags: Vec<Tag> = at
            .into_iter()
            .map(|i| Tag::new(first + i, "k", i as i64))
            .collect();
        good(first, n.max(6), &tags)
    })
}

/// A few dozen mutated frames through a running source, against the parser.
#[test]
fn mutated_frames_through_a_running_source_match_the_parser() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut frames = vec![good(0, 8, &[Tag::new(3, "a", 1i64)])];
    for i in 0..40 {
        let mut f = good(8 + i * 4, 4, &[Tag::new(8 + i * 4 + 1, "b", 2.5)]);
        for _ in 0..(next() % 4) {
            let at = (next() as usize) % f.len();
            f[at] = next() as u8;
        }
        if next() % 5 == 0 {
            f.truncate((next() as usize) % (f.len() + 1));
        }
        frames.push(f);
    }
    check_source_against_parser(frames);
}
