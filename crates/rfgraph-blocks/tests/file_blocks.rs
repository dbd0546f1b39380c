//! `FileSource` and `FileSink`: round trips through every format and
//! scheduler, offsets, lengths, repeats, the throttle, the sample-rate tag,
//! raw bytes, and bad input (missing files, partial items, ranges past the
//! end, a full disk, a stop), each an error naming the file.

mod common;

use common::{RunBounded, WATCHDOG, every_scheduler};
use num_complex::Complex32;
use rfgraph::{Flowgraph, Pmt, RunError};
use rfgraph_blocks::{
    FileError, FileSink, FileSource, Head, SampleCodec, SampleFormat, SampleItem, SinkMode,
    VectorSink, VectorSource,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rfgraph-file-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A known complex signal: two tones, a ramp and the full-scale edges,
/// within ±1 except for a few samples beyond it (which clip).
fn signal(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|k| {
            let t = k as f32;
            let re = 0.6 * (0.013 * t).sin() + 0.3 * (0.21 * t).cos();
            let im = 0.7 * (0.017 * t).cos() - 0.25 * ((k % 97) as f32 / 97.0);
            match k % 1009 {
                0 => Complex32::new(1.0, -1.0),
                1 => Complex32::new(1.5, -1.5),
                _ => Complex32::new(re, im),
            }
        })
        .collect()
}

fn real_signal(n: usize) -> Vec<f32> {
    signal(n).iter().map(|c| c.re).collect()
}

/// What `format` keeps of `x`: encoded then decoded by the codec alone.
fn quantised<T: SampleItem>(format: SampleFormat, x: &[T]) -> Vec<T> {
    let codec = SampleCodec::new(format);
    let mut bytes = vec![0u8; x.len() * format.bytes_per_item()];
    codec.encode(x, &mut bytes);
    let mut back = x.to_vec();
    codec.decode(&bytes, &mut back);
    back
}

fn write_file<T: SampleItem>(
    path: &Path,
    format: SampleFormat,
    x: Vec<T>,
    s: Box<dyn rfgraph::Scheduler>,
) -> u64 {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(VectorSource::new(x));
    let sink = fg.add(FileSink::<T>::create(path, format).unwrap());
    fg.chain(&[src, sink]).unwrap();
    let done = fg.run_bounded(s).unwrap();
    done.block::<FileSink<T>>(sink).unwrap().file_len()
}

fn read_file<T: SampleItem>(src: FileSource<T>, s: Box<dyn rfgraph::Scheduler>) -> Vec<T> {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(src);
    let sink = fg.add(VectorSink::<T>::new());
    fg.chain(&[src, sink]).unwrap();
    let done = fg.run_bounded(s).unwrap();
    done.block::<VectorSink<T>>(sink).unwrap().items().to_vec()
}

fn same_bits<T: bytemuck::Pod>(a: &[T], b: &[T]) -> bool {
    bytemuck::cast_slice::<T, u8>(a) == bytemuck::cast_slice::<T, u8>(b)
}

#[test]
fn every_format_round_trips_bit_for_bit_after_quantisation() {
    let dir = scratch("round-trip");
    let n = 20_000;
    for format in SampleFormat::all() {
        let path = dir.join(format.sigmf_name());
        let sched = || Box::new(rfgraph::scheduler::Tpb::new()) as Box<dyn rfgraph::Scheduler>;
        if format.is_complex() {
            let x = signal(n);
            let len = write_file(&path, format, x.clone(), sched());
            assert_eq!(len, (n * format.bytes_per_item()) as u64, "{format}");
            assert_eq!(std::fs::metadata(&path).unwrap().len(), len, "{format}");
            let src = FileSource::<Complex32>::new(&path, format).unwrap();
            let got = read_file(src, sched());
            let want = quantised(format, &x);
            assert!(same_bits(&got, &want), "{format}");
            if format.scalar().is_float() {
                // Floats keep everything (f64 widens exactly).
                assert!(same_bits(&got, &x), "{format}");
            }
        } else {
            let x = real_signal(n);
            write_file(&path, format, x.clone(), sched());
            let got = read_file(FileSource::<f32>::new(&path, format).unwrap(), sched());
            assert!(same_bits(&got, &quantised(format, &x)), "{format}");
        }
    }
}

