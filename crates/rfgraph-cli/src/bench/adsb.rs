//! The `adsb` experiment: decoding a long Mode S recording from a file,
//! rfgraph's receiver against Debian's `dump1090-mutability`, in one run.
//!
//! | mode | what runs | on |
//! |---|---|---|
//! | `rfgraph-2000` | `FileSource<u8>` → `Cu8Magnitude` → `ModesDemod` (2 MS/s) → `ModesDecoder` | the 2 MS/s file |
//! | `rfgraph-2400` | the same at 2.4 MS/s | the 2.4 MS/s file |
//! | `dump1090` | `dump1090-mutability --ifile F --quiet --stats` | the 2.4 MS/s file |
//!
//! The input is the real recording (`testdata/adsb/modes1-part1.cu8`,
//! dump1090's modes1 at 2 MS/s) repeated to `--mib` MiB. dump1090-mutability
//! reads only 2.4 MS/s, so the same recording is also resampled to 2.4 MS/s
//! (rational 6/5 polyphase resampler from `rfgraph-dsp`, its Kaiser
//! low-pass cut at 1 MHz as `scipy.signal.resample_poly(x, 6, 5)` cuts
//! it) and repeated as many
//! times: both files hold the same signal, 2.4 MS/s holding 1.2 times the
//! samples. The files live in `--dir` (default /dev/shm, so they are in
//! memory), are read once before any timing, and are removed at the end
//! unless `--keep`.
//!
//! `seconds` is [`setup::run_timed`]'s span for rfgraph and process start
//! to exit for dump1090 (which reads its file in a thread of its own, and
//! converts and demodulates in its main one; `--quiet` prints nothing,
//! `--stats` its counts at exit). Rates: `samples_per_s` (samples of the
//! file it read), `realtime` (seconds of signal per second). `frames`
//! counts the messages decoded (rfgraph's decoder, dump1090's "total
//! usable messages"), `frames_per_pass` per repetition of the recording.
//! The medians and ratios are printed on stderr at the end.

use super::setup::GraphOpts;
use super::{Record, Span, setup};
use crate::console::errln;
use anyhow::{Context, bail};
use clap::Args;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph_blocks::{FileSource, SampleCodec, SampleFormat};
use rfgraph_dsp::{Ccf, RationalResampler};
use rfgraph_radio::modes::{Cu8Magnitude, ModesDecoder, ModesDemod};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Every mode, in the order `all` runs them.
pub const MODES: &[&str] = &["rfgraph-2000", "rfgraph-2400", "dump1090"];

