//! The conformance cases, each generic over the scheduler.

use crate::support::{
    AddU32, ControlledGain, CountOnMessage, Decimate, FailAfter, FailingHandler, Repeat,
    SlowBlockingSource, TIMEOUT, run, wait_within,
};
use rfgraph::{
    BlockId, FixedRateBlock, Flowgraph, GraphError, HandleError, Map, Pmt, RunError, Scheduler,
    StatelessMap, Tag,
};
use rfgraph_blocks::{
    Copy, CopyRand, Head, MessageBurst, MessageForward, MessageSink, NullSink, NullSource,
    Throttle, VectorSink, VectorSource,
};
use std::time::{Duration, Instant};

pub use crate::held_items::{
    items_held_for_a_timer_arrive, items_held_in_flight_arrive,
    items_held_in_flight_until_the_output_has_room_arrive,
    items_held_while_the_output_lacks_room_arrive,
};
pub use crate::message_groups::{
    a_member_waiting_on_a_timer_keeps_its_group_alive,
    a_member_with_work_in_flight_keeps_its_group_alive,
    a_member_writes_all_the_items_its_messages_ask_for,
    members_writing_into_one_block_do_not_wait_for_each_other, messages_posted_from_work_arrive,
};
pub use crate::stalls::{
    a_finite_buffer_diamond_is_reported_as_a_stall,
    a_stuck_diamond_is_found_while_a_timer_branch_runs,
    blocks_waiting_for_the_outside_are_not_a_stall, the_same_diamond_with_enough_buffer_finishes,
    wait_timeout_stops_a_run_that_does_not_end,
};
pub use crate::writer_done::{
    a_map_inside_an_in_place_run_ends_while_the_ring_is_full, a_rate_mismatched_diamond_ends,
};

fn sequence(n: u32) -> Vec<u32> {
    (0..n).collect()
}

/// Asserts `items == 0..n` and reports the first difference compactly.
fn assert_sequence(items: &[u32], n: u32) {
    if let Some(i) = (0..items.len().min(n as usize)).find(|&i| items[i] != i as u32) {
        let end = (i + 5).min(items.len());
        panic!(
            "item {i} is {} (next: {:?}); {} items received, {n} expected",
            items[i],
            &items[i..end],
            items.len()
        );
    }
    assert_eq!(items.len(), n as usize, "item count");
}

fn sink_items(done: &rfgraph::Finished, id: BlockId) -> &[u32] {
    done.block::<VectorSink<u32>>(id)
        .expect("a u32 vector sink")
        .items()
}

pub fn sequence_through_chain(s: impl Scheduler) {
    let n = 300_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(8192); // small rings: many wrap-arounds
    let mut chain = vec![fg.add(VectorSource::new(sequence(n)))];
    for _ in 0..6 {
        chain.push(fg.add(Copy::<u32>::new()));
    }
    let sink = fg.add(VectorSink::<u32>::new());
    chain.push(sink);
    fg.chain(&chain).unwrap();
    let done = run(fg, s).unwrap();
    assert_sequence(sink_items(&done, sink), n);
}

pub fn fan_out_delivers_to_every_reader(s: impl Scheduler) {
    let n = 100_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(sequence(n)));
    let mut sinks = Vec::new();
    for branch in 0..4 {
        let mut prev = src;
        for _ in 0..branch {
            let c = fg.add(CopyRand::<u32>::new(333, branch as u64));
            fg.connect(prev, "out", c, "in").unwrap();
            prev = c;
        }
        let sink = fg.add(VectorSink::<u32>::new());
        fg.connect(prev, "out", sink, "in").unwrap();
        sinks.push(sink);
    }
    let done = run(fg, s).unwrap();
    for sink in sinks {
        assert_sequence(sink_items(&done, sink), n);
    }
}

