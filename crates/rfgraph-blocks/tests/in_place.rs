//! In-place edges: 1:1 `Map` blocks overwrite their input items when they
//! are its only reader. Results must equal out-of-place processing on
//! every scheduler, a reader that shares the input must never see the
//! transformed items, tags and early detaching must work through the
//! reused memory, and the shared ring must hold what every block on it
//! needs at once.

mod common;
use common::RunBounded;

use common::every_scheduler;
use rfgraph::{
    Block, BoxError, Flowgraph, Map, Pmt, Ports, Scheduler, StreamInput, StreamOutput, Tag, WorkIo,
};
use rfgraph_blocks::{CopyRand, Head, VectorSink, VectorSource};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// Runs `case` once per scheduler with a fresh flowgraph of small rings
/// (so chunks wrap often); `case` names the scheduler in its assertions.
fn on_every_scheduler(mut case: impl FnMut(&str, Flowgraph, Box<dyn Scheduler>)) {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        case(&name, fg, s);
    }
}

fn ramp(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32).collect()
}

#[test]
fn chains_of_maps_equal_the_arithmetic() {
    let x = ramp(200_000);
    let expected: Vec<f32> = x.iter().map(|&v| ((v * 2.0) + 1.0) * 3.0 - 5.0).collect();
    on_every_scheduler(|name, mut fg, s| {
        let src = fg.add(VectorSource::new(x.clone()));
        let a = fg.add(Map::new(|v: f32| v * 2.0));
        let b = fg.add(Map::new(|v: f32| v + 1.0));
        // Random chunk sizes in the middle break the in-place run in two.
        let shuffle = fg.add(CopyRand::<f32>::new(700, 3));
        let c = fg.add(Map::new(|v: f32| v * 3.0));
        let d = fg.add(Map::new(|v: f32| v - 5.0));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, a, b, shuffle, c, d, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done.block::<VectorSink<f32>>(sink).unwrap().items();
        assert_eq!(got, &expected[..], "{name}");
    });
}

/// The source's ring has two readers, so the map may not overwrite it:
/// the raw sink sees the raw items.
#[test]
fn a_shared_input_is_never_overwritten() {
    let x = ramp(100_000);
    on_every_scheduler(|name, mut fg, s| {
        let src = fg.add(VectorSource::new(x.clone()));
        let map = fg.add(Map::new(|v: f32| -v));
        let mapped = fg.add(VectorSink::<f32>::new());
        let raw = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, map, mapped]).unwrap();
        fg.connect(src, "out", raw, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        assert_eq!(
            done.block::<VectorSink<f32>>(raw).unwrap().items(),
            &x[..],
            "{name}"
        );
        let neg: Vec<f32> = x.iter().map(|&v| -v).collect();
        assert_eq!(
            done.block::<VectorSink<f32>>(mapped).unwrap().items(),
            &neg[..],
            "{name}"
        );
    });
}

/// A map working in place whose output fans out: both readers see every
/// result, and the second map (its input is shared) works out of place.
#[test]
fn fan_out_after_an_in_place_map_delivers_to_all() {
    let x = ramp(100_000);
    on_every_scheduler(|name, mut fg, s| {
        let src = fg.add(VectorSource::new(x.clone()));
        let double = fg.add(Map::new(|v: f32| v * 2.0));
        let plus = fg.add(Map::new(|v: f32| v + 0.5));
        let doubled = fg.add(VectorSink::<f32>::new());
        let both = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, double, plus, both]).unwrap();
        fg.connect(double, "out", doubled, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let d: Vec<f32> = x.iter().map(|&v| v * 2.0).collect();
        let b: Vec<f32> = d.iter().map(|&v| v + 0.5).collect();
        assert_eq!(
            done.block::<VectorSink<f32>>(doubled).unwrap().items(),
            &d[..],
            "{name}"
        );
        assert_eq!(
            done.block::<VectorSink<f32>>(both).unwrap().items(),
            &b[..],
            "{name}"
        );
    });
}

