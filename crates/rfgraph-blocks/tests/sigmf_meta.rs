//! `.sigmf-meta` parsing, checking and writing: every malformed input the
//! issue lists gives an error naming the JSON path, and what rfgraph
//! writes it reads back unchanged.

use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::{Annotation, Capture, SigmfError, SigmfMeta, SigmfRecording};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn file() -> &'static Path {
    Path::new("test.sigmf-meta")
}

fn valid() -> Value {
    json!({
        "global": {
            "core:datatype": "ci16_le",
            "core:sample_rate": 2.4e6,
            "core:version": "1.2.6",
            "core:description": "two captures, three annotations",
            "core:extensions": [{"name": "antenna", "version": "1.0.0", "optional": true}],
            "antenna:gain": 3.5
        },
        "captures": [
            {"core:sample_start": 0, "core:frequency": 100e6, "core:datetime": "2024-05-01T12:00:00Z"},
            {"core:sample_start": 1000, "core:frequency": 101e6, "core:global_index": 51000, "antenna:type": "dipole"}
        ],
        "annotations": [
            {"core:sample_start": 10, "core:sample_count": 20, "core:label": "burst",
             "core:freq_lower_edge": 99.9e6, "core:freq_upper_edge": 100.1e6},
            {"core:sample_start": 10, "core:comment": "same start, another annotation"},
            {"core:sample_start": 1500, "core:sample_count": 100, "core:label": "tone", "my:score": [1, 2]}
        ]
    })
}

fn parse(v: &Value) -> Result<SigmfMeta, SigmfError> {
    SigmfMeta::parse(serde_json::to_string_pretty(v).unwrap().as_bytes(), file())
}

/// `edit` applied to the valid document must fail at `path`, with `words`
/// in the message.
fn rejects(edit: impl FnOnce(&mut Value), path: &str, words: &str) {
    let mut v = valid();
    edit(&mut v);
    let e = parse(&v).expect_err(&format!("{path} should be rejected"));
    assert_eq!(e.json_path(), Some(path), "{e}");
    let text = e.to_string();
    assert!(text.contains(words), "`{words}` not in: {text}");
    assert!(
        text.starts_with("test.sigmf-meta: "),
        "the file is named: {text}"
    );
}

#[test]
fn a_valid_document_parses_into_the_model() {
    let m = parse(&valid()).unwrap();
    assert_eq!(m.global.datatype, SampleFormat::parse("ci16_le").unwrap());
    assert_eq!(m.global.sample_rate, Some(2.4e6));
    assert_eq!(m.global.extra["antenna:gain"], json!(3.5));
    assert_eq!(m.captures.len(), 2);
    assert_eq!(m.captures[1].global_index, Some(51000));
    assert_eq!(m.captures[1].extra["antenna:type"], json!("dipole"));
    assert_eq!(m.annotations[0].label.as_deref(), Some("burst"));
    assert_eq!(m.annotations[2].extra["my:score"], json!([1, 2]));
}

#[test]
fn what_rfgraph_writes_it_reads_back_unchanged() {
    let m = parse(&valid()).unwrap();
    let text = m.to_json_text(file()).unwrap();
    assert_eq!(SigmfMeta::parse(text.as_bytes(), file()).unwrap(), m);
    // `global` first, then captures, then annotations.
    let g = text.find("\"global\"").unwrap();
    let c = text.find("\"captures\"").unwrap();
    let a = text.find("\"annotations\"").unwrap();
    assert!(g < c && c < a, "{text}");
}