#[test]
fn raw_tool_formats_round_trip_on_every_scheduler() {
    let dir = scratch("schedulers");
    let n = 50_000;
    for name in ["cu8", "cs8", "cs16", "cf32", "f32", "i16", "u8"] {
        let format = SampleFormat::parse(name).unwrap();
        for (w, r) in every_scheduler().into_iter().zip(every_scheduler()) {
            let sched = w.name().to_string();
            let path = dir.join(format!("{name}-{sched}"));
            if format.is_complex() {
                let x = signal(n);
                write_file(&path, format, x.clone(), w);
                let got = read_file(FileSource::<Complex32>::new(&path, format).unwrap(), r);
                assert!(same_bits(&got, &quantised(format, &x)), "{name} on {sched}");
            } else {
                let x = real_signal(n);
                write_file(&path, format, x.clone(), w);
                let got = read_file(FileSource::<f32>::new(&path, format).unwrap(), r);
                assert!(same_bits(&got, &quantised(format, &x)), "{name} on {sched}");
            }
        }
    }
}

#[test]
fn hand_made_files_decode_with_the_documented_scaling() {
    let dir = scratch("hand-made");
    let sched = || Box::new(rfgraph::scheduler::Single::new());
    let cu8 = dir.join("x.cu8");
    std::fs::write(&cu8, [0u8, 255, 127, 128]).unwrap();
    let got = read_file(
        FileSource::<Complex32>::new(&cu8, SampleFormat::CU8).unwrap(),
        sched(),
    );
    assert_eq!(
        got,
        [
            Complex32::new(-1.0, 1.0),
            Complex32::new(-0.5 / 127.5, 0.5 / 127.5)
        ]
    );
    let cs16 = dir.join("x.cs16");
    std::fs::write(&cs16, [0x00, 0x40, 0x00, 0xC0]).unwrap();
    let got = read_file(
        FileSource::<Complex32>::new(&cs16, SampleFormat::CS16).unwrap(),
        sched(),
    );
    assert_eq!(got, [Complex32::new(0.5, -0.5)]);
    // GNU Radio's convention: no scaling.
    let got = read_file(
        FileSource::<Complex32>::new(&cs16, SampleFormat::CS16)
            .unwrap()
            .scale(1.0)
            .unwrap(),
        sched(),
    );
    assert_eq!(got, [Complex32::new(16384.0, -16384.0)]);
    // Raw bytes pass through, whatever the format.
    let got = read_file(
        FileSource::<u8>::new(&cs16, SampleFormat::CS16).unwrap(),
        sched(),
    );
    assert_eq!(got, [0x00, 0x40, 0x00, 0xC0]);
}

#[test]
fn offset_length_and_repeat_play_the_range_again_and_again() {
    let dir = scratch("range");
    let path = dir.join("ramp.f32");
    let values: Vec<f32> = (0..100).map(|v| v as f32).collect();
    std::fs::write(&path, bytemuck::cast_slice::<f32, u8>(&values)).unwrap();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let src = FileSource::<f32>::new(&path, SampleFormat::F32)
            .unwrap()
            .offset(10)
            .unwrap()
            .length(20)
            .unwrap()
            .repeat(true)
            .unwrap();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(src);
        let head = fg.add(Head::<f32>::new(75));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, head, sink]).unwrap();
        let done = fg.run_bounded(s).unwrap();
        let got = done
            .block::<VectorSink<f32>>(sink)
            .unwrap()
            .items()
            .to_vec();
        let want: Vec<f32> = (10..30).cycle().take(75).map(|v| v as f32).collect();
        assert_eq!(got, want, "{name}");
    }
    // Offset alone plays to the end, once.
    let src = FileSource::<f32>::new(&path, SampleFormat::F32)
        .unwrap()
        .offset(95)
        .unwrap();
    assert_eq!(src.items_per_pass(), 5);
    let got = read_file(src, Box::new(rfgraph::scheduler::Tpb::new()));
    assert_eq!(got, [95.0, 96.0, 97.0, 98.0, 99.0]);
    // Offset at the end: nothing, and the run ends.
    let src = FileSource::<f32>::new(&path, SampleFormat::F32)
        .unwrap()
        .offset(100)
        .unwrap();
    assert!(read_file(src, Box::new(rfgraph::scheduler::Pool::new())).is_empty());
}

