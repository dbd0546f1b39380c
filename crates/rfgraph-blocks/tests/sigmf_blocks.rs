//! `SigmfSource` and `SigmfSink` in flowgraphs: every datatype round-trips
//! bit for bit, captures and annotations arrive as tags on their samples
//! under every scheduler and come back as metadata, and a stop or a
//! failing disk leaves a valid recording.

mod common;
mod sigmf_support;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph::{Flowgraph, Map, Pmt, Tag};
use rfgraph_blocks::sigmf::{
    Annotation, Capture, SigmfError, SigmfMeta, SigmfRecording, SigmfSink, SigmfSource, tag_keys,
};
use rfgraph_blocks::{NullSink, SampleCodec, SampleFormat, SampleItem};
use serde_json::json;
use sigmf_support::{Scratch, bits, decode, exact_bytes, read, write};
use std::collections::BTreeMap;

/// Stored bytes → items → `SigmfSink` → the same bytes on disk;
/// `SigmfSource` → the same items; `SigmfSource<u8>` → the same bytes.
/// Then a known tone through the sink comes back as the format quantises
/// it.
fn round_trip<T: SampleItem + Default + PartialEq + std::fmt::Debug>(
    format: SampleFormat,
    dir: &Scratch,
) {
    let name = format.sigmf_name();
    let path = dir.path(&format!("{name}.sigmf-meta"));
    let stored = exact_bytes(format, 20_011, 0x5EED ^ format.bytes_per_item() as u64);
    let items: Vec<T> = decode(format, &stored);
    let sink = SigmfSink::<T>::create(&path, format)
        .unwrap()
        .with_sample_rate(1e6);
    write(items.clone(), vec![], sink, Tpb::new()).unwrap();
    let on_disk = std::fs::read(dir.path(&format!("{name}.sigmf-data"))).unwrap();
    assert!(
        on_disk == stored,
        "{name}: the data file differs from the samples written"
    );

    let (back, tags) = read::<T>(&path, None, Box::new(Tpb::new()));
    assert_eq!(back.len(), items.len(), "{name}");
    assert!(
        bits(&back) == bits(&items),
        "{name}: samples read back differ"
    );
    assert_eq!(
        tags,
        vec![Tag::new(0, tag_keys::SAMPLE_RATE, 1e6)],
        "{name}"
    );

    let (raw, raw_tags) = read::<u8>(&path, None, Box::new(Tpb::new()));
    assert!(raw == stored, "{name}: bytes read back differ");
    assert_eq!(raw_tags.len(), 1, "{name}");

    // A known signal: a tone at 0.9 of full scale, quantised once.
    let tone: Vec<f32> = (0..10_000 * if format.is_complex() { 2 } else { 1 })
        .map(|i| 0.9 * (i as f32 * 0.0123).sin())
        .collect();
    let tone_items: Vec<T> = bytemuck::cast_slice(&tone).to_vec();
    let codec = SampleCodec::new(format);
    let mut quantised = vec![0u8; tone_items.len() * format.bytes_per_item()];
    T::encode(&codec, &tone_items, &mut quantised);
    let expected: Vec<T> = decode(format, &quantised);
    let sink = SigmfSink::<T>::create(&path, format).unwrap();
    write(tone_items, vec![], sink, Tpb::new()).unwrap();
    let (back, _) = read::<T>(&path, None, Box::new(Tpb::new()));
    assert!(
        bits(&back) == bits(&expected),
        "{name}: the tone differs from its quantisation"
    );
}

#[test]
fn every_datatype_round_trips_bit_for_bit() {
    let dir = Scratch::new("round-trip");
    let formats: Vec<SampleFormat> = SampleFormat::all().collect();
    assert_eq!(formats.len(), 28);
    for format in formats {
        if format.is_complex() {
            round_trip::<Complex32>(format, &dir);
        } else {
            round_trip::<f32>(format, &dir);
        }
    }
}

