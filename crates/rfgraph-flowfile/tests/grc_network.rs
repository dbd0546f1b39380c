//! Paired runs over the network: one end of a connection runs in rfgraph
//! (loaded and run through the library, as `rfgraph run` does) and the
//! other in GNU Radio 3.10 (the Python `grcc` generates from a `.grc`
//! file, run by `/usr/bin/python3`, GUI flowgraphs headless on Qt's
//! offscreen platform); each test checks what arrived on the receiving
//! side: how many items and, where the sender is a plain tone, that they
//! are that tone without a gap.
//!
//! The files: GNU Radio's own examples (`zeromq/zeromq_pushpull.grc`,
//! both ends in one file; `network/test_udp_sink_seq.grc` →
//! `test_udp_source_seq.grc`, port 2001 with sequence numbers;
//! `network/test_tcp_sink_server.grc` → `test_tcp_source.grc`, port
//! 2000), and the pair the README shows, `examples/zeromq/tone_push.grc`
//! and `pull_to_file.grc`, run in both directions. One more test, which
//! needs no GNU Radio, checks how the importer translates the parameter
//! forms of GNU Radio's network and ZeroMQ blocks
//! (`grc/mapping/network.rs`, `zeromq.rs`). Owns nothing but these
//! tests. Every run has a 60 s watchdog; nothing here asserts timing.
//! The paired runs skip with one line when GNU Radio is absent (fail
//! under CI).

use num_complex::Complex32;
use rfgraph::{Running, registry::Registry};
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc::{self, LoadOptions};
use rfgraph_flowfile::model::{Document, ParamValue, Value};
use rfgraph_testkit::skip;
use std::f32::consts::PI;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The most any run (either runtime's) may take.
const WATCHDOG: Duration = Duration::from_secs(60);

/// GNU Radio's examples.
const GR_EXAMPLES: &str = "/usr/share/gnuradio/examples";

/// The repository's ZeroMQ example pair (the README's).
fn repo_example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/zeromq")
        .join(name)
}

/// A scratch directory of its own for `test`.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("rfgraph-grc-network-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// True when GNU Radio 3.10 with `module` and `grcc` are here; otherwise
/// the test is skipped (a failure under CI).
fn have_gnuradio(test: &str, module: &str) -> bool {
    if !rfgraph_testkit::gnuradio(test, module) {
        return false;
    }
    if Command::new("grcc").arg("--help").output().is_err() {
        skip(test, "grcc is missing (apt-get install gnuradio)");
        return false;
    }
    true
}

/// One GNU Radio flowgraph running as a child process, killed when
/// dropped (the GUI ones never end on their own).
struct GnuRadio {
    child: Child,
    log: PathBuf,
}

impl GnuRadio {
    /// Compiles `grc` with `grcc` into `dir` and starts the Python with
    /// `args`, in `dir` (where relative file names land).
    fn start(grc: &Path, args: &[&str], dir: &Path) -> GnuRadio {
        let out = Command::new("timeout")
            .args(["60", "grcc", "-o"])
            .arg(dir)
            .arg(grc)
            .output()
            .expect("runs grcc");
        let stem = grc.file_stem().unwrap().to_string_lossy();
        // grcc names the script after the flowgraph's id, which is the
        // file's name in every file used here.
        let py = dir.join(format!("{stem}.py"));
        assert!(
            py.exists(),
            "grcc wrote no {}: {}",
            py.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let log = dir.join(format!("{stem}.log"));
        let log_file = std::fs::File::create(&log).unwrap();
        let child = Command::new("/usr/bin/python3")
            .arg(&py)
            .args(args)
            .current_dir(dir)
            .env("QT_QPA_PLATFORM", "offscreen")
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().unwrap())
            .stderr(log_file)
            .spawn()
            .expect("runs /usr/bin/python3");
        GnuRadio { child, log }
    }

