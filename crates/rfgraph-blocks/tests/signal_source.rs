//! `SignalSource` against GNU Radio 3.10's own `sig_source_f`/`sig_source_c`
//! (reference vectors in `tests/data/sig_source/`, written by its
//! `generate.py`) for every waveform, on every scheduler and through
//! random chunk sizes; run-time retuning without a phase jump; limits,
//! settings and parameter errors.

mod common;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::params::ParamValue;
use rfgraph::{
    Block, BoxError, Flowgraph, Item, MessageOutput, ParamType, Pmt, Ports, StreamInput, WorkIo,
};
use rfgraph_blocks::{
    CopyRand, Head, SignalItem, SignalSource, SignalSourceParams, VectorSink, Waveform,
};
use std::f64::consts::TAU;
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sig_source")
}

/// One line of `cases.txt`.
struct Case {
    name: String,
    complex: bool,
    waveform: Waveform,
    sample_rate: f64,
    freq: f64,
    ampl: f64,
    offset: Complex32,
    phase: f64,
    items: usize,
}

impl Case {
    /// The source's parameters for this case.
    fn params(&self) -> SignalSourceParams {
        SignalSourceParams {
            offset: self.offset,
            phase: self.phase,
            items: Some(self.items as u64),
            ..tone(self.sample_rate, self.waveform, self.freq, self.ampl)
        }
    }
}

/// An endless `waveform` source's parameters.
fn tone(
    sample_rate: f64,
    waveform: Waveform,
    frequency: f64,
    amplitude: f64,
) -> SignalSourceParams {
    SignalSourceParams {
        sample_rate,
        waveform,
        frequency,
        amplitude,
        ..Default::default()
    }
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(data_dir().join("cases.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 10, "cases.txt: {line}");
            let num = |i: usize| f[i].parse::<f64>().unwrap();
            Case {
                name: f[0].to_string(),
                complex: f[1] == "c32",
                waveform: f[2].parse().unwrap(),
                sample_rate: num(3),
                freq: num(4),
                ampl: num(5),
                offset: Complex32::new(num(6) as f32, num(7) as f32),
                phase: num(8),
                items: f[9].parse().unwrap(),
            }
        })
        .collect()
}

