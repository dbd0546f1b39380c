//! The `fm` experiment: the FM stereo receiver on a 2.4 MS/s `cu8` or
//! `cf32` recording in the page cache, against the same chain built from GNU
//! Radio 3.10's stock blocks (`gr_bench.py fm`), in samples processed per
//! second.
//!
//! | side | topology |
//! |---|---|
//! | rfgraph, cu8 | `FileSource<u8>` (the cu8 bytes as stored) → `rfgraph_radio::fm::Receiver::build_cu8` (channel filter decoding the bytes, ÷5 with 33 taps then ÷2 with 45, MPX demodulator, stereo decoder, de-emphasis, 15 kHz audio filter ÷5 to 48 kHz; RDS off unless `--rds`) → two `NullSink`s |
//! | rfgraph, cf32 | `FileSource<Complex32>` (the stored bytes are the items: read straight into the ring) → `Receiver::build` (the same chain on `Complex32`) → two `NullSink`s |
//! | GNU Radio, stereo | `file_source(char)` → `add_const_bb(128)` → `interleaved_char_to_complex(scale 128)` (cf32: `file_source(gr_complex)` alone) → `freq_xlating_fir_filter_ccf(10, taps)` → `analog.wfm_rcv_pll(240 k, 5, 50 µs)` → two `null_sink`s |
//! | GNU Radio, mono (`--mono`) | … → `freq_xlating_fir_filter_ccf` → `quadrature_demod_cf` → `fm_deemph(240 k)` → `rational_resampler_fff(1, 5, taps)` → `null_sink` |
//!
//! Both channel filters keep 100 kHz and are 60 dB down at 140 kHz after
//! decimation; GNU Radio's is one `freq_xlating_fir_filter_ccf` of 219
//! taps at 2.4 MS/s (Kaiser, the same formulas as rfgraph's designer),
//! rfgraph's two stages of 33 and 45 taps (see
//! `rfgraph_radio::fm::plan`). The mono audio filters have the same 261
//! taps (15 kHz pass, 19 kHz stop, 70 dB). `wfm_rcv_pll` brings its own filters (a 528-tap
//! complex pilot band-pass, a 1,980-tap 38 kHz band-pass and two 528-tap
//! audio low-passes); rfgraph's stereo decoder has a PLL without a
//! band-pass and two 261-tap audio filters. `add_const_bb(128)` turns the
//! unsigned bytes into the signed ones `interleaved_char_to_complex`
//! reads (it flips the top bit), so GNU Radio demodulates the same audio.
//!
//! The recording (`rfgraph-bench-fm-N.cu8` or `.cf32` in `--dir`, by
//! default `/dev/shm`) is the project's generated station (`generate::fm`) 250 kHz
//! off centre: 1 kHz left, 400 Hz right, the pilot, RDS, 30 dB CNR. It is
//! generated once, kept for later runs
//! unless `--fresh`, and read once before any timing. `--cores C` pins
//! the whole process (the file source's thread too) to the first C CPUs
//! and gives the scheduler C workers; GNU Radio's runs get the same CPUs.
//! `seconds` is [`setup::run_timed`]'s span, and `tb.run()` for GNU
//! Radio; `items_per_s` counts input samples, `real_time` divides it by
//! 2.4 MS/s.
//!
//! Each run also times both sides as whole processes (unless
//! `--no-process`): this binary again (`bench fm --child`, the same chain
//! on the same file, no warm-up read) and `gr_bench.py fm`, each a child
//! of this pinned process (so on the same CPUs), timed from spawn to exit:
//! start-up (Python importing GNU Radio, for one), building the graph, the
//! run and the exit. The records add it as `process_seconds` and
//! `process_items_per_s`.
//!
//! `--cores` and `--format` take lists (`--cores 1,2 --format cu8,cf32`):
//! every run goes through each combination in turn, and the summary on
//! stderr gives, for each, the medians and rfgraph/GNU Radio over the span
//! and over the process.

use super::setup::{self, GraphOpts};
use super::{Record, Span, peer};
use crate::console::{errln, outln};
use anyhow::{Context, bail};
use clap::Args;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph_blocks::{FileSource, NullSink, SampleFormat};
use rfgraph_radio::fm::{FmConfig, Receiver, StereoDemod};
use rfgraph_radio::generate::fm::{Audio, FmStation, IqRecording, RdsContent, write_iq};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The recording's rate, samples per second.
pub const RATE: f64 = 2.4e6;

/// The station's offset from the centre, Hz.
const OFFSET: f64 = 250e3;

