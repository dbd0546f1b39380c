//! The LDPC codes against GNU Radio 3.10's `gr-fec`: the script
//! `gr_ldpc/reference.py` (run by `/usr/bin/python3`) codes random bits
//! with GNU Radio's LDPC encoders (`ldpc_encoder`, `ldpc_par_mtrx_encoder`
//! of an `ldpc_H_matrix`, `ldpc_gen_mtrx_encoder` of an `ldpc_G_matrix`)
//! and decodes GNU Radio's codewords with Gaussian noise added with its
//! decoders (`ldpc_decoder`'s belief propagation, `ldpc_bit_flip_decoder`)
//! through its extended encoder and decoder, on the alist files in
//! `testdata/ldpc`. Each case here builds the rfgraph block **through the
//! registry** with the same code and compares bit for bit: the coded bits,
//! the decoded bits (so the same bit errors at every noise level). Also:
//! the alist reader never panics on mangled files. Without GNU Radio the
//! comparisons skip with one line, except under `CI=true`, where they
//! fail.

mod common;

use common::RunBounded;
use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph::{Block, Flowgraph, Item, Pmt};
use rfgraph_blocks::fec::ldpc::Alist;
use rfgraph_blocks::{VectorSink, VectorSource};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const PYTHON: &str = rfgraph_testkit::GNURADIO_PYTHON;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ldpc")
}

/// Runs the reference script once per test process; `None` when GNU
/// Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        if !rfgraph_testkit::gnuradio("gr_ldpc", "gnuradio.fec") {
            return None;
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_ldpc");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gr_ldpc/reference.py");
        let out = Command::new(PYTHON)
            .arg(&script)
            .arg(&dir)
            .arg(testdata())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} failed: {}\n{}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        Some(dir)
    })
    .clone()
}

fn load<T: bytemuck::Pod>(path: &Path) -> Vec<T> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
        .chunks_exact(std::mem::size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect()
}

fn cases(dir: &Path, kind: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("cases.json")).unwrap();
    let all: Vec<Value> = serde_json::from_str(&text).unwrap();
    let some: Vec<Value> = all.into_iter().filter(|c| c["kind"] == kind).collect();
    assert!(!some.is_empty(), "no {kind} cases");
    some
}

fn to_pmt(v: &Value) -> Pmt {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(Pmt::I64)
            .unwrap_or_else(|| Pmt::F64(n.as_f64().unwrap())),
        Value::String(s) => Pmt::String(s.clone()),
        other => panic!("no parameter value: {other}"),
    }
}

fn name(case: &Value) -> &str {
    case["name"].as_str().unwrap()
}

/// The case's block, its alist file found in `testdata/ldpc`.
fn build(case: &Value) -> Box<dyn Block> {
    let mut params: BTreeMap<String, Pmt> = case["params"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), to_pmt(v)))
        .collect();
    let file = testdata().join(case["params"]["file"].as_str().unwrap());
    params.insert("file".into(), Pmt::String(file.display().to_string()));
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r.build(case["block"].as_str().unwrap(), params)
        .unwrap_or_else(|e| panic!("{}: {e}", name(case)))
}

fn run<I: Item + Copy>(block: Box<dyn Block>, input: Vec<I>) -> Vec<u8> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input));
    let b = fg.add_boxed("dut", "ldpc", block);
    let sink = fg.add(VectorSink::<u8>::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect(b, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    done.block::<VectorSink<u8>>(sink).unwrap().items().to_vec()
}

fn errors(bits: &[u8], sent: &[u8]) -> usize {
    bits.iter().zip(sent).filter(|(a, b)| a != b).count()
}

fn check<I: Item + Copy + bytemuck::Pod>(dir: &Path, case: &Value) {
    let n = name(case);
    let input: Vec<I> = load(&dir.join(format!("{n}.in")));
    let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
    assert!(!want.is_empty(), "{n}: GNU Radio wrote nothing");
    let got = run(build(case), input);
    assert_eq!(got.len(), want.len(), "{n}: items");
    if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{n}: first difference at {i}: ours {}, GNU Radio {}",
            got[i], want[i]
        );
    }
    if let Some(sent) = case["sent"].as_str() {
        let sent: Vec<u8> = load(&dir.join(sent));
        let (ours, theirs) = (errors(&got, &sent), errors(&want, &sent));
        assert_eq!(ours, theirs, "{n}: bit errors");
        eprintln!(
            "{n}: {ours} bit errors in {} bits, as GNU Radio",
            want.len()
        );
    }
}

/// The H- and G-matrix encoders and GNU Radio's `ldpc_encoder` code
/// random bits into GNU Radio's codewords.
#[test]
fn encoders_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "encoder") {
        check::<u8>(&dir, &case);
    }
}

/// Belief propagation and bit flipping decode clean and noisy codewords
/// into GNU Radio's bits: the same bit errors, the same BER.
#[test]
fn decoders_match_gnu_radio_on_noisy_input() {
    let Some(dir) = reference() else { return };
    let mut noisy_errors = 0;
    for case in cases(&dir, "decoder") {
        check::<f32>(&dir, &case);
        if name(&case).ends_with(".dec8") {
            let sent: Vec<u8> = load(&dir.join(case["sent"].as_str().unwrap()));
            let want: Vec<u8> = load(&dir.join(format!("{}.out", name(&case))));
            noisy_errors += errors(&want, &sent);
        }
    }
    // The noisiest runs do leave errors: the comparison covers failures.
    assert!(noisy_errors > 0);
}

fn alist_text() -> String {
    std::fs::read_to_string(testdata().join("n_0100_k_0042_gap_02.alist")).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Mangled alist files (bytes changed, lines cut or dropped, random
    /// text) give an error or a matrix, never a panic; a matrix read
    /// codes without panicking too.
    #[test]
    fn alist_reader_never_panics(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        cut in any::<prop::sample::Index>(),
        random in "[0-9 \n]{0,200}",
    ) {
        let mut bytes = alist_text().into_bytes();
        for (i, b) in &edits {
            let at = i.index(bytes.len());
            bytes[at] = if b % 2 == 0 { b'0' + b % 10 } else { *b };
        }
        let cut_at = cut.index(bytes.len() + 1);
        for text in [
            String::from_utf8_lossy(&bytes).to_string(),
            String::from_utf8_lossy(&bytes[..cut_at]).to_string(),
            random,
        ] {
            if let Ok(a) = Alist::parse(&text) {
                prop_assert!(a.n >= 1 && a.m >= 1);
                prop_assert_eq!(a.cols.len(), a.n);
                prop_assert_eq!(a.rows.len(), a.m);
            }
        }
    }
}

/// An unreadable or broken file is a parameter error naming the file
/// and line.
#[test]
fn bad_files_are_errors_naming_file_and_line() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_ldpc_bad");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.alist");
    // Line 5 lists column 1's row: 0 is none.
    let mut lines: Vec<String> = alist_text().lines().map(str::to_string).collect();
    lines[4] = "0".into();
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    for (file, want) in [
        (bad.display().to_string(), "line 5".to_string()),
        (
            "/nonexistent/x.alist".to_string(),
            "/nonexistent/x.alist".to_string(),
        ),
    ] {
        let params: BTreeMap<String, Pmt> = [
            ("code".to_string(), Pmt::String("ldpc".into())),
            ("file".to_string(), Pmt::String(file.clone())),
        ]
        .into_iter()
        .collect();
        let err = r
            .build("extended_encoder", params)
            .err()
            .expect("an error")
            .to_string();
        assert!(err.contains(&want) && err.contains("file"), "{err}");
    }
}
