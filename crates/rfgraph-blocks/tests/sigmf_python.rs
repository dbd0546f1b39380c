//! Interoperability with the `sigmf` Python package, the SigMF project's
//! reference implementation (nobody here wrote it): recordings it writes
//! read correctly, and recordings rfgraph writes pass its validator and
//! read back with the same samples, captures and annotations.
//!
//! The Python side lives in `tests/sigmf_python/`. The interpreter is
//! `RFGRAPH_TEST_PYTHON` (`.ci/run` makes a venv with `sigmf` and sets
//! it), or `.venv/bin/python` in the workspace root. Without one the
//! tests say so and skip; under `CI=true` they fail instead.

mod sigmf_support;

use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph::{Pmt, Tag};
use rfgraph_blocks::sample_format::{Endian, ScalarType};
use rfgraph_blocks::sigmf::{SigmfSink, tag_keys};
use rfgraph_blocks::{SampleFormat, SampleItem};
use serde_json::{Value, json};
use sigmf_support::{Scratch, decode, exact_bytes, read, write};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python with the `sigmf` package, or `None` (after saying so) when
/// there is none and this is not CI.
fn python(test: &str) -> Option<PathBuf> {
    rfgraph_testkit::reference_python(test, "sigmf, numpy")
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sigmf_python")
        .join(name)
}

/// Runs a script; fails the test with its output unless it succeeds.
fn run_script(py: &Path, name: &str, arg: &Path) -> String {
    let out = Command::new(py)
        .arg(script(name))
        .arg(arg)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} failed:\n{text}");
    text
}

/// Stored values → bytes, written here independently of rfgraph's codec.
fn stored_bytes(format: SampleFormat, raw: &[Value]) -> Vec<u8> {
    let big = format.endian() == Endian::Big;
    let mut out = Vec::new();
    for v in raw {
        let n = v
            .as_i64()
            .map(i128::from)
            .or_else(|| v.as_u64().map(i128::from))
            .unwrap();
        let width = format.bytes_per_scalar();
        let le: Vec<u8> = match format.scalar() {
            // Float types arrive as bit patterns; integers as values.
            ScalarType::F32 | ScalarType::F64 => (n as u64).to_le_bytes()[..width].to_vec(),
            _ => (n as i64).to_le_bytes()[..width].to_vec(),
        };
        out.extend(if big {
            le.into_iter().rev().collect::<Vec<_>>()
        } else {
            le
        });
    }
    out
}

/// Stored bytes → values (integers, or float bit patterns), as JSON.
fn stored_values(format: SampleFormat, bytes: &[u8]) -> Vec<Value> {
    let width = format.bytes_per_scalar();
    bytes
        .chunks(width)
        .map(|c| {
            let mut le = c.to_vec();
            if format.endian() == Endian::Big {
                le.reverse();
            }
            let mut wide = [0u8; 8];
            wide[..width].copy_from_slice(&le);
            let bits = u64::from_le_bytes(wide);
            let shift = 64 - 8 * width as u32;
            match format.scalar() {
                ScalarType::F32
                | ScalarType::F64
                | ScalarType::U8
                | ScalarType::U16
                | ScalarType::U32 => {
                    json!(bits)
                }
                // Sign-extend.
                _ => json!(((bits << shift) as i64) >> shift),
            }
        })
        .collect()
}

/// The tags a SigMF capture or annotation object (as the package read it)
/// must become, built here from the JSON.
fn expected_tags(captures: &[Value], annotations: &[Value], rate: f64) -> Vec<Tag> {
    let mut tags = Vec::new();
    for c in captures {
        let at = c["core:sample_start"].as_u64().unwrap();
        tags.push(Tag::new(at, tag_keys::SAMPLE_RATE, rate));
        if let Some(f) = c.get("core:frequency") {
            tags.push(Tag::new(at, tag_keys::FREQUENCY, f.as_f64().unwrap()));
        }
        if let Some(d) = c.get("core:datetime") {
            tags.push(Tag::new(at, tag_keys::DATETIME, d.as_str().unwrap()));
        }
        if let Some(g) = c.get("core:global_index") {
            tags.push(Tag::new(at, tag_keys::GLOBAL_INDEX, g.as_u64().unwrap()));
        }
    }
    for a in annotations {
        let at = a["core:sample_start"].as_u64().unwrap();
        let mut m = BTreeMap::new();
        for (k, v) in a.as_object().unwrap() {
            let value = match (k.as_str(), v) {
                ("core:sample_start", _) => continue,
                ("core:sample_count", v) => Pmt::U64(v.as_u64().unwrap()),
                (_, Value::String(s)) => Pmt::String(s.clone()),
                (_, v) => Pmt::F64(v.as_f64().unwrap()),
            };
            m.insert(k.clone(), value);
        }
        tags.push(Tag::new(at, tag_keys::ANNOTATION, Pmt::Map(m)));
    }
    tags.sort_by_key(|t| t.index);
    tags
}