pub fn copy_rand_stages_keep_order(s: impl Scheduler) {
    let n = 200_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let mut chain = vec![fg.add(VectorSource::new(sequence(n)))];
    for stage in 0..5 {
        chain.push(fg.add(CopyRand::<u32>::new(1 + stage * 97, stage as u64 + 1)));
    }
    let sink = fg.add(VectorSink::<u32>::new());
    chain.push(sink);
    fg.chain(&chain).unwrap();
    let done = run(fg, s).unwrap();
    assert_sequence(sink_items(&done, sink), n);
}

pub fn head_finishes_early_and_detaches(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let head = fg.add(Head::<u32>::new(123_457));
    let copy = fg.add(Copy::<u32>::new());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, head, copy, sink]).unwrap();
    let done = run(fg, s).unwrap();
    let items = sink_items(&done, sink);
    assert_eq!(items.len(), 123_457);
    assert!(items.iter().all(|&x| x == 0));
}

pub fn head_on_one_branch_of_a_fan_out(s: impl Scheduler) {
    let n = 50_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(sequence(n)));
    let head = fg.add(Head::<u32>::new(100));
    let short = fg.add(VectorSink::<u32>::new());
    let full = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, head, short]).unwrap();
    fg.connect(src, "out", full, "in").unwrap();
    let done = run(fg, s).unwrap();
    assert_sequence(sink_items(&done, short), 100);
    assert_sequence(sink_items(&done, full), n);
}

pub fn thousand_block_flowgraph(s: impl Scheduler) {
    let n = 20_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let mut chain = vec![fg.add(VectorSource::new(sequence(n)))];
    for _ in 0..998 {
        chain.push(fg.add(Copy::<u32>::new()));
    }
    let sink = fg.add(VectorSink::<u32>::new());
    chain.push(sink);
    assert_eq!(fg.len(), 1000);
    fg.chain(&chain).unwrap();
    let done = run(fg, s).unwrap();
    assert_sequence(sink_items(&done, sink), n);
    assert_eq!(done.stats().len(), 1000);
}

pub fn message_burst_through_forwarder_grid(s: impl Scheduler) {
    let (pipes, stages, burst) = (4, 5, 2_000);
    let mut fg = Flowgraph::new();
    let mut sinks = Vec::new();
    for p in 0..pipes {
        let blob = Pmt::Blob(vec![p as u8; 500]);
        let src = fg.add(MessageBurst::new(blob, burst).with_done(Pmt::from("done")));
        let mut prev = src;
        for _ in 0..stages {
            let f = fg.add(MessageForward::new());
            fg.connect_message(prev, "out", f, "in").unwrap();
            prev = f;
        }
        let sink = fg.add(MessageSink::new());
        fg.connect_message(prev, "out", sink, "in").unwrap();
        sinks.push((sink, p));
    }
    let done = run(fg, s).unwrap();
    for (sink, p) in sinks {
        let sink = done.block::<MessageSink>(sink).unwrap();
        assert_eq!(sink.received(), burst as u64 + 1);
        let msgs = sink.messages();
        assert!(
            msgs[..burst]
                .iter()
                .all(|m| *m == Pmt::Blob(vec![p as u8; 500]))
        );
        assert_eq!(msgs[burst], Pmt::from("done"), "order kept along a pipe");
    }
}

pub fn message_cycle_ends(s: impl Scheduler) {
    // burst → a → b → {a, sink}: every message loops until `a` has forwarded
    // `limit` messages in total.
    let (burst, limit) = (100, 1_000);
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurst::new(Pmt::U64(7), burst));
    let a = fg.add(MessageForward::with_limit(limit));
    let b = fg.add(MessageForward::new());
    let sink = fg.add(MessageSink::keeping(0));
    fg.connect_message(src, "out", a, "in").unwrap();
    fg.connect_message(a, "out", b, "in").unwrap();
    fg.connect_message(b, "out", a, "in").unwrap();
    fg.connect_message(b, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    assert_eq!(done.block::<MessageForward>(a).unwrap().forwarded(), limit);
    assert_eq!(done.block::<MessageForward>(b).unwrap().forwarded(), limit);
    assert_eq!(done.block::<MessageSink>(sink).unwrap().received(), limit);
}

