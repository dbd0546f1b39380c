//! The JSON record every benchmark run prints: the fields every experiment
//! shares (see `docs/architecture.md`, Statistics and benchmarks).

use crate::console::{errln, outln};
use serde_json::{Map, Value, json};

/// What one run's timers measured (see the span table in `bench/mod.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    /// The compared span: for a flowgraph, from just before its scheduler
    /// is created until `Flowgraph::run` returned (validation, buffer
    /// planning, rings, every block's `init`, the scheduler's threads, the
    /// run, every `deinit`), as GNU Radio's `tb.run()`. Every rate in a
    /// record divides by this.
    pub seconds: f64,
    /// The run phase alone ([`rfgraph::Finished::run_time`]: from the
    /// scheduler's start until every block was done), kept so that nothing
    /// is lost; never more than `seconds`.
    pub run_seconds: f64,
}

impl Span {
    /// The span of a roofline (`--fused`, `--bare`): a plain loop with no
    /// runtime to set up or tear down, so the run phase is the whole span.
    pub fn whole(seconds: f64) -> Self {
        Self {
            seconds,
            run_seconds: seconds,
        }
    }
}

/// One JSON object: common fields first, then experiment parameters and rates.
#[derive(Clone, Debug)]
pub struct Record(Map<String, Value>);

impl Record {
    /// A record with the common fields for an rfgraph run, `seconds` and
    /// `run_seconds` from `span`.
    pub fn new(experiment: &str, scheduler: &str, run: usize, span: Span) -> Self {
        let mut map = Map::new();
        map.insert("experiment".into(), json!(experiment));
        map.insert("runtime".into(), json!("rfgraph"));
        map.insert("scheduler".into(), json!(scheduler));
        map.insert("run".into(), json!(run));
        map.insert("seconds".into(), json!(span.seconds));
        map.insert("run_seconds".into(), json!(span.run_seconds));
        Self(map)
    }

    /// The compared span, seconds (what every rate divides by).
    pub fn seconds(&self) -> f64 {
        self.0
            .get("seconds")
            .and_then(Value::as_f64)
            .unwrap_or(f64::NAN)
    }

    /// Adds a field.
    pub fn field(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.insert(key.into(), value.into());
        self
    }

    /// The record as a JSON value.
    pub fn value(&self) -> Value {
        Value::Object(self.0.clone())
    }

    /// Prints the record as one line on stdout.
    pub fn print(&self) {
        outln!("{}", self.value());
    }

    /// Prints a one-line human summary on stderr.
    pub fn summary(&self) {
        let get = |k: &str| self.0.get(k).cloned().unwrap_or(Value::Null);
        let params: Vec<String> = [
            "pipes", "branches", "stages", "blocks", "cores", "items", "burst", "workload",
            "amount", "threads", "mode", "kernel", "taps",
        ]
        .iter()
        .filter_map(|k| self.0.get(*k).map(|v| format!("{k}={v}")))
        .collect();
        let rate = ["messages_per_s", "block_items_per_s", "quality"]
            .iter()
            .find_map(|k| self.0.get(*k).map(|v| (k, v.as_f64().unwrap_or(0.0))));
        errln!(
            "{} [{}] {} run {}: {:.4} s (run phase {:.4} s){}",
            get("experiment").as_str().unwrap_or("?"),
            get("scheduler").as_str().unwrap_or("?"),
            params.join(" "),
            get("run"),
            get("seconds").as_f64().unwrap_or(0.0),
            get("run_seconds").as_f64().unwrap_or(0.0),
            rate.map(|(k, v)| format!(", {k} {v:.4e}"))
                .unwrap_or_default()
        );
    }
}
