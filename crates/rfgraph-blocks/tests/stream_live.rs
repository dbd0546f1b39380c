//! The stream blocks' parameters that GNU Radio lets change while a
//! flowgraph runs, changed through the running graph's handle: each
//! change lands at one item boundary and the output follows GNU Radio's
//! setter from there. A gated source lets the test place the change
//! exactly: it releases a first part of the input, the change is made
//! once the block has consumed it, then the rest follows. Also the
//! bounds that keep untrusted values from panicking or aborting.

mod common;

use common::{RunBounded, WATCHDOG, every_scheduler};
use num_complex::Complex32;
use rfgraph::ParamValue;
use rfgraph::registry::Registry;
use rfgraph::{
    Block, BlockId, BoxError, Flowgraph, FlowgraphHandle, Item, Pmt, Ports, StreamOutput, Tag,
    WorkIo,
};
use rfgraph_blocks::stream::{
    BurstTagger, KeepMInN, KeepMInNParams, KeepOneInN, KeepOneInNParams, MatrixInterleaver,
    MatrixInterleaverParams, Repeat, RepeatParams, TagGate, TagGateParams, TagsStrobe,
    TagsStrobeParams,
};
use rfgraph_blocks::{
    Copy, Head, SourceTags, Throttle, VectorSink, VectorSource, VectorSourceParams,
};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const CALL: Duration = Duration::from_secs(20);

/// Writes `items` (with `tags`), but no further than the allowance the
/// test raises, polling it every millisecond.
struct Gated<T: Item> {
    output: StreamOutput<T>,
    items: Vec<T>,
    tags: Vec<Tag>,
    written: usize,
    allowed: Arc<AtomicUsize>,
}

impl<T: Item> Gated<T> {
    fn new(items: Vec<T>, tags: Vec<Tag>) -> (Self, Arc<AtomicUsize>) {
        let allowed = Arc::new(AtomicUsize::new(0));
        let gated = Self {
            output: StreamOutput::new("out"),
            items,
            tags,
            written: 0,
            allowed: allowed.clone(),
        };
        (gated, allowed)
    }
}

impl<T: Item> Block for Gated<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let allowed = self.allowed.load(Ordering::Acquire).min(self.items.len());
        let out = self.output.slice();
        let n = (allowed - self.written).min(out.len());
        out[..n].copy_from_slice(&self.items[self.written..self.written + n]);
        let range = self.written as u64..(self.written + n) as u64;
        for t in self.tags.iter().filter(|t| range.contains(&t.index)) {
            self.output
                .add_tag((t.index - range.start) as usize, &t.key, t.value.clone());
        }
        self.output.produce(n);
        self.written += n;
        if self.written == self.items.len() {
            io.finish();
        } else if n == 0 {
            io.call_again_at(Instant::now() + Duration::from_millis(1));
        }
        Ok(())
    }
}

/// Waits until block `id` consumed `items` items.
fn consumed(handle: &FlowgraphHandle, id: BlockId, items: u64, what: &str) {
    let deadline = Instant::now() + WATCHDOG;
    while handle.stats()[id.0].items_consumed < items {
        assert!(
            Instant::now() < deadline,
            "{what}: block {id:?} never consumed {items} items ({} so far)",
            handle.stats()[id.0].items_consumed
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A change made through the running graph's handle to a block.
type Change<'a> = Box<dyn Fn(&FlowgraphHandle, BlockId) + 'a>;

/// One step of a gated run: release the input up to `upto` items, wait
/// until the block consumed `consumed` of them, then apply `change`.
struct Step<'a> {
    upto: usize,
    consumed: u64,
    change: Change<'a>,
}

fn step<'a>(
    upto: usize,
    consumed: u64,
    change: impl Fn(&FlowgraphHandle, BlockId) + 'a,
) -> Step<'a> {
    Step {
        upto,
        consumed,
        change: Box::new(change),
    }
}

/// Sets `param` of `block` to `value` through the handle.
fn set(handle: &FlowgraphHandle, block: BlockId, param: &str, value: impl Into<Pmt>) {
    handle
        .call(block, param, value, CALL)
        .unwrap_or_else(|e| panic!("setting `{param}`: {e}"));
}

