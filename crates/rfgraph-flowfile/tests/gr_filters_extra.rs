//! GNU Radio filter blocks that rfgraph maps onto existing registry
//! blocks, against GNU Radio 3.10 itself: the script
//! `gr_filters_extra/reference.py` (run by `/usr/bin/python3`) runs GNU
//! Radio's blocks as their GRC templates make them and writes inputs and
//! outputs; each case here imports the same GRC block through the mapping
//! table (file source → block → vector sink), runs it and compares within
//! float rounding. Without GNU Radio the test skips with one line, except
//! under `CI=true`, where it fails.

use common::grc_text::{block, grc};
use num_complex::Complex32;
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc::{self, LoadOptions};
use rfgraph_testkit::read_items;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

const WATCHDOG: Duration = Duration::from_secs(30);

/// GNU Radio's outputs, written once per test process; `None` when GNU
/// Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        rfgraph_testkit::gnuradio_reference(
            "gr_filters_extra",
            "gnuradio.filter",
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gr_filters_extra/reference.py"),
            &Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_filters_extra"),
        )
    })
    .clone()
}

/// Loads a flowgraph `file source (case.in) → dut → vector sink` of GNU
/// Radio item type `item` (`complex`/`float`), `dut` being GNU Radio
/// block `id` with `params`, and runs it: the sink's items.
fn run_grc<T: rfgraph::Item>(
    dir: &Path,
    case: &str,
    id: &str,
    params: &[(&str, &str)],
    item: &str,
) -> Vec<T> {
    run_with(dir, case, id, params, item, &[])
}

