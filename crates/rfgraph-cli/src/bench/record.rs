//! The JSON record every benchmark run prints (DESIGN §6 common fields).

use serde_json::{Map, Value, json};

/// One JSON object: common fields first, then experiment parameters and rates.
pub struct Record(Map<String, Value>);

impl Record {
    /// A record with the common fields for an rfgraph run.
    pub fn new(experiment: &str, scheduler: &str, run: usize, seconds: f64) -> Self {
        let mut map = Map::new();
        map.insert("experiment".into(), json!(experiment));
        map.insert("runtime".into(), json!("rfgraph"));
        map.insert("scheduler".into(), json!(scheduler));
        map.insert("run".into(), json!(run));
        map.insert("seconds".into(), json!(seconds));
        Self(map)
    }

    /// Adds a field.
    pub fn field(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.insert(key.into(), value.into());
        self
    }

    /// Prints the record as one line on stdout.
    pub fn print(&self) {
        println!("{}", Value::Object(self.0.clone()));
    }
}
