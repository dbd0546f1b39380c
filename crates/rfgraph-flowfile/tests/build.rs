//! Flowgraph files built through the registry: the same graph from a
//! file and from Rust gives the same output; variables and `--set` reach
//! parameters; hierarchical blocks expand; and every mistake is an error
//! at its file, line and column, naming what is wrong.

mod common;

use common::{registry, run_bounded, scratch, write};
use rfgraph::Flowgraph;
use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph_blocks::{DspBlock, VectorSink, VectorSource};
use rfgraph_dsp::{Fff, Fir};
use rfgraph_flowfile::build::{BuildOptions, Built, build_file};

fn every_scheduler() -> Vec<(&'static str, Box<dyn Scheduler>)> {
    vec![
        ("tpb", Box::new(Tpb::new())),
        ("single", Box::new(Single::new())),
        ("pool", Box::new(Pool::new())),
        ("chain", Box::new(Chain::new())),
    ]
}

const FIR_GRAPH: &str = r#"format = 1
title = "FIR test"
connections = ["src -> fir -> snk"]

[variables]
n = 1000
gain = 0.5
taps = "[gain / 4] * 4"

[blocks.src]
kind = "vector_source"
data = "[float(i % 7) - 3 for_each in range(n)]"

[blocks.fir]
kind = "fir_filter"
taps = "taps"

[blocks.snk]
kind = "vector_sink"
"#;

fn input(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 7) as f32 - 3.0).collect()
}

/// The FIR graph with `data` written out (no comprehensions in
/// expressions).
fn fir_file(dir: &std::path::Path) -> std::path::PathBuf {
    let data = format!(
        "[{}]",
        input(1000)
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let text = FIR_GRAPH.replace(
        "\"[float(i % 7) - 3 for_each in range(n)]\"",
        &format!("\"{data}\""),
    );
    write(dir, "fir.toml", &text)
}

fn sink_items(built: Built, scheduler: Box<dyn Scheduler>) -> Vec<f32> {
    let id = built.blocks.iter().find(|b| b.name == "snk").unwrap().id;
    let done = run_bounded(built.flowgraph, scheduler);
    done.block::<VectorSink<f32>>(id).unwrap().items().to_vec()
}

fn rust_graph(gain: f32, scheduler: Box<dyn Scheduler>) -> Vec<f32> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input(1000)));
    let fir = fg.add(DspBlock::new(Fir::<Fff>::new(&[gain / 4.0; 4]).unwrap()));
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, fir, snk]).unwrap();
    let done = run_bounded(fg, scheduler);
    done.block::<VectorSink<f32>>(snk).unwrap().items().to_vec()
}

#[test]
fn a_file_and_rust_build_the_same_graph_on_every_scheduler() {
    let dir = scratch("same_graph");
    let path = fir_file(&dir);
    for ((name, s1), (_, s2)) in every_scheduler().into_iter().zip(every_scheduler()) {
        let built = build_file(&path, &registry(), &BuildOptions::default()).unwrap();
        assert_eq!(built.title.as_deref(), Some("FIR test"));
        assert_eq!(built.sinks, vec!["snk".to_string()]);
        let from_file = sink_items(built, s1);
        let from_rust = rust_graph(0.5, s2);
        assert_eq!(from_file.len(), 1000, "{name}");
        assert_eq!(from_file, from_rust, "{name}");
    }
}

#[test]
fn set_overrides_reach_parameters_through_variables() {
    let dir = scratch("set_overrides");
    let path = fir_file(&dir);
    let mut opts = BuildOptions::default();
    opts.set("gain=2 * 1.5").unwrap();
    let built = build_file(&path, &registry(), &opts).unwrap();
    let taps = built.variables.iter().find(|v| v.0 == "taps").unwrap();
    assert_eq!(taps.1.to_string(), "[0.75, 0.75, 0.75, 0.75]");
    let got = sink_items(built, Box::new(Tpb::new()));
    assert_eq!(got, rust_graph(3.0, Box::new(Tpb::new())));
    assert_ne!(got, rust_graph(0.5, Box::new(Tpb::new())));

    let mut opts = BuildOptions::default();
    opts.set("gian=2").unwrap();
    let e = build_file(&path, &registry(), &opts).err().unwrap();
    assert_eq!(
        e.to_string(),
        "--set: `gian`: `".to_string()
            + &path.display().to_string()
            + "` has no variable `gian` (did you mean `gain`?)"
    );
}