#[test]
fn a_large_file_streams_through_small_rings() {
    // 16 MiB through 4 KiB rings: thousands of reads, every one at its offset.
    let dir = scratch("large");
    let path = dir.join("big.cs16");
    let n = 4 << 20;
    let bytes: Vec<u8> = (0..n as u32)
        .flat_map(|k| (k as u16).to_le_bytes())
        .collect();
    std::fs::write(&path, &bytes).unwrap();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let codec = SampleCodec::with_scale(SampleFormat::CS16, 1.0).unwrap();
        let src = FileSource::<Complex32>::new(&path, SampleFormat::CS16)
            .unwrap()
            .scale(1.0)
            .unwrap();
        assert_eq!(src.codec().scale(), codec.scale());
        let got = read_file(src, s);
        assert_eq!(got.len(), n / 2, "{name}");
        let ok = got.iter().enumerate().all(|(i, c)| {
            c.re == ((2 * i) as u16 as i16) as f32 && c.im == ((2 * i + 1) as u16 as i16) as f32
        });
        assert!(ok, "{name}: wrong samples");
    }
}

#[test]
fn the_sample_rate_tag_marks_the_first_item() {
    let dir = scratch("tag");
    let path = dir.join("x.cu8");
    std::fs::write(&path, [0u8; 64]).unwrap();
    let src = FileSource::<Complex32>::new(&path, SampleFormat::CU8)
        .unwrap()
        .sample_rate(2.4e6);
    let mut fg = Flowgraph::new();
    let src = fg.add(src);
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, sink]).unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let sink = done.block::<VectorSink<Complex32>>(sink).unwrap();
    assert_eq!(sink.items().len(), 32);
    let tags: Vec<(u64, &str, Pmt)> = sink
        .tags()
        .iter()
        .map(|t| (t.index, t.key.as_str(), t.value.clone()))
        .collect();
    assert_eq!(tags, [(0, "core:sample_rate", Pmt::F64(2.4e6))]);
}

#[test]
fn the_throttle_never_runs_ahead_of_its_rate() {
    let dir = scratch("throttle");
    let path = dir.join("x.f32");
    std::fs::write(&path, vec![0u8; 4 * 4000]).unwrap();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let src = FileSource::<f32>::new(&path, SampleFormat::F32)
            .unwrap()
            .throttle(40_000.0)
            .unwrap();
        let start = Instant::now();
        let got = read_file(src, s);
        // 4000 items at 40 000/s: the last can leave no earlier than 0.1 s
        // after the first call (a lower bound only; never a timing test).
        assert_eq!(got.len(), 4000, "{name}");
        assert!(
            start.elapsed() >= Duration::from_millis(99),
            "{name}: {:?}",
            start.elapsed()
        );
    }
    let e = FileSource::<f32>::new(&path, SampleFormat::F32)
        .unwrap()
        .throttle(0.0)
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("throttle") && e.to_string().contains("x.f32"),
        "{e}"
    );
}

