//! `WavSource` and `WavSink`: generated signals written and read back bit
//! for bit (after 16-bit quantisation) on every scheduler, mono to three
//! channels; files written by GNU Radio's `wavfile_sink` read as expected
//! (fixtures in `tests/data/wav/`, written by its `generate.py`); our
//! files read by Python's `wave` module and by GNU Radio's
//! `wavfile_source`; a stop or a failure leaves a valid file; bad files
//! and paths give errors that name them.

mod common;

use common::{RunBounded, WATCHDOG, every_scheduler};
use rfgraph::scheduler::Tpb;
use rfgraph::tag::keys;
use rfgraph::{Block, BoxError, Flowgraph, Pmt, Ports, StreamOutput, Tag, WorkIo};
use rfgraph_blocks::{
    Head, NoiseKind, NoiseSource, SignalSource, SignalSourceParams, VectorSink, VectorSource,
    WavFormat, WavSink, WavSource, Waveform,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A fresh path for this test's file (in Cargo's scratch directory).
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wav");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/wav")
}

/// What a 16-bit WAV file holds for `x` (`x · 2^15`, half to even,
/// saturated), written independently of the sink's own code.
fn pcm16(x: f32) -> i16 {
    let v = (x as f64 * 32768.0).round_ties_even();
    v.clamp(-32768.0, 32767.0) as i16
}

/// What reading a sample written from `x` gives back.
fn after(format: WavFormat, x: f32) -> f32 {
    match format {
        WavFormat::Pcm16 => pcm16(x) as f32 / 32768.0,
        WavFormat::Float32 => x,
    }
}

/// An endless `waveform` source's parameters.
fn tone(
    sample_rate: f64,
    waveform: Waveform,
    frequency: f64,
    amplitude: f64,
) -> SignalSourceParams {
    SignalSourceParams {
        sample_rate,
        waveform,
        frequency,
        amplitude,
        ..Default::default()
    }
}

/// Channel `c` of the test signal: a sine above full scale (so 16-bit
/// files clip), Gaussian noise, a sawtooth.
fn channel(c: usize, frames: u64) -> Box<dyn FnOnce(&mut Flowgraph) -> rfgraph::BlockId> {
    Box::new(move |fg| match c {
        0 => fg.add(
            SignalSource::<f32>::new(SignalSourceParams {
                items: Some(frames),
                ..tone(48_000.0, Waveform::Sine, 997.0, 1.2)
            })
            .unwrap(),
        ),
        1 => fg.add(
            NoiseSource::<f32>::new(NoiseKind::Gaussian, 0.25, 9)
                .unwrap()
                .limit(frames),
        ),
        _ => fg.add(
            SignalSource::<f32>::new(SignalSourceParams {
                offset: (-0.25).into(),
                items: Some(frames),
                ..tone(48_000.0, Waveform::Sawtooth, 300.0, 0.5)
            })
            .unwrap(),
        ),
    })
}

/// Writes `channels` channels of the test signal to `path` on
/// `scheduler`: the samples sent, per channel.
fn write_signal(
    scheduler: Box<dyn rfgraph::Scheduler>,
    path: &Path,
    channels: usize,
    frames: u64,
    format: WavFormat,
) -> Vec<Vec<f32>> {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let wav = fg.add(WavSink::new(path, channels, 48_000, format).unwrap());
    let mut taps = Vec::new();
    for c in 0..channels {
        let src = channel(c, frames)(&mut fg);
        let tap = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", wav, &format!("in{c}")).unwrap();
        fg.connect(src, "out", tap, "in").unwrap();
        taps.push(tap);
    }
    let done = fg.run_bounded(scheduler).unwrap();
    assert_eq!(done.block::<WavSink>(wav).unwrap().frames(), frames);
    taps.iter()
        .map(|&t| done.block::<VectorSink<f32>>(t).unwrap().items().to_vec())
        .collect()
}