/// Options of `rfgraph bench fm`.
#[derive(Args, Debug, Clone)]
pub struct FmArgs {
    /// Input samples (2.4 MS/s, so 24 000 000 is 10 s of signal).
    #[arg(long, default_value_t = 24_000_000)]
    pub items: u64,
    /// Pin the run to the first C CPUs, with C scheduler workers; a list
    /// (`1,2`) runs each in turn.
    #[arg(long, value_delimiter = ',')]
    pub cores: Vec<usize>,
    /// The recording's sample format: cu8 or cf32; a list (`cu8,cf32`)
    /// runs each in turn.
    #[arg(long, value_delimiter = ',', default_value = "cu8")]
    pub format: Vec<String>,
    /// Give the file source a thread of its own (`Flowgraph::set_blocking`)
    /// instead of running it on the scheduler's workers.
    #[arg(long)]
    pub source_thread: bool,
    /// Skip timing both sides as whole processes.
    #[arg(long)]
    pub no_process: bool,
    /// Run rfgraph's side only, once per repetition, on a recording that
    /// exists (what the process timing runs).
    #[arg(long, hide = true)]
    pub child: bool,
    /// Mono receiver (no stereo decoder) on both sides.
    #[arg(long)]
    pub mono: bool,
    /// Also decode RDS (rfgraph only: GNU Radio 3.10 has no RDS block).
    #[arg(long)]
    pub rds: bool,
    /// Folder for the recording (default: /dev/shm, else the temporary
    /// folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Write the recording again even if one of the right size exists.
    #[arg(long)]
    pub fresh: bool,
    /// Also run GNU Radio's chain (`gr_bench.py fm`) in the same run.
    #[arg(long)]
    pub gnuradio: bool,
    /// GNU Radio's benchmark script (default: bench/gnuradio/gr_bench.py).
    #[arg(long)]
    pub gr_script: Option<PathBuf>,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// One combination of the runs: CPUs (all when `None`) and format.
#[derive(Clone, Copy, Debug)]
struct Setup<'a> {
    cores: Option<usize>,
    format: &'a str,
}

/// The recording in `format`, made if needed and (unless `warm` is false)
/// read once.
fn recording(args: &FmArgs, format: &str, warm: bool) -> anyhow::Result<PathBuf> {
    if args.items == 0 {
        bail!("--items must be positive");
    }
    let dir = args.dir.clone().unwrap_or_else(|| {
        let shm = PathBuf::from("/dev/shm");
        if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        }
    });
    let (sample_format, per_item) = match format {
        "cu8" => (SampleFormat::CU8, 2),
        "cf32" => (SampleFormat::CF32, 8),
        other => bail!("--format: `{other}` is not cu8 or cf32"),
    };
    let path = dir.join(format!("rfgraph-bench-fm-{}.{format}", args.items));
    let bytes = per_item * args.items;
    let fits = std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes);
    if args.child && !fits {
        bail!(
            "--child: {} is missing or not {bytes} bytes",
            path.display()
        );
    }
    if args.fresh || !fits {
        write_station(&path, args.items, sample_format)?;
    }
    if !warm {
        return Ok(path);
    }
    let mut f = std::fs::File::open(&path)?;
    let mut buf = vec![0u8; 1 << 20];
    while f.read(&mut buf)? > 0 {}
    Ok(path)
}