/// Tags ride through maps working in place, and a `Head` after them
/// detaches early without stalling the source.
#[test]
fn tags_and_early_detach_through_in_place_maps() {
    let x = ramp(300_000);
    on_every_scheduler(|name, mut fg, s| {
        let tags = vec![
            Tag::new(10, "k", Pmt::U64(1)),
            Tag::new(50_000, "k", Pmt::U64(2)),
        ];
        let src = fg.add(VectorSource::new(x.clone()).with_tags(tags));
        let a = fg.add(Map::new(|v: f32| v + 1.0));
        let b = fg.add(Map::new(|v: f32| v * 0.5));
        let head = fg.add(Head::<f32>::new(60_000));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, a, b, head, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let sink = done.block::<VectorSink<f32>>(sink).unwrap();
        let want: Vec<f32> = x[..60_000].iter().map(|&v| (v + 1.0) * 0.5).collect();
        assert_eq!(sink.items(), &want[..], "{name}");
        let indices: Vec<u64> = sink.tags().iter().map(|t| t.index).collect();
        assert_eq!(indices, vec![10, 50_000], "{name}");
    });
}

/// Runs `fg` on `s` on a thread of its own; `Err` if it has not ended
/// within a minute (a bound on liveness, not on speed).
fn run_within_a_minute(
    fg: Flowgraph,
    s: Box<dyn Scheduler>,
) -> Result<Result<(), rfgraph::RunError>, RecvTimeoutError> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(fg.run_bounded(s).map(|_| ()));
    });
    rx.recv_timeout(Duration::from_secs(60))
}

/// Writes each input item `k` times, `k` at a time: its output declares
/// `k` as its `min_items`.
struct Interpolate {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    k: usize,
}

impl Block for Interpolate {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let input = self.input.slice();
        let output = self.output.slice();
        let n = input.len().min(output.len() / self.k);
        for (chunk, &x) in output.chunks_exact_mut(self.k).zip(&input[..n]) {
            chunk.fill(x);
        }
        self.input.consume(n);
        self.output.produce(n * self.k);
        Ok(())
    }
}

/// Consumes whole groups of `d` items (its input's `min_items`), reading
/// none, and counts them.
struct GroupSink {
    input: StreamInput<f32>,
    d: usize,
    taken: Arc<AtomicU64>,
}

impl Block for GroupSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.available() / self.d * self.d;
        self.input.consume(n);
        self.taken.fetch_add(n as u64, Ordering::Relaxed);
        Ok(())
    }
}

/// interpolator (×1000, output `min_items` 1000) → in-place map → a sink
/// taking 999 at a time, on rings asked to be 4 KiB (found by a review).
/// The ring the map reuses holds at once the interpolator's 1000 free
/// items and up to 998 the sink keeps, so it must hold 1998, not the 1024
/// its own edges' minimums gave it: the interpolator waited for ever.
#[test]
fn a_ring_shared_in_place_holds_its_writers_and_last_readers_minimums() {
    let (k, d, n) = (1000, 999, 500);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let taken = Arc::new(AtomicU64::new(0));
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(VectorSource::new(vec![1.0f32; n]));
        let interpolate = fg.add(Interpolate {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out").with_min_items(k),
            k,
        });
        let map = fg.add(Map::new(|x: f32| x + 1.0));
        let sink = fg.add(GroupSink {
            input: StreamInput::new("in").with_min_items(d),
            d,
            taken: taken.clone(),
        });
        fg.chain(&[src, interpolate, map, sink]).unwrap();
        let result = run_within_a_minute(fg, s);
        assert!(
            matches!(result, Ok(Ok(()))),
            "{name}: {result:?}, the sink took {} of {}",
            taken.load(Ordering::Relaxed),
            n * k
        );
        assert_eq!(
            taken.load(Ordering::Relaxed),
            (n * k / d * d) as u64,
            "{name}"
        );
    }
}

/// Transforms whole groups of `d` items where they lie (an in-place FFT
/// of size `d`, say): its input's `min_items` is `d`.
struct GroupInPlace {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    d: usize,
}

