//! The math, conversion and stream blocks of this crate against GNU Radio
//! 3.10 itself: each case builds a block through the registry, feeds it
//! vectors on every scheduler, and compares what comes out with what the
//! same GNU Radio block gives for the same input
//! (`fixtures/gr_blocks.py`, run by `/usr/bin/python3`). Without GNU Radio
//! the test skips with one line, except under `CI=true`, where it fails.

mod common;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::registry::Registry;
use rfgraph::{BlockId, Finished, Flowgraph, Pmt, Scheduler, Tag};
use rfgraph_blocks::{VectorSink, VectorSource};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = rfgraph_testkit::GNURADIO_PYTHON;

/// Items of one stream, by GNU Radio's item code.
#[derive(Clone, Debug, PartialEq)]
enum Data {
    F(Vec<f32>),
    C(Vec<Complex32>),
    S(Vec<i16>),
    I(Vec<i32>),
    B(Vec<u8>),
}

fn num(x: f32) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        json!(format!("{x}").to_lowercase())
    }
}

fn unnum(v: &Value) -> f32 {
    match v {
        Value::String(s) => s.parse().unwrap(),
        v => v.as_f64().unwrap() as f32,
    }
}

impl Data {
    fn code(&self) -> &'static str {
        match self {
            Data::F(_) => "f",
            Data::C(_) => "c",
            Data::S(_) => "s",
            Data::I(_) => "i",
            Data::B(_) => "b",
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Data::F(v) => v.iter().map(|&x| num(x)).collect(),
            Data::C(v) => v.iter().map(|x| json!([num(x.re), num(x.im)])).collect(),
            Data::S(v) => json!(v),
            Data::I(v) => json!(v),
            Data::B(v) => json!(v),
        }
    }

    fn from_json(code: &str, v: &Value) -> Data {
        let items = v.as_array().unwrap();
        match code {
            "f" => Data::F(items.iter().map(unnum).collect()),
            "c" => Data::C(
                items
                    .iter()
                    .map(|p| Complex32::new(unnum(&p[0]), unnum(&p[1])))
                    .collect(),
            ),
            "s" => Data::S(items.iter().map(|x| x.as_i64().unwrap() as i16).collect()),
            "i" => Data::I(items.iter().map(|x| x.as_i64().unwrap() as i32).collect()),
            "b" => Data::B(
                items
                    .iter()
                    .map(|x| (x.as_i64().unwrap() as i8) as u8)
                    .collect(),
            ),
            other => panic!("unknown code {other}"),
        }
    }

    fn source(&self, fg: &mut Flowgraph, tags: Vec<Tag>) -> BlockId {
        match self {
            Data::F(v) => fg.add(VectorSource::new(v.clone()).with_tags(tags)),
            Data::C(v) => fg.add(VectorSource::new(v.clone()).with_tags(tags)),
            Data::S(v) => fg.add(VectorSource::new(v.clone()).with_tags(tags)),
            Data::I(v) => fg.add(VectorSource::new(v.clone()).with_tags(tags)),
            Data::B(v) => fg.add(VectorSource::new(v.clone()).with_tags(tags)),
        }
    }

    fn sink(code: &str, fg: &mut Flowgraph) -> BlockId {
        match code {
            "f" => fg.add(VectorSink::<f32>::new()),
            "c" => fg.add(VectorSink::<Complex32>::new()),
            "s" => fg.add(VectorSink::<i16>::new()),
            "i" => fg.add(VectorSink::<i32>::new()),
            "b" => fg.add(VectorSink::<u8>::new()),
            other => panic!("unknown code {other}"),
        }
    }

    fn collect(code: &str, done: &Finished, id: BlockId) -> (Data, Tags) {
        fn get<T: rfgraph::Item>(done: &Finished, id: BlockId) -> (Vec<T>, Tags) {
            let sink = done.block::<VectorSink<T>>(id).unwrap();
            let tags = sink
                .tags()
                .iter()
                .map(|t| {
                    let value = match &t.value {
                        Pmt::Bool(b) => b.to_string(),
                        other => format!("{:?}", other.as_f64().unwrap_or(f64::NAN)),
                    };
                    (t.index, t.key.clone(), value)
                })
                .collect();
            (sink.items().to_vec(), tags)
        }
        match code {
            "f" => get(done, id).map_items(Data::F),
            "c" => get(done, id).map_items(Data::C),
            "s" => get(done, id).map_items(Data::S),
            "i" => get(done, id).map_items(Data::I),
            "b" => get(done, id).map_items(Data::B),
            other => panic!("unknown code {other}"),
        }
    }

    /// Where `self` and `other` differ beyond float rounding (relative
    /// `tol`, NaN equal to NaN), or `None`.
    fn mismatch(&self, other: &Data, tol: f32) -> Option<String> {
        let near = |a: f32, b: f32| {
            (a.is_nan() && b.is_nan())
                || a == b
                || (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
        };
        fn first<T: std::fmt::Debug>(
            a: &[T],
            b: &[T],
            eq: impl Fn(&T, &T) -> bool,
        ) -> Option<String> {
            if a.len() != b.len() {
                return Some(format!("{} items vs {}", a.len(), b.len()));
            }
            let i = a.iter().zip(b).position(|(x, y)| !eq(x, y))?;
            Some(format!("at {i}: {:?} vs {:?}", a[i], b[i]))
        }
        match (self, other) {
            (Data::F(a), Data::F(b)) => first(a, b, |&x, &y| near(x, y)),
            (Data::C(a), Data::C(b)) => first(a, b, |x, y| {
                (x.re.is_nan() && y.re.is_nan())
                    || (x - y).norm() <= tol * x.norm().max(y.norm()).max(1.0)
            }),
            (Data::S(a), Data::S(b)) => first(a, b, |x, y| x == y),
            (Data::I(a), Data::I(b)) => first(a, b, |x, y| x == y),
            (Data::B(a), Data::B(b)) => first(a, b, |x, y| x == y),
            (a, b) => Some(format!("{} vs {}", a.code(), b.code())),
        }
    }
}