/// Writes `n` cu8 samples of the project's generated station
/// (`rfgraph_radio::generate::fm`) at [`OFFSET`]: 1 kHz left, 400 Hz
/// right at 0.9 of full scale, 50 µs pre-emphasis, the pilot, RDS, 75 kHz
/// deviation and 30 dB CNR in 200 kHz.
fn write_station(path: &Path, n: u64, format: SampleFormat) -> anyhow::Result<()> {
    let station = FmStation {
        carrier_offset: OFFSET,
        cnr_db: Some(30.0),
        left: Audio::tone(1000.0, 0.9),
        right: Audio::tone(400.0, 0.9),
        rds: Some(RdsContent::default()),
        ..FmStation::new(RATE, n as f64 / RATE)
    };
    let iq = station.generate().context("generating the station")?;
    write_iq(path, &iq, &IqRecording::new(format, RATE))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

fn config(mono: bool, rds: bool) -> FmConfig {
    FmConfig {
        input_rate: RATE,
        offset: OFFSET,
        stereo: !mono,
        rds,
        ..FmConfig::default()
    }
}

fn measure(path: &Path, args: &FmArgs, setup: Setup, run: usize) -> anyhow::Result<Record> {
    let rx = Receiver::new(config(args.mono, args.rds))?;
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    // The stored bytes straight into the ring: cu8 bytes that the channel
    // filter decodes, or cf32 samples that are the items.
    let (src, ring_items_per_sample) = if setup.format == "cf32" {
        let src = FileSource::<Complex32>::new(path, SampleFormat::CF32)?;
        (fg.add(src), 1)
    } else {
        (fg.add(FileSource::<u8>::new(path, SampleFormat::CU8)?), 2)
    };
    if args.source_thread {
        fg.set_blocking(src)?;
    }
    let ports = if setup.format == "cf32" {
        rx.build(&mut fg, src, "out")?
    } else {
        rx.build_cu8(&mut fg, src, "out")?
    };
    let left = fg.add(NullSink::<f32>::new());
    fg.connect(ports.left.block, ports.left.port, left, "in")?;
    if ports.right != ports.left {
        let right = fg.add(NullSink::<f32>::new());
        fg.connect(ports.right.block, ports.right.port, right, "in")?;
    }
    let (done, span): (_, Span) = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, setup.cores, &[], args.run.explain),
        &format!("fm run {run}"),
    )?;
    let processed = setup::consumed_by(&done, "ChannelFilter") / ring_items_per_sample;
    if processed != args.items {
        bail!(
            "fm: the channel filter read {processed} samples, expected {}",
            args.items
        );
    }
    let audio = setup::consumed_by(&done, "NullSink") / if args.mono { 1 } else { 2 };
    let want = args.items / 50;
    if audio.abs_diff(want) > 2 {
        bail!("fm: {audio} audio samples per channel, expected {want}");
    }
    let stereo = ports
        .stereo
        .and_then(|p| done.block::<StereoDemod>(p.block))
        .is_some_and(StereoDemod::is_stereo);
    if !args.mono && !stereo {
        bail!("fm: the stereo decoder never locked onto the pilot");
    }
    if args.run.stats {
        setup::print_block_stats(&done, "fm", &args.run.scheduler, run);
    }
    let seconds = span.seconds;
    let rate = args.items as f64 / seconds;
    Ok(Record::new("fm", &args.run.scheduler, run, span)
        .field("mode", if args.mono { "mono" } else { "stereo" })
        .field("cores", setup.cores.map_or(Value::Null, Into::into))
        .field("items", args.items)
        .field("input_rate", RATE)
        .field("format", setup.format)
        .field("channel_taps", rx.channel_plan().num_taps())
        .field("audio_samples", audio)
        .field("stereo_locked", stereo)
        .field("rds", args.rds)
        .field("items_per_s", rate)
        .field("block_items_per_s", rate)
        .field("real_time", rate / RATE))
}

/// Runs rfgraph's side again as a child process (`bench fm --child`) on
/// the recording `path` and returns the seconds from spawn to exit.
fn measure_process(args: &FmArgs, setup: Setup) -> anyhow::Result<f64> {
    let exe = std::env::current_exe().context("finding this program")?;
    let mut cmd = Command::new(exe);
    cmd.args(["bench", "fm", "--child", "--repeat", "1", "--items"])
        .arg(args.items.to_string())
        .args(["--format", setup.format, "--scheduler", &args.run.scheduler]);
    if let Some(dir) = &args.dir {
        cmd.arg("--dir").arg(dir);
    }
    if let Some(c) = setup.cores {
        cmd.args(["--cores", &c.to_string()]);
    }
    if let Some(b) = args.run.buffer_bytes {
        cmd.args(["--buffer-bytes", &b.to_string()]);
    }
    if args.mono {
        cmd.arg("--mono");
    }
    if args.rds {
        cmd.arg("--rds");
    }
    if args.source_thread {
        cmd.arg("--source-thread");
    }
    let start = Instant::now();
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .context("cannot run `rfgraph bench fm --child`")?;
    let seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("fm: the child process failed: {}", out.status);
    }
    Ok(seconds)
}

/// `record` with the process's wall-clock `seconds` for `items` samples.
fn with_process(record: Value, seconds: Option<f64>, items: u64) -> Value {
    let mut record = record;
    if let (Some(s), Some(obj)) = (seconds, record.as_object_mut()) {
        obj.insert("process_seconds".into(), s.into());
        obj.insert("process_items_per_s".into(), (items as f64 / s).into());
    }
    record
}

/// GNU Radio's record of one run, and the seconds from spawning
/// `gr_bench.py` to its exit.
fn measure_gnuradio(
    script: &Path,
    path: &Path,
    args: &FmArgs,
    setup: Setup,
    run: usize,
) -> anyhow::Result<(Value, f64)> {
    let mut gr: Vec<String> = vec!["fm".into(), "--file".into(), path.display().to_string()];
    gr.extend(["--format".into(), setup.format.into()]);
    gr.extend([
        "--rate".into(),
        RATE.to_string(),
        "--offset".into(),
        OFFSET.to_string(),
    ]);
    gr.extend([
        "--repeat".into(),
        "1".into(),
        "--run".into(),
        run.to_string(),
    ]);
    if args.mono {
        gr.push("--mono".into());
    }
    if let Some(c) = setup.cores {
        gr.extend(["--cores".into(), c.to_string()]);
    }
    let start = Instant::now();
    let record = peer::gr_records(script, &gr)?.swap_remove(0);
    Ok((record, start.elapsed().as_secs_f64()))
}