#[test]
fn settable_variables_name_the_settings_they_reach() {
    let dir = scratch("settable");
    let text = r#"format = 1
connections = ["src -> fir -> snk"]
[variables]
level = { value = 2.0, settable = true, label = "Level" }
g = "level * 2"
[blocks.src]
kind = "vector_source"
data = [1.0, 2.0]
[blocks.fir]
kind = "fir_filter"
taps = "[level]"
gain = "g"
[blocks.snk]
kind = "vector_sink"
"#;
    let path = write(&dir, "g.toml", text);
    let built = build_file(&path, &registry(), &BuildOptions::default()).unwrap();
    assert_eq!(built.settable.len(), 1);
    assert_eq!(built.settable[0].name, "level");
    assert_eq!(
        built.settable[0].reaches,
        vec![
            ("fir".to_string(), "taps".to_string(), false),
            ("fir".to_string(), "gain".to_string(), true)
        ]
    );
}

#[test]
fn hierarchical_blocks_expand_with_parameters_as_variables() {
    let dir = scratch("hier");
    write(
        &dir,
        "smooth.toml",
        r#"format = 1
connections = ["a -> b"]
[variables]
smoothing = 1.0
[blocks.a]
kind = "fir_filter"
taps = "[smoothing / 4] * 4"
[blocks.b]
kind = "fir_filter"
taps = [1.0]
[inputs]
in = "a.in"
[outputs]
out = "b.out"
"#,
    );
    let text = r#"format = 1
connections = ["src -> filt -> snk"]
[variables]
gain = 0.5
[blocks.src]
kind = "vector_source"
data = "[1.0, -1.0, 2.0, 3.0] * 250"
[blocks.filt]
kind = "smooth.toml"
smoothing = "gain"
[blocks.snk]
kind = "vector_sink"
"#;
    let path = write(&dir, "top.toml", text);
    let built = build_file(&path, &registry(), &BuildOptions::default()).unwrap();
    let names: Vec<&str> = built.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, vec!["src", "filt/a", "filt/b", "snk"]);
    let got = sink_items(built, Box::new(Tpb::new()));
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new([1.0f32, -1.0, 2.0, 3.0].repeat(250)));
    let fir = fg.add(DspBlock::new(Fir::<Fff>::new(&[0.125; 4]).unwrap()));
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, fir, snk]).unwrap();
    let done = run_bounded(fg, Tpb::new());
    assert_eq!(got, done.block::<VectorSink<f32>>(snk).unwrap().items());

    // A parameter the sub-file has no variable for.
    let bad = text.replace("smoothing = \"gain\"", "smoothin = \"gain\"");
    let path = write(&dir, "bad.toml", &bad);
    let e = build_file(&path, &registry(), &BuildOptions::default())
        .err()
        .unwrap();
    assert!(e.to_string().ends_with("`blocks.filt.smoothin`: hierarchical block `smooth.toml` has no variable `smoothin` (did you mean `smoothing`?)"), "{e}");
    assert_eq!((e.at.line, e.at.column), (10, 12));
    // A file that includes itself.
    let selfish = write(
        &dir,
        "self.toml",
        "format = 1\n[blocks.x]\nkind = \"self.toml\"\n",
    );
    let e = build_file(&selfish, &registry(), &BuildOptions::default())
        .err()
        .unwrap();
    assert!(e.message.contains("includes itself"), "{e}");
}

/// The error building `text` gives, as `line:col: rest`.
fn error_of(text: &str) -> String {
    let dir = scratch("errors");
    let path = write(&dir, "e.toml", text);
    let e = build_file(&path, &registry(), &BuildOptions::default())
        .err()
        .expect("an error");
    let prefix = format!("{}:", path.display());
    e.to_string()
        .strip_prefix(&prefix)
        .map(str::to_string)
        .unwrap_or(e.to_string())
}