impl Block for GroupInPlace {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let data = self
            .input
            .slice_in_place()
            .expect("the only reader of its input, so in place");
        let n = data.len() / self.d * self.d;
        data[..n].iter_mut().for_each(|x| *x += 1.0);
        self.input.consume(n);
        self.output.produce_in_place(n);
        Ok(())
    }
}

/// As above with two in-place hops that each keep a remainder (groups of
/// 999, then 998) before the sink's 997: the remainders pile up on the
/// one ring at once, so it must hold the interpolator's 1000 plus all of
/// them (found by a second review; a floor of writer plus the largest
/// single reader still hung every scheduler).
#[test]
fn a_ring_shared_in_place_holds_every_hops_remainder() {
    let (k, n) = (1000, 500);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let taken = Arc::new(AtomicU64::new(0));
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let mut chain = vec![
            fg.add(VectorSource::new(vec![1.0f32; n])),
            fg.add(Interpolate {
                input: StreamInput::new("in"),
                output: StreamOutput::new("out").with_min_items(k),
                k,
            }),
        ];
        for d in [999, 998] {
            chain.push(fg.add(GroupInPlace {
                input: StreamInput::new("in").with_min_items(d),
                output: StreamOutput::new("out").in_place_of(0),
                d,
            }));
        }
        chain.push(fg.add(GroupSink {
            input: StreamInput::new("in").with_min_items(997),
            d: 997,
            taken: taken.clone(),
        }));
        fg.chain(&chain).unwrap();
        let result = run_within_a_minute(fg, s);
        let taken = taken.load(Ordering::Relaxed);
        assert!(
            matches!(result, Ok(Ok(()))),
            "{name}: {result:?}, the sink took {taken} of {}",
            n * k
        );
        // Each hop passes whole groups: all but less than a group per hop
        // arrives, in whole groups of the sink's.
        assert!(taken > (n * k - 3 * 1000) as u64, "{name}: {taken}");
        assert_eq!(taken % 997, 0, "{name}");
    }
}

/// Doubles its input into two outputs that both ask to reuse the input's
/// memory (or, with `input` past the last one, an input it lacks).
struct TwoViews {
    input: StreamInput<f32>,
    a: StreamOutput<f32>,
    b: StreamOutput<f32>,
}

impl TwoViews {
    fn new(b_in_place_of: usize) -> Self {
        Self {
            input: StreamInput::new("in"),
            a: StreamOutput::new("a").in_place_of(0),
            b: StreamOutput::new("b").in_place_of(b_in_place_of),
        }
    }
}

impl Block for TwoViews {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.a)
            .output(&mut self.b)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(data) = self.input.slice_in_place() {
            let n = data.len();
            data.iter_mut().for_each(|x| *x *= 2.0);
            self.input.consume(n);
            self.a.produce_in_place(n);
            self.b.produce_in_place(n);
        }
        Ok(())
    }
}

/// Two outputs on one input's memory would overwrite each other's items
/// (and the second view's readers would not hold the ring's space back):
/// the flowgraph refuses such a block before it runs, as it refuses an
/// output naming an input the block does not have.
#[test]
fn an_input_serves_at_most_one_output_in_place() {
    for (b_in_place_of, cause) in [(0, "already works in place"), (1, "no input number 1")] {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(ramp(10_000)));
        let twin = fg.add_named("twin", TwoViews::new(b_in_place_of));
        let sink_a = fg.add(VectorSink::<f32>::new());
        let sink_b = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", twin, "in").unwrap();
        fg.connect(twin, "a", sink_a, "in").unwrap();
        fg.connect(twin, "b", sink_b, "in").unwrap();
        let err = match fg.run_bounded(rfgraph::scheduler::Single::new()) {
            Err(e) => e,
            Ok(_) => panic!("a block with two outputs on input 0 ran"),
        };
        match err {
            rfgraph::RunError::Graph(rfgraph::GraphError::InvalidInPlace {
                block,
                output,
                cause: why,
            }) => {
                assert_eq!((block.as_str(), output.as_str()), ("twin", "b"));
                assert!(why.contains(cause), "{why}");
            }
            other => panic!("wrong error: {other}"),
        }
    }
}
