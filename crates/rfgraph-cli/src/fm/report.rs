//! What `rfgraph fm` prints while it runs: each decoded RDS message as one
//! JSON line on stdout ([`JsonLines`]), and the pilot's lock changes as
//! lines on stderr ([`StereoReport`]). Owns the conversion of message
//! values to plain JSON ([`plain_json`]).

use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};
use serde_json::{Map, Value, json};
use std::io::Write;

/// A message value as plain JSON: maps become objects, lists arrays,
/// numbers numbers, blobs arrays of bytes, null `null` (no type tags).
pub fn plain_json(p: &Pmt) -> Value {
    match p {
        Pmt::Null => Value::Null,
        Pmt::Bool(b) => json!(b),
        Pmt::I64(v) => json!(v),
        Pmt::U64(v) => json!(v),
        Pmt::F32(v) => json!(v),
        Pmt::F64(v) => json!(v),
        Pmt::String(s) => json!(s),
        Pmt::Blob(b) => json!(b),
        Pmt::VecF32(v) => json!(v),
        Pmt::VecComplexF32(v) => json!(v),
        Pmt::List(l) => Value::Array(l.iter().map(plain_json).collect()),
        Pmt::Map(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), plain_json(v)))
                .collect::<Map<_, _>>(),
        ),
    }
}

/// Prints every message on `in` as one JSON line on stdout.
///
/// # Message Inputs
/// - `in`: any value.
#[derive(Default)]
pub struct JsonLines;

impl JsonLines {
    /// A printer.
    pub fn new() -> Self {
        JsonLines
    }
}

impl Block for JsonLines {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", plain_json(&msg))?;
        out.flush()?;
        Ok(Pmt::Null)
    }
}

/// Prints the stereo decoder's lock changes on stderr (`stereo` messages:
/// `{stereo, sample, pilot_level, pilot_hz}`).
///
/// # Message Inputs
/// - `in`: the stereo decoder's `stereo` messages.
#[derive(Default)]
pub struct StereoReport;

impl StereoReport {
    /// A reporter.
    pub fn new() -> Self {
        StereoReport
    }
}

impl Block for StereoReport {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if let Pmt::Map(m) = &msg {
            let stereo = m.get("stereo") == Some(&Pmt::Bool(true));
            let at = m
                .get("sample")
                .and_then(Pmt::as_f64)
                .map_or(String::new(), |s| {
                    format!(" at {:.2} s", s / rfgraph_radio::fm::MPX_RATE)
                });
            let level = m
                .get("pilot_level")
                .and_then(Pmt::as_f64)
                .map_or(String::new(), |l| format!(", pilot {:.1} %", l * 100.0));
            eprintln!(
                "{}{at}{level}",
                if stereo {
                    "stereo: pilot locked"
                } else {
                    "mono: pilot lost"
                }
            );
        }
        Ok(Pmt::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn messages_become_plain_json() {
        let mut m = BTreeMap::new();
        m.insert("pi".to_string(), Pmt::String("D3C3".into()));
        m.insert("group".to_string(), Pmt::U64(2));
        m.insert("tp".to_string(), Pmt::Bool(false));
        m.insert(
            "list".to_string(),
            Pmt::List(vec![Pmt::Null, Pmt::F64(0.5)]),
        );
        assert_eq!(
            plain_json(&Pmt::Map(m)),
            json!({"pi": "D3C3", "group": 2, "tp": false, "list": [null, 0.5]})
        );
    }
}