const OK_HEAD: &str = "format = 1\nconnections = [\"src -> fir -> snk\"]\n";
const OK_BLOCKS: &str = "[blocks.src]\nkind = \"vector_source\"\ndata = [1.0]\n[blocks.fir]\nkind = \"fir_filter\"\ntaps = [1.0]\n[blocks.snk]\nkind = \"vector_sink\"\n";

#[test]
fn errors_name_place_key_and_closest_name() {
    // Sanity: the base graph builds.
    let dir = scratch("errors_ok");
    let ok = write(&dir, "ok.toml", &format!("{OK_HEAD}{OK_BLOCKS}"));
    build_file(&ok, &registry(), &BuildOptions::default()).unwrap();

    let unknown_block = format!(
        "{OK_HEAD}{}",
        OK_BLOCKS.replace("\"fir_filter\"", "\"fir_filtr\"")
    );
    assert_eq!(
        error_of(&unknown_block),
        "7:8: `blocks.fir.kind`: unknown block `fir_filtr` (did you mean `fir_filter`?)"
    );
    let unknown_param = format!(
        "{OK_HEAD}{}",
        OK_BLOCKS.replace("taps = [1.0]", "tap = [1.0]")
    );
    assert_eq!(
        error_of(&unknown_param),
        "8:7: `blocks.fir.tap`: block `fir_filter` has no parameter `tap` (did you mean `taps`?)"
    );
    let bad_type = format!(
        "{OK_HEAD}{}",
        OK_BLOCKS.replace("taps = [1.0]", "taps = \"'abc'\"")
    );
    assert_eq!(
        error_of(&bad_type),
        "8:8: `blocks.fir.taps`: expected float vector, found str \"abc\""
    );
    let bad_expr = format!(
        "{OK_HEAD}{}",
        OK_BLOCKS.replace("taps = [1.0]", "taps = \"[1 / (2 - 2)]\"")
    );
    assert_eq!(
        error_of(&bad_expr),
        "8:10: `blocks.fir.taps`: in `[1 / (2 - 2)]`: division by zero"
    );
    let unknown_name = format!(
        "{OK_HEAD}[variables]\nsamp_rate = 1e3\n{}",
        OK_BLOCKS.replace("taps = [1.0]", "taps = \"[samp_rat]\"")
    );
    assert_eq!(
        error_of(&unknown_name),
        "10:10: `blocks.fir.taps`: in `[samp_rat]`: unknown name `samp_rat` (did you mean `samp_rate`?)"
    );
    let missing = format!("{OK_HEAD}{}", OK_BLOCKS.replace("taps = [1.0]\n", ""));
    assert!(
        error_of(&missing).starts_with(
            "6:1: `blocks.fir.taps`: block `fir_filter` needs parameter `taps` (float vector)"
        ),
        "{}",
        error_of(&missing)
    );
    let var_cycle = "format = 1\n[variables]\na = \"b + 1\"\nb = \"c\"\nc = \"a\"\n";
    assert_eq!(
        error_of(var_cycle),
        "3:5: `variables.a`: variables depend on each other in a cycle: a -> b -> c -> a"
    );
}

#[test]
fn connection_errors_name_both_ends() {
    let types = format!(
        "format = 1\nconnections = [\"src -> fir -> snk\", \"z.out -> fir.in\"]\n{OK_BLOCKS}[blocks.z]\nkind = \"null_source\"\ntype = \"c32\"\n"
    );
    assert_eq!(
        error_of(&types),
        "2:37: `connections[1]`: item types differ: `z.out` writes c32 but `fir.in` reads f32"
    );
    let port = format!("format = 1\nconnections = [\"src.output -> fir -> snk\"]\n{OK_BLOCKS}");
    assert_eq!(
        error_of(&port),
        "2:16: `connections[0]`: `src` (vector_source) has no stream output `output`; it has: out"
    );
    let block = format!("format = 1\nconnections = [\"src -> fr -> snk\"]\n{OK_BLOCKS}");
    assert_eq!(
        error_of(&block),
        "2:16: `connections[0]`: no block named `fr` (did you mean `fir`?)"
    );
    let twice =
        format!("format = 1\nconnections = [\"src -> fir -> snk\", \"src -> snk\"]\n{OK_BLOCKS}");
    assert!(
        error_of(&twice).contains("input `snk.in` is already connected (connections[0])"),
        "{}",
        error_of(&twice)
    );
    let cycle = format!(
        "format = 1\nconnections = [\"src -> snk\", \"fir -> f2 -> fir\"]\n{OK_BLOCKS}[blocks.f2]\nkind = \"fir_filter\"\ntaps = [1.0]\n"
    );
    let e = error_of(&cycle);
    assert!(
        e.contains("stream connections form a cycle: fir -> f2 -> fir"),
        "{e}"
    );
    let unconnected = format!("format = 1\nconnections = [\"src -> snk\"]\n{OK_BLOCKS}");
    let e = error_of(&unconnected);
    assert_eq!(
        e,
        "6:1: `blocks.fir`: stream input `in` of block `fir` is not connected"
    );
    let bad_syntax = format!("format = 1\nconnections = [\"src -> \"]\n{OK_BLOCKS}");
    assert_eq!(
        error_of(&bad_syntax),
        "2:24: `connections[0]`: missing a `block.port` here"
    );
}

