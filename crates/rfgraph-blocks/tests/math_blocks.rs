//! Behaviour of the math and conversion blocks that GNU Radio
//! comparisons (`gr_blocks.rs`) do not cover: an unconnected optional
//! output, the parameter checks of the registry entries, tags passing
//! 1:1, and parameters changed while the flowgraph runs (each from one
//! item on, as GNU Radio's setters do).

mod common;

use common::{RunBounded, WATCHDOG, every_scheduler, wait_within};
use num_complex::Complex32;
use rfgraph::registry::Registry;
use rfgraph::{
    Block, BlockId, BoxError, Flowgraph, FlowgraphHandle, Item, Pmt, Ports, Scheduler,
    StreamOutput, Tag, WorkIo,
};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::time::{Duration, Instant};

fn registry() -> Registry {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r
}

fn params(pairs: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn complex_to_float_runs_with_its_second_output_unconnected() {
    let r = registry();
    let input: Vec<Complex32> = (0..10_000)
        .map(|k| Complex32::new(k as f32, -1.0))
        .collect();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let split = fg.add_boxed(
            "split",
            "complex_to_float",
            r.build("complex_to_float", params(&[])).unwrap(),
        );
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", split, "in").unwrap();
        fg.connect(split, "out0", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done.block::<VectorSink<f32>>(sink).unwrap().items();
        assert_eq!(got.len(), input.len(), "{name}");
        assert!(got.iter().zip(&input).all(|(&g, x)| g == x.re), "{name}");
    }
}

/// GNU Radio's `float_to_complex` runs on its real input alone; so does
/// this one, with zero imaginary parts. `magphase_to_complex` still needs
/// both inputs.
#[test]
fn float_to_complex_runs_with_its_imaginary_input_unconnected() {
    let r = registry();
    let input: Vec<f32> = (0..10_000).map(|k| k as f32).collect();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let join = fg.add_boxed(
            "join",
            "float_to_complex",
            r.build("float_to_complex", params(&[])).unwrap(),
        );
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(src, "out", join, "in0").unwrap();
        fg.connect(join, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done.block::<VectorSink<Complex32>>(sink).unwrap().items();
        let expected: Vec<Complex32> = input.iter().map(|&x| Complex32::new(x, 0.0)).collect();
        assert_eq!(got, expected.as_slice(), "{name}");
    }
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input));
    let join = fg.add_boxed(
        "join",
        "magphase_to_complex",
        r.build("magphase_to_complex", params(&[])).unwrap(),
    );
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, "out", join, "in0").unwrap();
    fg.connect(join, "out", sink, "in").unwrap();
    assert!(fg.run_bounded(rfgraph::scheduler::Tpb::new()).is_err());
}

#[test]
fn combine_stops_at_the_shortest_input_and_keeps_tags() {
    let r = registry();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let a = fg.add(VectorSource::new(vec![1i16; 5000]).with_tags(vec![Tag::new(
            10,
            "a",
            Pmt::U64(1),
        )]));
        let b = fg.add(VectorSource::new(vec![2i16; 3000]));
        let add = fg.add_boxed(
            "add",
            "multiply",
            r.build("multiply", params(&[("type", "i16".into())]))
                .unwrap(),
        );
        let sink = fg.add(VectorSink::<i16>::new());
        fg.connect(a, "out", add, "in0").unwrap();
        fg.connect(b, "out", add, "in1").unwrap();
        fg.connect(add, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let out = done.block::<VectorSink<i16>>(sink).unwrap();
        assert_eq!(out.items(), &[2i16; 3000][..], "{name}");
        assert_eq!(out.tags(), &[Tag::new(10, "a", Pmt::U64(1))], "{name}");
    }
}

#[test]
fn bad_parameters_are_refused_naming_them() {
    let r = registry();
    let err = |name: &str, p: &[(&str, Pmt)]| r.build(name, params(p)).err().unwrap().to_string();
    assert!(err("add", &[("inputs", Pmt::U64(0))]).contains("`inputs`"));
    assert!(err("add", &[("type", "u8".into())]).contains("`type`"));
    assert!(err("char_to_float", &[("scale", Pmt::F64(0.0))]).contains("`scale`"));
    assert!(err("short_to_float", &[("vlen", Pmt::U64(0))]).contains("`vlen`"));
    assert!(err("abs", &[("type", "c32".into())]).contains("`type`"));
}