    /// What the flowgraph printed so far.
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits for a flowgraph that ends on its own, up to the watchdog.
    fn wait(mut self) {
        let deadline = Instant::now() + WATCHDOG;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(
                    status.success(),
                    "GNU Radio failed ({status}):\n{}",
                    self.log()
                );
                return;
            }
            assert!(
                Instant::now() < deadline,
                "GNU Radio still running after {WATCHDOG:?}:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for GnuRadio {
    fn drop(&mut self) {
        // Only the process this test started, by its id.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `grc` loaded for rfgraph, endless sources bounded to `max_items`.
fn load(grc: &Path, registry: &Registry, max_items: Option<u64>) -> Document {
    grc::load_with(grc, registry, &LoadOptions { max_items })
        .unwrap_or_else(|e| panic!("{}: {e}", grc.display()))
}

/// Makes the sink fed by block `from` (the importer's null sink or web
/// display for a GUI sink) a file sink writing `path`; gives the sink's
/// name. A display keeps its item type and its first input only.
fn record(doc: &mut Document, from: &str, path: &Path) -> String {
    let sink = doc
        .connections
        .iter()
        .find(|c| c.from.block == from)
        .map(|c| c.to.block.clone())
        .unwrap_or_else(|| panic!("nothing reads `{from}`"));
    let block = doc.blocks.iter_mut().find(|b| b.name == sink).unwrap();
    let display = block.kind.starts_with("web_");
    assert!(
        block.kind == "null_sink" || display,
        "`{from}` feeds `{sink}`, a {}",
        block.kind
    );
    block.kind = "file_sink".into();
    if display {
        block.params.retain(|p| p.name == "type");
        doc.connections
            .retain(|c| c.to.block != sink || c.to.port == "in0");
        for c in doc.connections.iter_mut().filter(|c| c.to.block == sink) {
            c.to.port = "in".into();
        }
    }
    let block = doc.blocks.iter_mut().find(|b| b.name == sink).unwrap();
    set_path(block, path);
    sink
}

/// Sets (or replaces) a file block's `path`.
fn set_path(block: &mut rfgraph_flowfile::model::BlockInstance, path: &Path) {
    let at = block.at.clone();
    block.params.retain(|p| p.name != "path");
    block.params.push(ParamValue {
        name: "path".into(),
        value: Value::Text(path.display().to_string()),
        at,
    });
}

/// Builds and starts `doc` with the `--set` overrides `sets`.
fn start(doc: &Document, registry: &Registry, sets: &[String]) -> Running {
    let mut options = BuildOptions::default();
    for s in sets {
        options.set(s).unwrap();
    }
    let built = build::build(doc, registry, &options).unwrap_or_else(|e| panic!("build: {e}"));
    let scheduler = built.scheduler.scheduler().unwrap();
    built.flowgraph.start(scheduler).expect("starts")
}

/// Items block `name` has consumed so far.
fn consumed(run: &Running, name: &str) -> u64 {
    run.handle()
        .stats()
        .iter()
        .find(|s| s.block == name)
        .map_or(0, |s| s.items_consumed)
}

/// Lets `run` go until block `sink` has consumed `items` (or the run
/// ended, or the watchdog), then stops it and waits for it to end.
fn run_until(run: Running, sink: &str, items: u64, peer: Option<&GnuRadio>) {
    let deadline = Instant::now() + WATCHDOG;
    while consumed(&run, sink) < items && !run.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let got = consumed(&run, sink);
    run.handle().stop();
    let result = run.wait_timeout(WATCHDOG);
    assert!(
        got >= items,
        "`{sink}` has {got} of {items} items (run: {:?}){}",
        result.err(),
        peer.map(|p| format!("\nGNU Radio:\n{}", p.log()))
            .unwrap_or_default()
    );
    result.expect("rfgraph stops cleanly");
}

/// The complex items of a file.
fn read_c32(path: &Path) -> Vec<Complex32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
        .chunks_exact(8)
        .map(|c| {
            Complex32::new(
                f32::from_le_bytes(c[0..4].try_into().unwrap()),
                f32::from_le_bytes(c[4..8].try_into().unwrap()),
            )
        })
        .collect()
}

/// Asserts that `x` is a unit complex tone of `freq` Hz at `rate`
/// samples a second without a gap: each item is the one before turned
/// by the tone's phase step. With `datagram`, a gap is allowed where a
/// datagram of that many items starts (a lost UDP datagram, which the
/// sequence numbers let the source report); gives the gaps.
fn assert_tone(x: &[Complex32], freq: f32, rate: f32, datagram: Option<usize>) -> usize {
    let step = Complex32::from_polar(1.0, 2.0 * PI * freq / rate);
    for (i, v) in x.iter().enumerate() {
        assert!(
            (v.norm() - 1.0).abs() < 1e-3,
            "item {i}: {v} is not on the unit circle"
        );
    }
    let mut gaps = 0;
    for i in 1..x.len() {
        if (x[i] - x[i - 1] * step).norm() < 1e-3 {
            continue;
        }
        let at_datagram = datagram.is_some_and(|d| i % d == 0);
        assert!(
            at_datagram,
            "item {i}: {} does not follow {} (a {freq} Hz tone at {rate} S/s)",
            x[i],
            x[i - 1]
        );
        gaps += 1;
    }
    gaps
}

/// GNU Radio's `zeromq_pushpull.grc` alone in rfgraph: both ends in one
/// flowgraph, its tone and noise bounded to 8192 items. Push/pull loses
/// nothing, so the pull end delivers all of them.
#[test]
fn zeromq_pushpull_example_runs_in_rfgraph() {
    let grc = Path::new(GR_EXAMPLES).join("zeromq/zeromq_pushpull.grc");
    if !grc.exists() {
        skip(
            "zeromq_pushpull_example_runs_in_rfgraph",
            &format!("{} is missing (apt-get install gnuradio)", grc.display()),
        );
        return;
    }
    const ITEMS: u64 = 8192;
    let registry = rfgraph_flowfile::standard::registry();
    let dir = scratch("pushpull");
    let mut doc = load(&grc, &registry, Some(ITEMS));
    let sink = record(&mut doc, "zeromq_pull_source_0", &dir.join("pulled.cf32"));
    let run = start(&doc, &registry, &[]);
    run_until(run, &sink, ITEMS, None);
    let pulled = read_c32(&dir.join("pulled.cf32"));
    assert_eq!(pulled.len() as u64, ITEMS, "every pushed item, and no more");
    // Tone (amplitude 1) plus noise (0.1): finite and of that size.
    assert!(pulled.iter().all(|v| v.is_finite() && v.norm() < 3.0));
    assert!(pulled.iter().filter(|v| v.norm() > 0.1).count() > pulled.len() / 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's pair: rfgraph runs `tone_push.grc`, GNU Radio runs
/// `pull_to_file.grc`, which records the first items and ends.
#[test]
fn zeromq_rfgraph_pushes_to_gnuradio() {
    let test = "zeromq_rfgraph_pushes_to_gnuradio";
    if !have_gnuradio(test, "gnuradio.zeromq") {
        return;
    }
    const ITEMS: usize = 8000;
    let address = "tcp://127.0.0.1:5571";
    let registry = rfgraph_flowfile::standard::registry();
    let dir = scratch("zmq-to-gr");
    let doc = load(&repo_example("tone_push.grc"), &registry, None);
    let run = start(&doc, &registry, &[format!("address={address}")]);
    let gr = GnuRadio::start(
        &repo_example("pull_to_file.grc"),
        &["--address", address, "--num-items", &ITEMS.to_string()],
        &dir,
    );
    gr.wait();
    run.handle().stop();
    run.wait_timeout(WATCHDOG).expect("rfgraph stops cleanly");
    let received = read_c32(&dir.join("received.cf32"));
    assert_eq!(received.len(), ITEMS);
    // The push end sends nothing before a puller connects: the tone
    // arrives from its first item.
    assert!(
        (received[0] - Complex32::new(1.0, 0.0)).norm() < 1e-3,
        "{}",
        received[0]
    );
    assert_tone(&received, 1000.0, 32000.0, None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same pair the other way round: GNU Radio runs `tone_push.grc`,
/// rfgraph runs `pull_to_file.grc` (its file sink writing into a scratch
/// directory), which ends after its head.
#[test]
fn zeromq_gnuradio_pushes_to_rfgraph() {
    let test = "zeromq_gnuradio_pushes_to_rfgraph";
    if !have_gnuradio(test, "gnuradio.zeromq") {
        return;
    }
    const ITEMS: usize = 8000;
    let address = "tcp://127.0.0.1:5572";
    let registry = rfgraph_flowfile::standard::registry();
    let dir = scratch("zmq-from-gr");
    let gr = GnuRadio::start(
        &repo_example("tone_push.grc"),
        &["--address", address],
        &dir,
    );
    let mut doc = load(&repo_example("pull_to_file.grc"), &registry, None);
    let file = dir.join("rfgraph-received.cf32");
    let sink = doc
        .blocks
        .iter_mut()
        .find(|b| b.kind == "file_sink")
        .unwrap();
    set_path(sink, &file);
    let run = start(
        &doc,
        &registry,
        &[format!("address={address}"), format!("num_items={ITEMS}")],
    );
    let finished = run.wait_timeout(WATCHDOG);
    assert!(
        finished.is_ok(),
        "{:?}\nGNU Radio:\n{}",
        finished.err(),
        gr.log()
    );
    drop(gr);
    let received = read_c32(&file);
    assert_eq!(received.len(), ITEMS);
    assert!(
        (received[0] - Complex32::new(1.0, 0.0)).norm() < 1e-3,
        "{}",
        received[0]
    );
    assert_tone(&received, 1000.0, 32000.0, None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// GNU Radio's `test_udp_sink_seq.grc` (a 1 kHz tone at 1 MS/s, datagrams
/// with sequence numbers to 127.0.0.1:2001) into rfgraph running
/// `test_udp_source_seq.grc` (port 2001, sequence numbers): the tone
/// arrives, whole datagrams of 183 items ((1472 − 8) / 8).
#[test]
fn udp_gnuradio_sink_seq_to_rfgraph_source_seq() {
    let test = "udp_gnuradio_sink_seq_to_rfgraph_source_seq";
    if !have_gnuradio(test, "gnuradio.network, PyQt5") {
        return;
    }
    const ITEMS: u64 = 50_000;
    let registry = rfgraph_flowfile::standard::registry();
    let dir = scratch("udp");
    let mut doc = load(
        &Path::new(GR_EXAMPLES).join("network/test_udp_source_seq.grc"),
        &registry,
        None,
    );
    let file = dir.join("udp.cf32");
    let sink = record(&mut doc, "blocks_throttle_0", &file);
    // The source listens before the sender starts.
    let run = start(&doc, &registry, &[]);
    let gr = GnuRadio::start(
        &Path::new(GR_EXAMPLES).join("network/test_udp_sink_seq.grc"),
        &[],
        &dir,
    );
    run_until(run, &sink, ITEMS, Some(&gr));
    drop(gr);
    let received = read_c32(&file);
    assert!(received.len() as u64 >= ITEMS);
    let gaps = assert_tone(&received, 1000.0, 1e6, Some(183));
    // Loopback may drop a datagram now and then, not most of them.
    assert!(gaps < received.len() / 183 / 10, "{gaps} datagrams lost");
    let _ = std::fs::remove_dir_all(&dir);
}

/// GNU Radio's `test_tcp_sink_server.grc` (a 1 kHz tone at 1 MS/s,
/// serving on 127.0.0.1:2000) to rfgraph running `test_tcp_source.grc`
/// (a client of 127.0.0.1:2000, trying until the server listens): the
/// tone arrives without a gap.
#[test]
fn tcp_gnuradio_sink_server_to_rfgraph_source_client() {
    let test = "tcp_gnuradio_sink_server_to_rfgraph_source_client";
    if !have_gnuradio(test, "gnuradio.network, PyQt5") {
        return;
    }
    const ITEMS: u64 = 50_000;
    let registry = rfgraph_flowfile::standard::registry();
    let dir = scratch("tcp");
    let gr = GnuRadio::start(
        &Path::new(GR_EXAMPLES).join("network/test_tcp_sink_server.grc"),
        &[],
        &dir,
    );
    let mut doc = load(
        &Path::new(GR_EXAMPLES).join("network/test_tcp_source.grc"),
        &registry,
        None,
    );
    let file = dir.join("tcp.cf32");
    let sink = record(&mut doc, "blocks_throttle_0", &file);
    let run = start(&doc, &registry, &[]);
    run_until(run, &sink, ITEMS, Some(&gr));
    drop(gr);
    let received = read_c32(&file);
    assert!(received.len() as u64 >= ITEMS);
    assert_tone(&received, 1000.0, 1e6, None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One GRC block in YAML, its parameter values as GRC writes them
/// (YAML-quoted text; a Python string literal keeps its quotes).
fn grc_block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: \"{v}\"\n"));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    state: enabled\n");
    s
}

/// A GRC file of `blocks` and stream `connections` (output port 0 to
/// input port 0).
fn grc_file(blocks: &[String], connections: &[(&str, &str)]) -> String {
    let connections: String = connections
        .iter()
        .map(|(from, to)| format!("- [{from}, '0', {to}, '0']\n"))
        .collect();
    format!(
        "options:\n  parameters:\n    id: t\nblocks:\n{}connections:\n{connections}metadata:\n  file_format: 1\n",
        blocks.concat()
    )
}

/// A GNU Radio null source or sink (`id`) of `ty` and `vlen`.
fn null(name: &str, id: &str, ty: &str, vlen: &str) -> String {
    grc_block(name, id, &[("type", ty), ("vlen", vlen)])
}

/// The forms GNU Radio's network and ZeroMQ blocks write their
/// parameters in (enumeration numbers and names, Python string literals
/// and bare GRC strings, `True`/`False`), as the importer translates
/// them; the file then passes `rfgraph check`'s evaluation. A header
/// rfgraph lacks (CHDR) makes the block unsupported, with the reason.
#[test]
fn gnu_radio_network_parameters_translate() {
    let registry = rfgraph_flowfile::standard::registry();
    let text = grc_file(
        &[
            grc_block(
                "pdu",
                "network_socket_pdu",
                &[
                    ("type", "UDP_CLIENT"),
                    ("host", "'localhost'"),
                    ("port", "52002"),
                    ("mtu", "1500"),
                    ("tcp_no_delay", "False"),
                ],
            ),
            grc_block(
                "tcp",
                "network_tcp_sink",
                &[
                    ("type", "float"),
                    ("mode", "2"),
                    ("addr", "0.0.0.0"),
                    ("port", "2100"),
                    ("vlen", "4"),
                ],
            ),
            grc_block(
                "udp_out",
                "network_udp_sink",
                &[
                    ("type", "short"),
                    ("addr", "::1"),
                    ("port", "2101"),
                    ("header", "2"),
                    ("payloadsize", "1464"),
                    ("send_eof", "True"),
                    ("vlen", "1"),
                ],
            ),
            grc_block(
                "udp_in",
                "network_udp_source",
                &[
                    ("type", "byte"),
                    ("port", "2102"),
                    ("header", "1"),
                    ("src_zeros", "True"),
                    ("ipv6", "False"),
                ],
            ),
            grc_block(
                "publish",
                "zeromq_pub_sink",
                &[
                    ("type", "int"),
                    ("address", "'tcp://*:5599'"),
                    ("key", "'k1'"),
                    ("pass_tags", "True"),
                    ("drop_on_hwm", "False"),
                    ("hwm", "10"),
                    ("timeout", "250"),
                    ("vlen", "2"),
                ],
            ),
            grc_block(
                "messages",
                "zeromq_sub_msg_source",
                &[("address", "tcp://127.0.0.1:5599"), ("bind", "True")],
            ),
            null("floats", "blocks_null_source", "float", "4"),
            null("shorts", "blocks_null_source", "short", "1"),
            null("bytes", "blocks_null_sink", "byte", "1"),
            null("ints", "blocks_null_source", "int", "2"),
        ],
        &[
            ("floats", "tcp"),
            ("shorts", "udp_out"),
            ("udp_in", "bytes"),
            ("ints", "publish"),
        ],
    );
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let param = |block: &str, name: &str| -> Value {
        let b = doc
            .block(block)
            .unwrap_or_else(|| panic!("no block {block}"));
        b.param(name)
            .unwrap_or_else(|| panic!("{block} ({}) has no `{name}`", b.kind))
            .value
            .clone()
    };
    let text = |s: &str| Value::Text(s.into());
    let string = |s: &str| Value::Expr(format!("\"{s}\""));
    let expr = |s: &str| Value::Expr(s.into());
    assert_eq!(doc.block("pdu").unwrap().kind, "socket_pdu");
    assert_eq!(param("pdu", "type"), text("udp_client"));
    assert_eq!(param("pdu", "host"), string("localhost"));
    assert_eq!(param("pdu", "port"), expr("52002"));
    assert_eq!(param("pdu", "mtu"), expr("1500"));
    assert_eq!(param("pdu", "tcp_no_delay"), Value::Bool(false));
    assert_eq!(doc.block("tcp").unwrap().kind, "tcp_sink");
    assert_eq!(param("tcp", "type"), text("f32"));
    assert_eq!(param("tcp", "mode"), text("server"));
    assert_eq!(param("tcp", "host"), string("0.0.0.0"));
    assert_eq!(param("tcp", "vlen"), expr("4"));
    assert_eq!(param("udp_out", "type"), text("i16"));
    assert_eq!(param("udp_out", "host"), string("::1"));
    assert_eq!(param("udp_out", "header"), text("seq_plus_size"));
    assert_eq!(param("udp_out", "send_eof"), Value::Bool(true));
    assert_eq!(param("udp_in", "type"), text("u8"));
    assert_eq!(param("udp_in", "header"), text("seqnum"));
    assert_eq!(param("udp_in", "source_zeros"), Value::Bool(true));
    assert_eq!(param("udp_in", "ipv6"), Value::Bool(false));
    assert_eq!(doc.block("publish").unwrap().kind, "zmq_pub_sink");
    assert_eq!(param("publish", "type"), text("i32"));
    assert_eq!(param("publish", "address"), string("tcp://*:5599"));
    assert_eq!(param("publish", "key"), string("k1"));
    assert_eq!(param("publish", "pass_tags"), Value::Bool(true));
    assert_eq!(param("publish", "drop_on_hwm"), Value::Bool(false));
    assert_eq!(param("publish", "hwm"), expr("10"));
    assert_eq!(param("publish", "timeout"), expr("250"));
    assert_eq!(param("publish", "vlen"), expr("2"));
    assert_eq!(param("messages", "address"), string("tcp://127.0.0.1:5599"));
    assert_eq!(param("messages", "bind"), Value::Bool(true));
    // Every value passes the blocks' declarations (what `rfgraph check`
    // evaluates); nothing is constructed.
    let options = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    if let Err(e) = build::build(&doc, &registry, &options) {
        panic!("check: {e}");
    }

    let chdr = grc_file(
        &[grc_block(
            "chdr",
            "network_udp_sink",
            &[("type", "complex"), ("header", "4")],
        )],
        &[],
    );
    let refused = grc::from_str(&chdr, Path::new("t.grc"), &registry)
        .expect_err("CHDR headers are refused")
        .to_string();
    assert!(
        refused.contains("network_udp_sink") && refused.contains("`header` = `4`"),
        "{refused}"
    );
}