fn test_tags() -> Vec<Tag> {
    [0u64, 7, 1000, 4095, 4096, 33_333, 99_999]
        .iter()
        .map(|&i| Tag::new(i, rfgraph::tag::keys::FREQUENCY, Pmt::F64(i as f64 * 10.0)))
        .collect()
}

pub fn tags_arrive_at_their_indices(s: impl Scheduler) {
    let n = 100_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(sequence(n)).with_tags(test_tags()));
    let copy = fg.add(Copy::<u32>::new());
    let rand = fg.add(CopyRand::<u32>::new(500, 3));
    let map = fg.add(Map::new(|x: u32| x));
    let sink = fg.add(VectorSink::<u32>::new());
    let tap = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, copy, rand, map, sink]).unwrap();
    fg.connect(copy, "out", tap, "in").unwrap();
    let done = run(fg, s).unwrap();
    for id in [sink, tap] {
        let sink = done.block::<VectorSink<u32>>(id).unwrap();
        assert_eq!(sink.tags(), test_tags().as_slice());
        for t in sink.tags() {
            assert_eq!(sink.items()[t.index as usize] as u64, t.index);
        }
    }
}

pub fn tags_scale_through_rate_changes(s: impl Scheduler) {
    let n = 100_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(sequence(n)).with_tags(test_tags()));
    let down = fg.add(FixedRateBlock::new(Decimate(4)).unwrap());
    let up = fg.add(FixedRateBlock::new(Repeat(3)).unwrap());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, down, up, sink]).unwrap();
    let done = run(fg, s).unwrap();
    let sink = done.block::<VectorSink<u32>>(sink).unwrap();
    assert_eq!(sink.items().len(), n as usize / 4 * 3);
    let expected: Vec<u64> = test_tags().iter().map(|t| t.index / 4 * 3).collect();
    let got: Vec<u64> = sink.tags().iter().map(|t| t.index).collect();
    assert_eq!(got, expected);
}

fn failing_graph(block: FailAfter) -> (Flowgraph, String) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let bad = fg.add_named("the-bad-block", block);
    let copy = fg.add(Copy::<u32>::new());
    let sink = fg.add(NullSink::<u32>::new());
    fg.chain(&[src, bad, copy, sink]).unwrap();
    (fg, "the-bad-block".to_string())
}

pub fn failing_block_names_itself(s: impl Scheduler) {
    let (fg, name) = failing_graph(FailAfter::error(10_000));
    match run(fg, s) {
        Err(RunError::BlockFailed { block, cause }) => {
            assert_eq!(block, name);
            assert!(cause.contains("deliberate test error"), "{cause}");
        }
        other => panic!("expected BlockFailed, got {:?}", other.map(|_| ())),
    }
}

pub fn panicking_block_names_itself(s: impl Scheduler) {
    let (fg, name) = failing_graph(FailAfter::panic(10_000));
    let err = run(fg, s).err().expect("a panicking block fails the run");
    assert!(
        matches!(&err, RunError::BlockPanicked { block, message }
            if *block == name && message.contains("deliberate test panic")),
        "{err}"
    );
    assert!(err.to_string().contains("the-bad-block"));
}

pub fn failure_in_message_handler_stops_the_run(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurst::new(Pmt::Null, 3));
    let bad = fg.add_named("refuser", FailingHandler);
    fg.connect_message(src, "out", bad, "in").unwrap();
    // A stream part that would run for ever if the failure did not stop it.
    let null = fg.add(NullSource::<u32>::new());
    let sink = fg.add(NullSink::<u32>::new());
    fg.connect(null, "out", sink, "in").unwrap();
    match run(fg, s) {
        Err(RunError::BlockFailed { block, cause }) => {
            assert_eq!(block, "refuser");
            assert!(cause.contains("refuses everything"), "{cause}");
        }
        other => panic!("expected BlockFailed, got {:?}", other.map(|_| ())),
    }
}