#[test]
fn file_syntax_errors_have_places() {
    assert_eq!(
        error_of("format = 2\n"),
        "1:10: `format`: this rfgraph reads `format = 1` files"
    );
    assert!(error_of("title = \"x\"\n").starts_with("1:1: `format`: missing"));
    assert_eq!(
        error_of("format = 1\n[blocks.a]\nkind = \"vector_sink\"\noptions = { afinity = [1] }\n"),
        "4:13: `blocks.a.options.afinity`: unknown key `afinity` (known: affinity, buffer_size, blocking, host) (did you mean `affinity`?)"
    );
    assert_eq!(
        error_of("format = 1\n[sheduler]\nname = \"tpb\"\n"),
        "2:2: `sheduler`: unknown key `sheduler` (known: format, title, connections, variables, blocks, scheduler, hosts, links, inputs, outputs) (did you mean `scheduler`?)"
    );
    assert!(
        error_of("format = 1\n[blocks.a\n").starts_with("2:"),
        "{}",
        error_of("format = 1\n[blocks.a\n")
    );
    assert_eq!(
        error_of("format = 1\n[scheduler]\nname = \"chian\"\n"),
        "2:1: `scheduler.name`: unknown scheduler `chian` (known: tpb, single, pool, chain) (did you mean `chain`?)"
    );
}

#[test]
fn a_dry_run_checks_without_constructing() {
    let dir = scratch("dry_run");
    let text = format!(
        "{OK_HEAD}{}",
        OK_BLOCKS.replace("kind = \"vector_sink\"", "kind = \"refuses\"")
    );
    let path = write(&dir, "d.toml", &text);
    let e = build_file(&path, &registry(), &BuildOptions::default())
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .ends_with("d.toml:9:1: `blocks.snk`: block `refuses`: no device here"),
        "{e}"
    );
    let dry = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    let built = build_file(&path, &registry(), &dry).unwrap();
    assert_eq!(built.blocks.len(), 3);
    assert_eq!(built.edges.len(), 2);
    assert!(built.flowgraph.is_empty());
}

/// `rfgraph check` (a dry run) reports an unconnected port as a run would,
/// and leaves the ports a spec marks optional alone.
#[test]
fn a_dry_run_reports_unconnected_ports_except_optional_ones() {
    let dir = scratch("dry_run_unconnected");
    let dry = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    let standard = rfgraph_flowfile::standard::registry();
    let optional = "format = 1\nconnections = [\"src -> split.in\", \"split.out0 -> join.in0\", \"join -> snk\"]\n[blocks.src]\nkind = \"null_source\"\ntype = \"c32\"\n[blocks.split]\nkind = \"complex_to_float\"\n[blocks.join]\nkind = \"float_to_complex\"\n[blocks.snk]\nkind = \"null_sink\"\ntype = \"c32\"\n";
    let path = write(&dir, "optional.toml", optional);
    let built = build_file(&path, &standard, &dry).unwrap();
    assert_eq!(built.edges.len(), 3);
    let missing = optional.replace("\"join -> snk\"", "\"src -> snk\"");
    let path = write(&dir, "missing.toml", &missing);
    let e = build_file(&path, &standard, &dry)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.ends_with(
            "missing.toml:8:1: `blocks.join`: stream output `out` of block `join` is not connected"
        ),
        "{e}"
    );
}