fn check_read<T: SampleItem + Default>(entry: &Value) {
    let name = entry["name"].as_str().unwrap();
    let format = SampleFormat::parse(entry["datatype"].as_str().unwrap()).unwrap();
    let (items, tags) = read::<T>(
        Path::new(entry["meta"].as_str().unwrap()),
        None,
        Box::new(Tpb::new()),
    );
    let floats: &[f32] = bytemuck::cast_slice(&items);
    // The stored values, decoded by rfgraph's documented scaling.
    let stored = stored_bytes(format, entry["raw"].as_array().unwrap());
    let want: Vec<T> = decode(format, &stored);
    assert_eq!(
        items.len(),
        entry["samples"].as_u64().unwrap() as usize,
        "{name}"
    );
    assert!(
        bytemuck::cast_slice::<T, u8>(&want) == bytemuck::cast_slice::<T, u8>(&items),
        "{name}: samples"
    );
    // The package's own scaling, bit for bit, where the conventions agree.
    if let Some(scaled) = entry["scaled_bits"].as_array() {
        let theirs: Vec<u32> = scaled.iter().map(|b| b.as_u64().unwrap() as u32).collect();
        let ours: Vec<u32> = floats.iter().map(|f| f.to_bits()).collect();
        assert!(
            theirs == ours,
            "{name}: samples differ from the package's read_samples()"
        );
    }
    let rate = entry["sample_rate"].as_f64().unwrap();
    let want = expected_tags(
        entry["captures"].as_array().unwrap(),
        entry["annotations"].as_array().unwrap(),
        rate,
    );
    assert_eq!(tags, want, "{name}: tags");
}