pub fn type_mismatch_is_rejected_at_connect(_s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("ints", NullSource::<u32>::new());
    let sink = fg.add_named("floats", NullSink::<f32>::new());
    let err = fg.connect(src, "out", sink, "in").unwrap_err();
    assert!(matches!(err, GraphError::TypeMismatch(_)));
    let text = err.to_string();
    for part in ["`ints`.out", "`floats`.in", "u32", "f32"] {
        assert!(text.contains(part), "`{text}` lacks {part}");
    }
    let err = fg.connect(src, "output", sink, "in").unwrap_err();
    assert!(
        err.to_string()
            .contains("has no stream output named `output`")
    );
    assert!(err.to_string().contains("it has: out"));
}

pub fn unconnected_port_is_rejected(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("src", NullSource::<u32>::new());
    let copy = fg.add_named("lonely-copy", Copy::<u32>::new());
    fg.connect(src, "out", copy, "in").unwrap();
    let err = run(fg, s).err().expect("an unconnected output is rejected");
    assert_eq!(
        err,
        RunError::Graph(GraphError::Unconnected {
            block: "lonely-copy".into(),
            port: "out".into(),
            direction: rfgraph::error::Direction::StreamOutput,
        })
    );
    assert!(
        err.to_string()
            .contains("stream output `out` of block `lonely-copy` is not connected")
    );
}

/// Copies its input at a tag rate with a zero term.
struct ZeroRateCopy(Copy<u32>);

impl rfgraph::Block for ZeroRateCopy {
    fn ports(&mut self) -> rfgraph::Ports<'_> {
        self.0.ports()
    }

    fn work(&mut self, io: &mut rfgraph::WorkIo) -> Result<(), rfgraph::BoxError> {
        self.0.work(io)
    }

    fn tag_policy(&self) -> rfgraph::TagPolicy {
        rfgraph::TagPolicy::Propagate {
            interpolation: 1,
            decimation: 0,
        }
    }
}

pub fn zero_tag_rate_is_rejected(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(sequence(10)).with_tags(vec![Tag::new(3, "t", 1u64)]));
    let bad = fg.add_named("bad-rate", ZeroRateCopy(Copy::new()));
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, bad, sink]).unwrap();
    let err = run(fg, s).err().expect("a zero tag rate is rejected");
    assert_eq!(
        err,
        RunError::Graph(GraphError::InvalidTagRate {
            block: "bad-rate".into(),
            interpolation: 1,
            decimation: 0,
        })
    );
}

pub fn stream_cycle_is_rejected(s: impl Scheduler) {
    // A two-input block would be needed to feed a cycle from outside; a
    // closed loop of copies is the simplest cycle.
    let mut fg = Flowgraph::new();
    let a = fg.add_named("a", Copy::<u32>::new());
    let b = fg.add_named("b", Copy::<u32>::new());
    let c = fg.add_named("c", Copy::<u32>::new());
    fg.chain(&[a, b, c]).unwrap();
    fg.connect(c, "out", a, "in").unwrap();
    let err = run(fg, s).err().expect("a stream cycle is rejected");
    let text = err.to_string();
    assert!(matches!(err, RunError::Graph(GraphError::StreamCycle(_))));
    for part in [
        "`a`.out -> `b`.in",
        "`b`.out -> `c`.in",
        "`c`.out -> `a`.in",
    ] {
        assert!(text.contains(part), "`{text}` lacks {part}");
    }
}