/// Runs gated `input` (with `tags`) through `block` into a sink on every
/// scheduler, with `steps` between the releases; the sink's items and
/// tags, per scheduler.
fn gated_run<T: Item, B: Block>(
    make: impl Fn() -> B,
    input: &[T],
    tags: &[Tag],
    steps: &[Step<'_>],
) -> Vec<(String, Vec<T>, Vec<Tag>)> {
    let mut out = Vec::new();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let (src, allowed) = Gated::new(input.to_vec(), tags.to_vec());
        let src = fg.add(src);
        let block = fg.add(make());
        let sink = fg.add(VectorSink::<T>::new());
        fg.chain(&[src, block, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        for st in steps {
            allowed.store(st.upto, Ordering::Release);
            consumed(&handle, block, st.consumed, &name);
            (st.change)(&handle, block);
        }
        allowed.store(usize::MAX, Ordering::Release);
        let done = running.wait_timeout(WATCHDOG).unwrap();
        let sink = done.block::<VectorSink<T>>(sink).unwrap();
        out.push((name, sink.items().to_vec(), sink.tags().to_vec()));
    }
    out
}

fn ramp(n: usize) -> Vec<i32> {
    (0..n as i32).collect()
}

#[test]
fn keep_one_in_n_starts_a_new_group_when_n_changes() {
    // n = 3 for the first 1000 items (the last one a partial group), then
    // n = 5 counted from item 1000, as GNU Radio's set_n resets its count.
    let input = ramp(3000);
    let runs = gated_run(
        || {
            KeepOneInN::<i32>::new(KeepOneInNParams {
                n: 3,
                ..Default::default()
            })
            .unwrap()
        },
        &input,
        &[],
        &[step(1000, 1000, |h, b| set(h, b, "n", 5u64))],
    );
    let mut want: Vec<i32> = (0..1000).filter(|k| k % 3 == 2).collect();
    want.extend((1000..3000).filter(|k| (k - 1000) % 5 == 4));
    for (name, got, _) in runs {
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn keep_m_in_n_regroups_the_items_not_yet_in_a_whole_group() {
    // m = 2 of n = 5 from offset 1; 1002 items in, the last two wait for
    // their group's end when n becomes 4 and offset 2: they start the
    // first group of 4, as GNU Radio's unconsumed items would.
    let input = ramp(2002);
    let tags = [
        Tag::new(11, "k", Pmt::U64(11)),
        Tag::new(1500, "k", Pmt::U64(1500)),
    ];
    let runs = gated_run(
        || {
            KeepMInN::<i32>::new(KeepMInNParams {
                m: 2,
                n: 5,
                offset: 1,
                ..Default::default()
            })
            .unwrap()
        },
        &input,
        &tags,
        &[step(1002, 1002, |h, b| {
            set(h, b, "n", 4u64);
            set(h, b, "offset", 2u64);
            // Out of range with m = 2 and n = 4: refused, nothing changes.
            assert!(h.call(b, "offset", 3u64, CALL).is_err());
        })],
    );
    let mut want: Vec<i32> = (0..1000).filter(|k| matches!(k % 5, 1 | 2)).collect();
    want.extend((1000..2000).filter(|k| matches!((k - 1000) % 4, 2 | 3)));
    for (name, got, tags) in runs {
        assert_eq!(got, want, "{name}");
        // Tags move by the rate: 11·2/5 = 4; 1500 starts the 125th new
        // group, 400 + 125·2.
        let at: Vec<u64> = tags.iter().map(|t| t.index).collect();
        assert_eq!(at, [4, 650], "{name}");
    }
}

#[test]
fn repeat_takes_a_new_interpolation_from_the_next_vector() {
    let input = ramp(1000);
    let runs = gated_run(
        || {
            Repeat::<i32>::new(RepeatParams {
                interpolation: 2,
                vlen: 2,
                ..Default::default()
            })
            .unwrap()
        },
        &input,
        &[Tag::new(601, "k", Pmt::Null)],
        &[step(500, 500, |h, b| set(h, b, "interpolation", 3u64))],
    );
    let mut want = Vec::new();
    for (v, n) in input
        .chunks(2)
        .zip((0..).map(|k| if k < 250 { 2 } else { 3 }))
    {
        for _ in 0..n {
            want.extend_from_slice(v);
        }
    }
    for (name, got, tags) in runs {
        assert_eq!(got, want, "{name}");
        // Item 601 is item 1 of vector 300, the 50th after the change:
        // 1000 + 50·6 + 1·3.
        assert_eq!(tags[0].index, 1303, "{name}");
    }
}

#[test]
fn matrix_interleaver_takes_a_new_shape_for_the_next_block() {
    let input = ramp(1200);
    let runs = gated_run(
        || {
            MatrixInterleaver::<i32>::new(MatrixInterleaverParams {
                rows: 2,
                cols: 3,
                ..Default::default()
            })
            .unwrap()
        },
        &input,
        &[],
        &[step(600, 600, |h, b| {
            set(h, b, "cols", 4u64);
            set(h, b, "deinterleave", true);
        })],
    );
    let transpose = |block: &[i32], rows: usize, cols: usize, deint: bool| {
        let mut out = vec![0; block.len()];
        for r in 0..rows {
            for c in 0..cols {
                let (row_major, col_major) = (r * cols + c, c * rows + r);
                if deint {
                    out[row_major] = block[col_major];
                } else {
                    out[col_major] = block[row_major];
                }
            }
        }
        out
    };
    let mut want: Vec<i32> = input[..600]
        .chunks(6)
        .flat_map(|b| transpose(b, 2, 3, false))
        .collect();
    want.extend(
        input[600..]
            .chunks(8)
            .flat_map(|b| transpose(b, 2, 4, true)),
    );
    for (name, got, _) in runs {
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn copy_drops_what_arrives_while_disabled() {
    let input = ramp(3000);
    let runs = gated_run(
        Copy::<i32>::new,
        &input,
        &[],
        &[
            step(1000, 1000, |h, b| set(h, b, "enabled", false)),
            // GNU Radio's message port name is an alias.
            step(2000, 2000, |h, b| set(h, b, "en", true)),
        ],
    );
    let want: Vec<i32> = (0..1000).chain(2000..3000).collect();
    for (name, got, _) in runs {
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn head_takes_a_new_length_counted_from_the_start() {
    let input = ramp(100_000);
    let runs = gated_run(
        || Head::<i32>::new(50_000),
        &input,
        &[],
        &[step(1000, 1000, |h, b| set(h, b, "items", 1500u64))],
    );
    for (name, got, _) in runs {
        assert_eq!(got, ramp(1500), "{name}");
    }
    // A length already reached ends the block at once.
    let runs = gated_run(
        || Head::<i32>::new(50_000),
        &input,
        &[],
        &[step(1000, 1000, |h, b| set(h, b, "num_items", 10u64))],
    );
    for (name, got, _) in runs {
        assert_eq!(got, ramp(1000), "{name}");
    }
}

#[test]
fn tag_gate_and_burst_tagger_take_new_keys() {
    let input = ramp(2000);
    let tags: Vec<Tag> = (0..20)
        .map(|k| Tag::new(k * 100, if k % 2 == 0 { "a" } else { "b" }, Pmt::U64(k)))
        .collect();
    let runs = gated_run(
        || {
            TagGate::<i32>::new(TagGateParams {
                single_key: "a".into(),
                ..Default::default()
            })
            .unwrap()
        },
        &input,
        &tags,
        &[step(1000, 1000, |h, b| set(h, b, "single_key", "b"))],
    );
    let want: Vec<(u64, &str)> = (0..20u64)
        .map(|k| (k * 100, if k % 2 == 0 { "a" } else { "b" }))
        .filter(|&(at, key)| if at < 1000 { key == "b" } else { key == "a" })
        .collect();
    for (name, got, tags) in runs {
        assert_eq!(got, input, "{name}");
        let seen: Vec<(u64, &str)> = tags.iter().map(|t| (t.index, t.key.as_str())).collect();
        assert_eq!(seen, want, "{name}");
    }

    // The burst tagger's trigger is its second input: a gated source of
    // its own, released with the data.
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let (data, allow_data) = Gated::new(vec![0.0f32; 2000], Vec::new());
        let trigger: Vec<i16> = (0..2000)
            .map(|k| if k % 100 < 10 { 1 } else { 0 })
            .collect();
        let (trigger, allow_trigger) = Gated::new(trigger, Vec::new());
        let (data, trigger) = (fg.add(data), fg.add(trigger));
        let tagger = fg.add(BurstTagger::<f32>::new());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(data, "out", tagger, "in0").unwrap();
        fg.connect(trigger, "out", tagger, "in1").unwrap();
        fg.connect(tagger, "out", sink, "in").unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        allow_data.store(1000, Ordering::Release);
        allow_trigger.store(1000, Ordering::Release);
        consumed(&handle, tagger, 2000, &name);
        set(&handle, tagger, "true_key", "sob");
        set(&handle, tagger, "false_value", true);
        allow_data.store(usize::MAX, Ordering::Release);
        allow_trigger.store(usize::MAX, Ordering::Release);
        let done = running.wait_timeout(WATCHDOG).unwrap();
        let tags = done.block::<VectorSink<f32>>(sink).unwrap().tags().to_vec();
        let want: Vec<(u64, &str, Pmt)> = (0..20u64)
            .flat_map(|k| {
                let (on, off) = if k < 10 {
                    (("burst", false), ("burst", false))
                } else {
                    (("sob", false), ("burst", true))
                };
                [
                    (k * 100, on.0, Pmt::Bool(!on.1)),
                    (k * 100 + 10, off.0, Pmt::Bool(off.1)),
                ]
            })
            .collect();
        let seen: Vec<(u64, &str, Pmt)> = tags
            .iter()
            .map(|t| (t.index, t.key.as_str(), t.value.clone()))
            .collect();
        assert_eq!(seen, want, "{name}");
    }
}

#[test]
fn tags_strobe_spaces_the_next_tag_by_the_new_interval() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let strobe = fg.add(
            TagsStrobe::<f32>::new(TagsStrobeParams {
                interval: 100,
                items: Some(200_000),
                ..Default::default()
            })
            .unwrap(),
        );
        // A throttle keeps the run long enough for the changes to land
        // while it goes (a fifth of a second).
        let throttle = fg.add(Throttle::<f32>::new(1e6).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[strobe, throttle, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        set(&handle, strobe, "key", "k2");
        set(&handle, strobe, "value", Pmt::U64(9));
        set(&handle, strobe, "nsamps", 1000u64);
        let done = running.wait_timeout(WATCHDOG).unwrap();
        let tags = done.block::<VectorSink<f32>>(sink).unwrap().tags().to_vec();
        // Every 100 items (from item 0), then every 1000 from the last tag
        // on: one switch, and every tag after it has the new key and value
        // (set before the interval).
        let at: Vec<u64> = std::iter::once(0)
            .chain(tags.iter().map(|t| t.index))
            .collect();
        let gaps: Vec<u64> = at.windows(2).map(|w| w[1] - w[0]).collect();
        let switch = gaps.iter().position(|&g| g != 100).unwrap_or(gaps.len());
        assert!(gaps[..switch].iter().all(|&g| g == 100), "{name}: {gaps:?}");
        assert!(
            gaps[switch..].iter().all(|&g| g == 1000),
            "{name}: {gaps:?}"
        );
        assert_eq!(
            gaps.last(),
            Some(&1000),
            "{name}: the interval never changed"
        );
        assert!(
            tags[switch..]
                .iter()
                .all(|t| t.key == "k2" && t.value == Pmt::U64(9)),
            "{name}"
        );
    }
}

/// Runs an endless `vector_source` of `1 2 3` (`i16`) into a head of a
/// million items, calling `change` on the running source: the items and
/// tags the sink got.
fn vector_source_changed(
    s: Box<dyn rfgraph::Scheduler>,
    change: impl Fn(&FlowgraphHandle, BlockId),
) -> (Vec<i16>, Vec<Tag>) {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(
        VectorSource::<i16>::from_params(VectorSourceParams {
            values: [1.0f32, 2.0, 3.0].map(Complex32::from).to_vec(),
            repeat: true,
            ..Default::default()
        })
        .unwrap(),
    );
    let head = fg.add(Head::<i16>::new(1_000_000));
    let sink = fg.add(VectorSink::<i16>::new());
    fg.chain(&[src, head, sink]).unwrap();
    let running = fg.start(s).unwrap();
    change(&running.handle(), src);
    let done = running.wait_timeout(WATCHDOG).unwrap();
    let sink = done.block::<VectorSink<i16>>(sink).unwrap();
    assert_eq!(sink.items().len(), 1_000_000);
    (sink.items().to_vec(), sink.tags().to_vec())
}

/// True when `items` repeat `cycle` from its first item.
fn cycles(items: &[i16], cycle: &[i16]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(k, &x)| x == cycle[k % cycle.len()])
}

/// `vector_source` plays a new vector from its start, as GNU Radio's
/// `set_data`: the output is the old vector's cycle up to one item and
/// the new one's from its first item on; new tags restart the vector too.
#[test]
fn vector_source_plays_a_new_vector_from_its_start() {
    let old = [1i16, 2, 3];
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, _) = vector_source_changed(s, |h, src| {
            let new = Pmt::List([10, 20, 30, 40, 50].map(Pmt::I64).to_vec());
            set(h, src, "vector", new);
            // Not an i16: refused, the vector plays on.
            let e = h
                .call(src, "values", Pmt::List(vec![Pmt::I64(40_000)]), CALL)
                .unwrap_err();
            assert!(e.to_string().contains("values"), "{e}");
            // A tag past the vector's end: refused.
            let bad = Pmt::List(vec![Pmt::List(vec![
                Pmt::U64(5),
                Pmt::from("y"),
                Pmt::Null,
            ])]);
            assert!(h.call(src, "tags", bad, CALL).is_err());
            let values = h.param(src, "values", CALL).unwrap();
            assert_eq!(Vec::<Complex32>::from_pmt(values).unwrap().len(), 5);
        });
        let switch = items.iter().position(|&x| x >= 10).expect("the new vector");
        assert!(cycles(&items[..switch], &old), "{name}");
        assert!(
            cycles(&items[switch..], &[10, 20, 30, 40, 50]),
            "{name}: the new vector starts at its first item"
        );
    }
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, tags) = vector_source_changed(s, |h, src| {
            let tags = Pmt::List(vec![Pmt::List(vec![
                Pmt::U64(1),
                Pmt::from("x"),
                Pmt::Null,
            ])]);
            set(h, src, "tags", tags);
        });
        // The first tag sits on item 1 of the restarted vector.
        let restart = tags[0].index as usize - 1;
        assert!(cycles(&items[..restart], &old), "{name}");
        assert!(cycles(&items[restart..], &old), "{name}");
        assert!(
            tags.iter()
                .enumerate()
                .all(|(k, t)| t.index as usize == restart + 1 + 3 * k && t.key == "x"),
            "{name}"
        );
    }
}

#[test]
fn a_throttle_takes_a_new_rate_and_refuses_one_that_cannot_be_timed() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![0u8; 200_000]));
        let throttle = fg.add(Throttle::<u8>::new(100.0).unwrap());
        let sink = fg.add(VectorSink::<u8>::new());
        fg.chain(&[src, throttle, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        for bad in [1e-30, 0.0, -5.0, 1e300] {
            let e = handle
                .call(throttle, "sample_rate", bad, CALL)
                .unwrap_err()
                .to_string();
            assert!(e.contains("out of range"), "{name}: {e}");
        }
        // At 100 items per second this would take half an hour.
        set(&handle, throttle, "samples_per_second", 1e9);
        let done = running.wait_timeout(WATCHDOG).unwrap();
        assert_eq!(
            done.block::<VectorSink<u8>>(sink).unwrap().items().len(),
            200_000,
            "{name}"
        );
    }
}

