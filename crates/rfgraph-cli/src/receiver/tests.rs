//! The receiver plumbing: option errors name their option, files and
//! devices resolve to the right rate, frequency and length, and a run
//! delivers every sample on every scheduler with its statistics.

use super::run::run_within;
use super::*;
use clap::Parser;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph_blocks::VectorSink;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Every test graph ends well within this.
const WATCHDOG: Duration = Duration::from_secs(60);

/// A command that takes the shared options, as the receivers do.
#[derive(Parser, Debug)]
struct Cmd {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    run: RunArgs,
}

fn parse(args: &[&str]) -> Result<Cmd, String> {
    Cmd::try_parse_from(std::iter::once("rx").chain(args.iter().copied()))
        .map_err(|e| e.to_string())
}

fn open(args: &[&str]) -> Result<Input, String> {
    let cmd = parse(args)?;
    cmd.input.open().map_err(|e| format!("{e:#}"))
}

/// A scratch directory, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("rfgraph-receiver-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
    fn arg(&self, name: &str) -> String {
        self.path(name).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `n` cf32 samples whose real part counts up.
fn write_cf32(path: &Path, n: usize) {
    let bytes: Vec<u8> = (0..n)
        .flat_map(|i| {
            let mut b = (i as f32).to_le_bytes().to_vec();
            b.extend_from_slice(&0f32.to_le_bytes());
            b
        })
        .collect();
    std::fs::write(path, bytes).unwrap();
}

/// A SigMF recording `base` of `n` cf32 samples with `global` and
/// `capture` fields added.
fn write_sigmf(dir: &Scratch, base: &str, n: usize, global: &str, capture: &str) {
    write_cf32(&dir.path(&format!("{base}.sigmf-data")), n);
    let meta = format!(
        r#"{{"global": {{"core:datatype": "cf32_le", "core:version": "1.0.0"{global}}},
            "captures": [{{"core:sample_start": 0{capture}}}], "annotations": []}}"#
    );
    std::fs::write(dir.path(&format!("{base}.sigmf-meta")), meta).unwrap();
}

#[test]
fn option_errors_name_the_option() {
    for (args, option) in [
        (&["x.cf32", "--scheduler", "fifo"][..], "--scheduler"),
        (&["x.cf32", "--rate", "fast"][..], "--rate"),
        (&["x.cf32", "--device", "driver=dummy"][..], "--device"),
        (
            &["--device", "driver=dummy", "--format", "cu8"][..],
            "--format",
        ),
        (
            &["x.cf32", "--samples", "5", "--duration", "1"][..],
            "--duration",
        ),
        (&[][..], "INPUT"),
    ] {
        let e = parse(args).expect_err(&format!("{args:?} parses"));
        assert!(e.contains(option), "{args:?}: `{option}` not in: {e}");
    }
}

#[test]
fn scheduler_defaults_to_chain_and_stats_take_an_optional_file() {
    let cmd = parse(&["x.cf32"]).unwrap();
    assert_eq!(cmd.run.scheduler, "chain");
    assert_eq!(cmd.run.stats, None);
    // `--stats` before the input does not swallow it.
    let cmd = parse(&["--stats", "x.cf32", "--scheduler", "tpb"]).unwrap();
    assert_eq!(cmd.run.stats.as_deref(), Some(Path::new("-")));
    assert_eq!(cmd.input.input.as_deref(), Some(Path::new("x.cf32")));
    assert_eq!(cmd.run.scheduler, "tpb");
    let cmd = parse(&["x.cf32", "--stats=s.json"]).unwrap();
    assert_eq!(cmd.run.stats.as_deref(), Some(Path::new("s.json")));
}

#[test]
fn a_raw_file_needs_a_rate() {
    let dir = Scratch::new("raw-rate");
    write_cf32(&dir.path("x.cf32"), 10);
    let e = open(&[&dir.arg("x.cf32")]).unwrap_err();
    assert!(e.contains("--rate") && e.contains("x.cf32"), "{e}");
    for bad in ["0", "-1", "inf", "NaN"] {
        let e = open(&[&dir.arg("x.cf32"), &format!("--rate={bad}")]).unwrap_err();
        assert!(e.contains("--rate"), "{bad}: {e}");
    }
    let e = open(&[&dir.arg("x.cf32"), "--rate", "1e6", "--freq", "inf"]).unwrap_err();
    assert!(e.contains("--freq"), "{e}");
    let e = open(&[&dir.arg("x.cf32"), "--rate", "1e6", "--duration", "0"]).unwrap_err();
    assert!(e.contains("--duration"), "{e}");
    let file = dir.arg("x.cf32");
    for flag in [&["--gain", "20"][..], &["--agc"], &["--antenna", "RX2"]] {
        let args: Vec<&str> = [file.as_str(), "--rate", "1e6"]
            .into_iter()
            .chain(flag.iter().copied())
            .collect();
        let e = open(&args).unwrap_err();
        assert!(e.contains(flag[0]) && e.contains("--device"), "{e}");
    }
}

