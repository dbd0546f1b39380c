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

use common::cases::{cases, check_bits, name, params, try_build_with};
use common::compare::bit_errors;
use common::gr_reference::{gr_reference_with, load};
use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph::{Block, Item, Pmt};
use rfgraph_blocks::fec::ldpc::Alist;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ldpc")
}

/// GNU Radio's outputs, written once per test process by
/// `gr_ldpc/reference.py` (given the alist folder); `None` when GNU Radio
/// is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference_with("gr_ldpc", "gnuradio.fec", &[testdata().as_os_str()])
}

fn build(case: &Value) -> Box<dyn Block> {
    let mut params = params(case);
    let file = testdata().join(case["params"]["file"].as_str().unwrap());
    params.insert("file".into(), Pmt::String(file.display().to_string()));
    try_build_with(case, params).unwrap_or_else(|e| panic!("{}: {e}", name(case)))
}

fn check<I: Item>(dir: &Path, case: &Value) {
    let n = name(case);
    let got = check_bits::<I>(dir, case, build(case));
    if let Some(sent) = case["sent"].as_str() {
        let sent: Vec<u8> = load(&dir.join(sent));
        let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
        let (ours, theirs) = (bit_errors(&got, &sent), bit_errors(&want, &sent));
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
            noisy_errors += bit_errors(&want, &sent);
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