/// A ci16_le recording with three captures and four annotations.
fn tagged_recording(dir: &Scratch, samples: usize) -> std::path::PathBuf {
    let path = dir.path("tagged.sigmf-meta");
    let mut meta = SigmfMeta::new(SampleFormat::CS16);
    meta.global.sample_rate = Some(2.4e6);
    meta.global.description = Some("three captures".into());
    let mut ext = serde_json::Map::new();
    ext.insert("antenna:type".into(), json!("dipole"));
    meta.captures = vec![
        Capture {
            frequency: Some(100e6),
            datetime: Some("2024-05-01T12:00:00Z".into()),
            ..Capture::at(0)
        },
        Capture {
            frequency: Some(101e6),
            global_index: Some(9_000),
            extra: ext,
            ..Capture::at(777)
        },
        Capture {
            frequency: Some(102e6),
            datetime: Some("2024-05-01T12:00:01.5Z".into()),
            ..Capture::at(5000)
        },
    ];
    meta.annotations = vec![
        Annotation {
            sample_count: Some(10),
            label: Some("first".into()),
            ..Annotation::at(0)
        },
        Annotation {
            comment: Some("same sample".into()),
            ..Annotation::at(0)
        },
        Annotation {
            sample_count: Some(1),
            freq_lower_edge: Some(99e6),
            freq_upper_edge: Some(101e6),
            label: Some("last".into()),
            ..Annotation::at(samples as u64 - 1)
        },
        Annotation {
            sample_count: Some(100),
            label: Some("mid".into()),
            ..Annotation::at(4000)
        },
    ];
    meta.annotations.sort_by_key(|a| a.sample_start);
    meta.write(&path).unwrap();
    std::fs::write(
        dir.path("tagged.sigmf-data"),
        exact_bytes(SampleFormat::CS16, samples, 7),
    )
    .unwrap();
    path
}

fn map(entries: &[(&str, Pmt)]) -> Pmt {
    Pmt::Map(
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<BTreeMap<_, _>>(),
    )
}

fn expected_tags(samples: u64) -> Vec<Tag> {
    use tag_keys::*;
    vec![
        Tag::new(0, SAMPLE_RATE, 2.4e6),
        Tag::new(0, FREQUENCY, 100e6),
        Tag::new(0, DATETIME, "2024-05-01T12:00:00Z"),
        Tag::new(
            0,
            ANNOTATION,
            map(&[(SAMPLE_COUNT, Pmt::U64(10)), (LABEL, "first".into())]),
        ),
        Tag::new(0, ANNOTATION, map(&[(COMMENT, "same sample".into())])),
        Tag::new(777, SAMPLE_RATE, 2.4e6),
        Tag::new(777, FREQUENCY, 101e6),
        Tag::new(777, GLOBAL_INDEX, 9_000u64),
        Tag::new(777, "antenna:type", "dipole"),
        Tag::new(
            4000,
            ANNOTATION,
            map(&[(SAMPLE_COUNT, Pmt::U64(100)), (LABEL, "mid".into())]),
        ),
        Tag::new(5000, SAMPLE_RATE, 2.4e6),
        Tag::new(5000, FREQUENCY, 102e6),
        Tag::new(5000, DATETIME, "2024-05-01T12:00:01.5Z"),
        Tag::new(
            samples - 1,
            ANNOTATION,
            map(&[
                (SAMPLE_COUNT, Pmt::U64(1)),
                (FREQ_LOWER_EDGE, Pmt::F64(99e6)),
                (FREQ_UPPER_EDGE, Pmt::F64(101e6)),
                (LABEL, "last".into()),
            ]),
        ),
    ]
}

#[test]
fn capture_and_annotation_tags_arrive_on_their_samples_under_every_scheduler() {
    let dir = Scratch::new("tags");
    let samples = 9_001;
    let path = tagged_recording(&dir, samples);
    let stored = exact_bytes(SampleFormat::CS16, samples, 7);
    let want_items: Vec<Complex32> = decode(SampleFormat::CS16, &stored);
    for scheduler in every_scheduler() {
        let name = scheduler.name().to_string();
        // Through a 1:1 block, so the runtime moves the tags too.
        let middle: Box<dyn FnOnce(&mut Flowgraph) -> _> = Box::new(|fg: &mut Flowgraph| {
            let m = fg.add(Map::new(|x: Complex32| x));
            (m, m)
        });
        let (items, tags) = read::<Complex32>(&path, Some(middle), scheduler);
        assert!(bits(&items) == bits(&want_items), "{name}: samples");
        assert_eq!(tags, expected_tags(samples as u64), "{name}: tags");
    }
    // `u8` items: the same tags, on each sample's first byte.
    let (_, tags) = read::<u8>(&path, None, Box::new(Tpb::new()));
    let scaled: Vec<Tag> = expected_tags(samples as u64)
        .into_iter()
        .map(|t| Tag {
            index: t.index * 4,
            ..t
        })
        .collect();
    assert_eq!(tags, scaled);
}