#[test]
fn peak_detector2_runs_without_its_average_output() {
    use rfgraph_blocks::math::{PeakDetector2, PeakDetector2Params};
    // A pulse of rising height every 250 items: one peak each, at its top.
    let input: Vec<f32> = (0..10_000)
        .map(|k| 1.0 + if k % 250 < 15 { (k % 250) as f32 } else { 0.0 })
        .collect();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let det = fg.add(
            PeakDetector2::new(PeakDetector2Params {
                threshold: 2.0,
                look_ahead: 20,
                alpha: 0.05,
            })
            .unwrap(),
        );
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(src, "out", det, "in").unwrap();
        fg.connect(det, "out0", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let flags = done.block::<VectorSink<u8>>(sink).unwrap().items();
        assert_eq!(flags.len(), input.len(), "{name}");
        let peaks: Vec<usize> = flags
            .iter()
            .enumerate()
            .filter(|(_, f)| **f == 1)
            .map(|(k, _)| k)
            .collect();
        assert_eq!(
            peaks,
            (0..40).map(|p| p * 250 + 14).collect::<Vec<_>>(),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------
// Parameters changed while the flowgraph runs.

/// The longest a `call` on a running block may take.
const CALL: Duration = Duration::from_secs(20);

/// Items the sink must hold before the change, and after it.
const AROUND: u64 = 5_000;

/// Bytes in each ring of [`changed_while_running`]'s graphs.
const RING_BYTES: usize = 8192;

/// Waits until the block `id` consumed at least `n` items.
fn wait_for_items(handle: &FlowgraphHandle, id: BlockId, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while handle.stats()[id.0].items_consumed < n {
        assert!(Instant::now() < deadline, "no progress to {n} items");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs registry block `name` with `given` parameters on `inputs` copies
/// of `input` (on `in`, or `in0`, `in1`, …), each repeated without end,
/// into a sink on `out`; once the sink has [`AROUND`] items, sends every
/// `(input, value)` of `changes` to the block through the running graph
/// (each call must succeed), then stops [`AROUND`] items later. Returns
/// the sink's items.
fn changed_while_running<I: Item, O: Item>(
    scheduler: Box<dyn Scheduler>,
    name: &str,
    given: &[(&str, Pmt)],
    inputs: usize,
    input: &[I],
    changes: &[(&str, Pmt)],
) -> Vec<O> {
    let mut fg = Flowgraph::new();
    // Small rings: the change lands a few thousand items after it is sent.
    fg.set_buffer_bytes(RING_BYTES);
    let block = fg.add_boxed("dut", name, registry().build(name, params(given)).unwrap());
    for i in 0..inputs {
        let src = fg.add(VectorSource::new(input.to_vec()).repeat(u64::MAX));
        let port = if inputs == 1 {
            "in".to_string()
        } else {
            format!("in{i}")
        };
        fg.connect(src, "out", block, &port).unwrap();
    }
    let sink = fg.add(VectorSink::<O>::new());
    let out = if name == "multiply_matrix" {
        "out0"
    } else {
        "out"
    };
    fg.connect(block, out, sink, "in").unwrap();
    let running = fg.start(scheduler).unwrap();
    let handle = running.handle();
    wait_for_items(&handle, sink, AROUND);
    for (port, value) in changes {
        handle
            .call(block, port, value.clone(), CALL)
            .unwrap_or_else(|e| panic!("{name}: {port} = {value:?}: {e}"));
    }
    // Items the block made before the change may still fill its output
    // ring: wait past them too.
    let queued = (RING_BYTES / std::mem::size_of::<O>()) as u64;
    let seen = handle.stats()[sink.0].items_consumed;
    wait_for_items(&handle, sink, seen + queued + AROUND);
    handle.stop();
    let done = wait_within(running, WATCHDOG).unwrap();
    done.block::<VectorSink<O>>(sink).unwrap().items().to_vec()
}

/// Where `out` switched from `old` to `new` (each giving the item at an
/// index): every item before the returned index is `old`'s, every one
/// from it on `new`'s, and both are there.
fn one_switch<O: PartialEq + Debug>(
    out: &[O],
    old: impl Fn(usize) -> O,
    new: impl Fn(usize) -> O,
    what: &str,
) -> usize {
    let k = (0..out.len())
        .find(|&k| out[k] != old(k))
        .unwrap_or_else(|| panic!("{what}: the change never showed in {} items", out.len()));
    assert!(k > 0, "{what}: changed before the first item");
    for (j, o) in out.iter().enumerate().skip(k) {
        assert_eq!(*o, new(j), "{what}: item {j}, after the switch at {k}");
    }
    k
}

/// Where a stateful 1:1 block switched: the input index `c` such that
/// stepping `init` with `old` over the first `c` items and with `new`
/// over the rest gives `out` exactly. Fails when none near the first
/// difference from `old` does.
fn stateful_switch<S: Clone, X: Copy, Y: PartialEq + Debug>(
    input: impl Fn(usize) -> X,
    out: &[Y],
    init: S,
    old: impl Fn(&mut S, X) -> Y,
    new: impl Fn(&mut S, X) -> Y,
    what: &str,
) -> usize {
    let mut states = Vec::with_capacity(out.len());
    let mut state = init;
    let mut first_difference = None;
    for (k, o) in out.iter().enumerate() {
        states.push(state.clone());
        if old(&mut state, input(k)) != *o {
            first_difference = Some(k);
            break;
        }
    }
    let k = first_difference
        .unwrap_or_else(|| panic!("{what}: the change never showed in {} items", out.len()));
    assert!(k > 0, "{what}: changed before the first item");
    // The switch may precede the first difference by items both settings
    // give alike.
    for c in (k.saturating_sub(64)..=k).rev() {
        let mut state = states[c].clone();
        if (c..out.len()).all(|j| new(&mut state, input(j)) == out[j]) {
            return c;
        }
    }
    panic!("{what}: no single switch near item {k} explains the output");
}

fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|k| ((k * 37) % 256) as u8).collect()
}

fn floats(n: usize) -> Vec<f32> {
    (0..n)
        .map(|k| ((k * 37) % 201) as f32 / 10.0 - 10.0)
        .collect()
}

fn shorts(n: usize) -> Vec<i16> {
    (0..n).map(|k| ((k * 2593) % 65536) as u16 as i16).collect()
}

fn ints(n: usize) -> Vec<i32> {
    (0..n)
        .map(|k| (k as i32 * 7919 - 40_000).wrapping_mul(1013))
        .collect()
}

fn complexes(n: usize) -> Vec<Complex32> {
    floats(n)
        .iter()
        .zip(floats(n + 7).iter().skip(7))
        .map(|(&re, &im)| Complex32::new(re * 0.1, im * 0.1))
        .collect()
}

/// Runs converter `name` on `input` on every scheduler, its scale
/// changing from `old` to `new`: the output must switch from
/// `convert(x, old)` to `convert(x, new)` at one item.
fn scale_changes<I: Item, O: Item + PartialEq + Debug>(
    name: &str,
    input: &[I],
    old: f32,
    new: f32,
    convert: impl Fn(I, f32) -> O,
) {
    for sched in every_scheduler() {
        let what = format!("{name} on {}", sched.name());
        let scale = |v: f32| [("scale", Pmt::F64(v as f64))];
        let out: Vec<O> = changed_while_running(sched, name, &scale(old), 1, input, &scale(new));
        let x = |k: usize| input[k % input.len()];
        one_switch(&out, |k| convert(x(k), old), |k| convert(x(k), new), &what);
    }
}

/// GNU Radio's `set_scale` on every scalar converter: the next item is
/// converted with the new scale.
#[test]
fn converter_scales_change_from_one_item_on() {
    use rfgraph_blocks::convert::round;
    let f = floats(1000);
    scale_changes("char_to_float", &bytes(1000), 2.0, 8.0, |x: u8, s| {
        x as i8 as f32 / s
    });
    scale_changes(
        "short_to_float",
        &shorts(1000),
        32768.0,
        4.0,
        |x: i16, s| x as f32 / s,
    );
    scale_changes("int_to_float", &ints(1000), 3.0, -7.0, |x: i32, s| {
        x as f32 / s
    });
    scale_changes("float_to_char", &f, 13.0, 2.0, |x: f32, s| {
        round::to_i8(x * s)
    });
    scale_changes("float_to_short", &f, 3000.0, 100.0, |x: f32, s| {
        round::to_i16(x * s)
    });
    scale_changes("float_to_int", &f, 1e6, 3.0, |x: f32, s| {
        round::to_i32(x * s)
    });
}

/// GNU Radio's `set_scale_factor` and `set_swap` on the interleaved
/// converters: from one pair (one complex item) on.
#[test]
fn interleaved_converters_change_scale_and_swap_from_one_pair_on() {
    let s = shorts(1000);
    let b = bytes(1000);
    let c = complexes(1000);
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let pair = |k: usize| (s[(2 * k) % s.len()] as f32, s[(2 * k + 1) % s.len()] as f32);
        let out: Vec<Complex32> = changed_while_running(
            sched,
            "interleaved_short_to_complex",
            &[("scale", Pmt::F64(2.0))],
            1,
            &s,
            // GNU Radio's name of the parameter is an input too.
            &[("scale_factor", Pmt::F64(5.0))],
        );
        one_switch(
            &out,
            |k| Complex32::new(pair(k).0 / 2.0, pair(k).1 / 2.0),
            |k| Complex32::new(pair(k).0 / 5.0, pair(k).1 / 5.0),
            &format!("interleaved_short_to_complex scale on {name}"),
        );
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let pair = |k: usize| (s[(2 * k) % s.len()] as f32, s[(2 * k + 1) % s.len()] as f32);
        let out: Vec<Complex32> = changed_while_running(
            sched,
            "interleaved_short_to_complex",
            &[("scale", Pmt::F64(4.0))],
            1,
            &s,
            &[("swap", Pmt::Bool(true))],
        );
        one_switch(
            &out,
            |k| Complex32::new(pair(k).0 / 4.0, pair(k).1 / 4.0),
            |k| Complex32::new(pair(k).1 / 4.0, pair(k).0 / 4.0),
            &format!("interleaved_short_to_complex swap on {name}"),
        );
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let pair = |k: usize| {
            (
                b[(2 * k) % b.len()] as i8 as f32,
                b[(2 * k + 1) % b.len()] as i8 as f32,
            )
        };
        let out: Vec<Complex32> = changed_while_running(
            sched,
            "interleaved_char_to_complex",
            &[("scale", Pmt::F64(128.0))],
            1,
            &b,
            &[("scale", Pmt::F64(64.0))],
        );
        one_switch(
            &out,
            |k| Complex32::new(pair(k).0 / 128.0, pair(k).1 / 128.0),
            |k| Complex32::new(pair(k).0 / 64.0, pair(k).1 / 64.0),
            &format!("interleaved_char_to_complex on {name}"),
        );
    }
    for sched in every_scheduler() {
        use rfgraph_blocks::convert::round;
        let name = sched.name().to_string();
        let out: Vec<i16> = changed_while_running(
            sched,
            "complex_to_interleaved_short",
            &[("scale", Pmt::F64(3000.0))],
            1,
            &c,
            &[("scale_factor", Pmt::F64(100.0))],
        );
        let part = |k: usize, s: f32| {
            let x = c[(k / 2) % c.len()];
            round::to_i16(if k.is_multiple_of(2) { x.re } else { x.im } * s)
        };
        let at = one_switch(
            &out,
            |k| part(k, 3000.0),
            |k| part(k, 100.0),
            &format!("complex_to_interleaved_short on {name}"),
        );
        // Both parts of an item take the same scale.
        assert!(
            at.is_multiple_of(2) || part(at - 1, 3000.0) == part(at - 1, 100.0),
            "{name}: switch inside item {}",
            at / 2
        );
    }
}

/// The settable constants, gains and switches of the math blocks: each
/// change applies from one item on (a vector constant keeps its place in
/// the vector), and a refused value changes nothing.
#[test]
fn math_parameters_change_from_one_item_on() {
    let f = floats(999);
    let x = |k: usize| f[k % f.len()];
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let out: Vec<f32> = changed_while_running(
            sched,
            "multiply_const",
            &[("constant", Pmt::VecF32(vec![1.0, 2.0, 3.0]))],
            1,
            &f,
            &[("const", Pmt::VecF32(vec![-4.0, 5.0, 0.5]))],
        );
        let (a, b) = ([1.0, 2.0, 3.0], [-4.0, 5.0, 0.5]);
        one_switch(
            &out,
            |k| x(k) * a[k % 3],
            |k| x(k) * b[k % 3],
            &format!("multiply_const on {name}"),
        );
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let s = shorts(1000);
        let out: Vec<i16> = changed_while_running(
            sched,
            "add_const",
            &[("type", Pmt::from("i16")), ("constant", Pmt::I64(7))],
            1,
            &s,
            &[("constant", Pmt::I64(-300))],
        );
        one_switch(
            &out,
            |k| s[k % s.len()].wrapping_add(7),
            |k| s[k % s.len()].wrapping_add(-300),
            &format!("add_const on {name}"),
        );
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let out: Vec<f32> =
            changed_while_running(sched, "mute", &[], 1, &f, &[("mute", Pmt::Bool(true))]);
        one_switch(&out, x, |_| 0.0, &format!("mute on {name}"));
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let row = |r: [f64; 2]| Pmt::List(vec![Pmt::List(r.into_iter().map(Pmt::F64).collect())]);
        let out: Vec<f32> = changed_while_running(
            sched,
            "multiply_matrix",
            &[("matrix", row([1.0, 2.0]))],
            2,
            &f,
            &[("A", row([3.0, -1.0]))],
        );
        one_switch(
            &out,
            |k| x(k) + 2.0 * x(k),
            |k| 3.0 * x(k) - x(k),
            &format!("multiply_matrix on {name}"),
        );
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let pos: Vec<f32> = f.iter().map(|v| v.abs() + 0.5).collect();
        let out: Vec<f32> = changed_while_running(
            sched,
            "nlog10",
            &[("n", Pmt::F64(20.0)), ("k", Pmt::F64(1.0))],
            1,
            &pos,
            &[("k", Pmt::F64(-6.0))],
        );
        let y = |k: usize| 20.0 * pos[k % pos.len()].log10();
        one_switch(
            &out,
            |k| y(k) + 1.0,
            |k| y(k) - 6.0,
            &format!("nlog10 on {name}"),
        );
    }
}

/// `rms`'s `alpha` and `threshold`'s `lo` and `hi` change from one item
/// on while the state (the average, the last output) carries on.
#[test]
fn stateful_parameters_change_from_one_item_on_and_keep_the_state() {
    let f = floats(1001);
    let x = |k: usize| f[k % f.len()];
    let rms = |alpha: f64| {
        move |avg: &mut f64, v: f32| {
            *avg = (1.0 - alpha) * *avg + alpha * (v * v) as f64;
            avg.sqrt() as f32
        }
    };
    let threshold = |lo: f32, hi: f32| {
        move |last: &mut f32, v: f32| {
            if v > hi {
                *last = 1.0;
            } else if v < lo {
                *last = 0.0;
            }
            *last
        }
    };
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let out: Vec<f32> = changed_while_running(
            sched,
            "rms",
            &[("alpha", Pmt::F64(0.01))],
            1,
            &f,
            &[("alpha", Pmt::F64(0.2))],
        );
        stateful_switch(x, &out, 0.0, rms(0.01), rms(0.2), &format!("rms on {name}"));
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let out: Vec<f32> = changed_while_running(
            sched,
            "threshold",
            &[
                ("lo", Pmt::F64(-2.0)),
                ("hi", Pmt::F64(3.0)),
                ("initial_state", Pmt::F64(0.5)),
            ],
            1,
            &f,
            // GNU Radio's name of the parameter is an input too.
            &[("low", Pmt::F64(-9.0))],
        );
        stateful_switch(
            x,
            &out,
            0.5,
            threshold(-2.0, 3.0),
            threshold(-9.0, 3.0),
            &format!("threshold lo on {name}"),
        );
    }
    for sched in every_scheduler() {
        let name = sched.name().to_string();
        let out: Vec<f32> = changed_while_running(
            sched,
            "threshold",
            &[("lo", Pmt::F64(-2.0)), ("hi", Pmt::F64(3.0))],
            1,
            &f,
            &[("high", Pmt::F64(8.5))],
        );
        stateful_switch(
            x,
            &out,
            0.0,
            threshold(-2.0, 3.0),
            threshold(-2.0, 8.5),
            &format!("threshold hi on {name}"),
        );
    }
}