pub fn external_call_gets_a_reply(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let gain = fg.add_named("gain", ControlledGain::new());
    let sink = fg.add(NullSink::<f32>::new());
    fg.chain(&[src, gain, sink]).unwrap();
    let running = fg.start(s).unwrap();
    let handle = running.handle();
    let wait = Duration::from_secs(10);
    assert_eq!(handle.block_id("gain"), Some(gain));
    assert_eq!(handle.call(gain, "gain", 2.5, wait), Ok(Pmt::F32(1.0)));
    handle.post(gain, "gain", 4.0f64).unwrap();
    assert_eq!(handle.call(gain, "gain", 1.0, wait), Ok(Pmt::F32(4.0)));
    // A handler error goes to the caller and does not stop the run.
    assert!(matches!(
        handle.call(gain, "gain", "loud", wait),
        Err(HandleError::Handler { .. })
    ));
    assert!(matches!(
        handle.post(gain, "volume", 1.0),
        Err(HandleError::UnknownPort { .. })
    ));
    assert!(!running.is_finished());
    handle.stop();
    let done = wait_within(running, TIMEOUT).unwrap();
    assert!(done.stats()[gain.0].messages_handled >= 4);
}

pub fn message_only_graph_runs_until_stopped(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let fwd = fg.add_named("fwd", MessageForward::new());
    let sink = fg.add_named("sink", MessageSink::new());
    fg.connect_message(fwd, "out", sink, "in").unwrap();
    let running = fg.start(s).unwrap();
    let handle = running.handle();
    for i in 0..10u64 {
        handle.post(fwd, "in", i).unwrap();
    }
    // Each reply counts what arrived so far, pings included: poll until the
    // ten forwarded messages are in, then stop.
    let mut pings = 0;
    let deadline = Instant::now() + TIMEOUT;
    loop {
        pings += 1;
        let count = handle
            .call(sink, "in", "ping", Duration::from_secs(10))
            .unwrap();
        if count.as_u64().unwrap() == 10 + pings {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "forwarded messages never arrived"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    handle.stop();
    let done = wait_within(running, TIMEOUT).unwrap();
    let sink = done.block::<MessageSink>(sink).unwrap();
    assert_eq!(sink.received(), 10 + pings);
    // The ping took a shorter path; the forwarded messages keep their order.
    let forwarded: Vec<Pmt> = sink
        .messages()
        .iter()
        .filter(|m| m.as_str().is_none())
        .cloned()
        .collect();
    assert_eq!(forwarded, (0..10u64).map(Pmt::U64).collect::<Vec<_>>());
}

/// An endless stream graph whose blocks never stop moving ends when
/// stopped, every block finished. Blocks that keep moving take the
/// runner's steady path, which reads the stop flag only after a
/// notification: the stop must notify them.
pub fn a_stop_ends_a_busy_stream_graph(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new().without_writing());
    let map = fg.add(StatelessMap::new(|x: f32| 0.5 * x));
    let copy = fg.add(Copy::<f32>::new());
    let sink = fg.add(NullSink::<f32>::new());
    fg.chain(&[src, map, copy, sink]).unwrap();
    let running = fg.start(s).unwrap();
    let handle = running.handle();
    // Stop only once items flow, so that every block is in its steady
    // state when the stop lands.
    let deadline = Instant::now() + TIMEOUT;
    while handle.stats()[sink.0].items_consumed < 1_000_000 {
        assert!(Instant::now() < deadline, "items never flowed");
        std::thread::sleep(Duration::from_millis(1));
    }
    handle.stop();
    let done = wait_within(running, TIMEOUT).expect("a stop ends the run");
    let consumed = done.stats()[sink.0].items_consumed;
    assert!(consumed >= 1_000_000, "{consumed}");
    // The sink read no item the copy did not write.
    assert!(done.stats()[copy.0].items_produced >= consumed);
}

pub fn statistics_count_items(s: impl Scheduler) {
    let n = 50_000u64;
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let head = fg.add(Head::<u32>::new(n));
    let copy = fg.add(Copy::<u32>::new());
    let sink = fg.add(NullSink::<u32>::new());
    fg.chain(&[src, head, copy, sink]).unwrap();
    let done = run(fg, s).unwrap();
    let stats = done.stats();
    assert_eq!(stats[copy.0].items_consumed, n);
    assert_eq!(stats[copy.0].items_produced, n);
    assert_eq!(stats[sink.0].items_consumed, n);
    let calls = stats[copy.0].work_calls;
    assert!(calls >= 1);
    assert_eq!(stats[copy.0].items_per_call_log2.iter().sum::<u64>(), calls);
    let json = done.stats_json();
    assert_eq!(json[copy.0]["items_produced"].as_u64(), Some(n));
    assert!(json[copy.0]["voluntary_context_switches"].is_u64());
}

pub fn decimator_remainder_does_not_hang(s: impl Scheduler) {
    // 10 items into a decimate-by-4 leave a remainder of 2 that can never be
    // processed: the block must still finish.
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(sequence(10)));
    let down = fg.add(FixedRateBlock::new(Decimate(4)).unwrap());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, down, sink]).unwrap();
    let done = run(fg, s).unwrap();
    assert_eq!(sink_items(&done, sink), &[0, 4]);
}

