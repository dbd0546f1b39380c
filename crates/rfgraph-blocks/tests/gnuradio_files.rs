//! Files written by GNU Radio 3.10's `blocks.file_sink` read back with the
//! same values: float and complex exactly, and GNU Radio's interleaved
//! short/char converters agree with rfgraph's quantisation bit for bit.
//! The GNU Radio side is `fixtures/gnuradio_file_sink.py`, run by
//! `/usr/bin/python3` (Debian's `python3-gnuradio`; `.ci/run` installs
//! it). Without GNU Radio the test skips with one line, except under
//! `CI=true`, where it fails.

mod common;

use common::RunBounded;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph_blocks::{FileSource, SampleCodec, SampleFormat, SampleItem, VectorSink};
use std::path::Path;
use std::process::Command;

const PYTHON: &str = rfgraph_testkit::GNURADIO_PYTHON;
const N: usize = 4096;

/// The script's `value(k)`: an integer numerator divided in double, then
/// narrowed to `f32` (as GNU Radio's vector sources do).
fn value_exact(k: usize) -> f64 {
    (((k * 37) % 2001) as i64 - 1000) as f64 / 1000.0
}

fn floats() -> Vec<f32> {
    let mut v: Vec<f32> = (0..N).map(|k| value_exact(k) as f32).collect();
    v.extend([
        0.0,
        -0.0,
        1e-40f64 as f32,
        -3.0e38,
        3.0e38,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ]);
    v
}

fn complexes() -> Vec<Complex32> {
    (0..N)
        .map(|k| Complex32::new(value_exact(k) as f32, (value_exact(k + 7) * 1.25) as f32))
        .collect()
}

fn read<T: SampleItem>(path: &Path, format: SampleFormat) -> Vec<T> {
    let mut fg = Flowgraph::new();
    let src = fg.add(FileSource::<T>::new(path, format).unwrap());
    let sink = fg.add(VectorSink::<T>::new());
    fg.chain(&[src, sink]).unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    done.block::<VectorSink<T>>(sink).unwrap().items().to_vec()
}

fn bits<T: bytemuck::Pod>(x: &[T]) -> &[u8] {
    bytemuck::cast_slice(x)
}

#[test]
fn files_written_by_gnu_radio_read_with_the_same_values() {
    if !rfgraph_testkit::gnuradio(
        "files_written_by_gnu_radio_read_with_the_same_values",
        "gnuradio.blocks",
    ) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("rfgraph-gr-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gnuradio_file_sink.py");
    let out = Command::new(PYTHON)
        .arg(&script)
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} failed: {}\n{}",
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );

    let got: Vec<f32> = read(&dir.join("gr_float.f32"), SampleFormat::F32);
    assert_eq!(bits(&got), bits(&floats()), "float file_sink");

    let want = complexes();
    let got: Vec<Complex32> = read(&dir.join("gr_complex.cf32"), SampleFormat::CF32);
    assert_eq!(bits(&got), bits(&want), "gr_complex file_sink");

    // GNU Radio's converters scale, round to nearest even and clip as the
    // codec does: the files hold the codec's bytes, so they decode to the
    // codec's quantisation of the vector.
    for (file, format) in [
        ("gr_short.cs16", SampleFormat::CS16),
        ("gr_char.cs8", SampleFormat::CS8),
    ] {
        let codec = SampleCodec::new(format);
        let mut ours = vec![0u8; want.len() * format.bytes_per_item()];
        codec.encode(&want, &mut ours);
        let theirs = std::fs::read(dir.join(file)).unwrap();
        assert_eq!(theirs, ours, "{file}: GNU Radio's bytes");
        let got: Vec<Complex32> = read(&dir.join(file), format);
        let mut decoded = vec![Complex32::new(0.0, 0.0); want.len()];
        codec.decode(&ours, &mut decoded);
        assert_eq!(bits(&got), bits(&decoded), "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