#[test]
fn a_sink_records_captures_annotations_and_rate_from_tags() {
    use tag_keys::*;
    let dir = Scratch::new("sink-tags");
    let path = dir.path("out.sigmf-meta");
    let tags = vec![
        Tag::new(0, SAMPLE_RATE, 1e6),
        Tag::new(0, FREQUENCY, 433.92e6),
        Tag::new(0, "rfgraph:burst_start", Pmt::Null),
        Tag::new(50, LABEL, "key fob"),
        Tag::new(50, SAMPLE_COUNT, 30u64),
        Tag::new(50, COMMENT, "one annotation from three tags"),
        Tag::new(100, DATETIME, "2024-05-01T12:00:00.0001Z"),
        Tag::new(100, "antenna:type", "yagi"),
        Tag::new(
            120,
            ANNOTATION,
            map(&[(LABEL, "whole".into()), (SAMPLE_COUNT, Pmt::U64(5000))]),
        ),
        Tag::new(150, SAMPLE_RATE, 1e6),
        Tag::new(200, FREQUENCY, 434e6),
        Tag::new(300, "my:flag", true),
    ];
    let sink = SigmfSink::<Complex32>::create(&path, SampleFormat::CF32)
        .unwrap()
        .with_description("from tags");
    write(
        vec![Complex32::new(0.5, -0.5); 1000],
        tags,
        sink,
        Tpb::new(),
    )
    .unwrap();
    let r = SigmfRecording::open(&path).unwrap();
    let m = r.meta();
    assert_eq!(m.global.sample_rate, Some(1e6));
    assert_eq!(m.global.description.as_deref(), Some("from tags"));
    assert_eq!(m.global.version.as_deref(), Some("1.2.6"));
    let caps: Vec<(u64, Option<f64>, Option<&str>)> = m
        .captures
        .iter()
        .map(|c| (c.sample_start, c.frequency, c.datetime.as_deref()))
        .collect();
    assert_eq!(
        caps,
        vec![
            (0, Some(433.92e6), None),
            // The frequency still holds when only the time is new.
            (100, Some(433.92e6), Some("2024-05-01T12:00:00.0001Z")),
            (200, Some(434e6), None),
        ]
    );
    assert_eq!(m.captures[1].extra["antenna:type"], json!("yagi"));
    let anns: Vec<(u64, Option<u64>, Option<&str>)> = m
        .annotations
        .iter()
        .map(|a| (a.sample_start, a.sample_count, a.label.as_deref()))
        .collect();
    // The annotation reaching past the end is cut at the end.
    assert_eq!(
        anns,
        vec![
            (50, Some(30), Some("key fob")),
            (120, Some(880), Some("whole")),
            (300, None, None)
        ]
    );
    assert_eq!(
        m.annotations[0].comment.as_deref(),
        Some("one annotation from three tags")
    );
    assert_eq!(m.annotations[2].extra["my:flag"], json!(true));
}

#[test]
fn tags_a_recording_cannot_hold_fail_the_run_naming_the_tag() {
    use tag_keys::*;
    let dir = Scratch::new("bad-tags");
    for (tag, words) in [
        (Tag::new(10, FREQUENCY, "fm"), "core:frequency"),
        (Tag::new(10, DATETIME, "noon"), "ISO-8601"),
        (Tag::new(10, FREQUENCY, f64::NAN), "not a JSON number"),
        (Tag::new(10, ANNOTATION, 3u64), "map"),
        (Tag::new(10, SAMPLE_RATE, 2e6), "one sample rate"),
    ] {
        let path = dir.path("bad.sigmf-meta");
        let sink = SigmfSink::<f32>::create(&path, SampleFormat::F32).unwrap();
        let tags = vec![Tag::new(0, SAMPLE_RATE, 1e6), tag];
        let e = write(vec![0.0f32; 100], tags, sink, Tpb::new())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("item 10") && e.contains(words) && e.contains("bad.sigmf-meta"),
            "{e}"
        );
        // The recording on disk is still valid.
        SigmfRecording::open(&path).unwrap();
    }
}