/// Wraps the items of an (items, tags) pair.
trait MapItems<T> {
    fn map_items(self, f: impl FnOnce(Vec<T>) -> Data) -> (Data, Tags);
}

impl<T> MapItems<T> for (Vec<T>, Tags) {
    fn map_items(self, f: impl FnOnce(Vec<T>) -> Data) -> (Data, Tags) {
        (f(self.0), self.1)
    }
}

/// A tag given to an input: index, key, integer value.
type InputTag = (u64, &'static str, u64);

/// One block run on both runtimes.
struct Case {
    /// The registry name and parameters.
    name: &'static str,
    params: Vec<(&'static str, Pmt)>,
    /// The GNU Radio block, as Python.
    gr: &'static str,
    inputs: Vec<Data>,
    /// Output item codes.
    outputs: Vec<&'static str>,
    /// GNU Radio's vector length on the inputs and on the outputs.
    vlen: usize,
    vlen_out: usize,
    /// Relative tolerance of float outputs.
    tolerance: f32,
    /// Tags on each input (index, key, value); when set, output tags are
    /// compared too.
    tags: Option<Vec<Vec<InputTag>>>,
}

impl Case {
    fn tags(mut self, tags: Vec<Vec<InputTag>>) -> Self {
        self.tags = Some(tags);
        self
    }

    fn tolerance(mut self, tolerance: f32) -> Self {
        self.tolerance = tolerance;
        self
    }

    fn vlen(mut self, vlen: usize) -> Self {
        self.vlen = vlen;
        self.vlen_out = vlen;
        self
    }

    fn vlen_out(mut self, vlen: usize) -> Self {
        self.vlen_out = vlen;
        self
    }
}

fn case(
    name: &'static str,
    params: Vec<(&'static str, Pmt)>,
    gr: &'static str,
    inputs: Vec<Data>,
    outputs: &[&'static str],
) -> Case {
    Case {
        name,
        params,
        gr,
        inputs,
        outputs: outputs.to_vec(),
        vlen: 1,
        vlen_out: 1,
        tolerance: 1e-5,
        tags: None,
    }
}

fn ramp_f(n: usize) -> Vec<f32> {
    (0..n)
        .map(|k| ((k * 37) % 201) as f32 / 10.0 - 10.0)
        .collect()
}

fn ramp_c(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|k| {
            Complex32::new(
                ((k * 37) % 201) as f32 / 10.0 - 10.0,
                ((k * 13) % 97) as f32 / 7.0 - 6.0,
            )
        })
        .collect()
}

fn ramp_s(n: usize) -> Vec<i16> {
    (0..n).map(|k| ((k * 2593) % 65536) as u16 as i16).collect()
}

fn ramp_i(n: usize) -> Vec<i32> {
    (0..n)
        .map(|k| (k as i32 * 7919 - 40_000).wrapping_mul(1013))
        .collect()
}

fn ramp_b(n: usize) -> Vec<u8> {
    (0..n).map(|k| ((k * 37) % 256) as u8).collect()
}

fn cases() -> Vec<Case> {
    use Data::*;
    let n = 5000;
    let odd = vec![
        0.5f32,
        1.5,
        2.5,
        -0.5,
        -1.5,
        127.6,
        -128.7,
        300.0,
        -300.0,
        1e10,
        -1e10,
        f32::NAN,
        40000.0,
    ];
    vec![
        case(
            "add",
            vec![("inputs", Pmt::U64(3))],
            "blocks.add_ff()",
            vec![
                F(ramp_f(n)),
                F(ramp_f(n + 3)[3..].to_vec()),
                F(vec![1.0; n]),
            ],
            &["f"],
        ),
        case(
            "add",
            vec![("type", "c32".into())],
            "blocks.add_cc()",
            vec![C(ramp_c(n)), C(ramp_c(n + 1)[1..].to_vec())],
            &["c"],
        ),
        case(
            "add",
            vec![("type", "i16".into())],
            "blocks.add_ss()",
            vec![S(ramp_s(n)), S(ramp_s(n + 1)[1..].to_vec())],
            &["s"],
        ),
        case(
            "add",
            vec![("type", "i32".into())],
            "blocks.add_ii()",
            vec![I(ramp_i(n)), I(ramp_i(n + 1)[1..].to_vec())],
            &["i"],
        ),
        case(
            "subtract",
            vec![("inputs", Pmt::U64(3))],
            "blocks.sub_ff()",
            vec![
                F(ramp_f(n)),
                F(ramp_f(n + 3)[3..].to_vec()),
                F(vec![1.0; n]),
            ],
            &["f"],
        ),
        case(
            "subtract",
            vec![("type", "i16".into())],
            "blocks.sub_ss()",
            vec![S(ramp_s(n)), S(ramp_s(n + 1)[1..].to_vec())],
            &["s"],
        ),
        case(
            "multiply",
            vec![("type", "c32".into())],
            "blocks.multiply_cc()",
            vec![C(ramp_c(n)), C(ramp_c(n + 1)[1..].to_vec())],
            &["c"],
        ),
        case(
            "multiply",
            vec![("type", "i32".into())],
            "blocks.multiply_ii()",
            vec![I(ramp_i(n)), I(ramp_i(n + 1)[1..].to_vec())],
            &["i"],
        ),
        case(
            "divide",
            vec![],
            "blocks.divide_ff()",
            vec![F(ramp_f(n)), F(ramp_f(n + 5)[5..].to_vec())],
            &["f"],
        ),
        case(
            "multiply_const",
            vec![("constant", Pmt::F64(-2.5))],
            "blocks.multiply_const_ff(-2.5)",
            vec![F(ramp_f(n))],
            &["f"],
        ),
        case(
            "multiply_const",
            vec![
                ("type", "c32".into()),
                ("constant", Pmt::VecComplexF32(vec![[0.5, -2.0]])),
            ],
            "blocks.multiply_const_cc(0.5-2j)",
            vec![C(ramp_c(n))],
            &["c"],
        ),
        case(
            "multiply_const",
            vec![("type", "i16".into()), ("constant", Pmt::I64(300))],
            "blocks.multiply_const_ss(300)",
            vec![S(ramp_s(n))],
            &["s"],
        ),
        case(
            "multiply_const",
            vec![
                ("constant", Pmt::VecF32(vec![1.0, -2.0, 3.0])),
                ("vlen", Pmt::U64(3)),
            ],
            "blocks.multiply_const_vff([1.0, -2.0, 3.0])",
            vec![F(ramp_f(3 * n))],
            &["f"],
        )
        .vlen(3),
        case(
            "add_const",
            vec![("constant", Pmt::F64(0.25))],
            "blocks.add_const_ff(0.25)",
            vec![F(ramp_f(n))],
            &["f"],
        ),
        case(
            "add_const",
            vec![("type", "i32".into()), ("constant", Pmt::I64(-7))],
            "blocks.add_const_ii(-7)",
            vec![I(ramp_i(n))],
            &["i"],
        ),
        case(
            "add_const",
            vec![
                ("type", "c32".into()),
                (
                    "constant",
                    Pmt::List(vec![
                        Pmt::List(vec![Pmt::F64(1.0), Pmt::F64(2.0)]),
                        Pmt::List(vec![Pmt::F64(-1.0), Pmt::F64(0.0)]),
                    ]),
                ),
                ("vlen", Pmt::U64(2)),
            ],
            "blocks.add_const_vcc([1+2j, -1])",
            vec![C(ramp_c(2 * n))],
            &["c"],
        )
        .vlen(2),
        case(
            "complex_to_mag",
            vec![],
            "blocks.complex_to_mag()",
            vec![C(ramp_c(n))],
            &["f"],
        ),
        case(
            "complex_to_mag_squared",
            vec![],
            "blocks.complex_to_mag_squared()",
            vec![C(ramp_c(n))],
            &["f"],
        ),
        case(
            "complex_to_arg",
            vec![],
            "blocks.complex_to_arg()",
            vec![C(ramp_c(n))],
            &["f"],
        ),
        case(
            "complex_to_real",
            vec![],
            "blocks.complex_to_real()",
            vec![C(ramp_c(n))],
            &["f"],
        ),
        case(
            "complex_to_imag",
            vec![],
            "blocks.complex_to_imag()",
            vec![C(ramp_c(n))],
            &["f"],
        ),
        case(
            "complex_to_float",
            vec![],
            "blocks.complex_to_float()",
            vec![C(ramp_c(n))],
            &["f", "f"],
        ),
        case(
            "complex_to_magphase",
            vec![],
            "blocks.complex_to_magphase()",
            vec![C(ramp_c(n))],
            &["f", "f"],
        ),
        case(
            "float_to_complex",
            vec![],
            "blocks.float_to_complex()",
            vec![F(ramp_f(n)), F(ramp_f(n + 2)[2..].to_vec())],
            &["c"],
        ),
        case(
            "magphase_to_complex",
            vec![],
            "blocks.magphase_to_complex()",
            vec![F(ramp_f(n)), F(ramp_f(n + 2)[2..].to_vec())],
            &["c"],
        ),
        case(
            "multiply_conjugate",
            vec![],
            "blocks.multiply_conjugate_cc()",
            vec![C(ramp_c(n)), C(ramp_c(n + 1)[1..].to_vec())],
            &["c"],
        ),
        case(
            "conjugate",
            vec![],
            "blocks.conjugate_cc()",
            vec![C(ramp_c(n))],
            &["c"],
        ),
        case("abs", vec![], "blocks.abs_ff()", vec![F(ramp_f(n))], &["f"]),
        case(
            "abs",
            vec![("type", "i16".into())],
            "blocks.abs_ss()",
            vec![S(ramp_s(n))],
            &["s"],
        ),
        case(
            "nlog10",
            vec![("n", Pmt::F64(20.0)), ("k", Pmt::F64(-3.0))],
            "blocks.nlog10_ff(20, 1, -3)",
            vec![F(ramp_f(n).iter().map(|x| x.abs() + 0.01).collect())],
            &["f"],
        )
        // VOLK's log2 is approximate.
        .tolerance(1e-4),
        case(
            "char_to_float",
            vec![("scale", Pmt::F64(4.0))],
            "blocks.char_to_float(1, 4.0)",
            vec![B(ramp_b(n))],
            &["f"],
        ),
        case(
            "uchar_to_float",
            vec![],
            "blocks.uchar_to_float()",
            vec![B(ramp_b(n))],
            &["f"],
        ),
        case(
            "short_to_float",
            vec![("scale", Pmt::F64(32768.0))],
            "blocks.short_to_float(1, 32768.0)",
            vec![S(ramp_s(n))],
            &["f"],
        ),
        case(
            "int_to_float",
            vec![("scale", Pmt::F64(3.0))],
            "blocks.int_to_float(1, 3.0)",
            vec![I(ramp_i(n))],
            &["f"],
        ),
        case(
            "float_to_char",
            vec![("scale", Pmt::F64(13.0))],
            "blocks.float_to_char(1, 13.0)",
            vec![F(ramp_f(n))],
            &["b"],
        ),
        case(
            "float_to_char",
            vec![],
            "blocks.float_to_char(1, 1.0)",
            vec![F(odd.clone())],
            &["b"],
        ),
        case(
            "float_to_uchar",
            vec![],
            "blocks.float_to_uchar()",
            vec![F(odd.iter().chain(&ramp_f(n)).map(|x| x * 13.0).collect())],
            &["b"],
        ),
        case(
            "float_to_short",
            vec![("scale", Pmt::F64(3000.0))],
            "blocks.float_to_short(1, 3000.0)",
            vec![F(ramp_f(n))],
            &["s"],
        ),
        case(
            "float_to_short",
            vec![],
            "blocks.float_to_short(1, 1.0)",
            vec![F(odd.clone())],
            &["s"],
        ),
        case(
            "float_to_int",
            vec![("scale", Pmt::F64(1e6))],
            "blocks.float_to_int(1, 1e6)",
            vec![F(ramp_f(n))],
            &["i"],
        ),
        case(
            "float_to_int",
            vec![],
            "blocks.float_to_int(1, 1.0)",
            vec![F(odd.clone())],
            &["i"],
        ),
        case(
            "char_to_short",
            vec![],
            "blocks.char_to_short(1)",
            vec![B(ramp_b(n))],
            &["s"],
        ),
        case(
            "short_to_char",
            vec![],
            "blocks.short_to_char(1)",
            vec![S(ramp_s(n))],
            &["b"],
        ),
        case(
            "interleaved_short_to_complex",
            vec![("scale", Pmt::F64(2.0)), ("swap", Pmt::Bool(true))],
            "blocks.interleaved_short_to_complex(False, True, 2.0)",
            vec![S(ramp_s(2 * n))],
            &["c"],
        ),
        case(
            "interleaved_char_to_complex",
            vec![("scale", Pmt::F64(128.0))],
            "blocks.interleaved_char_to_complex(False, 128.0)",
            vec![B(ramp_b(2 * n))],
            &["c"],
        ),
        case(
            "complex_to_interleaved_short",
            vec![("scale", Pmt::F64(3000.0))],
            "blocks.complex_to_interleaved_short(False, 3000.0)",
            vec![C(ramp_c(n))],
            &["s"],
        ),
        case(
            "complex_to_interleaved_char",
            vec![("scale", Pmt::F64(13.0))],
            "blocks.complex_to_interleaved_char(False, 13.0)",
            vec![C(ramp_c(n))],
            &["b"],
        ),
        case(
            "delay",
            vec![("delay", Pmt::U64(7))],
            "blocks.delay(gr.sizeof_float, 7)",
            vec![F(ramp_f(n))],
            &["f"],
        ),
        case(
            "delay",
            vec![("type", "c32".into()), ("delay", Pmt::U64(0))],
            "blocks.delay(gr.sizeof_gr_complex, 0)",
            vec![C(ramp_c(n))],
            &["c"],
        ),
        case(
            "skiphead",
            vec![("type", "i16".into()), ("skip", Pmt::U64(123))],
            "blocks.skiphead(gr.sizeof_short, 123)",
            vec![S(ramp_s(n))],
            &["s"],
        ),
        case(
            "keep_m_in_n",
            vec![
                ("m", Pmt::U64(2)),
                ("n", Pmt::U64(5)),
                ("offset", Pmt::U64(1)),
            ],
            "blocks.keep_m_in_n(gr.sizeof_float, 2, 5, 1)",
            vec![F(ramp_f(n + 3))],
            &["f"],
        ),
        case(
            "keep_one_in_n",
            vec![("type", "u8".into()), ("n", Pmt::U64(3))],
            "blocks.keep_one_in_n(1, 3)",
            vec![B(ramp_b(n + 1))],
            &["b"],
        ),
        case(
            "repeat",
            vec![("type", "c32".into()), ("interpolation", Pmt::U64(3))],
            "blocks.repeat(gr.sizeof_gr_complex, 3)",
            vec![C(ramp_c(n))],
            &["c"],
        ),
        case(
            "stream_mux",
            vec![("lengths", Pmt::VecF32(vec![2.0, 3.0]))],
            "blocks.stream_mux(gr.sizeof_float, [2, 3])",
            vec![F(ramp_f(2000)), F(vec![-1.0; 3000])],
            &["f"],
        ),
        case(
            "stream_demux",
            vec![
                ("type", "i32".into()),
                ("lengths", Pmt::VecF32(vec![2.0, 3.0])),
            ],
            "blocks.stream_demux(gr.sizeof_int, [2, 3])",
            vec![I(ramp_i(5000))],
            &["i", "i"],
        ),
        case(
            "interleave",
            vec![("count", Pmt::U64(3)), ("blocksize", Pmt::U64(4))],
            "blocks.interleave(gr.sizeof_float, 4)",
            vec![F(ramp_f(4000)), F(vec![-1.0; 4000]), F(vec![7.0; 4000])],
            &["f"],
        ),
        case(
            "deinterleave",
            vec![("type", "i16".into()), ("blocksize", Pmt::U64(2))],
            "blocks.deinterleave(gr.sizeof_short, 2)",
            vec![S(ramp_s(4000))],
            &["s", "s"],
        ),
        case(
            "selector",
            vec![("input_index", Pmt::U64(1)), ("output_index", Pmt::U64(0))],
            "blocks.selector(gr.sizeof_float, 1, 0)",
            vec![F(ramp_f(n)), F(vec![2.0; n])],
            &["f"],
        ),
        case(
            "threshold",
            vec![
                ("lo", Pmt::F64(-2.0)),
                ("hi", Pmt::F64(3.0)),
                ("initial_state", Pmt::F64(0.5)),
            ],
            "blocks.threshold_ff(-2.0, 3.0, 0.5)",
            vec![F(ramp_f(n))],
            &["f"],
        ),
        case(
            "rms",
            vec![("alpha", Pmt::F64(0.01))],
            "blocks.rms_ff(0.01)",
            vec![F(ramp_f(n))],
            &["f"],
        )
        .tolerance(1e-4),
        case(
            "rms",
            vec![("type", "c32".into()), ("alpha", Pmt::F64(0.001))],
            "blocks.rms_cf(0.001)",
            vec![C(ramp_c(n))],
            &["f"],
        )
        .tolerance(1e-4),
        case(
            "sample_and_hold",
            vec![],
            "blocks.sample_and_hold_ff()",
            vec![
                F(ramp_f(n)),
                B((0..n).map(|k| ((k / 7) % 2) as u8).collect()),
            ],
            &["f"],
        ),
        case(
            "sample_and_hold",
            vec![("type", "i16".into())],
            "blocks.sample_and_hold_ss()",
            vec![
                S(ramp_s(n)),
                B((0..n).map(|k| ((k / 3) % 3) as u8 * 127).collect()),
            ],
            &["s"],
        ),
        case(
            "integrate",
            vec![("decimation", Pmt::U64(10)), ("vlen", Pmt::U64(2))],
            "blocks.integrate_ff(10, 2)",
            vec![F(ramp_f(2 * n + 6))],
            &["f"],
        )
        .vlen(2),
        case(
            "integrate",
            vec![("type", "c32".into()), ("decimation", Pmt::U64(7))],
            "blocks.integrate_cc(7, 1)",
            vec![C(ramp_c(n))],
            &["c"],
        )
        .tolerance(1e-4),
        case(
            "max",
            vec![("inputs", Pmt::U64(2)), ("vlen", Pmt::U64(4))],
            "blocks.max_ff(4, 1)",
            vec![F(ramp_f(4 * n)), F(ramp_f(4 * n + 9)[9..].to_vec())],
            &["f"],
        )
        .vlen(4)
        .vlen_out(1),
        case(
            "max",
            vec![
                ("type", "i16".into()),
                ("inputs", Pmt::U64(2)),
                ("vlen", Pmt::U64(4)),
                ("vlen_out", Pmt::U64(4)),
            ],
            "blocks.max_ss(4, 4)",
            vec![S(ramp_s(4 * n)), S(ramp_s(4 * n + 9)[9..].to_vec())],
            &["s"],
        )
        .vlen(4),
        case(
            "argmax",
            vec![("inputs", Pmt::U64(2)), ("vlen", Pmt::U64(4))],
            "blocks.argmax_fs(4)",
            vec![F(ramp_f(4 * n)), F(ramp_f(4 * n + 9)[9..].to_vec())],
            &["s", "s"],
        )
        .vlen(4)
        .vlen_out(1),
        case(
            "stream_to_tagged_stream",
            vec![("packet_len", Pmt::U64(7)), ("type", "c32".into())],
            "blocks.stream_to_tagged_stream(gr.sizeof_gr_complex, 1, 7, 'packet_len')",
            vec![C(ramp_c(100))],
            &["c"],
        )
        .tags(vec![vec![(5, "x", 1)]]),
        case(
            "tagged_stream_mux",
            vec![],
            "blocks.tagged_stream_mux(gr.sizeof_float, 'packet_len', 0)",
            vec![F(ramp_f(10)), F(ramp_f(11))],
            &["f"],
        )
        .tags(vec![
            vec![
                (0, "packet_len", 3),
                (3, "packet_len", 5),
                (4, "y", 7),
                (8, "packet_len", 2),
            ],
            vec![
                (0, "packet_len", 4),
                (4, "packet_len", 1),
                (4, "x", 9),
                (5, "packet_len", 6),
                (10, "z", 1),
            ],
        ]),
        case(
            "tagged_stream_mux",
            vec![("type", "i16".into()), ("preserve_head", Pmt::U64(1))],
            "blocks.tagged_stream_mux(gr.sizeof_short, 'packet_len', 1)",
            vec![S(ramp_s(10)), S(ramp_s(11))],
            &["s"],
        )
        .tags(vec![
            vec![
                (0, "packet_len", 3),
                (3, "packet_len", 5),
                (4, "y", 7),
                (8, "packet_len", 2),
            ],
            vec![
                (0, "packet_len", 4),
                (4, "packet_len", 1),
                (4, "x", 9),
                (5, "packet_len", 6),
                (10, "z", 1),
            ],
        ]),
        case(
            "tagged_stream_multiply_length",
            vec![("scalar", Pmt::F64(2.5))],
            "blocks.tagged_stream_multiply_length(gr.sizeof_float, 'packet_len', 2.5)",
            vec![F(ramp_f(10))],
            &["f"],
        )
        .tags(vec![vec![
            (0, "packet_len", 4),
            (2, "x", 3),
            (4, "packet_len", 6),
        ]]),
        case(
            "tag_gate",
            vec![],
            "blocks.tag_gate(gr.sizeof_float, False)",
            vec![F(ramp_f(100))],
            &["f"],
        )
        .tags(vec![vec![(3, "a", 1), (50, "b", 2)]]),
        case(
            "tag_gate",
            vec![("propagate", Pmt::Bool(true))],
            "blocks.tag_gate(gr.sizeof_float, True)",
            vec![F(ramp_f(100))],
            &["f"],
        )
        .tags(vec![vec![(3, "a", 1), (50, "b", 2)]]),
        case(
            "burst_tagger",
            vec![],
            "blocks.burst_tagger(gr.sizeof_float)",
            vec![
                F(ramp_f(n)),
                S((0..n).map(|k| ((k * 7919) % 13) as i16 - 6).collect()),
            ],
            &["f"],
        )
        .tags(vec![vec![]]),
        case(
            "burst_tagger",
            vec![
                ("true_key", "on".into()),
                ("false_key", "off".into()),
                ("false_value", Pmt::Bool(true)),
            ],
            "(lambda b: (b.set_true_tag('on', True), b.set_false_tag('off', True), b)[2])(blocks.burst_tagger(gr.sizeof_float))",
            vec![
                F(ramp_f(n)),
                S((0..n).map(|k| ((k * 7919) % 13) as i16 - 6).collect()),
            ],
            &["f"],
        )
        .tags(vec![vec![]]),
        case(
            "copy",
            vec![("enabled", Pmt::Bool(false))],
            "(lambda b: (b.set_enabled(False), b)[1])(blocks.copy(gr.sizeof_float))",
            vec![F(ramp_f(n))],
            &["f"],
        ),
        case(
            "multiply_by_tag_value",
            vec![("key", "amp".into())],
            "blocks.multiply_by_tag_value_cc('amp', 1)",
            vec![C(ramp_c(n))],
            &["c"],
        )
        .tags(vec![vec![(3, "amp", 2), (7, "amp", 5), (4000, "amp", 0)]]),
        case(
            "patterned_interleaver",
            vec![("pattern", Pmt::VecF32(vec![0.0, 1.0, 1.0, 2.0, 0.0]))],
            "blocks.patterned_interleaver(gr.sizeof_float, [0, 1, 1, 2, 0])",
            vec![F(ramp_f(2000)), F(vec![-1.0; 2000]), F(vec![5.0; 1000])],
            &["f"],
        ),
        case(
            "multiply_matrix",
            vec![("matrix", rows(&[&[1.0, 2.0], &[0.5, -1.0], &[3.0, 0.0]]))],
            "blocks.multiply_matrix_ff([[1, 2], [0.5, -1], [3, 0]])",
            vec![F(ramp_f(n)), F(ramp_f(n + 4)[4..].to_vec())],
            &["f", "f", "f"],
        ),
        case(
            "multiply_matrix",
            vec![
                ("type", "c32".into()),
                ("matrix", rows(&[&[1.0, -2.0, 0.25]])),
            ],
            "blocks.multiply_matrix_cc([[1, -2, 0.25]])",
            vec![
                C(ramp_c(n)),
                C(ramp_c(n + 4)[4..].to_vec()),
                C(vec![Complex32::new(1.0, 1.0); n]),
            ],
            &["c"],
        ),
        case(
            "delay",
            vec![("delay", Pmt::U64(5)), ("vlen", Pmt::U64(3))],
            "blocks.delay(gr.sizeof_float * 3, 5)",
            vec![F(ramp_f(3 * 500))],
            &["f"],
        )
        .vlen(3),
        case(
            "repeat",
            vec![("interpolation", Pmt::U64(3)), ("vlen", Pmt::U64(2))],
            "blocks.repeat(gr.sizeof_float * 2, 3)",
            vec![F(ramp_f(2 * 500))],
            &["f"],
        )
        .vlen(2),
        case(
            "keep_one_in_n",
            vec![("n", Pmt::U64(4)), ("vlen", Pmt::U64(3))],
            "blocks.keep_one_in_n(gr.sizeof_float * 3, 4)",
            vec![F(ramp_f(3 * 501))],
            &["f"],
        )
        .vlen(3),
        case(
            "stream_mux",
            vec![
                ("lengths", Pmt::VecF32(vec![1.0, 2.0])),
                ("vlen", Pmt::U64(2)),
            ],
            "blocks.stream_mux(gr.sizeof_float * 2, [1, 2])",
            vec![F(ramp_f(2 * 300)), F(vec![-1.0; 2 * 600])],
            &["f"],
        )
        .vlen(2),
        case(
            "stream_demux",
            vec![
                ("lengths", Pmt::VecF32(vec![1.0, 2.0])),
                ("vlen", Pmt::U64(2)),
            ],
            "blocks.stream_demux(gr.sizeof_float * 2, [1, 2])",
            vec![F(ramp_f(2 * 900))],
            &["f", "f"],
        )
        .vlen(2),
        case(
            "interleave",
            vec![("blocksize", Pmt::U64(3)), ("vlen", Pmt::U64(2))],
            "blocks.interleave(gr.sizeof_float * 2, 3)",
            vec![F(ramp_f(2 * 300)), F(vec![-1.0; 2 * 300])],
            &["f"],
        )
        .vlen(2),
        case(
            "deinterleave",
            vec![("blocksize", Pmt::U64(3)), ("vlen", Pmt::U64(2))],
            "blocks.deinterleave(gr.sizeof_float * 2, 3)",
            vec![F(ramp_f(2 * 600))],
            &["f", "f"],
        )
        .vlen(2),
        case(
            "patterned_interleaver",
            vec![
                ("pattern", Pmt::VecF32(vec![0.0, 1.0, 0.0])),
                ("vlen", Pmt::U64(2)),
            ],
            "blocks.patterned_interleaver(gr.sizeof_float * 2, [0, 1, 0])",
            vec![F(ramp_f(2 * 400)), F(vec![-1.0; 2 * 200])],
            &["f"],
        )
        .vlen(2),
        case(
            "min",
            vec![("inputs", Pmt::U64(2)), ("vlen", Pmt::U64(4))],
            "blocks.min_ff(4, 1)",
            vec![F(ramp_f(4 * n)), F(ramp_f(4 * n + 9)[9..].to_vec())],
            &["f"],
        )
        .vlen(4)
        .vlen_out(1),
        case(
            "and",
            vec![("type", "u8".into()), ("inputs", Pmt::U64(3))],
            "blocks.and_bb()",
            vec![
                B(ramp_b(n)),
                B(ramp_b(n + 3)[3..].to_vec()),
                B(vec![0x7f; n]),
            ],
            &["b"],
        ),
        case(
            "or",
            vec![("type", "i16".into())],
            "blocks.or_ss()",
            vec![S(ramp_s(n)), S(ramp_s(n + 3)[3..].to_vec())],
            &["s"],
        ),
        case(
            "xor",
            vec![("type", "i32".into())],
            "blocks.xor_ii()",
            vec![I(ramp_i(n)), I(ramp_i(n + 3)[3..].to_vec())],
            &["i"],
        ),
        case(
            "not",
            vec![("type", "i16".into())],
            "blocks.not_ss()",
            vec![S(ramp_s(n))],
            &["s"],
        ),
        case(
            "mute",
            vec![("mute", Pmt::Bool(true))],
            "blocks.mute_ff(True)",
            vec![F(ramp_f(n))],
            &["f"],
        ),
        case(
            "mute",
            vec![("type", "c32".into())],
            "blocks.mute_cc(False)",
            vec![C(ramp_c(n))],
            &["c"],
        ),
        case(
            "transcendental",
            vec![("function", "log10".into())],
            "blocks.transcendental('log10', 'float')",
            vec![F(ramp_f(n).iter().map(|x| x.abs() + 0.5).collect())],
            &["f"],
        )
        .tolerance(1e-4),
        case(
            "transcendental",
            vec![("function", "tanh".into())],
            "blocks.transcendental('tanh', 'float')",
            vec![F(ramp_f(n))],
            &["f"],
        )
        .tolerance(1e-4),
        case(
            "transcendental",
            vec![("type", "c32".into()), ("function", "exp".into())],
            "blocks.transcendental('exp', 'complex_float')",
            vec![C(ramp_c(n).iter().map(|z| z * 0.2).collect())],
            &["c"],
        )
        .tolerance(1e-4),
        case(
            "streams_to_stream",
            vec![("count", Pmt::U64(3))],
            "blocks.streams_to_stream(gr.sizeof_float, 3)",
            vec![F(ramp_f(500)), F(vec![-1.0; 500]), F(vec![2.0; 500])],
            &["f"],
        ),
        case(
            "streams_to_vector",
            vec![("count", Pmt::U64(2))],
            "blocks.streams_to_vector(gr.sizeof_float, 2)",
            vec![F(ramp_f(500)), F(vec![-1.0; 500])],
            &["f"],
        )
        .vlen_out(2),
        case(
            "stream_to_streams",
            vec![("count", Pmt::U64(3))],
            "blocks.stream_to_streams(gr.sizeof_float, 3)",
            vec![F(ramp_f(1500))],
            &["f", "f", "f"],
        ),
        case(
            "vector_to_streams",
            vec![("type", "i16".into()), ("count", Pmt::U64(2))],
            "blocks.vector_to_streams(gr.sizeof_short, 2)",
            vec![S(ramp_s(1000))],
            &["s", "s"],
        )
        .vlen(2)
        .vlen_out(1),
        case(
            "matrix_interleaver",
            vec![("rows", Pmt::U64(3)), ("cols", Pmt::U64(4))],
            "blocks.matrix_interleaver(gr.sizeof_float, 3, 4, False)",
            vec![F(ramp_f(120))],
            &["f"],
        ),
        case(
            "matrix_interleaver",
            vec![
                ("type", "u8".into()),
                ("rows", Pmt::U64(3)),
                ("cols", Pmt::U64(4)),
                ("deinterleave", Pmt::Bool(true)),
                ("vlen", Pmt::U64(2)),
            ],
            "blocks.matrix_interleaver(2, 3, 4, True)",
            vec![B(ramp_b(240))],
            &["b"],
        )
        .vlen(2),
        case(
            "peak_detector2",
            vec![
                ("threshold", Pmt::F64(2.0)),
                ("look_ahead", Pmt::U64(20)),
                ("alpha", Pmt::F64(0.05)),
            ],
            "blocks.peak_detector2_fb(2.0, 20, 0.05)",
            vec![F((0..n)
                .map(|k| {
                    1.0 + if k % 250 < 15 {
                        (k % 250) as f32 * (1.0 + (k / 250 % 3) as f32)
                    } else {
                        0.0
                    }
                })
                .collect())],
            &["b", "f"],
        ),
    ]
}

/// A matrix parameter from rows of numbers.
fn rows(r: &[&[f64]]) -> Pmt {
    Pmt::List(
        r.iter()
            .map(|row| Pmt::List(row.iter().map(|&x| Pmt::F64(x)).collect()))
            .collect(),
    )
}

/// Tags as compared: index, key, value as text (numbers as `f64`).
type Tags = Vec<(u64, String, String)>;

/// What GNU Radio gives for every case: each output's items and tags.
fn gnuradio(cases: &[Case]) -> Option<Vec<Vec<(Data, Tags)>>> {
    if !rfgraph_testkit::gnuradio("gr_blocks", "gnuradio.blocks") {
        return None;
    }
    let request: Vec<Value> = cases
        .iter()
        .map(|c| {
            json!({
                "block": c.gr,
                "inputs": c.inputs.iter().map(|d| json!([d.code(), d.to_json()])).collect::<Vec<_>>(),
                "outputs": c.outputs,
                "vlen": c.vlen,
                "vlen_out": c.vlen_out,
                "tags": c.tags.clone().unwrap_or_default(),
            })
        })
        .collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/gr_blocks.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&request).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{script} failed");
    let results: Vec<Vec<Value>> = serde_json::from_slice(&out.stdout).unwrap();
    Some(
        cases
            .iter()
            .zip(results)
            .map(|(c, r)| {
                c.outputs
                    .iter()
                    .zip(&r)
                    .map(|(code, v)| {
                        let tags = v[1]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|t| {
                                let value = match &t[2] {
                                    Value::Number(x) => format!("{:?}", x.as_f64().unwrap()),
                                    other => other.to_string(),
                                };
                                (
                                    t[0].as_u64().unwrap(),
                                    t[1].as_str().unwrap().to_string(),
                                    value,
                                )
                            })
                            .collect();
                        (Data::from_json(code, &v[0]), tags)
                    })
                    .collect()
            })
            .collect(),
    )
}

fn run_case(registry: &Registry, c: &Case, scheduler: Box<dyn Scheduler>) -> Vec<(Data, Tags)> {
    let params: BTreeMap<String, Pmt> = c
        .params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let block = registry
        .build(c.name, params)
        .unwrap_or_else(|e| panic!("{}: {e}", c.name));
    let mut fg = Flowgraph::new();
    let b = fg.add_boxed("dut", c.name, block);
    for (i, d) in c.inputs.iter().enumerate() {
        let tags = c
            .tags
            .as_ref()
            .and_then(|t| t.get(i))
            .map(|t| {
                t.iter()
                    .map(|&(at, key, v)| Tag::new(at, key, Pmt::U64(v)))
                    .collect()
            })
            .unwrap_or_default();
        let src = d.source(&mut fg, tags);
        let port = if c.inputs.len() == 1 {
            "in".to_string()
        } else {
            format!("in{i}")
        };
        fg.connect(src, "out", b, &port).unwrap();
    }
    let sinks: Vec<BlockId> = c
        .outputs
        .iter()
        .enumerate()
        .map(|(i, code)| {
            let sink = Data::sink(code, &mut fg);
            let port = if c.outputs.len() == 1 && !matches!(c.name, "selector" | "multiply_matrix")
            {
                "out".to_string()
            } else {
                format!("out{i}")
            };
            fg.connect(b, &port, sink, "in").unwrap();
            sink
        })
        .collect();
    let done = fg.run_bounded(scheduler).unwrap();
    c.outputs
        .iter()
        .zip(sinks)
        .map(|(code, id)| Data::collect(code, &done, id))
        .collect()
}

#[test]
fn blocks_give_what_gnu_radio_gives() {
    let cases = cases();
    let Some(expected) = gnuradio(&cases) else {
        return;
    };
    let mut registry = Registry::new();
    registry.extend(rfgraph_blocks::registry::specs());
    for (c, want) in cases.iter().zip(&expected) {
        for scheduler in every_scheduler() {
            let sched = scheduler.name().to_string();
            let got = run_case(&registry, c, scheduler);
            for (port, ((g, gt), (w, wt))) in got.iter().zip(want).enumerate() {
                let tags_differ = || {
                    let mut gt = gt.clone();
                    let mut wt = wt.clone();
                    // Tags on one item come in no fixed order.
                    let order = |a: &(u64, String, String), b: &(u64, String, String)| {
                        (a.0, &a.1).cmp(&(b.0, &b.1))
                    };
                    gt.sort_by(order);
                    wt.sort_by(order);
                    let first = gt.iter().zip(&wt).position(|(a, b)| a != b);
                    (gt != wt).then(|| {
                        format!(
                            "{} tags vs {}, first difference {:?} vs {:?}",
                            gt.len(),
                            wt.len(),
                            first.map(|i| &gt[i]),
                            first.map(|i| &wt[i])
                        )
                    })
                };
                let tag_mismatch = if c.tags.is_some() {
                    tags_differ()
                } else {
                    None
                };
                if let Some(m) = g.mismatch(w, c.tolerance).or(tag_mismatch) {
                    panic!(
                        "{} ({}) on {sched}, output {port}: differs from GNU Radio's {}: {m}",
                        c.name,
                        c.params
                            .iter()
                            .map(|(k, v)| format!("{k}={v:?}"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        c.gr,
                    );
                }
            }
        }
    }
}