/// Little-endian `f32`s of a reference file.
fn floats(name: &str) -> Vec<f32> {
    std::fs::read(data_dir().join(name))
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// `source` run to its limit through `CopyRand` (random chunk sizes) on
/// every scheduler: the items of each run.
fn run_everywhere<T: SignalItem>(make: impl Fn() -> SignalSource<T>) -> Vec<(String, Vec<T>)> {
    every_scheduler()
        .into_iter()
        .map(|s| {
            let name = s.name().to_string();
            let mut fg = Flowgraph::new();
            fg.set_buffer_bytes(4096);
            let src = fg.add(make());
            let shuffle = fg.add(CopyRand::<T>::new(97, 11));
            let sink = fg.add(VectorSink::<T>::new());
            fg.chain(&[src, shuffle, sink]).unwrap();
            let done = fg.run_bounded(s).unwrap();
            let items = done.block::<VectorSink<T>>(sink).unwrap().items().to_vec();
            (name, items)
        })
        .collect()
}

/// GNU Radio's `fxpt::float_to_fixed`: radians (as `f32`) to a phase word,
/// folded into `[−π, π)` and truncated, all in `f32` as it computes them.
fn gr_fixed(x: f32) -> u32 {
    use std::f32::consts::{PI, TAU};
    let d = ((x / TAU) as f64 + 0.5).floor() as i32;
    let x = x - d as f32 * TAU;
    (x * 2_147_483_648.0f32 / PI) as i32 as u32
}

/// rfgraph's phase word for `turns` (the NCO's rounding).
fn our_fixed(turns: f64) -> u32 {
    (turns.rem_euclid(1.0) * 4_294_967_296.0).round() as u64 as u32
}

/// Where rfgraph's and GNU Radio's phase words for a case stand apart:
/// GNU Radio rounds the phase step `2π f / fs` and the initial phase
/// through `f32`, so its frequency differs from the exact one by up to a
/// few hundred parts in 2^32 per sample. The two outputs are the same
/// waveform on phases that drift apart linearly; this gives, per item,
/// rfgraph's phase word and the drift in phase-word units.
struct Drift {
    start: u32,
    step: u32,
    start_gap: i64,
    step_gap: i64,
}

impl Drift {
    fn of(case: &Case) -> Self {
        let (start, step) = (
            our_fixed(case.phase / TAU),
            our_fixed(case.freq / case.sample_rate),
        );
        let gr_start = gr_fixed(case.phase as f32);
        let gr_step = gr_fixed((TAU * case.freq / case.sample_rate) as f32);
        Self {
            start,
            step,
            start_gap: gr_start.wrapping_sub(start) as i32 as i64,
            step_gap: gr_step.wrapping_sub(step) as i32 as i64,
        }
    }

    /// rfgraph's phase word of item `n`.
    fn phase(&self, n: usize) -> u32 {
        self.start.wrapping_add(self.step.wrapping_mul(n as u32))
    }

    /// How far GNU Radio's phase word of item `n` is from rfgraph's.
    fn gap(&self, n: usize) -> u64 {
        (self.start_gap + self.step_gap * n as i64).unsigned_abs()
    }

    /// The gap of item `n` in radians.
    fn gap_radians(&self, n: usize) -> f64 {
        self.gap(n) as f64 * TAU / 4_294_967_296.0
    }
}

/// True when item `n`'s phase lies within the drift of a jump of the
/// waveform, where the two may fall on different sides.
fn near_a_jump(case: &Case, drift: &Drift, n: usize) -> bool {
    let q = 1u32 << 30;
    let edges: &[u32] = match (case.waveform, case.complex) {
        (Waveform::Square, false) => &[0, 2 * q],
        (Waveform::Square, true) => &[0, q, 2 * q, 3 * q],
        (Waveform::Sawtooth, false) => &[2 * q],
        (Waveform::Sawtooth, true) => &[2 * q, 3 * q],
        _ => &[],
    };
    let (p, gap) = (drift.phase(n), drift.gap(n));
    // Equal phase words give equal values, jumps included. Otherwise a jump
    // may lie between them; GNU Radio compares the phase after rounding it
    // to `f32` (24 bits), which moves its edges by up to 2^7 words.
    gap > 0
        && edges
            .iter()
            .any(|&e| (p.wrapping_sub(e) as i32).unsigned_abs() as u64 <= gap + 256)
}

/// How close item `n` must be to GNU Radio's. Sine and cosine: GNU Radio
/// interpolates a 1024-entry table (error up to ≈ 5e-6), rfgraph
/// evaluates a polynomial (< 1e-7); the other waveforms use GNU Radio's
/// own formulas. Beyond that only the phase drift (see [`Drift`]) may
/// separate them: no waveform changes faster than `amplitude` per radian
/// except at its jumps (see [`near_a_jump`]).
fn tolerance(case: &Case, drift: &Drift, n: usize) -> f64 {
    let scale = case.ampl.abs().max(1.0);
    let base = match case.waveform {
        Waveform::Sine | Waveform::Cosine => 1e-5 * scale,
        _ => 2e-6 * scale,
    };
    base + case.ampl.abs() * drift.gap_radians(n)
}

/// Checks one item: within [`tolerance`], or near a jump and within the
/// jump's height (returns true then, to count such items).
fn check(case: &Case, drift: &Drift, n: usize, err: f64, what: impl Fn() -> String) -> bool {
    if err <= tolerance(case, drift, n) {
        return false;
    }
    assert!(
        near_a_jump(case, drift, n) && err <= 2.0 * case.ampl.abs() + 1e-5,
        "{}",
        what()
    );
    true
}

#[test]
fn every_waveform_matches_gnu_radio_on_every_scheduler() {
    let cases = cases();
    assert_eq!(cases.len(), 48, "4 parameter sets × 2 types × 6 waveforms");
    for case in &cases {
        let drift = Drift::of(case);
        if case.name.starts_with("exact") {
            assert_eq!(drift.gap(case.items), 0, "{}: exact steps", case.name);
        }
        let mut jumps = 0;
        if case.complex {
            let reference: Vec<Complex32> = floats(&format!("{}.c64", case.name))
                .chunks_exact(2)
                .map(|p| Complex32::new(p[0], p[1]))
                .collect();
            assert_eq!(reference.len(), case.items);
            let runs = run_everywhere(|| SignalSource::<Complex32>::new(case.params()).unwrap());
            for (scheduler, items) in runs {
                assert_eq!(items.len(), case.items, "{} on {scheduler}", case.name);
                for (i, (a, b)) in items.iter().zip(&reference).enumerate() {
                    let err = ((a.re - b.re) as f64)
                        .abs()
                        .max(((a.im - b.im) as f64).abs());
                    jumps += usize::from(check(case, &drift, i, err, || {
                        format!(
                            "{} on {scheduler}, item {i}: {a} vs GNU Radio {b}",
                            case.name
                        )
                    }));
                }
            }
        } else {
            let reference = floats(&format!("{}.f32", case.name));
            assert_eq!(reference.len(), case.items);
            let runs = run_everywhere(|| {
                let offset = case.offset.re.into();
                SignalSource::<f32>::new(SignalSourceParams {
                    offset,
                    ..case.params()
                })
                .unwrap()
            });
            for (scheduler, items) in runs {
                assert_eq!(items.len(), case.items, "{} on {scheduler}", case.name);
                for (i, (a, b)) in items.iter().zip(&reference).enumerate() {
                    let err = ((a - b) as f64).abs();
                    jumps += usize::from(check(case, &drift, i, err, || {
                        format!(
                            "{} on {scheduler}, item {i}: {a} vs GNU Radio {b}",
                            case.name
                        )
                    }));
                }
            }
        }
        // Items on the other side of a jump are rare (4 runs, one per
        // scheduler): the leeway must not hide a wrong waveform.
        assert!(jumps <= 4 * 4, "{}: {jumps} items across a jump", case.name);
    }
}

/// Keeps every item; once it holds `after` items, posts `msg` on its
/// message output `out` (once).
struct PostAfter<T: Item> {
    input: StreamInput<T>,
    out: MessageOutput,
    after: usize,
    msg: Option<Pmt>,
    items: Vec<T>,
}

impl<T: Item> PostAfter<T> {
    fn new(after: usize, msg: Pmt) -> Self {
        Self {
            input: StreamInput::new("in"),
            out: MessageOutput::new("out"),
            after,
            msg: Some(msg),
            items: Vec::new(),
        }
    }
}

impl<T: Item> Block for PostAfter<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.out)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let n = i.len();
        self.items.extend_from_slice(i);
        self.input.consume(n);
        if self.items.len() >= self.after
            && let Some(msg) = self.msg.take()
        {
            self.out.post(msg);
        }
        Ok(())
    }
}

