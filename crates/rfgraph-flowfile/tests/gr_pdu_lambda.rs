//! `pdu_lambda` (GNU Radio's `pdu_pdu_lambda`) against GNU Radio 3.10:
//! the script `gr_pdu_lambda/reference.py` (run by `/usr/bin/python3`)
//! applies GNU Radio's block to fixed PDUs with lambdas that read a
//! flowgraph variable `k` and writes inputs and outputs; each case here
//! evaluates the same lambda text with `k` set, binds it as the builder
//! does ([`rfgraph_flowfile::lambda::bind`]), builds `pdu_lambda`
//! **through the standard registry**, posts the input and compares the
//! message out: exact for integers and structure, within a small
//! tolerance for floats. Without GNU Radio the test skips with one line,
//! except under `CI=true`, where it fails. A proptest feeds random
//! messages to compiled lambdas (never a panic).

mod common;

use common::TIMEOUT;
use proptest::prelude::*;
use rfgraph::pmt::Uniform;
use rfgraph::{Flowgraph, Pmt};
use rfgraph_blocks::MessageSink;
use rfgraph_blocks::message::PduLambdaMode;
use rfgraph_flowfile::expr::{Env, Value, eval};
use rfgraph_flowfile::lambda::{bind, compile};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn reference() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        rfgraph_testkit::gnuradio_reference(
            "gr_pdu_lambda",
            "gnuradio.pdu",
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gr_pdu_lambda/reference.py"),
            &Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_pdu_lambda"),
        )
    })
    .clone()
}

/// A message from the script's tagged JSON.
fn decode(j: &Json) -> Pmt {
    let v = &j["v"];
    let ints = || v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap());
    let floats = || v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap());
    let pairs = || {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()])
    };
    match j["t"].as_str().unwrap() {
        "u8" => Pmt::Blob(ints().map(|x| x as u8).collect()),
        "i8" => Pmt::Uniform(Uniform::I8(ints().map(|x| x as i8).collect())),
        "u16" => Pmt::Uniform(Uniform::U16(ints().map(|x| x as u16).collect())),
        "i16" => Pmt::Uniform(Uniform::I16(ints().map(|x| x as i16).collect())),
        "i32" => Pmt::Uniform(Uniform::I32(ints().map(|x| x as i32).collect())),
        "f32" => Pmt::VecF32(floats().map(|x| x as f32).collect()),
        "f64" => Pmt::Uniform(Uniform::F64(floats().collect())),
        "c32" => Pmt::VecComplexF32(pairs().map(|[a, b]| [a as f32, b as f32]).collect()),
        "c64" => Pmt::Uniform(Uniform::C64(pairs().collect())),
        "null" => Pmt::Null,
        "bool" => Pmt::Bool(v.as_bool().unwrap()),
        "long" => Pmt::I64(v.as_i64().unwrap()),
        "double" => Pmt::F64(v.as_f64().unwrap()),
        "complex" => Pmt::Complex([v[0].as_f64().unwrap(), v[1].as_f64().unwrap()]),
        "symbol" => Pmt::String(v.as_str().unwrap().into()),
        "dict" => Pmt::Map(
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, x)| (k.clone(), decode(x)))
                .collect(),
        ),
        "pair" => Pmt::Pair(Box::new((decode(&v[0]), decode(&v[1])))),
        other => panic!("unknown tag {other}"),
    }
}

/// Whether `got` is GNU Radio's `want`: an empty map is GNU Radio's
/// empty dictionary (`()`, null); floats within `1e-4` relative.
fn same(got: &Pmt, want: &Pmt) -> bool {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-4 * (1.0 + b.abs());
    match (got, want) {
        (Pmt::Map(m), Pmt::Null) | (Pmt::Null, Pmt::Map(m)) => m.is_empty(),
        (Pmt::Map(a), Pmt::Map(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Pmt::Pair(a), Pmt::Pair(b)) => same(&a.0, &b.0) && same(&a.1, &b.1),
        (Pmt::VecF32(a), Pmt::VecF32(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| close(f64::from(*x), f64::from(*y)))
        }
        (Pmt::VecComplexF32(a), Pmt::VecComplexF32(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| {
                    close(f64::from(x[0]), f64::from(y[0]))
                        && close(f64::from(x[1]), f64::from(y[1]))
                })
        }
        (Pmt::Uniform(Uniform::F64(a)), Pmt::Uniform(Uniform::F64(b))) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| close(*x, *y))
        }
        (Pmt::F64(a), Pmt::F64(b)) => close(*a, *b),
        _ => got == want,
    }
}