#[test]
fn a_raw_file_takes_its_format_from_the_extension_or_format() {
    let dir = Scratch::new("raw-format");
    write_cf32(&dir.path("x.cf32"), 10);
    let input = open(&[&dir.arg("x.cf32"), "--rate", "2e6", "--freq", "100e6"]).unwrap();
    assert_eq!(input.sample_rate(), 2e6);
    assert_eq!(input.frequency(), Some(100e6));
    assert_eq!(input.samples(), Some(10));
    assert!(input.is_file());
    std::fs::copy(dir.path("x.cf32"), dir.path("x.bin")).unwrap();
    let e = open(&[&dir.arg("x.bin"), "--rate", "1e6"]).unwrap_err();
    assert!(e.contains("--format"), "{e}");
    // 80 bytes are 40 cu8 samples.
    let input = open(&[&dir.arg("x.bin"), "--rate", "1e6", "--format", "cu8"]).unwrap();
    assert_eq!(input.samples(), Some(40));
    let e = open(&[&dir.arg("x.bin"), "--rate", "1e6", "--format", "cx99"]).unwrap_err();
    assert!(e.contains("--format"), "{e}");
    let e = open(&[&dir.arg("x.bin"), "--rate", "1e6", "--format", "f32"]).unwrap_err();
    assert!(e.contains("real samples"), "{e}");
    let e = open(&[&dir.arg("missing.cf32"), "--rate", "1e6"]).unwrap_err();
    assert!(e.contains("missing.cf32"), "{e}");
}

#[test]
fn sigmf_gives_rate_and_frequency() {
    let dir = Scratch::new("sigmf");
    write_sigmf(
        &dir,
        "rec",
        100,
        r#", "core:sample_rate": 2400000.0"#,
        r#", "core:frequency": 1090000000.0"#,
    );
    let input = open(&[&dir.arg("rec.sigmf-meta")]).unwrap();
    assert_eq!(input.sample_rate(), 2.4e6);
    assert_eq!(input.frequency(), Some(1.09e9));
    assert_eq!(input.samples(), Some(100));
    assert!(
        input.describe().contains("1.09 GHz"),
        "{}",
        input.describe()
    );
    // The base name works too.
    assert_eq!(open(&[&dir.arg("rec")]).unwrap().samples(), Some(100));
    for flag in ["--rate", "--freq"] {
        let e = open(&[&dir.arg("rec"), flag, "1e6"]).unwrap_err();
        assert!(e.contains(flag) && e.contains("metadata"), "{e}");
    }
}

#[test]
fn sigmf_without_a_rate_takes_the_option() {
    let dir = Scratch::new("sigmf-norate");
    write_sigmf(&dir, "rec", 10, "", "");
    let e = open(&[&dir.arg("rec")]).unwrap_err();
    assert!(e.contains("--rate"), "{e}");
    let input = open(&[&dir.arg("rec"), "--rate", "1e6", "--freq", "5e6"]).unwrap();
    assert_eq!(input.sample_rate(), 1e6);
    assert_eq!(input.frequency(), Some(5e6));
}

#[test]
fn a_device_needs_frequency_and_rate() {
    let e = open(&["--device", "driver=dummy", "--rate", "1e6"]).unwrap_err();
    assert!(e.contains("--freq"), "{e}");
    let e = open(&["--device", "driver=dummy", "--freq", "1e8"]).unwrap_err();
    assert!(e.contains("--rate"), "{e}");
    let input = open(&["--device", "driver=dummy", "--freq", "1e8", "--rate", "1e6"]).unwrap();
    assert!(!input.is_file());
    assert_eq!(input.samples(), None);
    assert_eq!(input.frequency(), Some(1e8));
    let input = open(&[
        "--device",
        "driver=dummy",
        "--freq",
        "1e8",
        "--rate",
        "1e6",
        "--duration",
        "0.5",
    ])
    .unwrap();
    assert_eq!(input.samples(), Some(500_000));
}

/// Runs `input`'s complex source into a sink on `scheduler`: the samples.
fn collect(input: &Input, run: &RunArgs) -> (Vec<Complex32>, Outcome) {
    let mut fg = Flowgraph::new();
    let src = input.add_complex(&mut fg).unwrap();
    let sink = fg.add_named("sink", VectorSink::<Complex32>::new());
    fg.connect(src.block, Source::PORT, sink, "in").unwrap();
    let outcome = run_within(fg, &src, run, Some(WATCHDOG)).unwrap();
    let items = outcome
        .finished
        .block::<VectorSink<Complex32>>(sink)
        .unwrap()
        .items()
        .to_vec();
    (items, outcome)
}