/// Runs `source` into a `PostAfter` that sends `msg` to the source's
/// input `port` after `after` items: the items.
fn retuned<T: SignalItem>(
    scheduler: Box<dyn rfgraph::Scheduler>,
    source: SignalSource<T>,
    after: usize,
    port: &str,
    msg: Pmt,
) -> Vec<T> {
    let mut fg = Flowgraph::new();
    // A small ring: the source runs at most a few thousand items ahead of
    // the sink, so the change lands long before the limit.
    fg.set_buffer_bytes(8192);
    let src = fg.add(source);
    let sink = fg.add(PostAfter::<T>::new(after, msg));
    fg.connect(src, "out", sink, "in").unwrap();
    fg.connect_message(sink, "out", src, port).unwrap();
    let done = fg.run_bounded(scheduler).unwrap();
    done.block::<PostAfter<T>>(sink).unwrap().items.clone()
}

/// The phase step of each sample: `arg(x[n] · conj(x[n−1]))`.
fn steps(x: &[Complex32]) -> Vec<f64> {
    x.windows(2)
        .map(|w| (w[1] * w[0].conj()).arg() as f64)
        .collect()
}

/// A `freq` message mid-stream changes the step between two samples and
/// nothing else: every step is the old or the new one, they switch once,
/// and the magnitude never moves, so the phase is continuous.
#[test]
fn a_freq_message_retunes_without_a_phase_jump() {
    let (rate, f1, f2) = (1e6, 12_345.0, -37_000.0);
    let (w1, w2) = (TAU * f1 / rate, TAU * f2 / rate);
    let (after, total) = (20_000, 200_000);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let source = SignalSource::<Complex32>::new(SignalSourceParams {
            phase: 1.0,
            items: Some(total),
            ..tone(rate, Waveform::Cosine, f1, 0.8)
        })
        .unwrap();
        let x = retuned(s, source, after, "freq", Pmt::F64(f2));
        assert_eq!(x.len(), total as usize, "{name}");
        let steps = steps(&x);
        let switch = steps
            .iter()
            .position(|d| (d - w1).abs() > 1e-4)
            .unwrap_or_else(|| panic!("{name}: the frequency never changed"));
        assert!(
            switch + 1 >= after,
            "{name}: changed at {switch}, before the message"
        );
        for (n, d) in steps.iter().enumerate() {
            let expected = if n < switch { w1 } else { w2 };
            assert!(
                (d - expected).abs() < 1e-4,
                "{name}: step {n} is {d} rad, expected {expected} (switch at {switch})"
            );
        }
        for (n, v) in x.iter().enumerate() {
            assert!(
                (v.norm() - 0.8).abs() < 1e-5,
                "{name}: |x[{n}]| = {}",
                v.norm()
            );
        }
    }
}

