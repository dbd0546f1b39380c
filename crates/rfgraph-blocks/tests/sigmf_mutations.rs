//! A property test for the `.sigmf-meta` reader: mutated valid files
//! (flipped bytes, truncations, swapped JSON values, removed keys, random
//! bytes) either parse, and then write back and re-read unchanged, or fail
//! with an error that names a JSON path, never a panic or a hang.

mod sigmf_support;

use proptest::prelude::*;
use rfgraph_blocks::sigmf::{SigmfError, SigmfMeta, SigmfRecording};
use serde_json::{Value, json};
use sigmf_support::Scratch;
use std::path::Path;

/// The valid files the mutations start from.
fn seeds() -> Vec<Value> {
    vec![
        json!({
            "global": {"core:datatype": "ci16_le", "core:sample_rate": 2.4e6, "core:version": "1.2.6",
                       "core:extensions": [{"name": "antenna", "version": "1.0.0", "optional": true}],
                       "core:geolocation": {"type": "Point", "coordinates": [1.5, 2.5, 3.0]}},
            "captures": [
                {"core:sample_start": 0, "core:frequency": 100e6, "core:datetime": "2024-05-01T12:00:00Z"},
                {"core:sample_start": 100, "core:frequency": 101e6, "core:global_index": 7, "antenna:type": "dipole"}
            ],
            "annotations": [
                {"core:sample_start": 10, "core:sample_count": 20, "core:label": "burst",
                 "core:freq_lower_edge": 99.9e6, "core:freq_upper_edge": 100.1e6},
                {"core:sample_start": 150, "core:sample_count": 50, "core:comment": "x", "my:list": [1, {"a": null}]}
            ]
        }),
        json!({"global": {"core:datatype": "ru8"}, "captures": [], "annotations": []}),
        json!({
            "global": {"core:datatype": "cf64_be", "core:trailing_bytes": 0, "core:num_channels": 1},
            "captures": [{"core:sample_start": 0, "core:header_bytes": 0}],
            "annotations": [{"core:sample_start": 199, "core:sample_count": 1, "core:uuid": "u"}]
        }),
    ]
}

/// Values swapped in for others.
fn replacement(pick: u8) -> Value {
    match pick % 16 {
        0 => json!(-1),
        1 => json!(0),
        2 => json!(1.5),
        3 => json!("x"),
        4 => Value::Null,
        5 => json!([]),
        6 => json!({}),
        7 => json!(true),
        8 => json!(1e300),
        9 => json!(u64::MAX),
        10 => json!("cf32_le"),
        11 => json!("2024-01-01T00:00:00Z"),
        12 => json!(199),
        13 => json!(-1e13),
        14 => json!([{"core:sample_start": 3}]),
        _ => json!("ri8"),
    }
}

/// Applies `f` to the `n`th value of a document (depth first); false
/// when there are fewer.
fn edit_nth(v: &mut Value, n: &mut usize, f: &mut dyn FnMut(&mut Value)) -> bool {
    if *n == 0 {
        f(v);
        return true;
    }
    *n -= 1;
    match v {
        Value::Array(a) => a.iter_mut().any(|x| edit_nth(x, n, f)),
        Value::Object(o) => o.values_mut().any(|x| edit_nth(x, n, f)),
        _ => false,
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    FlipByte { at: usize, xor: u8 },
    Truncate { at: usize },
    Insert { at: usize, bytes: Vec<u8> },
    SwapValue { nth: usize, pick: u8 },
    RemoveKey { nth: usize, key: usize },
    RandomBytes(Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..).prop_map(|(at, xor)| Mutation::FlipByte { at, xor }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (any::<usize>(), any::<u8>()).prop_map(|(nth, pick)| Mutation::SwapValue { nth, pick }),
        (any::<usize>(), any::<usize>()).prop_map(|(nth, key)| Mutation::RemoveKey { nth, key }),
        prop::collection::vec(any::<u8>(), 0..300).prop_map(Mutation::RandomBytes),
    ]
}

/// Count of values in a document.
fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count).sum(),
        Value::Object(o) => o.values().map(count).sum(),
        _ => 0,
    }
}