/// A value the block refuses goes back to the caller; the run goes on
/// with the old value.
#[test]
fn refused_changes_leave_the_block_as_it_was() {
    let b = bytes(1000);
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(8192);
    let src = fg.add(VectorSource::new(b.clone()).repeat(u64::MAX));
    let conv = fg.add_boxed(
        "conv",
        "char_to_float",
        registry()
            .build("char_to_float", params(&[("scale", Pmt::F64(2.0))]))
            .unwrap(),
    );
    let sink = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, conv, sink]).unwrap();
    let running = fg.start(rfgraph::scheduler::Tpb::new()).unwrap();
    let handle = running.handle();
    wait_for_items(&handle, sink, AROUND);
    for bad in [Pmt::F64(0.0), Pmt::F64(1e300), Pmt::from("x")] {
        let e = handle.call(conv, "scale", bad.clone(), CALL).unwrap_err();
        assert!(e.to_string().contains("`scale`"), "{bad:?}: {e}");
    }
    assert_eq!(handle.param(conv, "scale", CALL).unwrap(), Pmt::F64(2.0));
    let seen = handle.stats()[sink.0].items_consumed;
    wait_for_items(&handle, sink, seen + AROUND);
    handle.stop();
    let done = wait_within(running, WATCHDOG).unwrap();
    let out = done.block::<VectorSink<f32>>(sink).unwrap().items();
    for (k, &o) in out.iter().enumerate() {
        assert_eq!(o, b[k % b.len()] as i8 as f32 / 2.0, "item {k}");
    }
}