#[test]
fn bad_files_are_errors_naming_the_file_and_offset() {
    let dir = scratch("bad");
    // Missing.
    let missing = dir.join("missing.cu8");
    let e = FileSource::<Complex32>::new(&missing, SampleFormat::CU8)
        .err()
        .unwrap();
    assert!(matches!(e, FileError::Open { .. }));
    let text = e.to_string();
    assert!(
        text.contains("missing.cu8") && text.contains("No such file"),
        "{text}"
    );
    // A directory.
    let e = FileSource::<Complex32>::new(&dir, SampleFormat::CU8)
        .err()
        .unwrap();
    assert!(e.to_string().contains(&*dir.to_string_lossy()), "{e}");
    // Not a whole number of items: 1001 bytes of 4-byte cs16.
    let odd = dir.join("odd.cs16");
    std::fs::write(&odd, vec![0u8; 1001]).unwrap();
    let e = FileSource::<Complex32>::new(&odd, SampleFormat::CS16)
        .err()
        .unwrap();
    match &e {
        FileError::PartialItem { offset, len, .. } => assert_eq!((*offset, *len), (1000, 1001)),
        other => panic!("{other}"),
    }
    let text = e.to_string();
    assert!(
        text.contains("odd.cs16") && text.contains("byte offset 1000"),
        "{text}"
    );
    // Ranges past the end.
    let ok = dir.join("ok.cu8");
    std::fs::write(&ok, vec![0u8; 200]).unwrap();
    let e = FileSource::<Complex32>::new(&ok, SampleFormat::CU8)
        .unwrap()
        .offset(101)
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("ok.cu8") && e.to_string().contains("past the end"),
        "{e}"
    );
    let e = FileSource::<Complex32>::new(&ok, SampleFormat::CU8)
        .unwrap()
        .offset(50)
        .unwrap()
        .length(51)
        .err()
        .unwrap();
    assert!(e.to_string().contains("byte offset 202"), "{e}");
    let e = FileSource::<Complex32>::new(&ok, SampleFormat::CU8)
        .unwrap()
        .offset(100)
        .unwrap()
        .repeat(true)
        .err()
        .unwrap();
    assert!(e.to_string().contains("nothing to repeat"), "{e}");
    // The wrong item type for the format.
    let e = FileSource::<f32>::new(&ok, SampleFormat::CU8)
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("ok.cu8") && e.to_string().contains("complex"),
        "{e}"
    );
    let e = FileSink::<Complex32>::create(dir.join("o.f32"), SampleFormat::F32)
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("o.f32") && e.to_string().contains("real"),
        "{e}"
    );
    // A sink in a directory that does not exist.
    let e = FileSink::<Complex32>::create(dir.join("no/such/dir.cf32"), SampleFormat::CF32)
        .err()
        .unwrap();
    assert!(e.to_string().contains("dir.cf32"), "{e}");
    // Appending to a file with a partial item.
    let e = FileSink::<Complex32>::append(&odd, SampleFormat::CS16)
        .err()
        .unwrap();
    assert!(e.to_string().contains("byte offset 1000"), "{e}");
}

#[test]
fn a_file_that_shrinks_before_the_run_fails_init() {
    let dir = scratch("shrink");
    let path = dir.join("x.cs8");
    std::fs::write(&path, vec![0u8; 100]).unwrap();
    let src = FileSource::<Complex32>::new(&path, SampleFormat::CS8)
        .unwrap()
        .offset(40)
        .unwrap();
    std::fs::write(&path, vec![0u8; 51]).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(src);
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, sink]).unwrap();
    let e = fg
        .run_bounded(rfgraph::scheduler::Tpb::new())
        .err()
        .unwrap();
    assert!(matches!(e, RunError::Init { .. }), "{e}");
    assert!(
        e.to_string().contains("x.cs8") && e.to_string().contains("byte offset 50"),
        "{e}"
    );
}

#[test]
fn the_sink_appends_or_truncates() {
    let dir = scratch("append");
    let path = dir.join("x.cs8");
    let sched = || Box::new(rfgraph::scheduler::Single::new()) as Box<dyn rfgraph::Scheduler>;
    let a = vec![Complex32::new(0.5, -0.5); 10];
    let b = vec![Complex32::new(-0.25, 0.25); 5];
    write_file(&path, SampleFormat::CS8, a.clone(), sched());
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(b.clone()));
    let sink =
        fg.add(FileSink::<Complex32>::new(&path, SampleFormat::CS8, SinkMode::Append).unwrap());
    fg.chain(&[src, sink]).unwrap();
    let done = fg.run_bounded(sched()).unwrap();
    assert_eq!(
        done.block::<FileSink<Complex32>>(sink).unwrap().file_len(),
        30
    );
    let got = read_file(
        FileSource::<Complex32>::new(&path, SampleFormat::CS8).unwrap(),
        sched(),
    );
    assert_eq!(got, [a.clone(), b.clone()].concat());
    write_file(&path, SampleFormat::CS8, b.clone(), sched());
    let got = read_file(
        FileSource::<Complex32>::new(&path, SampleFormat::CS8).unwrap(),
        sched(),
    );
    assert_eq!(got, b);
}