/// Options of `rfgraph bench adsb`.
#[derive(Args, Debug, Clone)]
pub struct AdsbArgs {
    /// Modes, comma-separated: rfgraph-2000, rfgraph-2400, dump1090, or
    /// all (dump1090 only when installed).
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub mode: Vec<String>,
    /// Size of the 2 MS/s file, MiB (the 2.4 MS/s one is 1.2 times it).
    #[arg(long, default_value_t = 256)]
    pub mib: u64,
    /// The recording to repeat (default: testdata/adsb/modes1-part1.cu8).
    #[arg(long)]
    pub recording: Option<PathBuf>,
    /// Folder for the files (default: /dev/shm, else the temporary folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Keep the files afterwards (they are reused if their size fits).
    #[arg(long)]
    pub keep: bool,
    /// dump1090-mutability's binary.
    #[arg(long, default_value = "/usr/bin/dump1090-mutability")]
    pub dump1090: PathBuf,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// The two input files.
struct Files {
    cu8_2000: PathBuf,
    cu8_2400: PathBuf,
    /// Repetitions of the recording in each.
    passes: u64,
    /// Samples of one pass at 2 and 2.4 MS/s.
    pass_2000: u64,
    pass_2400: u64,
}

fn recording_path(args: &AdsbArgs) -> PathBuf {
    args.recording.clone().unwrap_or_else(|| {
        let local = PathBuf::from("testdata/adsb/modes1-part1.cu8");
        if local.exists() {
            local
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/adsb/modes1-part1.cu8")
        }
    })
}

/// `cu8` bytes at 2 MS/s to `cu8` bytes at 2.4 MS/s (6/5).
pub fn resample_6_5(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let codec = SampleCodec::new(SampleFormat::CU8);
    let mut x = vec![Complex32::new(0.0, 0.0); bytes.len() / 2];
    codec.decode(&bytes[..2 * x.len()], &mut x);
    // scipy's resample_poly puts the cutoff (−6 dB) at the input's
    // Nyquist frequency, 1 MHz: Mode S pulses need all of that band.
    // Pass band to 0.9 MHz, stop band from 1.1 MHz, at the 12 MHz
    // upsampled rate, gain 6 for unity overall.
    let taps: Vec<f32> = rfgraph_dsp::design::kaiser_lowpass(12.0e6, 1.0e6, 0.2e6, 60.0)?
        .into_iter()
        .map(|t| 6.0 * t)
        .collect();
    let mut r = RationalResampler::<Ccf>::with_taps(6, 5, &taps, rfgraph_dsp::Isa::detect())?;
    // Room for every output, plus the filter's tail (the input followed
    // by silence, so nothing at the end is lost).
    let n_out = x.len() * 6 / 5;
    x.resize(x.len() + 256, Complex32::new(0.0, 0.0));
    let mut y = vec![Complex32::new(0.0, 0.0); x.len() * 6 / 5 + 8];
    let (_, made) = r.process(&x, &mut y);
    // Skip the filter's group delay so both files line up.
    let delay = (made.saturating_sub(n_out)) / 2;
    let y = &y[delay.min(made)..(delay + n_out).min(made)];
    let mut out = vec![0u8; 2 * y.len()];
    codec.encode(y, &mut out);
    Ok(out)
}

impl Files {
    fn new(args: &AdsbArgs) -> anyhow::Result<Self> {
        let dir = setup::files_dir(args.dir.as_deref());
        if args.mib == 0 {
            bail!("--mib must be positive");
        }
        let rec = recording_path(args);
        let bytes =
            std::fs::read(&rec).with_context(|| format!("cannot read {}", rec.display()))?;
        if bytes.len() < 2 {
            bail!("{} holds no samples", rec.display());
        }
        let pass_2000 = (bytes.len() / 2) as u64;
        let passes = (args.mib << 20).div_ceil(bytes.len() as u64).max(1);
        let files = Self {
            cu8_2000: dir.join("rfgraph-bench-adsb-2000.cu8"),
            cu8_2400: dir.join("rfgraph-bench-adsb-2400.cu8"),
            passes,
            pass_2000,
            pass_2400: 0,
        };
        let resampled = resample_6_5(&bytes)?;
        let files = Self {
            pass_2400: (resampled.len() / 2) as u64,
            ..files
        };
        for (path, pass) in [(&files.cu8_2000, &bytes), (&files.cu8_2400, &resampled)] {
            let want = pass.len() as u64 * passes;
            if std::fs::metadata(path).map_or(true, |m| m.len() != want) {
                let mut f = std::io::BufWriter::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("cannot create {}", path.display()))?,
                );
                for _ in 0..passes {
                    f.write_all(pass)?;
                }
                f.flush()?;
            }
            // Into the page cache before any timing.
            let mut buf = vec![0u8; 1 << 20];
            let mut r = std::fs::File::open(path)?;
            while r.read(&mut buf)? > 0 {}
        }
        Ok(files)
    }

    fn remove(&self) {
        let _ = std::fs::remove_file(&self.cu8_2000);
        let _ = std::fs::remove_file(&self.cu8_2400);
    }
}

fn rates(r: Record, samples: u64, rate: f64, frames: u64, passes: u64) -> Record {
    let seconds = r.seconds();
    r.field("rate_hz", rate)
        .field("samples", samples)
        .field("signal_seconds", samples as f64 / rate)
        .field("samples_per_s", samples as f64 / seconds)
        .field("realtime", samples as f64 / rate / seconds)
        .field("frames", frames)
        .field("passes", passes)
        .field("frames_per_pass", frames as f64 / passes as f64)
}

fn measure_rfgraph(
    rate: f64,
    files: &Files,
    args: &AdsbArgs,
    run: usize,
) -> anyhow::Result<Record> {
    let (path, per_pass) = if rate == 2.0e6 {
        (&files.cu8_2000, files.pass_2000)
    } else {
        (&files.cu8_2400, files.pass_2400)
    };
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    let src = fg.add(FileSource::<u8>::new(path, SampleFormat::CU8)?);
    let mag = fg.add(Cu8Magnitude::new());
    let demod = fg.add(ModesDemod::new(rate)?);
    let dec = fg.add(ModesDecoder::new(rate));
    fg.chain(&[src, mag, demod, dec])?;
    let mode = if rate == 2.0e6 {
        "rfgraph-2000"
    } else {
        "rfgraph-2400"
    };
    let (done, span) = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, None, &[], args.run.explain),
        &format!("adsb {mode} run {run}"),
    )?;
    if args.run.stats {
        setup::print_block_stats(&done, "adsb", &args.run.scheduler, run);
    }
    let frames = done
        .block::<ModesDecoder>(dec)
        .context("the decoder")?
        .tracker()
        .aircraft()
        .map(|a| a.messages)
        .sum();
    let r = Record::new("adsb", &args.run.scheduler, run, span).field("mode", mode);
    Ok(rates(
        r,
        per_pass * files.passes,
        rate,
        frames,
        files.passes,
    ))
}