/// The parameters of `peak_detector2` as GNU Radio's model takes them.
#[derive(Clone, Copy, Debug)]
struct Peak {
    threshold: f32,
    look_ahead: usize,
    alpha: f32,
}

/// GNU Radio's `peak_detector2_fb` work loop on `x` with unlimited room,
/// its parameters turning from `old` to `new` at `at = (index, window)`:
/// when it is about to search from item `index` (`window` false) or
/// holds a window opened by item `index` (`window` true), where a new
/// threshold or look-ahead abandons the window (GNU Radio's
/// `invalidate`) so that its items are searched again. The flags and
/// averages written.
fn gr_peak_detector2(x: &[f32], old: Peak, new: Peak, at: (usize, bool)) -> (Vec<u8>, Vec<f32>) {
    let (mut p, mut changed) = (old, false);
    let (mut avg, mut found, mut pos) = (0.0f32, false, 0);
    let (mut flags, mut avgs) = (Vec::new(), vec![0.0f32; x.len()]);
    loop {
        if !changed && (pos, found) == at {
            changed = true;
            let invalidate = new.threshold != p.threshold || new.look_ahead != p.look_ahead;
            p = new;
            if invalidate {
                found = false;
            }
        }
        if !found {
            let Some(&v) = x.get(pos) else { break };
            avg = p.alpha * v + (1.0 - p.alpha) * avg;
            avgs[pos] = avg;
            if v > avg * (1.0 + p.threshold) {
                found = true;
                continue;
            }
            flags.push(0);
            pos += 1;
        } else {
            if pos + p.look_ahead > x.len() {
                break;
            }
            let mut peak = 0;
            for j in 1..p.look_ahead {
                avg = p.alpha * x[pos + j] + (1.0 - p.alpha) * avg;
                avgs[pos + j] = avg;
                if x[pos + j] > x[pos + peak] {
                    peak = j;
                }
            }
            flags.extend(std::iter::repeat_n(0, p.look_ahead));
            flags[pos + peak] = 1;
            pos += p.look_ahead;
            found = false;
        }
    }
    avgs.truncate(flags.len());
    (flags, avgs)
}

