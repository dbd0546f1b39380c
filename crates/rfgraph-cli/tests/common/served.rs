//! A running `rfgraph` command serving its graph on a control port
//! (`--control 127.0.0.1:0`), for the tests of `rfgraph run --control`,
//! `rfgraph fm --control` and `rfgraph adsb --control`: the port found
//! where the command says it is on stderr, a real HTTP client, and a
//! watchdog (a command that hangs is killed and fails the test).
//! Included with `#[path = "common/served.rs"] mod served;` by the tests
//! that need it, so that the others do not build an HTTP client.

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// The longest a served command may run in a test.
pub const WATCHDOG: Duration = Duration::from_secs(120);

/// The line that says where the port is.
const PREFIX: &str = "rfgraph: control port: ";
/// The line that gives the web page's address.
const UI_PREFIX: &str = "rfgraph: web UI: ";

/// A running command and the client of its control port.
pub struct Served {
    child: Child,
    id: String,
    /// `http://ADDR` (no trailing slash).
    pub origin: String,
    /// The graph's URL the command printed (`http://ADDR/api/flowgraphs/NAME`).
    pub printed: String,
    /// The whole line the command printed after the URL (`(token T)`).
    pub printed_rest: String,
    /// The web page's URL it printed next, if it did.
    pub ui: Option<String>,
    /// The graph's name: requests go to `/api/flowgraphs/{graph}`.
    pub graph: String,
    token: Option<String>,
    agent: ureq::Agent,
    lines: Receiver<String>,
    started: Instant,
}

impl Served {
    /// Starts `rfgraph ARGS` in `dir` (stdout discarded) and waits for it
    /// to print its control port; requests then carry `token` when
    /// given.
    pub fn start(dir: &Path, args: &[&str], graph: &str, token: Option<&str>) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the rfgraph binary starts");
        let id = child.id().to_string();
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let started = Instant::now();
        let mut seen = Vec::new();
        let printed = loop {
            let Ok(line) = lines.recv_timeout(Duration::from_secs(60)) else {
                let _ = Command::new("kill").args(["-KILL", &id]).status();
                panic!(
                    "rfgraph {args:?} never said where its control port is: {}",
                    seen.join("\n")
                );
            };
            // The progress line redraws with carriage returns.
            if let Some(at) = line.rsplit('\r').find_map(|l| l.strip_prefix(PREFIX)) {
                break at.trim().to_string();
            }
            seen.push(line);
        };
        let (printed, printed_rest) = match printed.split_once(' ') {
            Some((url, rest)) => (url.to_string(), rest.to_string()),
            None => (printed, String::new()),
        };
        let ui = lines
            .recv_timeout(Duration::from_secs(10))
            .ok()
            .and_then(|l| l.strip_prefix(UI_PREFIX).map(|u| u.trim().to_string()));
        let origin = printed
            .strip_prefix("http://")
            .and_then(|rest| rest.split('/').next())
            .map(|host| format!("http://{host}"))
            .unwrap_or_else(|| panic!("not an http URL: {printed}"));
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into();
        Served {
            child,
            id,
            origin,
            printed,
            printed_rest,
            ui,
            graph: graph.to_string(),
            token: token.map(str::to_string),
            agent,
            lines,
            started,
        }
    }

    /// Runs `f`, killing the command if it fails.
    pub fn check<T>(&self, f: impl FnOnce(&Served) -> T) -> T {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self))) {
            Ok(v) => v,
            Err(e) => {
                self.kill();
                std::panic::resume_unwind(e);
            }
        }
    }

    fn kill(&self) {
        let _ = Command::new("kill").args(["-KILL", &self.id]).status();
    }

    /// The URL of `path` under the graph (`""`: the graph itself).
    pub fn url(&self, path: &str) -> String {
        format!("{}/api/flowgraphs/{}{path}", self.origin, self.graph)
    }

    /// GETs `url` (with the token, if any): the status and the JSON body
    /// (`Null` when there is none); `None` when nothing answers (the
    /// command has ended).
    pub fn get_url(&self, url: &str, with_token: bool) -> Option<(u16, Value)> {
        let mut req = self.agent.get(url);
        if let (Some(t), true) = (&self.token, with_token) {
            req = req.header("authorization", &format!("Bearer {t}"));
        }
        let mut r = req.call().ok()?;
        let status = r.status().as_u16();
        Some((status, r.body_mut().read_json().unwrap_or(Value::Null)))
    }

    /// GETs `path` under the graph: the JSON of a 200 answer.
    ///
    /// Panics: another status, or nothing answers.
    pub fn get(&self, path: &str) -> Value {
        let (status, body) = self
            .get_url(&self.url(path), true)
            .unwrap_or_else(|| panic!("nothing answers {}", self.url(path)));
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// The value of reading `name` of `block` while the graph runs
    /// (tagged JSON, see `rfgraph_control::pmt_json`); `None` once the
    /// command has ended.
    pub fn reading(&self, block: &str, name: &str) -> Option<Value> {
        let (status, body) =
            self.get_url(&self.url(&format!("/blocks/{block}/readings/{name}")), true)?;
        // The graph may end between two requests: 404/503 then.
        (status == 200).then(|| body["value"].clone())
    }

    /// Polls reading `name` of `block` until `done` holds for its value or
    /// the command ends; the last value read.
    pub fn poll(&mut self, block: &str, name: &str, done: impl Fn(&Value) -> bool) -> Value {
        let mut last = Value::Null;
        loop {
            assert!(
                self.started.elapsed() < WATCHDOG,
                "the watchdog expired polling {block}.{name}: {last}"
            );
            match self.reading(block, name) {
                Some(v) => {
                    let ok = done(&v);
                    last = v;
                    if ok {
                        return last;
                    }
                }
                None if self.ended() => return last,
                None => {}
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// True once the command has exited.
    pub fn ended(&mut self) -> bool {
        self.child.try_wait().ok().flatten().is_some()
    }

    /// PUTs (`put`) or POSTs JSON `body` to `path` under the graph: the
    /// status and the JSON answer (`Null` when there is none).
    ///
    /// Panics: nothing answers.
    pub fn send(&self, put: bool, path: &str, body: &str) -> (u16, Value) {
        let url = self.url(path);
        let mut req = if put {
            self.agent.put(&url)
        } else {
            self.agent.post(&url)
        };
        if let Some(t) = &self.token {
            req = req.header("authorization", &format!("Bearer {t}"));
        }
        let mut r = req
            .header("content-type", "application/json")
            .send(body)
            .unwrap_or_else(|e| panic!("nothing answers {url}: {e}"));
        (
            r.status().as_u16(),
            r.body_mut().read_json().unwrap_or(Value::Null),
        )
    }

    /// Waits for the command to exit (killing it at the watchdog): its
    /// status and the rest of its stderr.
    pub fn wait(mut self) -> (ExitStatus, String) {
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the command's status") {
                break status;
            }
            if self.started.elapsed() > WATCHDOG {
                self.kill();
                panic!("the command did not end within the watchdog");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            rest.push(line);
        }
        (status, rest.join("\n"))
    }

    /// Stops the graph over HTTP and waits for a clean exit.
    pub fn stop(self) -> String {
        self.check(|s| assert_eq!(s.send(false, "/stop", "").0, 202));
        let (status, stderr) = self.wait();
        assert!(status.success(), "{status}: {stderr}");
        stderr
    }
}