/// GNU Radio's `cmd` port (a map of `freq` and `ampl`) and the
/// `amplitude` setting change a real waveform at one item boundary.
#[test]
fn amplitude_and_cmd_messages_apply_from_one_item_on() {
    let (rate, f1) = (48_000.0, 1_000.0);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let source = SignalSource::<f32>::new(SignalSourceParams {
            offset: (-0.5).into(),
            items: Some(100_000),
            ..tone(rate, Waveform::Square, f1, 1.0)
        })
        .unwrap();
        let cmd = Pmt::Map([("ampl".to_string(), Pmt::F64(3.0))].into_iter().collect());
        let x = retuned(s, source, 10_000, "cmd", cmd);
        let high: Vec<usize> = (0..x.len()).filter(|&n| x[n] > 0.0).collect();
        let first_big = x.iter().position(|&v| v == 2.5).expect("amplitude changed");
        assert!(first_big >= 10_000, "{name}");
        for (n, &v) in x.iter().enumerate() {
            let allowed: &[f32] = if n < first_big {
                &[0.5, -0.5]
            } else {
                &[2.5, -0.5]
            };
            assert!(allowed.contains(&v), "{name}: x[{n}] = {v}");
        }
        assert!(
            high.len() > 40_000,
            "{name}: a square wave is high half the time"
        );
    }
}

#[test]
fn an_endless_source_stops_when_head_stops_reading() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src =
            fg.add(SignalSource::<f32>::new(tone(8000.0, Waveform::Sine, 1000.0, 1.0)).unwrap());
        let head = fg.add(Head::<f32>::new(12_345));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, head, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let items = done.block::<VectorSink<f32>>(sink).unwrap().items();
        assert_eq!(items.len(), 12_345, "{name}");
        // sin(2π n/8): 0, √½, 1, √½, 0, …
        assert!(
            (items[2] - 1.0).abs() < 1e-6 && items[4].abs() < 1e-6,
            "{name}"
        );
    }
}