/// GNU Radio's `set_threshold_factor_rise`, `set_look_ahead` and
/// `set_alpha` while `peak_detector2` runs: the output is GNU Radio's
/// with the change at one point of its work loop (a pending window
/// abandoned and searched again for the first two), flags and averages
/// alike. The look-ahead grows past what the ring could hold.
#[test]
fn peak_detector2_parameters_change_as_gnu_radio_setters_do() {
    // A pulse of rising height every 250 items.
    let pulses: Vec<f32> = (0..2500)
        .map(|k| {
            1.0 + if k % 250 < 15 {
                (k % 250) as f32 * (1.0 + (k / 250 % 3) as f32)
            } else {
                0.0
            }
        })
        .collect();
    let base = Peak {
        threshold: 2.0,
        look_ahead: 20,
        alpha: 0.05,
    };
    let changes: Vec<(&str, Pmt, Peak)> = vec![
        (
            "look_ahead",
            Pmt::U64(5),
            Peak {
                look_ahead: 5,
                ..base
            },
        ),
        (
            "look_ahead",
            Pmt::U64(5000),
            Peak {
                look_ahead: 5000,
                ..base
            },
        ),
        (
            "threshold_factor_rise",
            Pmt::F64(6.0),
            Peak {
                threshold: 6.0,
                ..base
            },
        ),
        ("alpha", Pmt::F64(0.5), Peak { alpha: 0.5, ..base }),
    ];
    for (param, value, new) in changes {
        for sched in every_scheduler() {
            let name = format!("{param} = {value:?} on {}", sched.name());
            let mut fg = Flowgraph::new();
            fg.set_buffer_bytes(8192);
            let src = fg.add(VectorSource::new(pulses.clone()).repeat(u64::MAX));
            let det = fg.add_boxed(
                "det",
                "peak_detector2",
                registry()
                    .build(
                        "peak_detector2",
                        params(&[
                            ("threshold", Pmt::F64(base.threshold as f64)),
                            ("look_ahead", Pmt::U64(base.look_ahead as u64)),
                            ("alpha", Pmt::F64(base.alpha as f64)),
                        ]),
                    )
                    .unwrap(),
            );
            let flags = fg.add(VectorSink::<u8>::new());
            let avgs = fg.add(VectorSink::<f32>::new());
            fg.connect(src, "out", det, "in").unwrap();
            fg.connect(det, "out0", flags, "in").unwrap();
            fg.connect(det, "out1", avgs, "in").unwrap();
            let running = fg.start(sched).unwrap();
            let handle = running.handle();
            wait_for_items(&handle, flags, AROUND);
            handle.call(det, param, value.clone(), CALL).unwrap();
            let seen = handle.stats()[flags.0].items_consumed;
            wait_for_items(&handle, flags, seen + 3 * AROUND);
            handle.stop();
            let done = wait_within(running, WATCHDOG).unwrap();
            let f = done.block::<VectorSink<u8>>(flags).unwrap().items();
            let a = done.block::<VectorSink<f32>>(avgs).unwrap().items();
            let n = f.len().min(a.len());
            let (f, a) = (&f[..n], &a[..n]);
            let x: Vec<f32> = (0..n + 2 * new.look_ahead.max(base.look_ahead))
                .map(|k| pulses[k % pulses.len()])
                .collect();
            let (old_f, old_a) = gr_peak_detector2(&x, base, base, (usize::MAX, false));
            let k = (0..n)
                .find(|&k| f[k] != old_f[k] || a[k] != old_a[k])
                .unwrap_or_else(|| panic!("{name}: the change never showed in {n} items"));
            assert!(k > 0, "{name}");
            let window = base.look_ahead.max(new.look_ahead);
            let found = (k.saturating_sub(2 * window)..=k + 1).rev().find_map(|c| {
                [true, false].into_iter().find_map(|w| {
                    let (mf, ma) = gr_peak_detector2(&x, base, new, (c, w));
                    (mf.len() >= n && mf[..n] == *f && ma[..n] == *a).then_some((c, w))
                })
            });
            let (c, _) = found.unwrap_or_else(|| {
                panic!("{name}: no point of GNU Radio's loop explains the output from item {k}")
            });
            // The new setting shows: the pulses after it are flagged
            // otherwise than the old one would flag them.
            let later = (c + window).min(n);
            assert_ne!(
                f[later..],
                old_f[later..n],
                "{name}: the new setting changed nothing after item {c}"
            );
        }
    }
}