#[test]
fn source_to_sink_copies_captures_annotations_and_global_fields() {
    let dir = Scratch::new("copy");
    let samples = 6_000;
    let input = tagged_recording(&dir, samples);
    let out = dir.path("copy.sigmf-meta");
    let src = SigmfSource::<Complex32>::open(&input).unwrap();
    let global = src.recording().unwrap().meta().global.clone();
    let format = SampleFormat::parse("ci16_be").unwrap();
    let mut fg = Flowgraph::new();
    let a = fg.add(src);
    let b = fg.add(
        SigmfSink::<Complex32>::create(&out, format)
            .unwrap()
            .with_global(&global),
    );
    fg.connect(a, "out", b, "in").unwrap();
    fg.run_bounded(Tpb::new()).unwrap();
    let original = SigmfRecording::open(&input).unwrap();
    let copy = SigmfRecording::open(&out).unwrap();
    assert_eq!(copy.samples(), samples as u64);
    assert_eq!(copy.meta().captures, original.meta().captures);
    assert_eq!(copy.meta().annotations, original.meta().annotations);
    assert_eq!(
        copy.meta().global.description,
        original.meta().global.description
    );
    assert_eq!(copy.meta().global.datatype, format);
    // ci16_le → Complex32 → ci16_be: the same integers, byte-swapped.
    let a = std::fs::read(original.data_path()).unwrap();
    let b = std::fs::read(copy.data_path()).unwrap();
    let swapped: Vec<u8> = a.chunks(2).flat_map(|c| [c[1], c[0]]).collect();
    assert!(b == swapped);
}