#[test]
fn invalid_json_names_the_path_line_and_offset() {
    let text = b"{\n  \"global\": {\"core:datatype\": \"cf32_le\"},\n  \"captures\": [{\"core:sample_start\": 0}, {\"core:frequency\": 1e6,,}]\n}";
    let e = SigmfMeta::parse(text, file()).unwrap_err();
    let SigmfError::Json {
        path, line, offset, ..
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!(path, "captures[1].core:frequency", "{e}");
    assert_eq!(*line, 3);
    assert_eq!(text[*offset as usize], b',', "{e}");
    // Truncated text and non-UTF-8 are JSON errors too.
    let e = SigmfMeta::parse(&text[..50], file()).unwrap_err();
    assert!(matches!(e, SigmfError::Json { .. }), "{e}");
    let e = SigmfMeta::parse(b"{\"global\": {\"core:datatype\": \"\xff\"}}", file()).unwrap_err();
    assert_eq!(e.json_path(), Some("global.core:datatype"), "{e}");
}

#[test]
fn a_missing_datatype_is_named() {
    rejects(
        |v| drop(v["global"].as_object_mut().unwrap().remove("core:datatype")),
        "global.core:datatype",
        "missing",
    );
    rejects(
        |v| drop(v.as_object_mut().unwrap().remove("global")),
        "global",
        "missing",
    );
}

#[test]
fn an_unknown_datatype_is_named() {
    for bad in [
        "cf16_le",
        "cs16",
        "CF32_LE",
        "cf32_lexyz",
        "f32",
        "",
        "ci8_be_le",
        "c",
    ] {
        rejects(
            |v| v["global"]["core:datatype"] = json!(bad),
            "global.core:datatype",
            "datatype",
        );
    }
    rejects(
        |v| v["global"]["core:datatype"] = json!(7),
        "global.core:datatype",
        "must be a string",
    );
}

#[test]
fn a_sample_rate_that_is_not_positive_is_named() {
    for bad in [json!(-1.0), json!(0), json!(2e12), json!("fast")] {
        rejects(
            |v| v["global"]["core:sample_rate"] = bad,
            "global.core:sample_rate",
            "must be",
        );
    }
}

#[test]
fn misplaced_or_mistyped_segments_are_named() {
    rejects(
        |v| v["captures"][1]["core:sample_start"] = json!(-4),
        "captures[1].core:sample_start",
        "non-negative integer",
    );
    rejects(
        |v| {
            drop(
                v["captures"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("core:sample_start"),
            )
        },
        "captures[1].core:sample_start",
        "missing",
    );
    rejects(
        |v| v["captures"][1]["core:sample_start"] = json!(0.5),
        "captures[1].core:sample_start",
        "integer",
    );
    rejects(
        |v| v["annotations"][2]["core:sample_start"] = json!(5),
        "annotations[2].core:sample_start",
        "sample order",
    );
    rejects(
        |v| v["captures"][0]["core:datetime"] = json!("noon"),
        "captures[0].core:datetime",
        "ISO-8601",
    );
    rejects(
        |v| v["captures"][0]["core:frequency"] = json!("fm"),
        "captures[0].core:frequency",
        "a number",
    );
    rejects(
        |v| v["annotations"][0]["core:label"] = json!(3),
        "annotations[0].core:label",
        "a string",
    );
    rejects(
        |v| v["annotations"][0]["core:sample_count"] = json!(-1),
        "annotations[0].core:sample_count",
        "integer",
    );
    rejects(
        |v| v["annotations"][0]["core:freq_lower_edge"] = json!(200e6),
        "annotations[0].core:freq_lower_edge",
        "above",
    );
    rejects(|v| v["captures"] = json!({}), "captures", "an array");
    rejects(
        |v| v["annotations"][1] = json!(3),
        "annotations[1]",
        "an object",
    );
    rejects(|v| v["extra"] = json!(1), "extra", "not a SigMF key");
    rejects(
        |v| v["global"]["core:extensions"][0]["optional"] = json!("yes"),
        "global.core:extensions[0].optional",
        "true or false",
    );
    rejects(|v| *v = json!([1]), "$", "an object");
}

/// A recording on disk: meta text, data bytes.
fn recording(dir: &Path, name: &str, meta: &Value, data: &[u8]) -> PathBuf {
    let meta_path = dir.join(format!("{name}.sigmf-meta"));
    std::fs::write(&meta_path, serde_json::to_vec(meta).unwrap()).unwrap();
    std::fs::write(dir.join(format!("{name}.sigmf-data")), data).unwrap();
    meta_path
}

fn tempdir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("rfgraph-sigmf-meta-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn annotations_and_captures_past_the_data_are_named() {
    let dir = tempdir("ranges");
    // ci16_le: 4 bytes per sample; 1600 samples.
    let data = vec![0u8; 1600 * 4];
    let ok = recording(&dir, "ok", &valid(), &data);
    let r = SigmfRecording::open(&ok).unwrap();
    assert_eq!(r.samples(), 1600);
    assert!((r.duration().unwrap() - 1600.0 / 2.4e6).abs() < 1e-15);

    let mut v = valid();
    v["annotations"][2]["core:sample_count"] = json!(101);
    let e = SigmfRecording::open(recording(&dir, "long", &v, &data)).unwrap_err();
    assert_eq!(
        e.json_path(),
        Some("annotations[2].core:sample_count"),
        "{e}"
    );
    assert!(e.to_string().contains("past the end of the data"), "{e}");

    let mut v = valid();
    v["annotations"][2]["core:sample_start"] = json!(1601);
    let e = SigmfRecording::open(recording(&dir, "late", &v, &data)).unwrap_err();
    assert_eq!(
        e.json_path(),
        Some("annotations[2].core:sample_start"),
        "{e}"
    );

    let mut v = valid();
    v["captures"][1]["core:sample_start"] = json!(1601);
    let e = SigmfRecording::open(recording(&dir, "cap", &v, &data)).unwrap_err();
    assert_eq!(e.json_path(), Some("captures[1].core:sample_start"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_data_file_of_partial_items_names_the_file_and_offset() {
    let dir = tempdir("partial");
    let meta = recording(&dir, "rec", &valid(), &vec![0u8; 1600 * 4 + 3]);
    let e = SigmfRecording::open(&meta).unwrap_err();
    let SigmfError::DataLength { offset, rest, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!((*offset, *rest), (6400, 3));
    let text = e.to_string();
    assert!(
        text.contains("rec.sigmf-data") && text.contains("byte offset 6400"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_files_are_named() {
    let dir = tempdir("missing");
    let e = SigmfRecording::open(dir.join("nothing.sigmf-meta")).unwrap_err();
    assert!(
        matches!(e, SigmfError::Io { .. }) && e.to_string().contains("nothing.sigmf-meta"),
        "{e}"
    );
    std::fs::write(
        dir.join("alone.sigmf-meta"),
        serde_json::to_vec(&valid()).unwrap(),
    )
    .unwrap();
    let e = SigmfRecording::open(dir.join("alone")).unwrap_err();
    assert!(e.to_string().contains("alone.sigmf-data"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn header_and_trailing_bytes_of_a_non_conforming_dataset_are_skipped() {
    let dir = tempdir("ncd");
    let mut v = valid();
    v["global"]["core:datatype"] = json!("ri8");
    v["global"]["core:dataset"] = json!("samples.bin");
    v["global"]["core:trailing_bytes"] = json!(2);
    v["captures"][0]["core:header_bytes"] = json!(4);
    v["captures"][1]["core:header_bytes"] = json!(3);
    v["annotations"] = json!([]);
    let meta = dir.join("ncd.sigmf-meta");
    std::fs::write(&meta, serde_json::to_vec(&v).unwrap()).unwrap();
    std::fs::write(dir.join("samples.bin"), vec![0u8; 4 + 1000 + 3 + 50 + 2]).unwrap();
    let r = SigmfRecording::open(&meta).unwrap();
    assert_eq!(r.samples(), 1050);
    assert_eq!(r.data_path(), dir.join("samples.bin"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_model_builds_valid_documents() {
    let mut m = SigmfMeta::new(SampleFormat::CF32);
    m.global.sample_rate = Some(1e6);
    m.captures.push(Capture {
        frequency: Some(433.92e6),
        ..Capture::at(0)
    });
    m.annotations.push(Annotation {
        sample_count: Some(5),
        label: Some("x".into()),
        ..Annotation::at(3)
    });
    let text = m.to_json_text(file()).unwrap();
    assert_eq!(SigmfMeta::parse(text.as_bytes(), file()).unwrap(), m);
    // What would not read back is refused, naming the path.
    m.captures[0].frequency = Some(f64::NAN);
    let e = m.to_json_text(file()).unwrap_err();
    assert_eq!(e.json_path(), Some("captures[0].core:frequency"), "{e}");
    m.captures[0].frequency = None;
    m.captures.push(Capture::at(0));
    m.captures[0].sample_start = 9;
    assert_eq!(
        m.to_json_text(file()).unwrap_err().json_path(),
        Some("captures[1].core:sample_start")
    );
}