/// Reads `path` with `WavSource` on `scheduler`: items and tags per
/// channel.
fn read_back(scheduler: Box<dyn rfgraph::Scheduler>, path: &Path) -> Vec<(Vec<f32>, Vec<Tag>)> {
    let src = WavSource::open(path).unwrap();
    let channels = src.channels();
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(src);
    let sinks: Vec<_> = (0..channels)
        .map(|c| {
            let sink = fg.add(VectorSink::<f32>::new());
            fg.connect(src, &format!("out{c}"), sink, "in").unwrap();
            sink
        })
        .collect();
    let done = fg.run_bounded(scheduler).unwrap();
    sinks
        .iter()
        .map(|&s| {
            let sink = done.block::<VectorSink<f32>>(s).unwrap();
            (sink.items().to_vec(), sink.tags().to_vec())
        })
        .collect()
}

#[test]
fn generated_signals_round_trip_bit_for_bit_after_quantisation() {
    let frames = 30_011;
    for format in [WavFormat::Pcm16, WavFormat::Float32] {
        for channels in [1, 2, 3] {
            for (write_on, read_on) in every_scheduler()
                .into_iter()
                .zip(every_scheduler().into_iter().rev())
            {
                let what = format!(
                    "{format:?} × {channels}, {} then {}",
                    write_on.name(),
                    read_on.name()
                );
                let path = scratch(&format!("round-trip-{format:?}-{channels}.wav"));
                let sent = write_signal(write_on, &path, channels, frames, format);
                let got = read_back(read_on, &path);
                assert_eq!(got.len(), channels, "{what}");
                for (c, ((items, tags), sent)) in got.iter().zip(&sent).enumerate() {
                    assert_eq!(items.len(), frames as usize, "{what}, channel {c}");
                    for (i, (&a, &x)) in items.iter().zip(sent).enumerate() {
                        assert_eq!(
                            a.to_bits(),
                            after(format, x).to_bits(),
                            "{what}, channel {c}, frame {i}: {a} from {x}"
                        );
                    }
                    assert_eq!(
                        tags,
                        &[Tag::new(0, keys::SAMPLE_RATE, Pmt::F64(48_000.0))],
                        "{what}, channel {c}"
                    );
                }
                if format == WavFormat::Pcm16 {
                    assert!(got[0].0.contains(&(32767.0 / 32768.0)), "the sine clips");
                    assert!(got[0].0.contains(&-1.0), "the sine clips");
                }
            }
        }
    }
}

/// GNU Radio's sink (libsndfile) stores `round(x · 32767)`; reading
/// divides by 32768, as libsndfile itself does.
#[test]
fn files_written_by_gnu_radio_read_as_expected() {
    let signal: Vec<f32> = std::fs::read(fixtures().join("signal.f32"))
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let (left, right) = signal.split_at(1000);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let stereo = WavSource::open(fixtures().join("gr_pcm16_stereo.wav")).unwrap();
        assert_eq!(
            (stereo.channels(), stereo.sample_rate(), stereo.frames()),
            (2, 22050, 1000)
        );
        let got = read_back(s, &fixtures().join("gr_pcm16_stereo.wav"));
        for (c, sent) in [left, right].iter().enumerate() {
            for (i, (&a, &x)) in got[c].0.iter().zip(sent.iter()).enumerate() {
                let stored = (x as f64 * 32767.0).round_ties_even();
                assert_eq!(
                    a as f64,
                    stored / 32768.0,
                    "{name}: channel {c}, frame {i} from {x}"
                );
            }
            assert_eq!(
                got[c].1,
                [Tag::new(0, keys::SAMPLE_RATE, Pmt::F64(22050.0))]
            );
        }
    }
    // The float file holds a `fact` and a `PEAK` chunk before its data.
    let got = read_back(Box::new(Tpb::new()), &fixtures().join("gr_float_mono.wav"));
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, left);
    assert_eq!(got[0].1, [Tag::new(0, keys::SAMPLE_RATE, Pmt::F64(8000.0))]);
}

/// Debian's Python if it can import `module`; otherwise `None` after one
/// line naming the test on standard error (a failure under CI).
fn python_with(module: &str, test: &str) -> Option<&'static str> {
    rfgraph_testkit::gnuradio(test, module).then_some(rfgraph_testkit::GNURADIO_PYTHON)
}