pub fn cascaded_remainders_after_a_fan_out_do_not_hang(s: impl Scheduler) {
    // 20 001 items through ÷4 leave 1 behind; of its 5000 outputs, the ÷3
    // reader leaves 2 behind, so the ÷4 block's output never drains. Each
    // block must still finish once its writer is done and what is left is
    // short of a decimation group.
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(sequence(20_001)));
    let by4 = fg.add(FixedRateBlock::new(Decimate(4)).unwrap());
    let direct = fg.add(VectorSink::<u32>::new());
    let by3 = fg.add(FixedRateBlock::new(Decimate(3)).unwrap());
    let after = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, by4, direct]).unwrap();
    fg.chain(&[by4, by3, after]).unwrap();
    let done = run(fg, s).unwrap();
    let quarter: Vec<u32> = (0..5_000).map(|k| 4 * k).collect();
    assert_eq!(sink_items(&done, direct), &quarter[..]);
    let twelfth: Vec<u32> = (0..1_666).map(|k| 12 * k).collect();
    assert_eq!(sink_items(&done, after), &twelfth[..]);
}

pub fn throttle_limits_rate_without_hanging(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(sequence(2_000)));
    let throttle = fg.add(Throttle::<u32>::new(20_000.0).unwrap());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, throttle, sink]).unwrap();
    let start = Instant::now();
    let done = run(fg, s).unwrap();
    // 2000 items at 20 k/s need at least 0.1 s (a lower bound is not a timing
    // assertion on speed; it checks that the throttle throttles).
    assert!(
        start.elapsed() >= Duration::from_millis(95),
        "took {:?}",
        start.elapsed()
    );
    assert_sequence(sink_items(&done, sink), 2_000);
}

pub fn blocking_block_gets_its_own_thread(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("slow-io", SlowBlockingSource::new(2_000));
    let copy = fg.add(Copy::<u32>::new());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, copy, sink]).unwrap();
    let done = run(fg, s).unwrap();
    assert_sequence(sink_items(&done, sink), 2_000);
    let source = done.block::<SlowBlockingSource>(src).unwrap();
    assert_eq!(source.thread_name.as_deref(), Some("slow-io"));
}

pub fn fan_out_and_fan_in_across_cores(s: impl Scheduler) {
    // One component big enough that `chain` must cut it: source → copy →
    // two branches of 12 random-chunk copies → add → sink. The cuts cross
    // the fan-out and the fan-in.
    let n = 100_000;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(sequence(n)));
    let split = fg.add(Copy::<u32>::new());
    fg.connect(src, "out", split, "in").unwrap();
    let add = fg.add(AddU32::new());
    for (branch, port) in ["a", "b"].into_iter().enumerate() {
        let mut prev = split;
        for stage in 0..12 {
            let c = fg.add(CopyRand::<u32>::new(700, (branch * 100 + stage) as u64));
            fg.connect(prev, "out", c, "in").unwrap();
            prev = c;
        }
        fg.connect(prev, "out", add, port).unwrap();
    }
    let sink = fg.add(VectorSink::<u32>::new());
    fg.connect(add, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    let items = sink_items(&done, sink);
    assert_eq!(items.len(), n as usize);
    for (i, &x) in items.iter().enumerate() {
        assert_eq!(x, 2 * i as u32, "item {i}");
    }
}