/// Runs `pdu_lambda`, built through the standard registry from
/// `params`, on `msg`: the one message it posts.
fn run(params: BTreeMap<String, Pmt>, msg: Pmt) -> Pmt {
    let block = rfgraph_flowfile::standard::registry()
        .build("pdu_lambda", params)
        .unwrap_or_else(|e| panic!("pdu_lambda: {e}"));
    let mut fg = Flowgraph::new();
    let dut = fg.add_boxed("dut", "pdu_lambda", block);
    let sink = fg.add(MessageSink::new());
    fg.connect_message(dut, "pdu", sink, "in").unwrap();
    let running = fg.start(rfgraph::scheduler::Tpb::new()).unwrap();
    let handle = running.handle();
    handle.post(dut, "pdu", msg).unwrap();
    let deadline = Instant::now() + TIMEOUT;
    while handle.stats()[sink.0].messages_handled < 1 {
        assert!(Instant::now() < deadline, "no message came out");
        std::thread::sleep(Duration::from_millis(2));
    }
    handle.stop();
    let done = running.wait_timeout(TIMEOUT).unwrap();
    let got = done.block::<MessageSink>(sink).unwrap().messages().to_vec();
    assert_eq!(got.len(), 1);
    got[0].clone()
}

#[test]
fn lambdas_give_gnu_radios_pdus() {
    let Some(dir) = reference() else { return };
    let text = std::fs::read_to_string(dir.join("cases.json")).unwrap();
    let cases: Vec<Json> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() >= 20, "the script wrote every case");
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let fn_text = case["fn"].as_str().unwrap();
        let mut env = Env::new();
        let k = &case["k"];
        env.set(
            "k",
            match k.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(k.as_f64().unwrap()),
            },
        );
        let Ok(Value::Function(f)) = eval(fn_text, &env) else {
            panic!("{name}: `{fn_text}` is no function")
        };
        let bound = bind(&f, fn_text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let params: BTreeMap<String, Pmt> = [
            ("fn", Pmt::String(bound)),
            ("metadict", Pmt::from(case["mode"].as_str().unwrap())),
            ("key", Pmt::from(case["key"].as_str().unwrap())),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let got = run(params, decode(&case["input"]));
        let want = decode(&case["output"]);
        assert!(
            same(&got, &want),
            "{name}: ours {got:?}\nGNU Radio {want:?}"
        );
    }
}

#[test]
fn a_lambda_that_is_no_function_is_refused_by_name() {
    let registry = rfgraph_flowfile::standard::registry();
    for bad in [
        "lambda x: (",
        "3",
        "lambda x, y: x",
        "lambda x: np.nothing(x)",
    ] {
        let params: BTreeMap<String, Pmt> = [("fn".to_string(), Pmt::from(bad))].into();
        let e = registry
            .build("pdu_lambda", params)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("function"), "{bad}: {e}");
    }
}

fn message() -> impl Strategy<Value = Pmt> {
    let data = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Pmt::Blob),
        proptest::collection::vec(any::<f32>(), 0..40).prop_map(Pmt::VecF32),
        proptest::collection::vec(any::<[f32; 2]>(), 0..40).prop_map(Pmt::VecComplexF32),
        proptest::collection::vec(any::<i16>(), 0..40).prop_map(|v| Pmt::Uniform(Uniform::I16(v))),
        proptest::collection::vec(any::<u64>(), 0..40).prop_map(|v| Pmt::Uniform(Uniform::U64(v))),
        any::<i64>().prop_map(Pmt::I64),
        any::<f64>().prop_map(Pmt::F64),
        Just(Pmt::Null),
    ];
    (data, any::<i64>()).prop_map(|(d, key)| {
        let meta: BTreeMap<String, Pmt> = [("key".to_string(), Pmt::I64(key))].into();
        Pmt::Pair(Box::new((Pmt::Map(meta), d)))
    })
}