#[test]
fn a_limit_of_zero_produces_nothing_and_finishes() {
    for s in every_scheduler() {
        let mut fg = Flowgraph::new();
        let src = fg.add(
            SignalSource::<Complex32>::new(SignalSourceParams {
                items: Some(0),
                ..tone(1.0, Waveform::Constant, 0.0, 1.0)
            })
            .unwrap(),
        );
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(src, "out", sink, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        assert!(
            done.block::<VectorSink<Complex32>>(sink)
                .unwrap()
                .items()
                .is_empty()
        );
    }
}

/// The value of parameter `name` of `block`.
fn param(block: &mut dyn Block, name: &str) -> Pmt {
    block.params().unwrap().get(name).unwrap()
}

#[test]
fn parameters_are_declared_once_and_set_with_typed_checks() {
    let mut src = SignalSource::<Complex32>::new(tone(1e6, Waveform::Sine, 1e3, 1.0)).unwrap();
    let specs = src.params().unwrap().describe();
    let names: Vec<_> = specs.iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        [
            "sample_rate",
            "waveform",
            "frequency",
            "amplitude",
            "offset",
            "phase",
            "items",
            "type"
        ]
    );
    let settable: Vec<_> = specs
        .iter()
        .filter(|p| p.settable)
        .map(|p| p.name)
        .collect();
    assert_eq!(
        settable,
        [
            "sample_rate",
            "waveform",
            "frequency",
            "amplitude",
            "offset",
            "phase"
        ]
    );
    let freq = &specs[2];
    assert_eq!(
        (freq.ty, freq.unit, freq.aliases.as_slice()),
        (ParamType::Float, "Hz", &["freq"][..])
    );
    assert_eq!(specs[4].ty, ParamType::Complex);

    let set = |src: &mut SignalSource<Complex32>, name: &str, v: Pmt| {
        rfgraph::params::apply(src, name, v)
    };
    set(&mut src, "frequency", Pmt::I64(2000)).unwrap();
    assert_eq!(param(&mut src, "frequency"), Pmt::F64(2000.0));
    set(&mut src, "sample_rate", Pmt::F64(2e6)).unwrap();
    assert_eq!(param(&mut src, "sample_rate"), Pmt::F64(2e6));
    set(&mut src, "offset", Pmt::VecF32(vec![0.5, -1.0])).unwrap();
    assert_eq!(
        param(&mut src, "offset"),
        Complex32::new(0.5, -1.0).to_pmt()
    );
    set(&mut src, "waveform", Pmt::from("triangle")).unwrap();
    assert_eq!(param(&mut src, "waveform"), Pmt::from("triangle"));
    set(&mut src, "phase", Pmt::F64(TAU + 1.0)).unwrap();
    assert!((src.phase() - 1.0).abs() < 1e-9);
    let mut io = WorkIo::default();
    src.handle_message("cmd", Pmt::F64(-5.0), &mut io).unwrap();
    assert_eq!(param(&mut src, "frequency"), Pmt::F64(-5.0));
    let both = Pmt::Map(
        [
            ("freq".to_string(), Pmt::F64(7.0)),
            ("ampl".to_string(), Pmt::F64(0.25)),
        ]
        .into_iter()
        .collect(),
    );
    src.handle_message("cmd", both, &mut io).unwrap();
    assert_eq!(param(&mut src, "frequency"), Pmt::F64(7.0));
    assert_eq!(param(&mut src, "amplitude"), Pmt::F64(0.25));

    // Rejections name the parameter and change nothing.
    let e = set(&mut src, "frequency", Pmt::from("fast")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "parameter `frequency`: expected float, found string \"fast\""
    );
    let e = set(&mut src, "amplitude", Pmt::F64(f64::NAN)).unwrap_err();
    assert!(e.to_string().contains("amplitude"), "{e}");
    let e = set(&mut src, "waveform", Pmt::from("noise")).unwrap_err();
    assert!(e.to_string().contains("noise"), "{e}");
    let e = set(&mut src, "sample_rate", Pmt::F64(0.0)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "parameter `sample_rate`: 0 is out of range: must be > 0"
    );
    let e = set(&mut src, "items", Pmt::U64(3)).unwrap_err();
    assert!(
        e.to_string().contains("not a parameter that can change"),
        "{e}"
    );
    let bad = Pmt::Map(
        [
            ("freq".to_string(), Pmt::F64(9.0)),
            ("gain".to_string(), Pmt::F64(1.0)),
        ]
        .into_iter()
        .collect(),
    );
    let e = src.handle_message("cmd", bad, &mut io).unwrap_err();
    assert!(e.to_string().contains("gain"), "{e}");
    let bad = Pmt::Map(
        [
            ("freq".to_string(), Pmt::F64(9.0)),
            ("ampl".to_string(), Pmt::from("loud")),
        ]
        .into_iter()
        .collect(),
    );
    assert!(src.handle_message("cmd", bad, &mut io).is_err());
    assert_eq!(
        param(&mut src, "frequency"),
        Pmt::F64(7.0),
        "all or nothing"
    );
    assert_eq!(param(&mut src, "amplitude"), Pmt::F64(0.25));
    assert_eq!(param(&mut src, "sample_rate"), Pmt::F64(2e6));

    // A real source takes real offsets only, and a refused change is undone.
    let mut real = SignalSource::<f32>::new(tone(1e6, Waveform::Sine, 1e3, 1.0)).unwrap();
    let e = rfgraph::params::apply(&mut real, "offset", Pmt::VecF32(vec![0.5, -1.0])).unwrap_err();
    assert!(e.to_string().contains("real offset"), "{e}");
    assert_eq!(param(&mut real, "offset"), Pmt::F64(0.0));
}

#[test]
fn constructors_reject_what_cannot_be_generated() {
    let make = |rate: f64, freq: f64, ampl: f64| {
        SignalSource::<f32>::new(tone(rate, Waveform::Sine, freq, ampl))
            .err()
            .unwrap()
            .to_string()
    };
    assert!(make(0.0, 1.0, 1.0).contains("sample_rate"));
    assert!(make(f64::INFINITY, 1.0, 1.0).contains("sample_rate"));
    assert!(make(1.0, f64::NAN, 1.0).contains("frequency"));
    assert!(make(1.0, 0.1, f64::NAN).contains("amplitude"));
    let e = SignalSource::<f32>::new(SignalSourceParams {
        phase: f64::INFINITY,
        ..tone(1.0, Waveform::Sine, 0.1, 1.0)
    })
    .err()
    .unwrap();
    assert!(e.to_string().contains("phase"), "{e}");
    let e = SignalSource::<Complex32>::new(SignalSourceParams {
        offset: Complex32::new(0.0, f32::NAN),
        ..tone(1.0, Waveform::Sine, 0.1, 1.0)
    })
    .err()
    .unwrap();
    assert!(e.to_string().contains("offset"), "{e}");
}