pub fn items_produced_by_a_finishing_handler_arrive(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurst::new(Pmt::U64(500), 1));
    let counter = fg.add(CountOnMessage::new());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.connect_message(src, "out", counter, "in").unwrap();
    fg.connect(counter, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    assert_sequence(sink_items(&done, sink), 500);
    // The items count in the block's statistics too, though `work` never
    // ran after the handler finished the block.
    assert_eq!(done.stats()[counter.0].items_produced, 500);
}

/// Source → `stages` stateless `+1` blocks (which `chain` on several cores
/// runs data-parallel) → sink; returns the graph, source and last stage.
fn stateless_chain(n: u32, stages: u32, tags: Vec<Tag>) -> (Flowgraph, BlockId) {
    let mut fg = Flowgraph::new();
    let mut chain = vec![fg.add(VectorSource::new(sequence(n)).with_tags(tags))];
    for _ in 0..stages {
        chain.push(fg.add(StatelessMap::new(|x: u32| x.wrapping_add(1))));
    }
    fg.chain(&chain).unwrap();
    let last = *chain.last().unwrap();
    (fg, last)
}

pub fn stateless_chain_keeps_order_and_tags(s: impl Scheduler) {
    let (n, stages) = (400_000, 8);
    let (mut fg, last) = stateless_chain(n, stages, test_tags());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.connect(last, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    let sink = done.block::<VectorSink<u32>>(sink).unwrap();
    let shifted: Vec<u32> = sink.items().iter().map(|x| x - stages).collect();
    assert_sequence(&shifted, n);
    assert_eq!(sink.tags(), test_tags().as_slice());
    // Statistics count every item once per block, whoever ran it.
    for st in done
        .stats()
        .iter()
        .filter(|s| s.type_name.contains("StatelessMap"))
    {
        assert_eq!((st.items_consumed, st.items_produced), (n as u64, n as u64));
    }
}

pub fn stateless_chain_fans_out_to_a_head(s: impl Scheduler) {
    let (n, stages) = (200_000, 4);
    let (mut fg, last) = stateless_chain(n, stages, Vec::new());
    let all = fg.add(VectorSink::<u32>::new());
    let head = fg.add(Head::<u32>::new(1000));
    let first = fg.add(VectorSink::<u32>::new());
    fg.connect(last, "out", all, "in").unwrap();
    fg.chain(&[last, head, first]).unwrap();
    let done = run(fg, s).unwrap();
    let all: Vec<u32> = sink_items(&done, all).iter().map(|x| x - stages).collect();
    assert_sequence(&all, n);
    let first: Vec<u32> = sink_items(&done, first)
        .iter()
        .map(|x| x - stages)
        .collect();
    assert_sequence(&first, 1000);
}

pub fn panicking_stateless_block_names_itself(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let mut counter = 0u32;
    let count = fg.add(Map::new(move |_: u32| {
        counter = counter.wrapping_add(1);
        counter
    }));
    let mut chain = vec![src, count];
    for _ in 0..5 {
        chain.push(fg.add(StatelessMap::new(|x: u32| x ^ 0x8000_0000)));
    }
    let bad = fg.add_named(
        "the-bad-block",
        StatelessMap::new(|x: u32| {
            // Five flips of the top bit: the counter's value, flipped.
            assert!(x != 50_001 ^ 0x8000_0000, "deliberate test panic");
            x
        }),
    );
    chain.extend([bad, fg.add(NullSink::<u32>::new())]);
    fg.chain(&chain).unwrap();
    let err = run(fg, s).err().expect("a panicking block fails the run");
    assert!(
        matches!(&err, RunError::BlockPanicked { block, message }
            if block == "the-bad-block" && message.contains("deliberate test panic")),
        "{err}"
    );
}