proptest! {
    #[test]
    fn random_messages_never_panic(msg in message(), which in 0usize..9) {
        let texts = [
            "lambda x: x*2",
            "lambda x: x+1",
            "lambda x: -x",
            "lambda x: x / len(x)",
            "lambda x: np.exp(x)",
            "lambda x: np.float32(np.unwrap(np.angle(x[1:]) - np.angle(x[:-1])))",
            "lambda x: x[3] * 1j",
            "lambda x: x ** 2 % 7",
            "lambda x: np.complex64(x) * 300",
        ];
        for mode in [PduLambdaMode::Uvec, PduLambdaMode::Meta, PduLambdaMode::Raw] {
            let f = compile(texts[which], mode).unwrap();
            let data = match &msg { Pmt::Pair(p) => p.1.clone(), _ => Pmt::Null };
            let _ = f(&data);
            let _ = f(&msg);
        }
    }
}

/// A flowfile whose lambda reads the settable variable `k`.
const GRAPH: &str = r#"format = 1
connections = ["lam.pdu => snk.in"]

[variables]
k = { value = 2, settable = true }

[blocks.lam]
kind = "pdu_lambda"
function = "lambda x: x*k"
mode = "uvec"

[blocks.snk]
kind = "message_sink"
"#;

#[test]
fn a_lambda_takes_its_variables_and_follows_their_changes() {
    use rfgraph_flowfile::build::{BuildOptions, build};
    let doc =
        rfgraph_flowfile::toml::parse(GRAPH, std::sync::Arc::new(PathBuf::from("lambda.toml")))
            .unwrap();
    let built = build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &BuildOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let id = |name: &str| built.blocks.iter().find(|b| b.name == name).unwrap().id;
    let (lam, snk) = (id("lam"), id("snk"));
    let mut control = built.control;
    let running = built
        .flowgraph
        .start(rfgraph::scheduler::Tpb::new())
        .unwrap();
    let handle = running.handle();
    let data = |v: &[u8]| rfgraph_blocks::message::pdu(BTreeMap::new(), Pmt::Blob(v.to_vec()));
    handle.post(lam, "pdu", data(&[1, 200])).unwrap();
    let change = control.set(&handle, "k", "3").unwrap();
    assert!(change.failed.is_empty(), "{change}");
    handle.post(lam, "pdu", data(&[1, 200])).unwrap();
    let deadline = Instant::now() + TIMEOUT;
    while handle.stats()[snk.0].messages_handled < 2 {
        assert!(Instant::now() < deadline, "no message came out");
        std::thread::sleep(Duration::from_millis(2));
    }
    handle.stop();
    let done = running.wait_timeout(TIMEOUT).unwrap();
    let got = done.block::<MessageSink>(snk).unwrap().messages().to_vec();
    // numpy's uint8 arithmetic wraps: 200 * 2 = 144, 200 * 3 = 88.
    assert_eq!(got, [data(&[2, 144]), data(&[3, 88])]);

    // A lambda reading a value with no literal form, or that is no
    // lambda, is refused at its place in the file.
    for (bad, says) in [
        ("lambda x: x*v", "reads `v`"),
        ("lambda x: (", "lambda.toml:"),
        ("lambda x: np.fft.fft(x)", "np.fft.fft"),
        ("lambda x: frobnicate(x)", "frobnicate"),
    ] {
        let text = GRAPH
            .replace("lambda x: x*k", bad)
            .replace("[variables]", "[variables]\nv = \"pmt.intern('a')\"");
        let doc =
            rfgraph_flowfile::toml::parse(&text, std::sync::Arc::new(PathBuf::from("lambda.toml")))
                .unwrap();
        let e = build(
            &doc,
            &rfgraph_flowfile::standard::registry(),
            &BuildOptions::default(),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(e.contains(says) && e.contains("lambda.toml:"), "{bad}: {e}");
    }
}