/// [`run_grc`] with more (variable) blocks in the flowgraph.
fn run_with<T: rfgraph::Item>(
    dir: &Path,
    case: &str,
    id: &str,
    params: &[(&str, &str)],
    item: &str,
    more: &[String],
) -> Vec<T> {
    let input = dir.join(format!("{case}.in"));
    let mut blocks = more.to_vec();
    blocks.extend([
        block("samp_rate", "variable", &[("value", "32000")]),
        block(
            "src",
            "blocks_file_source",
            &[
                ("type", item),
                ("file", input.to_str().unwrap()),
                ("repeat", "False"),
                ("vlen", "1"),
                ("begin_tag", "pmt.PMT_NIL"),
                ("offset", "0"),
                ("length", "0"),
            ],
        ),
        block("dut", id, params),
        block("sink", "blocks_vector_sink_x", &[("type", item)]),
    ]);
    let text = grc(
        &blocks,
        &[("src", "0", "dut", "0"), ("dut", "0", "sink", "0")],
    );
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(
        &text,
        Path::new("t.grc"),
        &registry,
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{case}: {e}"));
    let built = build::build(&doc, &registry, &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    let sink = built.blocks.iter().find(|b| b.name == "sink").unwrap().id;
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    done.block::<rfgraph_blocks::VectorSink<T>>(sink)
        .unwrap()
        .items()
        .to_vec()
}

/// Every sample of GNU Radio's `want` matched by `got` within `tol`
/// (scaled by the largest output). GNU Radio's FFT filter leaves its last
/// partial FFT block unfiltered when the stream ends: `got` may go on
/// past `want`, by less than `slack` items.
fn compare<T: Copy + std::fmt::Debug>(
    case: &str,
    got: &[T],
    want: &[T],
    tol: f32,
    slack: usize,
    d: impl Fn(T, T) -> f32,
    mag: impl Fn(T) -> f32,
) {
    assert!(!want.is_empty(), "{case}: GNU Radio wrote nothing");
    assert!(
        got.len() >= want.len() && got.len() - want.len() <= slack,
        "{case}: output length {} (GNU Radio {})",
        got.len(),
        want.len()
    );
    let scale = want.iter().map(|&w| mag(w)).fold(1.0f32, f32::max);
    for (i, (&a, &b)) in got.iter().zip(want).enumerate() {
        assert!(
            d(a, b) <= tol * scale,
            "{case}: sample {i}: ours {a:?}, GNU Radio {b:?}"
        );
    }
}

/// GNU Radio's FFT filter's end-of-stream shortfall, at most.
const FFT_SLACK: usize = 200;

fn close_c(dir: &Path, case: &str, id: &str, params: &[(&str, &str)]) {
    let want: Vec<Complex32> = read_items(&dir.join(format!("{case}.out")));
    let got: Vec<Complex32> = run_grc(dir, case, id, params, "complex");
    let d = |a: Complex32, b: Complex32| (a - b).norm();
    compare(case, &got, &want, 1e-4, FFT_SLACK, d, |a| a.norm());
}

fn close_f(dir: &Path, case: &str, id: &str, params: &[(&str, &str)]) {
    let want: Vec<f32> = read_items(&dir.join(format!("{case}.out")));
    let got: Vec<f32> = run_grc(dir, case, id, params, "float");
    compare(
        case,
        &got,
        &want,
        1e-4,
        FFT_SLACK,
        |a, b| (a - b).abs(),
        f32::abs,
    );
}

/// `filter_fft_rrc_filter`'s parameters as GRC writes them.
#[allow(clippy::too_many_arguments)]
fn rrc_params(
    ty: &'static str,
    decim: &'static str,
    gain: &'static str,
    samp_rate: &'static str,
    sym_rate: &'static str,
    alpha: &'static str,
    ntaps: &'static str,
) -> Vec<(&'static str, &'static str)> {
    vec![
        ("type", ty),
        ("decim", decim),
        ("gain", gain),
        ("samp_rate", samp_rate),
        ("sym_rate", sym_rate),
        ("alpha", alpha),
        ("ntaps", ntaps),
        ("nthreads", "1"),
    ]
}

/// `filter_fft_rrc_filter` (GNU Radio's `fft_filter_xxx` with
/// `firdes.root_raised_cosine` taps) as rfgraph's `fft_filter`: real,
/// complex-with-real-taps and complex-taps types, with decimation, and
/// parameters that are expressions over a flowgraph variable.
#[test]
fn fft_rrc_filter_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    let id = "filter_fft_rrc_filter";
    close_f(
        &dir,
        "rrc_fff",
        id,
        &rrc_params("fff", "1", "1", "8", "1.0", "0.35", "11*8"),
    );
    close_c(
        &dir,
        "rrc_ccf",
        id,
        &rrc_params("ccf", "2", "2", "4", "1", "0.5", "45"),
    );
    close_c(
        &dir,
        "rrc_ccc",
        id,
        &rrc_params("ccc", "3", "0.5", "samp_rate", "samp_rate/8", "0.22", "101"),
    );
}

/// Parameters the flowgraph leaves out take the block's GRC defaults
/// (`gain` 1, `sym_rate` 1.0, `alpha` 0.35).
#[test]
fn fft_rrc_filter_defaults_are_grc_defaults() {
    let text = grc(
        &[
            block("samp_rate", "variable", &[("value", "4")]),
            block(
                "dut",
                "filter_fft_rrc_filter",
                &[("type", "ccc"), ("decim", "1"), ("ntaps", "45")],
            ),
        ],
        &[],
    );
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(
        &text,
        Path::new("t.grc"),
        &registry,
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let dut = doc.block("dut").unwrap();
    assert_eq!(dut.kind, "fft_filter");
    assert_eq!(
        dut.param("taps").unwrap().value,
        rfgraph_flowfile::model::Value::Expr(
            "firdes.root_raised_cosine((1), (samp_rate), (1.0), (0.35), (45))".into()
        )
    );
}

/// A `variable_file_filter_taps` named `taps` reading `file` (GRC's text).
fn taps_loader(file: &str) -> String {
    block(
        "taps",
        "variable_file_filter_taps",
        &[("file", file), ("verbose", "False")],
    )
}

/// `variable_file_filter_taps` (GNU Radio's `filter.file_taps_loader(file,
/// verbose).get_taps()`) as a FIR filter's taps: the example's complex
/// band pass file (found as the example finds it, under
/// `gnuradio-config-info --prefix`) and a real file in the design tool's
/// format, each filtering as GNU Radio's `fir_filter_xxx` with the taps
/// GNU Radio loads.
#[test]
fn file_filter_taps_match_gnu_radio() {
    let Some(dir) = reference() else { return };
    let fir = |ty: &'static str| [("type", ty), ("decim", "1"), ("taps", "taps")];
    let path = |case: &str| std::fs::read_to_string(dir.join(format!("{case}.path"))).ok();
    if let Some(example) = path("file_taps_complex") {
        let name = Path::new(&example).file_name().unwrap().to_str().unwrap();
        let file = format!(
            "subprocess.getoutput(\"gnuradio-config-info --prefix\") + \"/share/gnuradio/examples/filter/{name}\""
        );
        let case = "file_taps_complex";
        let want: Vec<Complex32> = read_items(&dir.join(format!("{case}.out")));
        let got: Vec<Complex32> = run_with(
            &dir,
            case,
            "fir_filter_xxx",
            &fir("ccc"),
            "complex",
            &[taps_loader(&file)],
        );
        let d = |a: Complex32, b: Complex32| (a - b).norm();
        compare(case, &got, &want, 1e-5, 0, d, |a| a.norm());
    }
    let case = "file_taps_real";
    let file = path(case).expect("the real taps file");
    let want: Vec<f32> = read_items(&dir.join(format!("{case}.out")));
    let got: Vec<f32> = run_with(
        &dir,
        case,
        "fir_filter_xxx",
        &fir("fff"),
        "float",
        &[taps_loader(&format!("'{file}'"))],
    );
    compare(case, &got, &want, 1e-5, 0, |a, b| (a - b).abs(), f32::abs);
}

/// Loads a flowgraph of one taps loader reading `file`.
fn load_taps(file: &str) -> Result<rfgraph_flowfile::model::Document, String> {
    let text = grc(&[taps_loader(file)], &[]);
    let registry = rfgraph_flowfile::standard::registry();
    grc::from_str_with(
        &text,
        Path::new("t.grc"),
        &registry,
        &LoadOptions::default(),
    )
    .map_err(|e| e.to_string())
}

/// A missing file, or one without taps, is an error at the `file`
/// parameter (line 8 of the generated file), never a panic.
#[test]
fn bad_taps_files_are_errors_at_the_file_parameter() {
    let missing = common::grc_text::scratch_file("gr_filters_extra", "missing.csv");
    let _ = std::fs::remove_file(&missing);
    let e = load_taps(missing.to_str().unwrap()).unwrap_err();
    assert!(
        e.contains("t.grc:8:") && e.contains("parameters.file"),
        "{e}"
    );
    assert!(e.contains("cannot open"), "{e}");
    for (name, text) in [
        ("params_only.csv", "fs,1000\ngain,1\n"),
        ("bad_tap.csv", "taps,0.5,zero\n"),
        ("blank_line.csv", "taps,0.5\n\n"),
    ] {
        let f = common::grc_text::scratch_file("gr_filters_extra", name);
        std::fs::write(&f, text).unwrap();
        let e = load_taps(f.to_str().unwrap()).unwrap_err();
        assert!(e.contains("t.grc:8:"), "{name}: {e}");
    }
    let ok = common::grc_text::scratch_file("gr_filters_extra", "ok.csv");
    std::fs::write(&ok, "taps,0.5,-0.25\n").unwrap();
    let doc = load_taps(ok.to_str().unwrap()).unwrap();
    let v = doc.variables.iter().find(|v| v.name == "taps").unwrap();
    assert_eq!(
        v.value,
        rfgraph_flowfile::model::Value::Expr("[0.5, -0.25]".into())
    );
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(64))]
    /// Any bytes as a taps file load or fail with an error: never a panic.
    #[test]
    fn any_taps_file_loads_or_errs(
        bytes in proptest::collection::vec(
            proptest::sample::select(b"taps,0123456789.-+eEj()x \n\r".to_vec()),
            0..200,
        ),
        raw in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
    ) {
        let f = common::grc_text::scratch_file("gr_filters_extra", "fuzz.csv");
        for content in [&bytes, &raw] {
            std::fs::write(&f, content).unwrap();
            let _ = load_taps(f.to_str().unwrap());
        }
    }
}