/// Medians of one combination's runs: samples per second over the span
/// and over the process, for rfgraph and GNU Radio.
#[derive(Default)]
struct Rates {
    ours: Vec<f64>,
    ours_process: Vec<f64>,
    theirs: Vec<f64>,
    theirs_process: Vec<f64>,
}

/// Pins this thread (and so the scheduler's threads and the children it
/// spawns) to the first `cores` CPUs.
fn pin(cores: usize) -> anyhow::Result<()> {
    let cpus: Vec<usize> = (0..cores).collect();
    rfgraph::scheduler::thread::set_affinity(&cpus).context("--cores: pinning the process")
}

/// Runs the experiment: rfgraph (and GNU Radio) once per repetition and
/// combination of cores and format, interleaved; prints the ratios of the
/// medians on stderr.
pub fn run(args: &FmArgs) -> anyhow::Result<()> {
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    for &cores in &args.cores {
        if cores == 0 || cores > available {
            bail!("--cores must be 1 to {available}");
        }
    }
    for f in &args.format {
        if f != "cu8" && f != "cf32" {
            bail!("--format: `{f}` is not cu8 or cf32");
        }
    }
    let cores: Vec<Option<usize>> = if args.cores.is_empty() {
        vec![None]
    } else {
        args.cores.iter().copied().map(Some).collect()
    };
    let setups: Vec<Setup> = cores
        .iter()
        .flat_map(|&c| {
            args.format.iter().map(move |f| Setup {
                cores: c,
                format: f.as_str(),
            })
        })
        .collect();
    let script = if args.gnuradio && !args.child {
        Some(peer::gr_script(args.gr_script.as_deref())?)
    } else {
        None
    };
    let mut paths = std::collections::BTreeMap::new();
    for f in &args.format {
        paths.insert(f.as_str(), recording(args, f, !args.child)?);
    }
    let process = !args.no_process && !args.child;
    let mut rates: Vec<Rates> = setups.iter().map(|_| Rates::default()).collect();
    for run in 0..args.run.repeat {
        for (setup, rates) in setups.iter().zip(&mut rates) {
            if let Some(c) = setup.cores {
                pin(c)?;
            }
            let path = &paths[setup.format];
            let record = measure(path, args, *setup, run)?;
            record.summary();
            let ours = record.value();
            let ours_process = if process {
                Some(measure_process(args, *setup)?)
            } else {
                None
            };
            let ours = with_process(ours, ours_process, args.items);
            outln!("{ours}");
            rates
                .ours
                .push(ours["items_per_s"].as_f64().unwrap_or(f64::NAN));
            if let Some(s) = ours_process {
                rates.ours_process.push(args.items as f64 / s);
            }
            if let Some(script) = &script {
                let (gr, seconds) = measure_gnuradio(script, path, args, *setup, run)?;
                let gr = with_process(gr, process.then_some(seconds), args.items);
                outln!("{gr}");
                rates
                    .theirs
                    .push(gr["items_per_s"].as_f64().unwrap_or(f64::NAN));
                if process {
                    rates.theirs_process.push(args.items as f64 / seconds);
                }
            }
        }
    }
    if args.child {
        return Ok(());
    }
    for (setup, rates) in setups.iter().zip(rates) {
        summarize(args, *setup, rates);
    }
    Ok(())
}

/// One line on stderr for one combination: medians and ratios.
fn summarize(args: &FmArgs, setup: Setup, rates: Rates) {
    let ms = |r: Option<f64>| r.map_or("–".into(), |r| format!("{:.1} MS/s", r / 1e6));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
        _ => "–".into(),
    };
    let (ours, theirs) = (setup::median(rates.ours), setup::median(rates.theirs));
    let (ours_p, theirs_p) = (
        setup::median(rates.ours_process),
        setup::median(rates.theirs_process),
    );
    errln!(
        "fm {} {} on {} core(s), {}: rfgraph {} ({:.1}× real time) | GNU Radio {} | \
         rfgraph/GNU Radio {}; whole processes: rfgraph {} | GNU Radio {} | rfgraph/GNU Radio {}",
        if args.mono { "mono" } else { "stereo" },
        setup.format,
        setup.cores.map_or("all".to_string(), |c| c.to_string()),
        args.run.scheduler,
        ms(ours),
        ours.unwrap_or(0.0) / RATE,
        ms(theirs),
        ratio(ours, theirs),
        ms(ours_p),
        ms(theirs_p),
        ratio(ours_p, theirs_p),
    );
}
