//! The decoder's messages as JSON lines, for the command line.

use rfgraph::Pmt;
use serde_json::{Map, Value};

fn value(p: &Pmt) -> Value {
    match p {
        Pmt::Null => Value::Null,
        Pmt::Bool(b) => Value::Bool(*b),
        Pmt::I64(v) => Value::from(*v),
        Pmt::U64(v) => Value::from(*v),
        Pmt::F32(v) => Value::from(*v as f64),
        Pmt::F64(v) => Value::from(*v),
        Pmt::String(s) => Value::String(s.clone()),
        Pmt::Map(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), value(v)))
                .collect::<Map<_, _>>(),
        ),
        Pmt::List(l) => Value::Array(l.iter().map(value).collect()),
        other => Value::String(format!("{other:?}")),
    }
}

/// One [`RdsDecoder`](super::RdsDecoder) message as a JSON line (no
/// newline), keys sorted: `{"pi":"0x1234","ps":"RFGRAPH "}`.
pub fn json_line(message: &Pmt) -> String {
    value(message).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn maps_become_sorted_json_objects() {
        let m = Pmt::Map(BTreeMap::from([
            ("ps".to_string(), Pmt::String("A \"B\"".into())),
            ("pi".to_string(), Pmt::String("0x1234".into())),
            ("pty".to_string(), Pmt::U64(3)),
            ("tp".to_string(), Pmt::Bool(true)),
        ]));
        assert_eq!(
            json_line(&m),
            r#"{"pi":"0x1234","ps":"A \"B\"","pty":3,"tp":true}"#
        );
    }
}