fn measure_dump1090(files: &Files, args: &AdsbArgs, run: usize) -> anyhow::Result<Record> {
    let start = Instant::now();
    let out = Command::new(&args.dump1090)
        .arg("--ifile")
        .arg(&files.cu8_2400)
        .args(["--quiet", "--stats"])
        .output()
        .with_context(|| format!("cannot run {}", args.dump1090.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!(
            "{} failed: {}",
            args.dump1090.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let count = |suffix: &str| {
        text.lines()
            .find(|l| l.trim_end().ends_with(suffix))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
    };
    let frames = count("total usable messages")
        .with_context(|| format!("dump1090 printed no message count:\n{text}"))?;
    let samples = count("samples processed").unwrap_or(files.pass_2400 * files.passes);
    let r = Record::new("adsb", "-", run, Span::whole(seconds))
        .field("runtime", "dump1090-mutability")
        .field("mode", "dump1090");
    Ok(rates(r, samples, 2.4e6, frames, files.passes))
}

fn print_summary(records: &[Value]) {
    let stat = |mode: &str, field: &str| {
        setup::median(
            records
                .iter()
                .filter(|r| r["mode"] == mode)
                .filter_map(|r| r[field].as_f64())
                .collect(),
        )
    };
    for mode in MODES {
        if let (Some(s), Some(rt), Some(f)) = (
            stat(mode, "samples_per_s"),
            stat(mode, "realtime"),
            stat(mode, "frames_per_pass"),
        ) {
            errln!(
                "adsb {mode:<13} median {:8.1} MS/s  {:7.1}x real time  {f:.1} frames per pass",
                s / 1e6,
                rt
            );
        }
    }
    let ratio = |a: &str, b: &str, field: &str| Some(stat(a, field)? / stat(b, field)?);
    if let (Some(ms), Some(rt)) = (
        ratio("rfgraph-2000", "dump1090", "samples_per_s"),
        ratio("rfgraph-2000", "dump1090", "realtime"),
    ) {
        errln!(
            "rfgraph at 2 MS/s over dump1090-mutability at 2.4 MS/s (the same recording): {ms:.2}x the samples per second, {rt:.2}x the real-time factor"
        );
    }
    if let Some(ms) = ratio("rfgraph-2400", "dump1090", "samples_per_s") {
        errln!("rfgraph over dump1090-mutability on the same 2.4 MS/s file: {ms:.2}x");
    }
}

/// Runs `rfgraph bench adsb`.
pub fn run(args: &AdsbArgs) -> anyhow::Result<()> {
    let mut modes: Vec<&str> = Vec::new();
    for m in &args.mode {
        match m.as_str() {
            "all" => {
                modes.extend(["rfgraph-2000", "rfgraph-2400"]);
                if args.dump1090.exists() {
                    modes.push("dump1090");
                } else {
                    errln!(
                        "{} not found: dump1090 skipped (Debian's dump1090-mutability)",
                        args.dump1090.display()
                    );
                }
            }
            m if MODES.contains(&m) => {
                modes.push(MODES[MODES.iter().position(|x| *x == m).unwrap_or(0)])
            }
            other => bail!(
                "unknown adsb mode `{other}`; known: {}, all",
                MODES.join(", ")
            ),
        }
    }
    let files = Files::new(args)?;
    let mut records = Vec::new();
    let result = (|| -> anyhow::Result<()> {
        for run in 0..args.run.repeat {
            for &mode in &modes {
                let r = match mode {
                    "rfgraph-2000" => measure_rfgraph(2.0e6, &files, args, run)?,
                    "rfgraph-2400" => measure_rfgraph(2.4e6, &files, args, run)?,
                    _ => measure_dump1090(&files, args, run)?,
                };
                r.print();
                r.summary();
                records.push(r.value());
            }
        }
        Ok(())
    })();
    if !args.keep {
        files.remove();
    }
    result?;
    print_summary(&records);
    Ok(())
}