#[test]
fn stopping_mid_file_leaves_a_valid_recording() {
    let dir = Scratch::new("stop");
    for scheduler in every_scheduler() {
        let name = scheduler.name().to_string();
        let path = dir.path(&format!("{name}.sigmf-meta"));
        let period: Vec<Complex32> = (0..10_000)
            .map(|i| Complex32::new(i as f32 / 1e4, 0.25))
            .collect();
        let tags = vec![
            Tag::new(0, tag_keys::FREQUENCY, 1e9),
            Tag::new(5000, tag_keys::LABEL, "half"),
            Tag::new(5000, tag_keys::SAMPLE_COUNT, 9_000u64),
        ];
        let mut fg = Flowgraph::new();
        let src = fg.add(
            rfgraph_blocks::VectorSource::new(period)
                .with_tags(tags)
                .repeat(1 << 40),
        );
        let sink = fg.add_named(
            "recorder",
            SigmfSink::<Complex32>::create(&path, SampleFormat::CF32)
                .unwrap()
                .with_sample_rate(1e6),
        );
        fg.connect(src, "out", sink, "in").unwrap();
        let running = fg.start(scheduler).unwrap();
        let handle = running.handle();
        let start = std::time::Instant::now();
        let written = || {
            handle
                .stats()
                .iter()
                .find(|s| s.block == "recorder")
                .map_or(0, |s| s.items_consumed)
        };
        while written() < 300_000 {
            assert!(
                start.elapsed() < common::WATCHDOG,
                "{name}: the sink never wrote"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        handle.stop();
        common::wait_within(running, common::WATCHDOG).unwrap();
        let r = SigmfRecording::open(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let n = r.samples();
        assert!(n >= 300_000, "{name}: {n}");
        assert!(!r.meta().captures.is_empty());
        assert!(
            r.meta()
                .captures
                .iter()
                .all(|c| c.sample_start < n && c.frequency == Some(1e9))
        );
        assert!(
            r.meta()
                .annotations
                .iter()
                .all(|a| a.sample_start + a.sample_count.unwrap() <= n),
            "{name}"
        );
        // Every period's annotation that started is there.
        assert_eq!(
            r.meta().annotations.len() as u64,
            (n + 5000) / 10_000,
            "{name}"
        );
    }
}

#[test]
fn a_datatype_that_does_not_give_the_item_type_is_a_constructor_error() {
    let dir = Scratch::new("mismatch");
    let path = tagged_recording(&dir, 9_001);
    let e = SigmfSource::<f32>::open(&path).err().unwrap();
    assert!(matches!(e, SigmfError::ItemType { .. }), "{e}");
    assert!(e.to_string().contains("Complex32"), "{e}");
    let e = SigmfSink::<Complex32>::create(dir.path("x"), SampleFormat::F32)
        .err()
        .unwrap();
    assert!(matches!(e, SigmfError::ItemType { .. }), "{e}");
}

#[test]
fn a_data_file_that_shrinks_while_playing_fails_naming_the_offset() {
    let dir = Scratch::new("shrink");
    let path = tagged_recording(&dir, 9_001);
    let src = SigmfSource::<Complex32>::open(&path).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(dir.path("tagged.sigmf-data"))
        .unwrap()
        .set_len(4000)
        .unwrap();
    let mut fg = Flowgraph::new();
    let a = fg.add(src);
    let b = fg.add(NullSink::<Complex32>::new());
    fg.connect(a, "out", b, "in").unwrap();
    let e = fg.run_bounded(Tpb::new()).err().unwrap().to_string();
    assert!(
        e.contains("tagged.sigmf-data")
            && e.contains("byte offset 4000")
            && e.contains("ended early"),
        "{e}"
    );
}

/// Data writes to `/dev/full` fail at once: the run fails naming the file
/// and offset 0, and the metadata is written for the zero samples.
#[test]
fn a_full_disk_fails_the_run_and_still_writes_the_meta() {
    if !std::path::Path::new("/dev/full").exists() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipping a_full_disk_fails_the_run_and_still_writes_the_meta: no /dev/full"
        );
        return;
    }
    let dir = Scratch::new("full");
    let path = dir.path("full.sigmf-meta");
    std::os::unix::fs::symlink("/dev/full", dir.path("full.sigmf-data")).unwrap();
    let sink = SigmfSink::<Complex32>::create(&path, SampleFormat::CF32)
        .unwrap()
        .with_frequency(1e8)
        .with_sample_rate(1e6);
    let tags = vec![Tag::new(10, tag_keys::LABEL, "lost")];
    let e = write(
        vec![Complex32::new(1.0, 0.0); 300_000],
        tags,
        sink,
        Tpb::new(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("full.sigmf-data") && e.contains("byte offset 0") && e.contains("No space left"),
        "{e}"
    );
    let meta = SigmfMeta::read(&path).unwrap();
    assert_eq!(meta.global.sample_rate, Some(1e6));
    assert_eq!(
        meta.captures,
        vec![Capture {
            frequency: Some(1e8),
            ..Capture::at(0)
        }]
    );
    assert!(meta.annotations.is_empty(), "no annotation past the data");
}

/// A file-size limit (`RLIMIT_FSIZE`, in a child process so no other test
/// feels it) makes the data file fill up mid-item: the items before stay,
/// cut to whole items, and the metadata describes exactly them.
#[test]
fn a_disk_that_fills_mid_file_keeps_the_items_written() {
    const LIMIT: u64 = 3_000_003;
    if std::env::var_os("RFGRAPH_FSIZE_CHILD").is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "a_disk_that_fills_mid_file_keeps_the_items_written",
                "--nocapture",
            ])
            .env("RFGRAPH_FSIZE_CHILD", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "the child failed:\n{text}");
        assert!(text.contains("1 passed"), "the child ran no test:\n{text}");
        return;
    }
    // SAFETY: plain libc calls on this process; no memory is shared.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let lim = libc::rlimit {
            rlim_cur: LIMIT,
            rlim_max: LIMIT,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &lim), 0);
    }
    let dir = Scratch::new("fsize");
    let path = dir.path("fill.sigmf-meta");
    let items: Vec<Complex32> = (0..1_000_000)
        .map(|i| Complex32::new(i as f32, -(i as f32)))
        .collect();
    let tags = vec![
        Tag::new(0, tag_keys::FREQUENCY, 2.4e9),
        Tag::new(100_000, tag_keys::LABEL, "kept"),
        Tag::new(100_000, tag_keys::SAMPLE_COUNT, 10u64),
        Tag::new(374_990, tag_keys::LABEL, "cut"),
        Tag::new(374_990, tag_keys::SAMPLE_COUNT, 100u64),
        Tag::new(600_000, tag_keys::LABEL, "never written"),
    ];
    let sink = SigmfSink::<Complex32>::create(&path, SampleFormat::CF32).unwrap();
    let e = write(items.clone(), tags, sink, Tpb::new())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("fill.sigmf-data") && e.contains(&format!("byte offset {LIMIT}")),
        "{e}"
    );
    let r = SigmfRecording::open(&path).unwrap();
    assert_eq!(r.samples(), LIMIT / 8);
    assert_eq!(
        std::fs::metadata(r.data_path()).unwrap().len(),
        LIMIT / 8 * 8
    );
    let data = std::fs::read(r.data_path()).unwrap();
    assert!(data == bytemuck::cast_slice::<Complex32, u8>(&items[..(LIMIT / 8) as usize]));
    let anns: Vec<(u64, Option<u64>)> = r
        .meta()
        .annotations
        .iter()
        .map(|a| (a.sample_start, a.sample_count))
        .collect();
    assert_eq!(anns, vec![(100_000, Some(10)), (374_990, Some(10))]);
}