/// Applies the mutations in turn: text ones to the text, value ones to the
/// document (when the text still parses as JSON).
fn mutate(seed: &Value, mutations: &[Mutation]) -> Vec<u8> {
    let mut text = serde_json::to_vec_pretty(seed).unwrap();
    for m in mutations {
        match m {
            Mutation::FlipByte { at, xor } if !text.is_empty() => {
                let i = at % text.len();
                text[i] ^= xor;
            }
            Mutation::Truncate { at } => text.truncate(at % (text.len() + 1)),
            Mutation::Insert { at, bytes } => {
                let i = at % (text.len() + 1);
                text.splice(i..i, bytes.iter().copied());
            }
            Mutation::SwapValue { nth, pick } => {
                if let Ok(mut doc) = serde_json::from_slice::<Value>(&text) {
                    let mut n = nth % count(&doc);
                    edit_nth(&mut doc, &mut n, &mut |v| *v = replacement(*pick));
                    text = serde_json::to_vec(&doc).unwrap();
                }
            }
            Mutation::RemoveKey { nth, key } => {
                if let Ok(mut doc) = serde_json::from_slice::<Value>(&text) {
                    let mut n = nth % count(&doc);
                    edit_nth(&mut doc, &mut n, &mut |v| {
                        if let Value::Object(o) = v
                            && !o.is_empty()
                        {
                            let k = o.keys().nth(key % o.len()).unwrap().clone();
                            o.remove(&k);
                        }
                    });
                    text = serde_json::to_vec(&doc).unwrap();
                }
            }
            Mutation::RandomBytes(bytes) => text = bytes.clone(),
            _ => {}
        }
    }
    text
}

/// Ok must write back and re-read unchanged; Err must name a JSON path.
fn check(text: &[u8]) -> Result<(), TestCaseError> {
    let file = Path::new("mutated.sigmf-meta");
    match SigmfMeta::parse(text, file) {
        Ok(meta) => {
            let back = meta
                .to_json_text(file)
                .map_err(|e| TestCaseError::fail(format!("parsed but cannot write: {e}")))?;
            let again = SigmfMeta::parse(back.as_bytes(), file).unwrap();
            prop_assert_eq!(again, meta);
        }
        Err(e) => {
            let path = e.json_path();
            prop_assert!(path.is_some_and(|p| !p.is_empty()), "no JSON path: {}", e);
            prop_assert!(e.to_string().starts_with("mutated.sigmf-meta: "), "{}", e);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn mutated_meta_parses_or_names_a_path(seed in 0usize..3, mutations in prop::collection::vec(mutation(), 1..4)) {
        let text = mutate(&seeds()[seed], &mutations);
        check(&text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// With a data file of 200 samples beside it, opening checks ranges
    /// and lengths too: still a path or a byte offset, never a panic.
    #[test]
    fn mutated_recordings_open_or_say_where(seed in 0usize..3, mutations in prop::collection::vec(mutation(), 1..3), extra in 0usize..3) {
        let dir = Scratch::new(&format!("mutations-{}", std::thread::current().name().unwrap_or("x").len()));
        let text = mutate(&seeds()[seed], &mutations);
        let meta = dir.path("m.sigmf-meta");
        std::fs::write(&meta, &text).unwrap();
        let datatype_bytes = SigmfMeta::parse(&text, &meta).map(|m| m.global.datatype.bytes_per_item()).unwrap_or(4);
        std::fs::write(dir.path("m.sigmf-data"), vec![0u8; 200 * datatype_bytes + extra]).unwrap();
        match SigmfRecording::open(&meta) {
            Ok(r) => prop_assert!(r.samples() <= 200 + extra as u64),
            Err(e) => {
                let placed = e.json_path().is_some() || e.byte_offset().is_some()
                    || matches!(e, SigmfError::Io { .. });
                prop_assert!(placed, "not placed: {}", e);
            }
        }
    }
}