/// Runs `script` with `python` and the given arguments; its stdout.
fn run_python(python: &str, script: &str, args: &[&Path]) -> String {
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn pythons_wave_module_reads_our_16_bit_files() {
    let Some(python) = python_with("wave", "pythons_wave_module_reads_our_16_bit_files") else {
        return;
    };
    let path = scratch("for-python-wave.wav");
    let raw = scratch("for-python-wave.raw");
    let sent = write_signal(Box::new(Tpb::new()), &path, 2, 5000, WavFormat::Pcm16);
    let script = "import sys, wave\n\
        w = wave.open(sys.argv[1], 'rb')\n\
        print(w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes(), w.getcomptype())\n\
        open(sys.argv[2], 'wb').write(w.readframes(w.getnframes()))\n";
    let params = run_python(python, script, &[&path, &raw]);
    assert_eq!(params.trim(), "2 2 48000 5000 NONE");
    let bytes = std::fs::read(&raw).unwrap();
    let samples: Vec<i16> = bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(samples.len(), 2 * 5000);
    for (i, frame) in samples.chunks_exact(2).enumerate() {
        for c in 0..2 {
            assert_eq!(frame[c], pcm16(sent[c][i]), "frame {i}, channel {c}");
        }
    }
}

#[test]
fn gnu_radios_wavfile_source_reads_our_files() {
    let test = "gnu_radios_wavfile_source_reads_our_files";
    let Some(python) = python_with("gnuradio.blocks", test) else {
        return;
    };
    let script = "import sys\n\
        import numpy as np\n\
        from gnuradio import blocks, gr\n\
        tb = gr.top_block()\n\
        src = blocks.wavfile_source(sys.argv[1], False)\n\
        sinks = [blocks.vector_sink_f() for _ in range(src.channels())]\n\
        for n, s in enumerate(sinks):\n\
        \x20   tb.connect((src, n), s)\n\
        tb.run()\n\
        print(src.channels(), src.sample_rate(), src.bits_per_sample())\n\
        np.array([s.data() for s in sinks], dtype='<f4').tofile(sys.argv[2])\n";
    for format in [WavFormat::Float32, WavFormat::Pcm16] {
        let path = scratch(&format!("for-gnuradio-{format:?}.wav"));
        let raw = scratch(&format!("for-gnuradio-{format:?}.raw"));
        let sent = write_signal(Box::new(Tpb::new()), &path, 2, 4000, format);
        let params = run_python(python, script, &[&path, &raw]);
        let bits = if format == WavFormat::Pcm16 { 16 } else { 32 };
        assert_eq!(params.trim(), format!("2 48000 {bits}"), "{format:?}");
        let floats: Vec<f32> = std::fs::read(&raw)
            .unwrap()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(floats.len(), 2 * 4000, "{format:?}");
        for (c, got) in floats.chunks_exact(4000).enumerate() {
            for (i, (&a, &x)) in got.iter().zip(&sent[c]).enumerate() {
                assert_eq!(a, after(format, x), "{format:?}, channel {c}, frame {i}");
            }
        }
    }
}

#[test]
fn repeat_starts_over_and_tags_only_the_first_item() {
    let path = scratch("repeat.wav");
    let sent = write_signal(Box::new(Tpb::new()), &path, 2, 1000, WavFormat::Float32);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(WavSource::open(&path).unwrap().repeat(true));
        let head = fg.add(Head::<f32>::new(2500));
        let sink = fg.add(VectorSink::<f32>::new());
        // An endless source ends when no output has a reader left: every
        // channel needs its own end.
        let head_right = fg.add(Head::<f32>::new(10));
        let right = fg.add(rfgraph_blocks::NullSink::<f32>::new());
        fg.connect(src, "out0", head, "in").unwrap();
        fg.connect(head, "out", sink, "in").unwrap();
        fg.connect(src, "out1", head_right, "in").unwrap();
        fg.connect(head_right, "out", right, "in").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let sink = done.block::<VectorSink<f32>>(sink).unwrap();
        let expected: Vec<f32> = sent[0].iter().copied().cycle().take(2500).collect();
        assert_eq!(sink.items(), expected, "{name}");
        assert_eq!(sink.tags().len(), 1, "{name}");
    }
}

