//! The `fm` experiment: the FM stereo receiver on a 2.4 MS/s `cu8`
//! recording in the page cache, against the same chain built from GNU
//! Radio 3.10's stock blocks (`gr_bench.py fm`), in samples processed per
//! second.
//!
//! | side | topology |
//! |---|---|
//! | rfgraph | `FileSource<u8>` (the cu8 bytes as stored) → `rfgraph_radio::fm::Receiver::build_cu8` (channel filter decoding the bytes, ÷5 with 33 taps then ÷2 with 45, MPX demodulator, stereo decoder, de-emphasis, 15 kHz audio filter ÷5 to 48 kHz; RDS off unless `--rds`) → two `NullSink`s |
//! | GNU Radio, stereo | `file_source(char)` → `add_const_bb(128)` → `interleaved_char_to_complex(scale 128)` → `freq_xlating_fir_filter_ccf(10, taps)` → `analog.wfm_rcv_pll(240 k, 5, 50 µs)` → two `null_sink`s |
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
//! The recording (`rfgraph-bench-fm-N.cu8` in `--dir`, by default
//! `/dev/shm`) is the project's generated station (`generate::fm`) 250 kHz
//! off centre: 1 kHz left, 400 Hz right, the pilot, RDS, 30 dB CNR. It is
//! generated once, kept for later runs
//! unless `--fresh`, and read once before any timing. `--cores C` pins
//! the whole process (the file source's thread too) to the first C CPUs
//! and gives the scheduler C workers; GNU Radio's runs get the same CPUs.
//! `seconds` is [`setup::run_timed`]'s span, and `tb.run()` for GNU
//! Radio; `items_per_s` counts input samples, `real_time` divides it by
//! 2.4 MS/s.

use super::setup::{self, GraphOpts};
use super::{Record, Span, peer};
use crate::console::{errln, outln};
use anyhow::{Context, bail};
use clap::Args;
use rfgraph::Flowgraph;
use rfgraph_blocks::{FileSource, NullSink, SampleFormat};
use rfgraph_radio::fm::{FmConfig, Receiver, StereoDemod};
use rfgraph_radio::generate::fm::{Audio, FmStation, IqRecording, RdsContent, write_iq};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

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
    /// Pin the run to the first C CPUs, with C scheduler workers.
    #[arg(long)]
    pub cores: Option<usize>,
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

/// The recording, made if needed and read once.
fn recording(args: &FmArgs) -> anyhow::Result<PathBuf> {
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
    let path = dir.join(format!("rfgraph-bench-fm-{}.cu8", args.items));
    let bytes = 2 * args.items;
    let fits = std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes);
    if args.fresh || !fits {
        write_station(&path, args.items)?;
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
fn write_station(path: &Path, n: u64) -> anyhow::Result<()> {
    let station = FmStation {
        carrier_offset: OFFSET,
        cnr_db: Some(30.0),
        left: Audio::tone(1000.0, 0.9),
        right: Audio::tone(400.0, 0.9),
        rds: Some(RdsContent::default()),
        ..FmStation::new(RATE, n as f64 / RATE)
    };
    let iq = station.generate().context("generating the station")?;
    write_iq(path, &iq, &IqRecording::new(SampleFormat::CU8, RATE))
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

fn measure(path: &Path, args: &FmArgs, run: usize) -> anyhow::Result<Record> {
    let rx = Receiver::new(config(args.mono, args.rds))?;
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    // The stored bytes straight into the ring; the channel filter decodes.
    let src = fg.add(FileSource::<u8>::new(path, SampleFormat::CU8)?);
    let ports = rx.build_cu8(&mut fg, src, "out")?;
    let left = fg.add(NullSink::<f32>::new());
    fg.connect(ports.left.block, ports.left.port, left, "in")?;
    if ports.right != ports.left {
        let right = fg.add(NullSink::<f32>::new());
        fg.connect(ports.right.block, ports.right.port, right, "in")?;
    }
    let (done, span): (_, Span) = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, args.cores, &[], args.run.explain),
        &format!("fm run {run}"),
    )?;
    let processed = setup::consumed_by(&done, "ChannelFilter") / 2;
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
        .field("cores", args.cores.map_or(Value::Null, Into::into))
        .field("items", args.items)
        .field("input_rate", RATE)
        .field("format", "cu8")
        .field("channel_taps", rx.channel_plan().num_taps())
        .field("audio_samples", audio)
        .field("stereo_locked", stereo)
        .field("rds", args.rds)
        .field("items_per_s", rate)
        .field("block_items_per_s", rate)
        .field("real_time", rate / RATE))
}

fn measure_gnuradio(
    script: &Path,
    path: &Path,
    args: &FmArgs,
    run: usize,
) -> anyhow::Result<Value> {
    let mut gr: Vec<String> = vec!["fm".into(), "--file".into(), path.display().to_string()];
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
    if let Some(c) = args.cores {
        gr.extend(["--cores".into(), c.to_string()]);
    }
    Ok(peer::gr_records(script, &gr)?.swap_remove(0))
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

/// Runs the experiment: rfgraph (and GNU Radio) once per repetition,
/// interleaved; prints the ratios of the medians on stderr.
pub fn run(args: &FmArgs) -> anyhow::Result<()> {
    if let Some(cores) = args.cores {
        let available = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cores == 0 || cores > available {
            bail!("--cores must be 1 to {available}");
        }
        let cpus: Vec<usize> = (0..cores).collect();
        rfgraph::scheduler::thread::set_affinity(&cpus).context("--cores: pinning the process")?;
    }
    let script = if args.gnuradio {
        Some(peer::gr_script(args.gr_script.as_deref())?)
    } else {
        None
    };
    let path = recording(args)?;
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for run in 0..args.run.repeat {
        let record = measure(&path, args, run)?;
        record.print();
        record.summary();
        ours.push(record.value()["items_per_s"].as_f64().unwrap_or(f64::NAN));
        if let Some(script) = &script {
            let gr = measure_gnuradio(script, &path, args, run)?;
            outln!("{gr}");
            theirs.push(gr["items_per_s"].as_f64().unwrap_or(f64::NAN));
        }
    }
    let (ours, theirs) = (median(ours), median(theirs));
    let ms = |r: Option<f64>| r.map_or("–".into(), |r| format!("{:.1} MS/s", r / 1e6));
    errln!(
        "fm {} on {} core(s), {}: rfgraph {} ({:.1}× real time) | GNU Radio {} | rfgraph/GNU Radio {}",
        if args.mono { "mono" } else { "stereo" },
        args.cores.map_or("all".to_string(), |c| c.to_string()),
        args.run.scheduler,
        ms(ours),
        ours.unwrap_or(0.0) / RATE,
        ms(theirs),
        match (ours, theirs) {
            (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
            _ => "–".into(),
        }
    );
    Ok(())
}