#[test]
fn a_file_runs_on_every_scheduler_with_statistics() {
    let dir = Scratch::new("run");
    write_cf32(&dir.path("x.cf32"), 50_000);
    let input = open(&[&dir.arg("x.cf32"), "--rate", "1e6"]).unwrap();
    for scheduler in rfgraph::scheduler::SCHEDULERS {
        let stats = dir.path(&format!("{scheduler}.json"));
        let run = RunArgs {
            scheduler: scheduler.to_string(),
            stats: Some(stats.clone()),
            quiet: true,
            stdout_is_product: false,
            control: None,
        };
        let (items, outcome) = collect(&input, &run);
        assert_eq!(items.len(), 50_000, "{scheduler}");
        assert!(
            items.iter().enumerate().all(|(i, x)| x.re == i as f32),
            "{scheduler}"
        );
        assert_eq!(outcome.samples, 50_000, "{scheduler}");
        assert!(!outcome.interrupted);
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        let sink = json
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["block"] == "sink")
            .unwrap_or_else(|| panic!("{scheduler}: no sink in {json}"));
        assert_eq!(sink["items_consumed"], 50_000, "{scheduler}");
    }
}

#[test]
fn limits_cut_files_and_devices() {
    let dir = Scratch::new("limit");
    write_cf32(&dir.path("x.cf32"), 1000);
    write_sigmf(&dir, "rec", 1000, r#", "core:sample_rate": 1000.0"#, "");
    let quiet = RunArgs {
        quiet: true,
        ..RunArgs::default()
    };
    let input = open(&[&dir.arg("x.cf32"), "--rate", "1e3", "--samples", "300"]).unwrap();
    assert_eq!(input.samples(), Some(300));
    let (items, outcome) = collect(&input, &quiet);
    assert_eq!((items.len(), outcome.samples), (300, 300));
    let input = open(&[&dir.arg("rec"), "--duration", "0.25"]).unwrap();
    let (items, outcome) = collect(&input, &quiet);
    assert_eq!((items.len(), outcome.samples), (250, 250));
    assert_eq!(items[249].re, 249.0);
    // More than the file holds: the file's length.
    let input = open(&[&dir.arg("rec"), "--samples", "5000"]).unwrap();
    assert_eq!(input.samples(), Some(1000));
    assert_eq!(collect(&input, &quiet).0.len(), 1000);
    let input = open(&[
        "--device",
        "driver=dummy",
        "--freq",
        "1e8",
        "--rate",
        "1e6",
        "--samples",
        "4096",
    ])
    .unwrap();
    let (items, outcome) = collect(&input, &quiet);
    assert_eq!((items.len(), outcome.samples), (4096, 4096));
}

#[test]
fn cu8_bytes_for_decoders_that_want_them() {
    let dir = Scratch::new("cu8");
    std::fs::write(dir.path("x.cu8"), (0..=255u8).collect::<Vec<_>>()).unwrap();
    let input = open(&[&dir.arg("x.cu8"), "--rate", "2e6", "--samples", "100"]).unwrap();
    let mut fg = Flowgraph::new();
    let src = input.add_cu8(&mut fg).unwrap();
    let sink = fg.add_named("sink", VectorSink::<u8>::new());
    fg.connect(src.block, Source::PORT, sink, "in").unwrap();
    let run = RunArgs {
        quiet: true,
        ..RunArgs::default()
    };
    let outcome = run_within(fg, &src, &run, Some(WATCHDOG)).unwrap();
    let bytes = outcome
        .finished
        .block::<VectorSink<u8>>(sink)
        .unwrap()
        .items();
    assert_eq!(bytes, (0..200u8).collect::<Vec<_>>());
    assert_eq!(outcome.samples, 100);
    write_cf32(&dir.path("x.cf32"), 4);
    let input = open(&[&dir.arg("x.cf32"), "--rate", "2e6"]).unwrap();
    let e = input.add_cu8(&mut Flowgraph::new()).unwrap_err();
    assert!(e.to_string().contains("cu8"), "{e}");
}

#[test]
fn a_failing_graph_is_an_error_naming_the_block() {
    let dir = Scratch::new("fail");
    write_cf32(&dir.path("x.cf32"), 10);
    let input = open(&[&dir.arg("x.cf32"), "--rate", "1e6"]).unwrap();
    let mut fg = Flowgraph::new();
    let src = input.add_complex(&mut fg).unwrap();
    // The file shrinks to half a sample before the run: `init` fails.
    std::fs::write(dir.path("x.cf32"), [0u8; 4]).unwrap();
    let sink = fg.add_named("sink", VectorSink::<Complex32>::new());
    fg.connect(src.block, Source::PORT, sink, "in").unwrap();
    let run = RunArgs {
        quiet: true,
        ..RunArgs::default()
    };
    let e = run_within(fg, &src, &run, Some(WATCHDOG)).err().unwrap();
    assert!(format!("{e:#}").contains("source"), "{e:#}");
}