#[test]
fn uneven_inputs_write_whole_frames_and_empty_files_are_valid() {
    let path = scratch("uneven.wav");
    let mut fg = Flowgraph::new();
    let a = fg.add(VectorSource::new(vec![0.25f32; 100]));
    let b = fg.add(VectorSource::new(vec![-0.5f32; 60]));
    let wav = fg.add(WavSink::new(&path, 2, 8000, WavFormat::Pcm16).unwrap());
    fg.connect(a, "out", wav, "in0").unwrap();
    fg.connect(b, "out", wav, "in1").unwrap();
    fg.run_bounded(Tpb::new()).unwrap();
    let got = read_back(Box::new(Tpb::new()), &path);
    assert_eq!(got[0].0, vec![0.25; 60]);
    assert_eq!(got[1].0, vec![-0.5; 60]);

    let empty = scratch("empty.wav");
    let mut fg = Flowgraph::new();
    let a = fg.add(VectorSource::new(Vec::<f32>::new()));
    let wav = fg.add(WavSink::new(&empty, 1, 8000, WavFormat::Float32).unwrap());
    fg.connect(a, "out", wav, "in0").unwrap();
    fg.run_bounded(Tpb::new()).unwrap();
    assert_eq!(WavSource::open(&empty).unwrap().frames(), 0);
    for s in every_scheduler() {
        let got = read_back(s, &empty);
        assert!(got[0].0.is_empty() && got[0].1.is_empty());
    }
}

/// Waits (bounded by the watchdog) until `path` holds more than `bytes`.
fn wait_for_size(path: &Path, bytes: u64) {
    let start = Instant::now();
    while std::fs::metadata(path).map_or(0, |m| m.len()) <= bytes {
        assert!(start.elapsed() < WATCHDOG, "{} never grew", path.display());
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// The header of the float files hound writes: `WAVE_FORMAT_EXTENSIBLE`,
/// 68 bytes up to the data.
const FLOAT_HEADER: u64 = 68;

/// Reads a WAV file with `hound` directly: its frames are consistent with
/// its length (the header was finalised) and its samples as `f32`.
fn valid_float_file(path: &Path) -> Vec<f32> {
    let len = std::fs::metadata(path).unwrap().len();
    let mut r = hound::WavReader::open(path).unwrap();
    assert_eq!(
        len,
        FLOAT_HEADER + 4 * r.len() as u64,
        "the header counts every sample"
    );
    r.samples::<f32>().map(|s| s.unwrap()).collect()
}

#[test]
fn a_stop_leaves_a_valid_file_with_every_frame_written() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let path = scratch(&format!("stopped-{name}.wav"));
        let mut fg = Flowgraph::new();
        let src =
            fg.add(SignalSource::<f32>::new(tone(8000.0, Waveform::Triangle, 100.0, 0.9)).unwrap());
        let wav = fg.add(WavSink::new(&path, 1, 8000, WavFormat::Float32).unwrap());
        fg.connect(src, "out", wav, "in0").unwrap();
        let running = fg.start(s).unwrap();
        wait_for_size(&path, 100_000);
        running.handle().stop();
        let done = running.wait_timeout(WATCHDOG).unwrap();
        let written = done.block::<WavSink>(wav).unwrap().frames();
        let samples = valid_float_file(&path);
        assert_eq!(samples.len() as u64, written, "{name}");
        assert!(written >= 25_000, "{name}: {written}");
        let mut fg = Flowgraph::new();
        let src = fg.add(
            SignalSource::<f32>::new(SignalSourceParams {
                items: Some(written),
                ..tone(8000.0, Waveform::Triangle, 100.0, 0.9)
            })
            .unwrap(),
        );
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", sink, "in").unwrap();
        let done = fg.run_bounded(Tpb::new()).unwrap();
        assert_eq!(
            samples,
            done.block::<VectorSink<f32>>(sink).unwrap().items(),
            "{name}"
        );
    }
}

/// Produces `0, 1, 2, …` up to `fail_at`, then fails.
struct FailAfter {
    out: StreamOutput<f32>,
    next: usize,
    fail_at: usize,
}

