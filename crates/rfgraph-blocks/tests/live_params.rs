//! GNU Radio's callbacks of the recording, generator and resampling
//! blocks, changed through the running flowgraph
//! (`handle.call(block, param, value)`): each change lands between two
//! `work` calls, so the output follows the old parameters up to one item
//! and the new ones from there on; a value the block cannot follow is
//! refused and the run goes on as before.
//!
//! - `file_source`: `path` (GNU Radio's `open`), `repeat`, `begin_tag`;
//! - `file_sink`: `path` (the old file complete), `unbuffered`;
//! - `wavfile_sink`: `path` (the old file a valid WAV file);
//! - `moving_average`: `length` and `scale`;
//! - `rational_resampler`: `taps`; `pfb_arb_resampler`: `taps` and `rate`;
//! - `noise_source`: `amplitude`.

mod common;

use common::{WATCHDOG, every_scheduler, wait_within};
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::{Block, BlockId, Flowgraph, FlowgraphHandle, HandleError, Item, Pmt};
use rfgraph_blocks::{
    FileSink, FileSinkParams, FileSource, FileSourceParams, NoiseKind, NoiseSource, Throttle,
    VectorSink, VectorSource, WavSink, WavSinkParams,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CALL: Duration = Duration::from_secs(20);

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rfgraph-live-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Waits until `block` has consumed more than `items` items.
fn wait_consumed(handle: &FlowgraphHandle, block: BlockId, items: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while handle.stats()[block.0].items_consumed <= items {
        assert!(Instant::now() < deadline, "the graph made no progress");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The registry's block `name` built from `params`.
fn registry_block(name: &str, params: &[(&str, Pmt)]) -> Box<dyn Block> {
    let spec = rfgraph_blocks::registry::specs()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap();
    let given: BTreeMap<String, Pmt> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    spec.build(given).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `values` for ever (throttled) through `block` into a sink; calls
/// `change` once the sink holds `before` items, stops once it holds
/// `before + after`: the sink's items.
fn run_changed<I: Item, O: Item>(
    scheduler: Box<dyn rfgraph::Scheduler>,
    values: Vec<I>,
    block: Box<dyn Block>,
    (before, after): (u64, u64),
    change: impl FnOnce(&FlowgraphHandle, BlockId),
) -> Vec<O> {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(8192);
    let len = values.len() as u64;
    let src = fg.add(VectorSource::new(values).repeat(u64::MAX / len));
    let throttle = fg.add(Throttle::<I>::new(2e6).unwrap());
    let id = fg.add_boxed("block", "block", block);
    let sink = fg.add(VectorSink::<O>::new());
    fg.chain(&[src, throttle, id, sink]).unwrap();
    let running = fg.start(scheduler).unwrap();
    let handle = running.handle();
    wait_consumed(&handle, sink, before);
    change(&handle, id);
    let done_at = handle.stats()[sink.0].items_consumed + after;
    wait_consumed(&handle, sink, done_at);
    handle.stop();
    let done = wait_within(running, WATCHDOG).unwrap();
    done.block::<VectorSink<O>>(sink).unwrap().items().to_vec()
}

/// The index `k` where `got` stops following `old` and follows `new` to
/// the end (`old(n)` and `new(n, k)` give the expected item `n`), at or
/// after `at_least`; fails the test unless there is exactly one such
/// boundary.
fn switch_point<T: Copy + std::fmt::Debug>(
    got: &[T],
    at_least: usize,
    same: impl Fn(T, T) -> bool,
    old: impl Fn(usize) -> T,
    new: impl Fn(usize, usize) -> T,
) -> usize {
    let k = (0..got.len())
        .find(|&n| !same(got[n], old(n)))
        .expect("the change never showed");
    assert!(k >= at_least, "changed at {k}, before the call");
    for (n, &y) in got.iter().enumerate().skip(k) {
        assert!(
            same(y, new(n, k)),
            "item {n}: {y:?}, expected {:?} (the change landed at {k})",
            new(n, k)
        );
    }
    k
}

fn write_f32(path: &Path, values: &[f32]) {
    std::fs::write(path, bytemuck::cast_slice::<f32, u8>(values)).unwrap();
}

fn read_f32(path: &Path) -> Vec<f32> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(
        bytes.len() % 4,
        0,
        "{} holds a partial item",
        path.display()
    );
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// GNU Radio's `open` on a file source: the items switch from one file to
/// the next at one item, the new one plays from its start; a file that
/// cannot be opened is refused and the current one plays on; `repeat`
/// turned off ends the run at the end of the pass under way; the begin tag
/// marks the first item of every pass, old file and new.
#[test]
fn a_file_source_opens_a_new_file_repeats_and_tags_its_passes_while_running() {
    let dir = Scratch::new("file-source");
    let (a, b) = (dir.path("a.f32"), dir.path("b.f32"));
    let va: Vec<f32> = (0..100).map(|v| v as f32).collect();
    let vb: Vec<f32> = (1000..1037).map(|v| v as f32).collect();
    write_f32(&a, &va);
    write_f32(&b, &vb);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let src = FileSource::<f32>::from_params(FileSourceParams {
            repeat: true,
            throttle: Some(500_000.0),
            begin_tag: Some("pass".into()),
            item: ItemKind::F32,
            ..FileSourceParams::new(text(&a))
        })
        .unwrap();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(src);
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        wait_consumed(&handle, sink, 1000);
        assert_eq!(handle.call(src, "path", text(&b), CALL).unwrap(), Pmt::Null);
        // GNU Radio's name for it is an input of its own; a file that is
        // not there is refused, and B plays on.
        let e = handle
            .call(src, "file", text(&dir.path("missing.f32")), CALL)
            .unwrap_err();
        assert!(
            matches!(&e, HandleError::Handler { cause, .. } if cause.contains("missing.f32")),
            "{name}: {e}"
        );
        assert_eq!(
            handle.param(src, "path", CALL).unwrap(),
            Pmt::from(text(&b)),
            "{name}"
        );
        let switched = handle.stats()[sink.0].items_consumed;
        wait_consumed(&handle, sink, switched + 200);
        handle.call(src, "repeat", false, CALL).unwrap();
        // Ends by itself at the end of B's pass under way.
        let done = wait_within(running, WATCHDOG).unwrap();
        let out = done.block::<VectorSink<f32>>(sink).unwrap();
        let items = out.items();
        // A from its start, B from its start at one item.
        let k = switch_point(
            items,
            1000,
            |x, y| x == y,
            |n| va[n % va.len()],
            |n, k| vb[(n - k) % vb.len()],
        );
        assert_eq!((items.len() - k) % vb.len(), 0, "{name}: a whole last pass");
        assert_eq!(*items.last().unwrap(), 1036.0, "{name}");
        // The begin tags: every pass of A before the switch, the switch,
        // every pass of B; the value counts the repeats.
        let tags: Vec<(u64, i64)> = out
            .tags()
            .iter()
            .filter(|t| t.key == "pass")
            .map(|t| match t.value {
                Pmt::I64(v) => (t.index, v),
                ref other => panic!("{name}: begin tag value {other:?}"),
            })
            .collect();
        let k = k as u64;
        let mut want: Vec<(u64, i64)> =
            (0..k).step_by(100).map(|i| (i, (i / 100) as i64)).collect();
        let b_passes = (items.len() as u64 - k) / vb.len() as u64;
        want.extend((0..b_passes).map(|j| (k + j * vb.len() as u64, (k / 100 + j) as i64)));
        assert_eq!(tags, want, "{name}");
    }
}

/// GNU Radio's `open` on a file sink: the items up to one go to the old
/// file, complete, the rest to the new one; `unbuffered` hands every
/// call's items to the file at once (the 256 KiB buffer would hold them).
#[test]
fn a_file_sink_moves_to_a_new_file_and_writes_unbuffered_while_running() {
    let dir = Scratch::new("file-sink");
    let (a, b) = (dir.path("a.f32"), dir.path("b.f32"));
    for s in every_scheduler() {
        let name = s.name().to_string();
        let ramp: Vec<f32> = (0..1 << 16).map(|v| v as f32).collect();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(VectorSource::new(ramp).repeat(1 << 20));
        // 5 000 items (20 kB) a second: the buffer would take 13 s to fill.
        let throttle = fg.add(Throttle::<f32>::new(5_000.0).unwrap());
        let sink = fg.add(
            FileSink::<f32>::from_params(FileSinkParams {
                item: ItemKind::F32,
                ..FileSinkParams::new(text(&a))
            })
            .unwrap(),
        );
        fg.chain(&[src, throttle, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        wait_consumed(&handle, sink, 100);
        assert_eq!(std::fs::metadata(&a).unwrap().len(), 0, "{name}: buffered");
        handle.call(sink, "unbuffered", true, CALL).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::fs::metadata(&a).unwrap().len() == 0 {
            assert!(
                Instant::now() < deadline,
                "{name}: nothing reached the file"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(
            handle.stats()[sink.0].items_consumed < 1 << 16,
            "{name}: the buffer did not fill"
        );
        // A path that cannot be created is refused; the sink writes on.
        let e = handle
            .call(sink, "path", text(&dir.path("no/such/dir.f32")), CALL)
            .unwrap_err();
        assert!(e.to_string().contains("dir.f32"), "{name}: {e}");
        handle.call(sink, "file", text(&b), CALL).unwrap();
        let switched = handle.stats()[sink.0].items_consumed;
        wait_consumed(&handle, sink, switched + 50);
        handle.stop();
        wait_within(running, WATCHDOG).unwrap();
        let (fa, fb) = (read_f32(&a), read_f32(&b));
        assert!(!fa.is_empty() && !fb.is_empty(), "{name}");
        let all: Vec<f32> = fa.iter().chain(&fb).copied().collect();
        for (n, &x) in all.iter().enumerate() {
            assert_eq!(x, n as f32, "{name}: item {n} (a holds {})", fa.len());
        }
    }
}

/// GNU Radio's `open` on a WAV sink: the old file is finished with a valid
/// header holding every frame up to the change, the new one holds the
/// rest.
#[test]
fn a_wav_sink_moves_to_a_new_file_leaving_a_valid_one_while_running() {
    let dir = Scratch::new("wav-sink");
    let (a, b) = (dir.path("a.wav"), dir.path("b.wav"));
    for s in every_scheduler() {
        let name = s.name().to_string();
        let ramp: Vec<f32> = (0..4096).map(|v| v as f32 / 32768.0).collect();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(VectorSource::new(ramp).repeat(1 << 20));
        let throttle = fg.add(Throttle::<f32>::new(200_000.0).unwrap());
        let wav = fg.add(
            WavSink::from_params(WavSinkParams {
                sample_rate: 8000,
                ..WavSinkParams::new(text(&a))
            })
            .unwrap(),
        );
        fg.chain(&[src, throttle]).unwrap();
        fg.connect(throttle, "out", wav, "in0").unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        wait_consumed(&handle, wav, 1000);
        handle.call(wav, "path", text(&b), CALL).unwrap();
        let switched = handle.stats()[wav.0].items_consumed;
        wait_consumed(&handle, wav, switched + 1000);
        handle.stop();
        let done = wait_within(running, WATCHDOG).unwrap();
        let read = |p: &Path| -> Vec<i16> {
            let mut r = hound::WavReader::open(p).unwrap();
            r.samples::<i16>().map(|s| s.unwrap()).collect()
        };
        let (fa, fb) = (read(&a), read(&b));
        assert!(fa.len() >= 1000, "{name}: {}", fa.len());
        let sink = done.block::<WavSink>(wav).unwrap();
        assert_eq!(sink.path(), b.as_path(), "{name}");
        assert_eq!(sink.frames(), fb.len() as u64, "{name}");
        for (n, &x) in fa.iter().chain(&fb).enumerate() {
            assert_eq!(
                x,
                (n % 4096) as i16,
                "{name}: frame {n} (a holds {})",
                fa.len()
            );
        }
    }
}

/// GNU Radio's `set_length_and_scale`: a shorter window from one item on
/// (the samples it keeps are real), then a new scale from one item on.
#[test]
fn a_moving_average_takes_a_new_length_and_scale_while_running() {
    // Every item at least 1: sums of 4, of 2 and half those of 2 differ.
    let x: Vec<f32> = (0..97).map(|v| (1 + (v * 7) % 11) as f32).collect();
    let at = |n: usize| x[n % x.len()];
    let sum = |n: usize, len: usize| -> f32 { (0..len.min(n + 1)).map(|k| at(n - k)).sum() };
    for s in every_scheduler() {
        let name = s.name().to_string();
        let block = registry_block(
            "moving_average",
            &[("length", Pmt::U64(4)), ("type", Pmt::from("f32"))],
        );
        let y: Vec<f32> = run_changed(s, x.clone(), block, (5000, 5000), |h, id| {
            h.call(id, "length", Pmt::U64(2), CALL).unwrap();
            let e = h.call(id, "length", Pmt::U64(0), CALL).unwrap_err();
            assert!(e.to_string().contains("length"), "{e}");
            let now = h.stats()[id.0].items_produced;
            wait_consumed(h, id, now + 3000);
            h.call(id, "scale", 0.5, CALL).unwrap();
        });
        let first = (0..y.len())
            .find(|&n| y[n] != sum(n, 4))
            .expect("the length never changed");
        assert!(first >= 5000, "{name}: changed at {first}");
        let second = (first..y.len())
            .find(|&n| y[n] != sum(n, 2))
            .expect("the scale never changed");
        assert!(second >= first + 3000, "{name}: {first} then {second}");
        for (n, &v) in y.iter().enumerate().skip(second) {
            assert_eq!(v, 0.5 * sum(n, 2), "{name}: item {n}");
        }
    }
}

/// `y[k]` of "insert `l − 1` zeros after each item of `x`, filter with
/// `h`, keep every `m`-th".
fn rational_at(x: impl Fn(usize) -> f32, h: &[f32], l: usize, m: usize, k: usize) -> f32 {
    let pos = k * m;
    (0..h.len())
        .filter(|&j| j <= pos && (pos - j).is_multiple_of(l))
        .map(|j| h[j] * x((pos - j) / l))
        .sum()
}

/// GNU Radio's `set_taps` on a rational resampler: the new taps filter
/// from one output on, over the input history the old ones saw.
#[test]
fn a_rational_resampler_takes_new_taps_while_running() {
    let x: Vec<f32> = (0..101).map(|v| ((v * 13) % 17) as f32 - 8.0).collect();
    let at = |n: usize| x[n % x.len()];
    let h1 = [1.0f32, 0.5, 0.25, 0.125, 0.0625, 0.03125];
    let h2 = [2.0f32, -1.0, 0.5, -0.25, 0.125, -0.0625];
    for s in every_scheduler() {
        let name = s.name().to_string();
        let block = registry_block(
            "rational_resampler",
            &[
                ("interpolation", Pmt::U64(3)),
                ("decimation", Pmt::U64(2)),
                ("taps", Pmt::VecF32(h1.to_vec())),
                ("type", Pmt::from("f32")),
            ],
        );
        // 6000 after: up to a ring of old-tap items (2048 here) is still
        // on its way to the sink when the call returns, and a loaded
        // machine reads the sink's count late.
        let y: Vec<f32> = run_changed(s, x.clone(), block, (3000, 6000), |h, id| {
            h.call(id, "taps", Pmt::VecF32(h2.to_vec()), CALL).unwrap();
            // Complex taps on real items: refused, the filter unchanged.
            let e = h
                .call(id, "taps", Pmt::VecComplexF32(vec![[1.0, 1.0]]), CALL)
                .unwrap_err();
            assert!(e.to_string().contains("complex"), "{e}");
        });
        let close = |a: f32, b: f32| (a - b).abs() < 1e-4;
        let k = switch_point(
            &y,
            3000,
            close,
            |k| rational_at(at, &h1, 3, 2, k),
            |k, _| rational_at(at, &h2, 3, 2, k),
        );
        assert!(
            y.len() >= k + 500,
            "{name}: {} items, the switch at {k}",
            y.len()
        );
    }
}

/// GNU Radio's `set_taps` and `set_rate` on the arbitrary resampler: the
/// outputs follow the new taps from one output on (the same instants), and
/// a new rate moves the instants from one output on, as the kernel's own
/// `set_rate` at that output.
#[test]
fn a_pfb_arb_resampler_takes_new_taps_and_a_new_rate_while_running() {
    use rfgraph_dsp::{ArbitraryResampler, Ccf, Isa};
    let x: Vec<Complex32> = (0..89)
        .map(|v| Complex32::new((0.3 * v as f32).sin(), (0.17 * v as f32).cos()))
        .collect();
    let h1: Vec<f32> = (0..48)
        .map(|k| (0.2 * k as f32).sin() / (1 + k) as f32)
        .collect();
    let h2: Vec<f32> = h1.iter().map(|t| 0.5 * t).collect();
    let reference = |taps: &[f32], rate: f64, outputs: usize| -> Vec<Complex32> {
        let mut r = ArbitraryResampler::<Ccf>::with_taps(rate, 8, taps, Isa::detect()).unwrap();
        let input: Vec<Complex32> = x.iter().cycle().take(outputs * 2 + 64).copied().collect();
        let mut out = vec![Complex32::default(); outputs];
        let (_, n) = r.process(&input, &mut out);
        assert_eq!(n, outputs);
        out
    };
    let close = |a: Complex32, b: Complex32| (a - b).norm() < 1e-4;
    let params = [
        ("rate", Pmt::F64(0.75)),
        ("filters", Pmt::U64(8)),
        ("taps", Pmt::VecF32(h1.clone())),
    ];
    for s in every_scheduler() {
        let name = s.name().to_string();
        let y: Vec<Complex32> = run_changed(
            s,
            x.clone(),
            registry_block("pfb_arb_resampler", &params),
            (2000, 2000),
            |h, id| {
                h.call(id, "taps", Pmt::VecF32(h2.clone()), CALL).unwrap();
            },
        );
        let (r1, r2) = (reference(&h1, 0.75, y.len()), reference(&h2, 0.75, y.len()));
        let k = switch_point(&y, 2000, close, |k| r1[k], |k, _| r2[k]);
        assert!(
            y.len() >= k + 500,
            "{name}: {} items, the switch at {k}",
            y.len()
        );
    }
    // A new rate (by GNU Radio's name, `rrate`): what the kernel's own
    // `set_rate` gives after the outputs before the change.
    for s in every_scheduler() {
        let name = s.name().to_string();
        let y: Vec<Complex32> = run_changed(
            s,
            x.clone(),
            registry_block("pfb_arb_resampler", &params),
            (2000, 2000),
            |h, id| {
                h.call(id, "rrate", 1.6, CALL).unwrap();
                let e = h.call(id, "rate", 0.0, CALL).unwrap_err();
                assert!(e.to_string().contains("rate"), "{e}");
            },
        );
        let r1 = reference(&h1, 0.75, y.len());
        let k = (0..y.len())
            .find(|&k| !close(y[k], r1[k]))
            .expect("the rate never changed");
        assert!(k >= 2000, "{name}: changed at {k}");
        // The instant of the output after a change was set before it: the
        // first output to differ is the second after the change.
        let k = k - 1;
        let mut r = ArbitraryResampler::<Ccf>::with_taps(0.75, 8, &h1, Isa::detect()).unwrap();
        let input: Vec<Complex32> = x.iter().cycle().take(y.len() * 2 + 64).copied().collect();
        let mut want = vec![Complex32::default(); y.len()];
        let (c, p) = r.process(&input, &mut want[..k]);
        assert_eq!(p, k);
        r.set_rate(1.6).unwrap();
        let (_, q) = r.process(&input[c..], &mut want[k..]);
        assert_eq!(p + q, y.len());
        for n in k..y.len() {
            assert!(
                close(y[n], want[n]),
                "{name}: output {n} after the new rate at {k}: {} vs {}",
                y[n],
                want[n]
            );
        }
    }
}

/// GNU Radio's `set_amplitude` on the noise source: from one item on.
#[test]
fn a_noise_source_takes_a_new_amplitude_while_running() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(NoiseSource::<f32>::new(NoiseKind::Uniform, 1.0, 9).unwrap());
        let throttle = fg.add(Throttle::<f32>::new(2e6).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, throttle, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        wait_consumed(&handle, sink, 2000);
        handle.call(src, "amp", 0.0, CALL).unwrap();
        let e = handle.call(src, "amplitude", f64::NAN, CALL).unwrap_err();
        assert!(e.to_string().contains("amplitude"), "{name}: {e}");
        let switched = handle.stats()[sink.0].items_consumed;
        wait_consumed(&handle, sink, switched + 2000);
        handle.stop();
        let done = wait_within(running, WATCHDOG).unwrap();
        let y = done.block::<VectorSink<f32>>(sink).unwrap().items();
        let k = y.iter().rposition(|&v| v != 0.0).map_or(0, |p| p + 1);
        assert!(k >= 2000, "{name}: silent from {k}");
        let loud = y[..k].iter().filter(|v| v.abs() > 1e-3).count();
        assert!(loud > k * 9 / 10, "{name}: {loud} of {k} before the change");
        assert!(y.len() - k >= 1000, "{name}");
    }
}