#[test]
fn a_full_disk_fails_the_run_naming_the_file() {
    // /dev/full answers every write with ENOSPC.
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(signal(100_000)));
        let sink = fg.add(FileSink::<Complex32>::create("/dev/full", SampleFormat::CF32).unwrap());
        fg.chain(&[src, sink]).unwrap();
        let e = fg.run_bounded(s).err().unwrap();
        assert!(matches!(e, RunError::BlockFailed { .. }), "{name}: {e}");
        let text = e.to_string();
        assert!(
            text.contains("/dev/full")
                && text.contains("byte offset 0")
                && text.contains("No space"),
            "{name}: {text}"
        );
    }
}

/// The child half of the next test: runs with a file size limit, so the
/// disk "fills" after `LIMIT` bytes (EFBIG, as ENOSPC for the sink).
const FSIZE_CHILD: &str = "RFGRAPH_FILE_TEST_FSIZE_CHILD";
/// Not a multiple of the write size: the last write is a partial one.
const LIMIT: u64 = (1 << 20) + 1000;

#[test]
fn a_disk_that_fills_keeps_what_was_written() {
    let dir = std::env::var_os(FSIZE_CHILD).map(PathBuf::from);
    let Some(dir) = dir else {
        // Parent: run this test alone in a child process with the limit.
        let dir = scratch("disk-full");
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "a_disk_that_fills_keeps_what_was_written",
                "--test-threads=1",
            ])
            .env(FSIZE_CHILD, &dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "the child failed: {}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    };
    // SAFETY: plain libc calls on this process's own limits and signal
    // disposition; this child process runs only this test.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let lim = libc::rlimit {
            rlim_cur: LIMIT,
            rlim_max: libc::RLIM_INFINITY,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &lim), 0);
    }
    let path = dir.join("full.cs16");
    let n = 3 * LIMIT as usize / 4; // three times the limit in cs16
    let x = signal(n);
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(x.clone()));
    let sink = fg.add(FileSink::<Complex32>::create(&path, SampleFormat::CS16).unwrap());
    fg.chain(&[src, sink]).unwrap();
    let e = fg
        .run_bounded(rfgraph::scheduler::Tpb::new())
        .err()
        .unwrap();
    let text = e.to_string();
    assert!(
        text.contains("full.cs16") && text.contains(&format!("byte offset {LIMIT}")),
        "{text}"
    );
    // Everything up to the limit is on disk, and is the signal's start.
    assert_eq!(std::fs::metadata(&path).unwrap().len(), LIMIT);
    let got = read_file(
        FileSource::<Complex32>::new(&path, SampleFormat::CS16).unwrap(),
        Box::new(rfgraph::scheduler::Tpb::new()),
    );
    let want = quantised(SampleFormat::CS16, &x[..LIMIT as usize / 4]);
    assert!(same_bits(&got, &want));
}

#[test]
fn a_stopped_sink_writes_everything_it_received() {
    let dir = scratch("stop");
    for s in every_scheduler() {
        let name = s.name().to_string();
        let path = dir.join(format!("{name}.f32"));
        let ramp: Vec<f32> = (0..1000).map(|v| v as f32).collect();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(ramp).repeat(u64::MAX / 2000));
        let sink = fg.add(FileSink::<f32>::create(&path, SampleFormat::F32).unwrap());
        fg.chain(&[src, sink]).unwrap();
        let running = fg.start(s).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        running.handle().stop();
        let done = common::wait_within(running, WATCHDOG).unwrap();
        let len = done.block::<FileSink<f32>>(sink).unwrap().file_len();
        assert!(len > 0 && len.is_multiple_of(4), "{name}: {len}");
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            bytes.len() as u64,
            len,
            "{name}: the buffer was not written out"
        );
        let got: &[f32] = bytemuck::cast_slice(&bytes);
        let ok = got.iter().enumerate().all(|(i, &v)| v == (i % 1000) as f32);
        assert!(ok, "{name}: the file is not the stream's prefix");
    }
}