#[test]
fn recordings_written_by_the_sigmf_package_read_correctly() {
    let test = "recordings_written_by_the_sigmf_package_read_correctly";
    let Some(py) = python(test) else { return };
    let dir = Scratch::new("python-written");
    let said = run_script(&py, "write_recordings.py", &dir.0);
    eprintln!("{}", said.trim());
    let manifest: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.path("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest.len(), 28, "every datatype");
    for entry in &manifest {
        if entry["datatype"].as_str().unwrap().starts_with('c') {
            check_read::<Complex32>(entry);
        } else {
            check_read::<f32>(entry);
        }
    }
}

/// Writes one recording with captures and annotations from tags; returns
/// its manifest entry (what the package must read).
fn write_for_python<T: SampleItem + Default>(format: SampleFormat, dir: &Scratch) -> Value {
    use tag_keys::*;
    let name = format.sigmf_name();
    let meta = dir.path(&format!("{name}.sigmf-meta"));
    let stored = exact_bytes(format, 1000, 0xC0FFEE ^ format.bytes_per_item() as u64);
    let items: Vec<T> = decode(format, &stored);
    let mut edges = BTreeMap::new();
    edges.insert(COMMENT.to_string(), Pmt::from("edges"));
    edges.insert(FREQ_LOWER_EDGE.to_string(), Pmt::F64(433.9e6));
    edges.insert(FREQ_UPPER_EDGE.to_string(), Pmt::F64(433.95e6));
    edges.insert(SAMPLE_COUNT.to_string(), Pmt::U64(30));
    let tags = vec![
        Tag::new(0, SAMPLE_RATE, 2e6),
        Tag::new(0, FREQUENCY, 433.92e6),
        Tag::new(0, DATETIME, "2024-05-01T12:00:00.125Z"),
        Tag::new(100, LABEL, "burst"),
        Tag::new(100, SAMPLE_COUNT, 20u64),
        Tag::new(100, ANNOTATION, Pmt::Map(edges)),
        Tag::new(500, FREQUENCY, 434e6),
        Tag::new(999, LABEL, "end"),
    ];
    let sink = SigmfSink::<T>::create(&meta, format)
        .unwrap()
        .with_author("rfgraph test");
    write(items.clone(), tags, sink, Tpb::new()).unwrap();
    let floats: &[f32] = bytemuck::cast_slice(&items);
    let unsigned = matches!(
        format.scalar(),
        ScalarType::U8 | ScalarType::U16 | ScalarType::U32
    );
    json!({
        "meta": meta.to_str().unwrap(),
        "datatype": name,
        "samples": 1000,
        "sample_rate": 2e6,
        "raw": stored_values(format, &stored),
        "scaled_bits": if unsigned { Value::Null } else { json!(floats.iter().map(|f| f.to_bits()).collect::<Vec<_>>()) },
        "captures": [
            {"core:sample_start": 0, "core:frequency": 433.92e6, "core:datetime": "2024-05-01T12:00:00.125Z"},
            {"core:sample_start": 500, "core:frequency": 434e6}
        ],
        "annotations": [
            {"core:sample_start": 100, "core:sample_count": 30, "core:comment": "edges",
             "core:freq_lower_edge": 433.9e6, "core:freq_upper_edge": 433.95e6},
            {"core:sample_start": 100, "core:sample_count": 20, "core:label": "burst"},
            {"core:sample_start": 999, "core:label": "end"}
        ]
    })
}

#[test]
fn recordings_written_by_rfgraph_pass_the_sigmf_validator_and_read_the_same() {
    let test = "recordings_written_by_rfgraph_pass_the_sigmf_validator_and_read_the_same";
    let Some(py) = python(test) else { return };
    let dir = Scratch::new("rfgraph-written");
    let manifest: Vec<Value> = SampleFormat::all()
        .map(|f| {
            if f.is_complex() {
                write_for_python::<Complex32>(f, &dir)
            } else {
                write_for_python::<f32>(f, &dir)
            }
        })
        .collect();
    assert_eq!(manifest.len(), 28);
    let path = dir.path("manifest.json");
    std::fs::write(&path, serde_json::to_vec(&manifest).unwrap()).unwrap();
    let said = run_script(&py, "check_recordings.py", &path);
    eprintln!("{}", said.trim());
}

#[test]
fn a_recording_stopped_mid_file_passes_the_sigmf_validator() {
    use rfgraph::Flowgraph;
    use rfgraph_blocks::VectorSource;
    let test = "a_recording_stopped_mid_file_passes_the_sigmf_validator";
    let Some(py) = python(test) else { return };
    let dir = Scratch::new("stopped");
    let meta = dir.path("stopped.sigmf-meta");
    let period: Vec<Complex32> = (0..4096)
        .map(|i| Complex32::new((i as f32 / 4096.0) - 0.5, 0.25))
        .collect();
    let tags = vec![
        Tag::new(0, tag_keys::FREQUENCY, 1.2e9),
        Tag::new(1000, tag_keys::LABEL, "tick"),
        Tag::new(1000, tag_keys::SAMPLE_COUNT, 4000u64),
    ];
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(period).with_tags(tags).repeat(1 << 40));
    let sink = fg.add_named(
        "recorder",
        SigmfSink::<Complex32>::create(&meta, SampleFormat::CS16)
            .unwrap()
            .with_sample_rate(1e6),
    );
    fg.connect(src, "out", sink, "in").unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let handle = running.handle();
    let start = std::time::Instant::now();
    while handle
        .stats()
        .iter()
        .find(|s| s.block == "recorder")
        .map_or(0, |s| s.items_consumed)
        < 200_000
    {
        assert!(
            start.elapsed() < sigmf_support::WATCHDOG,
            "the sink never wrote"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    handle.stop();
    running.wait_timeout(sigmf_support::WATCHDOG).unwrap();
    let samples = std::fs::metadata(dir.path("stopped.sigmf-data"))
        .unwrap()
        .len()
        / 4;
    let check = "import sys, sigmf\n\
                 r = sigmf.fromfile(sys.argv[1])\n\
                 r.validate()\n\
                 n = int(sys.argv[2])\n\
                 assert r.sample_count == n, (r.sample_count, n)\n\
                 assert all(a['core:sample_start'] + a.get('core:sample_count', 0) <= n for a in r.get_annotations())\n\
                 assert len(r.read_samples()) == n\n\
                 print('sigmf validated a stopped recording of', n, 'samples,', len(r.get_annotations()), 'annotations')\n";
    let out = Command::new(&py)
        .args(["-W", "error", "-c", check])
        .arg(&meta)
        .arg(samples.to_string())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    let cli = Command::new(&py)
        .args(["-m", "sigmf.validate"])
        .arg(&meta)
        .output()
        .unwrap();
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    eprintln!("{}", text.trim());
}