#[test]
fn message_connections_reach_through_hierarchical_ports() {
    let dir = scratch("hier_messages");
    write(
        &dir,
        "talker.toml",
        "format = 1\n[variables]\nword = { text = \"hi\" }\ntimes = 2\n[blocks.b]\nkind = \"burst\"\nmessage = { expr = \"word\" }\ncount = \"times\"\n[outputs]\nsaid = { port = \"b.out\", message = true }\n",
    );
    let text = "format = 1\nconnections = [\"t => snk\", \"t.said => snk2.in\"]\n[blocks.t]\nkind = \"talker.toml\"\ntimes = 3\nword = \"hello\"\n[blocks.snk]\nkind = \"msg_sink\"\n[blocks.snk2]\nkind = \"msg_sink\"\n";
    let path = write(&dir, "top.toml", text);
    for (name, scheduler) in every_scheduler() {
        let built = build_file(&path, &registry(), &BuildOptions::default()).unwrap();
        let ids: Vec<_> = ["snk", "snk2"]
            .iter()
            .map(|n| built.blocks.iter().find(|b| b.name == *n).unwrap().id)
            .collect();
        let done = run_bounded(built.flowgraph, scheduler);
        for id in ids {
            let sink = done.block::<rfgraph_blocks::MessageSink>(id).unwrap();
            assert_eq!(
                sink.messages(),
                vec![rfgraph::Pmt::String("hello".into()); 3].as_slice(),
                "{name}"
            );
        }
    }
    // A stream connection to a message port is refused, naming the ports.
    let bad = text.replace("t.said => snk2.in", "t.said -> snk2.in");
    let path = write(&dir, "bad.toml", &bad);
    let e = build_file(&path, &registry(), &BuildOptions::default())
        .err()
        .unwrap();
    assert!(
        e.to_string().ends_with(
            "`connections[1]`: hierarchical block `t` has no stream output `said` (it has: none)"
        ),
        "{e}"
    );
}

/// A throttled graph whose file sets `[scheduler] max_latency`: the run
/// caps the edges near the throttle from it (and `--max-latency`
/// overrides it); a value that is not a duration is an error at its line.
#[test]
fn max_latency_in_a_file_caps_the_queues_near_a_throttle() {
    const THROTTLED: &str = r#"format = 1
connections = ["src -> thr -> snk"]

[blocks.src]
kind = "null_source"
type = "f32"
items = 400

[blocks.thr]
kind = "throttle"
type = "f32"
sample_rate = 100000.0

[blocks.snk]
kind = "null_sink"
type = "f32"

[scheduler]
max_latency = "10ms"
"#;
    let dir = scratch("max_latency");
    let path = write(&dir, "throttled.toml", THROTTLED);
    for (override_, budget, fill) in [
        (None, std::time::Duration::from_millis(10), 1000),
        (
            Some(std::time::Duration::from_millis(4)),
            std::time::Duration::from_millis(4),
            400,
        ),
    ] {
        let options = BuildOptions {
            max_latency: override_,
            ..BuildOptions::default()
        };
        let standard = rfgraph_flowfile::standard::registry();
        let built = build_file(&path, &standard, &options).unwrap();
        let done = run_bounded(built.flowgraph, Single::new());
        let report = done.latency();
        assert_eq!(report.budget, Some(budget), "{report}");
        assert!(report.set, "{report}");
        // Source → throttle: the throttle pulls on it alone (10 ms of
        // 100 kS/s); throttle → sink: half the budget.
        let caps: Vec<(&str, usize)> = report
            .edges
            .iter()
            .map(|e| (e.writer.as_str(), e.fill))
            .collect();
        assert_eq!(caps, vec![("src", fill), ("thr", fill / 2)], "{report}");
    }
    let bad = THROTTLED.replace("\"10ms\"", "\"ten\"");
    assert_eq!(
        error_of(&bad),
        "19:15: `scheduler.max_latency`: unknown unit `ten` (s, ms, us, ns)"
    );
}