impl Block for FailAfter {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.out)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if self.next == self.fail_at {
            return Err("deliberate failure".into());
        }
        let out = self.out.slice();
        let n = out.len().min(self.fail_at - self.next);
        for (k, o) in out[..n].iter_mut().enumerate() {
            *o = (self.next + k) as f32;
        }
        self.out.produce(n);
        self.next += n;
        Ok(())
    }
}

#[test]
fn a_failure_elsewhere_leaves_a_valid_file() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let path = scratch(&format!("failed-{name}.wav"));
        let mut fg = Flowgraph::new();
        let src = fg.add(FailAfter {
            out: StreamOutput::new("out"),
            next: 0,
            fail_at: 50_000,
        });
        let wav = fg.add(WavSink::new(&path, 1, 8000, WavFormat::Float32).unwrap());
        fg.connect(src, "out", wav, "in0").unwrap();
        let e = fg.run_bounded(s).err().unwrap().to_string();
        assert!(e.contains("deliberate failure"), "{name}: {e}");
        let samples = valid_float_file(&path);
        assert!(samples.len() <= 50_000, "{name}");
        for (i, v) in samples.iter().enumerate() {
            assert_eq!(*v, i as f32, "{name}");
        }
    }
}

#[test]
fn bad_files_and_paths_give_errors_that_name_them() {
    let missing = scratch("does-not-exist.wav");
    let e = WavSource::open(&missing).err().unwrap().to_string();
    assert!(
        e.starts_with(&format!("{}: cannot open", missing.display())),
        "{e}"
    );

    let text = scratch("not-a-wav.wav");
    std::fs::write(&text, "RIFF? no, just text that is long enough to be read").unwrap();
    let e = WavSource::open(&text).err().unwrap().to_string();
    assert!(
        e.starts_with(&format!("{}: not a valid WAV file", text.display())),
        "{e}"
    );

    // A file cut inside its data: the frames before the cut arrive, then
    // the run fails naming the file and the frame.
    let whole = scratch("whole.wav");
    write_signal(Box::new(Tpb::new()), &whole, 1, 10_000, WavFormat::Float32);
    let cut = scratch("cut.wav");
    let bytes = std::fs::read(&whole).unwrap();
    assert_eq!(bytes.len() as u64, FLOAT_HEADER + 4 * 10_000);
    std::fs::write(&cut, &bytes[..FLOAT_HEADER as usize + 4 * 6000 + 1]).unwrap();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(WavSource::open(&cut).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out0", sink, "in").unwrap();
        let e = fg.run_bounded(s).err().unwrap().to_string();
        assert!(
            e.contains(&format!("{}: cannot read frame 6000", cut.display())),
            "{name}: {e}"
        );
        assert!(e.contains("header promises 10000 frames"), "{name}: {e}");
    }

    // A sink whose file cannot be created fails the run before it starts.
    let nowhere = scratch("no-such-dir").join("out.wav");
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![0.0f32; 10]));
    let wav = fg.add(WavSink::new(&nowhere, 1, 8000, WavFormat::Pcm16).unwrap());
    fg.connect(src, "out", wav, "in0").unwrap();
    let e = fg.run_bounded(Tpb::new()).err().unwrap().to_string();
    assert!(
        e.contains(&format!("{}: cannot create", nowhere.display())),
        "{e}"
    );
    assert!(!nowhere.exists());
}

#[test]
fn ports_follow_the_channels() {
    let path = scratch("ports.wav");
    write_signal(Box::new(Tpb::new()), &path, 3, 10, WavFormat::Pcm16);
    let mut src = WavSource::open(&path).unwrap();
    assert_eq!(src.channels(), 3);
    assert_eq!(src.path(), path);
    assert!(src.is_blocking());
    let _ = src.ports();
    let mut fg = Flowgraph::new();
    let id = fg.add(WavSource::open(&path).unwrap());
    let sink = fg.add(VectorSink::<f32>::new());
    let e = fg
        .connect(id, "out3", sink, "in")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("out3"), "{e}");
    let mut wav = WavSink::new(&path, 2, 8000, WavFormat::Pcm16).unwrap();
    assert!(wav.is_blocking());
    let _ = wav.ports();
}