/// Groups larger than the rings pass whole: a partial group waits
/// inside the block, and a group's output goes out as room comes.
#[test]
fn groups_larger_than_the_rings_pass_whole() {
    let input = ramp(20_500);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let run = |s: Box<dyn rfgraph::Scheduler>, block: Box<dyn Block>| {
            let mut fg = Flowgraph::new();
            fg.set_buffer_bytes(4096);
            let src = fg.add(VectorSource::new(input.clone()));
            let b = fg.add_boxed("dut", "dut", block);
            let sink = fg.add(VectorSink::<i32>::new());
            fg.chain(&[src, b, sink]).unwrap();
            let done = fg.run_bounded(s).unwrap();
            done.block::<VectorSink<i32>>(sink)
                .unwrap()
                .items()
                .to_vec()
        };
        let keep = KeepMInN::<i32>::new(KeepMInNParams {
            m: 2000,
            n: 3000,
            offset: 500,
            ..Default::default()
        })
        .unwrap();
        let want: Vec<i32> = (0..18_000)
            .filter(|k| (500..2500).contains(&(k % 3000)))
            .collect();
        assert_eq!(run(s, Box::new(keep)), want, "{name}: keep_m_in_n");
    }
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(VectorSource::new(ramp(4500)));
        let b = fg.add(
            MatrixInterleaver::<i32>::new(MatrixInterleaverParams {
                rows: 40,
                cols: 50,
                ..Default::default()
            })
            .unwrap(),
        );
        let r = fg.add(
            Repeat::<i32>::new(RepeatParams {
                interpolation: 1500,
                ..Default::default()
            })
            .unwrap(),
        );
        let sink = fg.add(VectorSink::<i32>::new());
        fg.chain(&[src, b, r, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done.block::<VectorSink<i32>>(sink).unwrap().items();
        // Two whole matrices of 2000, each item 1500 times.
        assert_eq!(got.len(), 4000 * 1500, "{name}");
        for (k, chunk) in got.chunks(1500).enumerate().step_by(97) {
            let (m, e) = (k / 2000, k % 2000);
            let (c, r) = (e / 40, e % 40);
            let want = (m * 2000 + r * 50 + c) as i32;
            assert!(chunk.iter().all(|&x| x == want), "{name}: item {k}");
        }
    }
}

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.extend(rfgraph_blocks::registry::specs());
    registry
}

