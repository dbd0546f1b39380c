//! What the network tests share: the reference data both ends of an
//! interop test agree on (defined again, independently, in
//! `gr/zmq_peer.py`), GNU Radio's side as a child process, free ports,
//! and watchdogs.

#![allow(dead_code)]

use num_complex::Complex32;
use rfgraph::pmt::Uniform;
use rfgraph::{Pmt, Tag};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The most a test flowgraph or peer may take.
pub const WATCHDOG: Duration = Duration::from_secs(60);

/// Item `i` of the reference sequence: `i - 0.5 i j`.
pub fn reference_items(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| Complex32::new(i as f32, -0.5 * i as f32))
        .collect()
}

/// The reference tags: one of each kind of value GNU Radio serializes.
pub fn reference_tags() -> Vec<Tag> {
    let map = |entries: &[(&str, Pmt)]| {
        Pmt::Map(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    };
    vec![
        Tag::new(10, "int", Pmt::I64(42)),
        Tag::new(20, "double", Pmt::F64(2.5)),
        Tag::new(30, "string", Pmt::from("hello")),
        Tag::new(40, "complex", Pmt::Complex([1.0, -2.0])),
        Tag::new(
            50,
            "tuple",
            Pmt::Tuple(vec![Pmt::I64(1), Pmt::from("x"), Pmt::F64(2.5)]),
        ),
        Tag::new(
            60,
            "dict",
            map(&[("a", Pmt::I64(1)), ("b", Pmt::from("x"))]),
        ),
        Tag::new(70, "f32vector", Pmt::VecF32(vec![1.0, 2.0, 3.0])),
        Tag::new(80, "s16vector", Pmt::Uniform(Uniform::I16(vec![-1, 2, 3]))),
        Tag::new(90, "u64", Pmt::U64(1 << 40)),
    ]
}

/// The reference messages: two PDUs and two other messages.
pub fn reference_messages() -> Vec<Pmt> {
    let meta = Pmt::Map([("packet_num".to_string(), Pmt::I64(7))].into());
    vec![
        Pmt::pair(meta, Pmt::Blob(vec![1, 2, 3, 250])),
        Pmt::pair(Pmt::Null, Pmt::VecComplexF32(vec![[1.0, 2.0], [0.0, -3.0]])),
        Pmt::from("TEST"),
        Pmt::Tuple(vec![Pmt::I64(1), Pmt::F64(2.5), Pmt::from("x")]),
    ]
}

/// A TCP port free on the loopback interface now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A loopback ZeroMQ address on a free port.
pub fn free_address() -> String {
    format!("tcp://127.0.0.1:{}", free_port())
}

/// GNU Radio's side of a test: `gr/zmq_peer.py` with `args`, run by
/// Debian's Python; killed if dropped before it ends.
pub struct GnuRadio {
    child: Child,
}

impl GnuRadio {
    /// Starts the script with `args`.
    pub fn start(args: &[&str]) -> Self {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gr/zmq_peer.py");
        let child = Command::new(rfgraph_testkit::GNURADIO_PYTHON)
            .arg(script)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("run GNU Radio's python");
        Self { child }
    }

    /// The JSON line the script prints, waiting at most [`WATCHDOG`].
    pub fn report(mut self) -> serde_json::Value {
        let stdout = self.child.stdout.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // GNU Radio logs on standard output too: the report is the
            // line that is a JSON object.
            let report = BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .find(|l| l.starts_with('{'));
            let _ = tx.send(report.unwrap_or_default());
        });
        let line = rx
            .recv_timeout(WATCHDOG)
            .expect("GNU Radio's side reports within the watchdog");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("GNU Radio said {line:?}: {e}"))
    }
}

impl Drop for GnuRadio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until `done` holds, at most [`WATCHDOG`]; false on time-out.
pub fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < WATCHDOG {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// The counter `name` of whichever block in `stats` has one.
pub fn counter(stats: &[rfgraph::BlockStats], name: &str) -> u64 {
    stats
        .iter()
        .find_map(|s| s.counters.get(name).copied())
        .unwrap_or(0)
}
