//! One block under test in a small flowgraph, as the `gr_*` tests run it:
//! a vector source into the block into vector sinks, or PDUs posted to
//! it, each run with the watchdog.

use super::cases::{build_named, length_tags};
use super::{RunBounded, WATCHDOG, wait_within};
use rfgraph::{Block, BlockId, Flowgraph, FlowgraphHandle, Item, Pmt, Tag};
use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
use std::time::{Duration, Instant};

/// Runs `block` from `input` (with `tags`) into a sink: the items and
/// tags it wrote on `out`.
pub fn run_block<I: Item, O: Item>(
    block: Box<dyn Block>,
    input: Vec<I>,
    tags: Vec<Tag>,
) -> (Vec<O>, Vec<Tag>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input).with_tags(tags));
    let b = fg.add_boxed("dut", "dut", block);
    let sink = fg.add(VectorSink::<O>::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect(b, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let sink = done.block::<VectorSink<O>>(sink).unwrap();
    (sink.items().to_vec(), sink.tags().to_vec())
}

/// The items `block` writes for `input`.
pub fn run_items<I: Item, O: Item>(block: Box<dyn Block>, input: Vec<I>) -> Vec<O> {
    run_block(block, input, Vec::new()).0
}

/// Runs registered block `name` with `params` on `input`.
pub fn run<I: Item, O: Item>(name: &str, params: &[(&str, Pmt)], input: Vec<I>) -> Vec<O> {
    run_items(build_named(name, params), input)
}

/// Runs registered block `name` with `params` on `input`: its output
/// `out` and its `f32` outputs `diag`.
pub fn run_diag<T: Item>(
    name: &str,
    params: &[(&str, Pmt)],
    diag: [&str; 3],
    input: Vec<T>,
) -> (Vec<T>, [Vec<f32>; 3]) {
    let block = build_named(name, params);
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input));
    let b = fg.add_boxed("dut", name, block);
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect(b, "out", sink, "in").unwrap();
    let sinks = diag.map(|port| {
        let k = fg.add(VectorSink::<f32>::new());
        fg.connect(b, port, k, "in").unwrap();
        k
    });
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let main = done.block::<VectorSink<T>>(sink).unwrap().items().to_vec();
    let d = sinks.map(|k| done.block::<VectorSink<f32>>(k).unwrap().items().to_vec());
    (main, d)
}

/// Waits until `block` has handled `n` messages (at most 30 s).
pub fn wait_for_messages(handle: &FlowgraphHandle, block: BlockId, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while handle.stats()[block.0].messages_handled < n {
        assert!(Instant::now() < deadline, "the messages never arrived");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Posts `messages` to `block`'s `in` and gives what it sends on `out`,
/// once a message came out for each.
pub fn post_all(block: Box<dyn Block>, messages: Vec<Pmt>) -> Vec<Pmt> {
    let mut fg = Flowgraph::new();
    let b = fg.add_boxed("dut", "dut", block);
    let sink = fg.add(MessageSink::new());
    fg.connect_message(b, "out", sink, "in").unwrap();
    let running = fg.start(rfgraph::scheduler::Tpb::new()).unwrap();
    let handle = running.handle();
    let n = messages.len() as u64;
    for m in messages {
        handle.post(b, "in", m).unwrap();
    }
    wait_for_messages(&handle, sink, n);
    handle.stop();
    let done = wait_within(running, WATCHDOG).unwrap();
    done.block::<MessageSink>(sink).unwrap().messages().to_vec()
}

/// Runs `block` on `items` in packets of `lengths` (length tags `key`):
/// its output bytes and its `key` tags (index, value).
pub fn run_tagged<T: Item>(
    block: Box<dyn Block>,
    key: &str,
    items: Vec<T>,
    lengths: &[u64],
) -> (Vec<u8>, Vec<(u64, u64)>) {
    let (items, tags) = run_block::<T, u8>(block, items, length_tags(key, lengths));
    let tags = tags
        .iter()
        .filter(|t| t.key == key)
        .map(|t| (t.index, t.value.as_u64().unwrap()))
        .collect();
    (items, tags)
}