fn build_err(registry: &Registry, block: &str, params: &[(&str, Pmt)]) -> String {
    let params: BTreeMap<String, Pmt> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let spec = registry.get(block).unwrap();
    let checked = spec.check(params.clone()).err().map(|e| e.to_string());
    let built = registry.build(block, params).err().map(|e| e.to_string());
    assert_eq!(checked, built, "{block}: check and build disagree");
    built.unwrap_or_else(|| panic!("{block}: built"))
}

#[test]
fn sizes_from_a_file_are_bounded_errors_naming_the_parameter() {
    let r = registry();
    for (block, param) in [
        ("vector_source", "vlen"),
        ("throttle", "vlen"),
        ("head", "vlen"),
        ("repeat", "interpolation"),
        ("repeat", "vlen"),
        ("keep_one_in_n", "n"),
        ("keep_m_in_n", "n"),
        ("probe_signal", "vlen"),
        ("delay", "delay"),
        ("selector", "inputs"),
        ("interleave", "count"),
        ("streams_to_stream", "count"),
        ("stream_to_vector", "items"),
        ("message_burst", "count"),
        ("copy_rand", "max"),
        ("matrix_interleaver", "rows"),
    ] {
        let items = ("items", Pmt::U64(10));
        let e = if block == "head" {
            build_err(&r, block, &[(param, Pmt::F64(1e12)), items])
        } else {
            build_err(&r, block, &[(param, Pmt::F64(1e12))])
        };
        assert!(
            e.contains(&format!("`{param}`")) && e.contains("out of range: must be"),
            "{block}: {e}"
        );
    }
    let e = build_err(&r, "vector_source", &[("vlen", Pmt::F64(1e12))]);
    assert!(e.contains("1048576"), "{e}");
    let e = build_err(&r, "throttle", &[("sample_rate", Pmt::F64(1e-30))]);
    assert!(
        e.contains("`sample_rate`") && e.contains("out of range"),
        "{e}"
    );
    let e = build_err(
        &r,
        "matrix_interleaver",
        &[
            ("rows", Pmt::U64(1 << 13)),
            ("cols", Pmt::U64(1 << 13)),
            ("vlen", Pmt::U64(2)),
        ],
    );
    assert!(e.contains("more than 67108864 items"), "{e}");
    let e = build_err(&r, "stream_mux", &[("lengths", Pmt::List(vec![]))]);
    assert!(e.contains("`lengths`"), "{e}");
    let e = build_err(
        &r,
        "patterned_interleaver",
        &[("pattern", Pmt::List(vec![Pmt::I64(5000)]))],
    );
    assert!(e.contains("at most 1024 inputs"), "{e}");
    let e = build_err(
        &r,
        "vector_source",
        &[
            ("values", Pmt::VecF32(vec![1.0, 2.0, 3.0])),
            ("vlen", Pmt::U64(2)),
        ],
    );
    assert!(e.contains("not whole vectors of 2"), "{e}");
    let e = build_err(
        &r,
        "vector_source",
        &[
            ("type", Pmt::from("u8")),
            ("values", Pmt::VecF32(vec![1.0, 256.0])),
        ],
    );
    assert!(e.contains("item 1 (256) is not a `u8`"), "{e}");
    let e = build_err(
        &r,
        "keep_m_in_n",
        &[
            ("m", Pmt::U64(2)),
            ("n", Pmt::U64(3)),
            ("offset", Pmt::U64(2)),
        ],
    );
    assert!(e.contains("`offset`"), "{e}");
    // A very long repetition does not overflow.
    let src = VectorSource::new(vec![1u8; 3]).repeat(u64::MAX);
    let mut fg = Flowgraph::new();
    let src = fg.add(src);
    let head = fg.add(Head::<u8>::new(10));
    let sink = fg.add(VectorSink::<u8>::new());
    fg.chain(&[src, head, sink]).unwrap();
    let done = fg
        .start(rfgraph::scheduler::Tpb::new())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    assert_eq!(
        done.block::<VectorSink<u8>>(sink).unwrap().items(),
        &[1; 10]
    );
}