/// A source of `items` that writes the first `first` of them, then the
/// rest once a message arrives on `go`, then finishes.
struct Gate {
    out: StreamOutput<f32>,
    items: Vec<f32>,
    pos: usize,
    open_until: usize,
}

impl Block for Gate {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.out).message_input("go")
    }

    fn handle_message(&mut self, _: &str, _: Pmt, _: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.open_until = self.items.len();
        Ok(Pmt::Null)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let o = self.out.slice();
        let n = o.len().min(self.open_until - self.pos);
        o[..n].copy_from_slice(&self.items[self.pos..self.pos + n]);
        self.out.produce(n);
        self.pos += n;
        if self.pos == self.items.len() {
            io.finish();
        }
        Ok(())
    }
}

/// A new threshold or look-ahead while a window is open (its items taken,
/// not yet written) abandons it and searches its items again, as GNU
/// Radio's `invalidate` does; a new alpha weighs the window's items after
/// its first again (GNU Radio had weighed none of them): the output is
/// GNU Radio's with the change while its window was pending.
#[test]
fn peak_detector2_abandons_or_reweighs_an_open_window_on_a_change() {
    let pulses: Vec<f32> = (0..3000)
        .map(|k| 1.0 + if k % 250 < 15 { (k % 250) as f32 } else { 0.0 })
        .collect();
    let base = Peak {
        threshold: 2.0,
        look_ahead: 20,
        alpha: 0.05,
    };
    // Item 1008 lies in the window the pulse at 1000 opens.
    let (no_change, _) = gr_peak_detector2(&pulses, base, base, (usize::MAX, false));
    assert_eq!(no_change[1000..1020].iter().filter(|&&f| f == 1).count(), 1);
    let first = 1008;
    for (param, value, new) in [
        (
            "look_ahead",
            Pmt::U64(4),
            Peak {
                look_ahead: 4,
                ..base
            },
        ),
        (
            "threshold",
            Pmt::F64(20.0),
            Peak {
                threshold: 20.0,
                ..base
            },
        ),
        ("alpha", Pmt::F64(0.5), Peak { alpha: 0.5, ..base }),
    ] {
        for sched in every_scheduler() {
            let name = format!("{param} on {}", sched.name());
            let mut fg = Flowgraph::new();
            let gate = fg.add(Gate {
                out: StreamOutput::new("out"),
                items: pulses.clone(),
                pos: 0,
                open_until: first,
            });
            let det = fg.add(
                rfgraph_blocks::math::PeakDetector2::new(
                    rfgraph_blocks::math::PeakDetector2Params {
                        threshold: base.threshold,
                        look_ahead: base.look_ahead,
                        alpha: base.alpha,
                    },
                )
                .unwrap(),
            );
            let flags = fg.add(VectorSink::<u8>::new());
            let avgs = fg.add(VectorSink::<f32>::new());
            fg.connect(gate, "out", det, "in").unwrap();
            fg.connect(det, "out0", flags, "in").unwrap();
            fg.connect(det, "out1", avgs, "in").unwrap();
            let running = fg.start(sched).unwrap();
            let handle = running.handle();
            wait_for_items(&handle, det, first as u64);
            assert_eq!(handle.stats()[det.0].items_consumed, first as u64, "{name}");
            handle.call(det, param, value.clone(), CALL).unwrap();
            handle.call(gate, "go", Pmt::Null, CALL).unwrap();
            let done = wait_within(running, WATCHDOG).unwrap();
            let f = done.block::<VectorSink<u8>>(flags).unwrap().items();
            let a = done.block::<VectorSink<f32>>(avgs).unwrap().items();
            // The window opened at or before item 1003 was pending: GNU
            // Radio's loop then stood at its first item.
            let opened = (1000..first)
                .find(|&c| {
                    let (mf, ma) = gr_peak_detector2(&pulses, base, new, (c, true));
                    mf == f && ma == a
                })
                .unwrap_or_else(|| panic!("{name}: not GNU Radio's output for a pending window"));
            assert!(no_change[opened..first].iter().all(|&x| x == 0), "{name}");
            assert!(
                (f != &no_change[..f.len()] || param == "alpha") && f.len() > first + 500,
                "{name}: the change changed nothing"
            );
        }
    }
}