#[test]
fn vector_source_tags_come_from_files_counted_in_vectors() {
    let r = registry();
    let tags = Pmt::List(vec![
        Pmt::List(vec![Pmt::I64(1), Pmt::from("k"), Pmt::I64(7)]),
        Pmt::List(vec![Pmt::I64(0), Pmt::from("z"), Pmt::Null]),
    ]);
    let params: BTreeMap<String, Pmt> = [
        ("values", Pmt::VecF32(vec![1.0, 2.0, 3.0, 4.0])),
        ("vlen", Pmt::U64(2)),
        ("tags", tags.clone()),
        ("repeat", Pmt::Bool(false)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add_boxed(
        "src",
        "vector_source",
        r.build("vector_source", params).unwrap(),
    );
    let sink = fg.add(VectorSink::<f32>::new());
    fg.connect(src, "out", sink, "in").unwrap();
    let done = fg
        .start(rfgraph::scheduler::Tpb::new())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let sink = done.block::<VectorSink<f32>>(sink).unwrap();
    assert_eq!(sink.items(), &[1.0, 2.0, 3.0, 4.0]);
    let seen: Vec<(u64, &str, Pmt)> = sink
        .tags()
        .iter()
        .map(|t| (t.index, t.key.as_str(), t.value.clone()))
        .collect();
    assert_eq!(seen, [(0, "z", Pmt::Null), (2, "k", Pmt::I64(7))]);
    let e = build_err(
        &r,
        "vector_source",
        &[("tags", Pmt::List(vec![Pmt::I64(3)]))],
    );
    assert!(
        e.contains("`tags`") && e.contains("[offset, key, value]"),
        "{e}"
    );
    assert_eq!(
        rfgraph::params::ParamValue::to_pmt(&SourceTags(vec![Tag::new(1, "k", Pmt::I64(7))])),
        Pmt::List(vec![Pmt::List(vec![
            Pmt::U64(1),
            Pmt::from("k"),
            Pmt::I64(7)
        ])])
    );
}
