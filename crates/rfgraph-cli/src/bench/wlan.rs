//! The `wlan` experiment: the IEEE 802.11a/g receiver on generated
//! captures at 20 MS/s, in one run.
//!
//! | mode | what runs |
//! |---|---|
//! | `rfgraph-2core` | `FileSource` (cf32) → `wlan_sync` with 2 lanes → 2 `wlan_decoder`s → `wlan_frames`, `--scheduler` on 2 cores |
//! | `rfgraph-1core` | the same with 1 lane on 1 core |
//!
//! The process (every thread of the run, the file source's too) is pinned
//! to the mode's cores while it runs.
//! | `gr-ieee802-11` | gr-ieee802-11's `wifi_rx` on GNU Radio, when its Python module `ieee802_11` is installed (skipped with a line otherwise) |
//!
//! The speed capture (`rfgraph_wlan::scene::Scene::busy_channel`):
//! `--frames` data frames at all eight rates in turn, 500-byte payloads,
//! the channel 50 % busy, carrier offsets within ±20 kHz, SNR 25 dB. The
//! quality captures are the same at each `--snr`. Files live in `--dir`
//! (default /dev/shm), are made and read once before any timing, and are
//! removed at the end unless `--keep`.
//!
//! `seconds` is [`setup::run_timed`]'s span. Rates: `samples_per_s`,
//! `realtime` (seconds of signal per second). `frames_sent`,
//! `frames_decoded` (FCS good and identical to the frame sent),
//! `frames_bad` (reported valid but different from the frame sent: must
//! be 0).

use super::setup::GraphOpts;
use super::{Record, setup};
use crate::console::errln;
use anyhow::{Context, bail};
use clap::Args;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph_blocks::{FileSource, SampleCodec, SampleFormat};
use rfgraph_wlan::block::{WlanFrames, WlanFramesParams, add_receiver};
use rfgraph_wlan::burst::Decoded;
use rfgraph_wlan::scene::{Capture, Scene, SentFrame};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::process::Command;

/// Every mode, in the order `all` runs them.
pub const MODES: &[&str] = &["rfgraph-2core", "rfgraph-1core", "gr-ieee802-11"];
/// The speed capture's SNR.
const SPEED_SNR_DB: f32 = 25.0;
const SEED: u64 = 80211;

/// Options of `rfgraph bench wlan`.
#[derive(Args, Debug, Clone)]
pub struct WlanArgs {
    /// Modes, comma-separated: rfgraph-2core, rfgraph-1core,
    /// gr-ieee802-11, or all (gr-ieee802-11 only when installed).
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub mode: Vec<String>,
    /// Frames in each capture.
    #[arg(long, default_value_t = 2000)]
    pub frames: usize,
    /// SNRs (dB) of the quality captures, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "25,15,10")]
    pub snr: Vec<f32>,
    /// Folder for the files (default: /dev/shm, else the temporary folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Keep the files afterwards.
    #[arg(long)]
    pub keep: bool,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// A capture on disk and what it holds.
struct File {
    path: PathBuf,
    snr_db: f32,
    samples: u64,
    frames: Vec<SentFrame>,
}

fn write_capture(path: PathBuf, snr_db: f32, capture: Capture) -> anyhow::Result<File> {
    let mut bytes = vec![0u8; capture.samples.len() * 8];
    SampleCodec::new(SampleFormat::CF32).encode(&capture.samples, &mut bytes);
    std::fs::write(&path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
    // Into the page cache before any timing.
    let mut buf = vec![0u8; 1 << 20];
    let mut r = std::fs::File::open(&path)?;
    while r.read(&mut buf)? > 0 {}
    Ok(File {
        path,
        snr_db,
        samples: capture.samples.len() as u64,
        frames: capture.frames,
    })
}

/// Frames decoded identically to a frame sent, and frames reported valid
/// that match none.
fn score(sent: &[SentFrame], got: &[Decoded]) -> (u64, u64) {
    let by_mpdu: HashMap<&[u8], &SentFrame> = sent.iter().map(|f| (&f.mpdu[..], f)).collect();
    let (mut good, mut bad) = (0, 0);
    for d in got.iter().filter(|d| d.fcs_ok) {
        match by_mpdu.get(&d.mpdu[..]) {
            Some(f) if f.rate == d.rate => good += 1,
            _ => bad += 1,
        }
    }
    (good, bad)
}

fn measure(file: &File, cores: usize, args: &WlanArgs, run: usize) -> anyhow::Result<Record> {
    let mode = if cores == 1 {
        "rfgraph-1core"
    } else {
        "rfgraph-2core"
    };
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    let src = fg.add(FileSource::<Complex32>::new(
        &file.path,
        SampleFormat::CF32,
    )?);
    let frames = WlanFrames::from_params(WlanFramesParams { with_bad_fcs: true }).keeping();
    let rx = add_receiver(&mut fg, src, "out", cores, frames).map_err(anyhow::Error::msg)?;
    // Every thread of the run (the file source's too) inherits the
    // process's CPUs: `cores` means that many, not that many workers.
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pin = |n: usize| {
        rfgraph::scheduler::thread::set_affinity(&(0..n.min(available)).collect::<Vec<_>>())
            .context("pinning the process")
    };
    pin(cores)?;
    let timed = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, Some(cores), &[], args.run.explain),
        &format!("wlan {mode} run {run}"),
    );
    pin(available)?;
    let (done, span) = timed?;
    if args.run.stats {
        setup::print_block_stats(&done, "wlan", &args.run.scheduler, run);
    }
    let got = done
        .block::<WlanFrames>(rx.frames)
        .context("the frames")?
        .frames();
    let (good, bad) = score(&file.frames, got);
    let seconds = span.seconds;
    Ok(Record::new("wlan", &args.run.scheduler, run, span)
        .field("mode", mode)
        .field("cores", cores)
        .field("snr_db", file.snr_db)
        .field("samples", file.samples)
        .field("samples_per_s", file.samples as f64 / seconds)
        .field("realtime", file.samples as f64 / 20e6 / seconds)
        .field("frames_sent", file.frames.len())
        .field("frames_decoded", good)
        .field("frames_bad", bad))
}

/// True when gr-ieee802-11's Python module loads in Debian's Python.
fn gr_ieee802_11() -> bool {
    Command::new("/usr/bin/python3")
        .args(["-c", "import ieee802_11"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn print_summary(records: &[Value]) {
    let stat = |mode: &str, snr: f32, field: &str| {
        setup::median(
            records
                .iter()
                .filter(|r| r["mode"] == mode && r["snr_db"].as_f64() == Some(snr as f64))
                .filter_map(|r| r[field].as_f64())
                .collect(),
        )
    };
    for mode in ["rfgraph-2core", "rfgraph-1core"] {
        if let (Some(s), Some(rt)) = (
            stat(mode, SPEED_SNR_DB, "samples_per_s"),
            stat(mode, SPEED_SNR_DB, "realtime"),
        ) {
            errln!(
                "wlan {mode:<14} median {:6.1} MS/s  {rt:5.2}x real time",
                s / 1e6
            );
        }
    }
    let mut snrs: Vec<f64> = records
        .iter()
        .filter_map(|r| r["snr_db"].as_f64())
        .collect();
    snrs.sort_by(|a, b| b.total_cmp(a));
    snrs.dedup();
    for snr in snrs {
        if let (Some(d), Some(n)) = (
            stat("rfgraph-2core", snr as f32, "frames_decoded"),
            stat("rfgraph-2core", snr as f32, "frames_sent"),
        ) {
            errln!("wlan at {snr:4.1} dB SNR: {d:.0} of {n:.0} frames decoded");
        }
    }
}

/// Runs `rfgraph bench wlan`.
pub fn run(args: &WlanArgs) -> anyhow::Result<()> {
    let mut modes: Vec<&str> = Vec::new();
    for m in &args.mode {
        match m.as_str() {
            "all" => modes.extend(["rfgraph-2core", "rfgraph-1core", "gr-ieee802-11"]),
            m if MODES.contains(&m) => {
                modes.push(MODES[MODES.iter().position(|x| *x == m).unwrap_or(0)])
            }
            other => bail!(
                "unknown wlan mode `{other}`; known: {}, all",
                MODES.join(", ")
            ),
        }
    }
    if modes.contains(&"gr-ieee802-11") {
        modes.retain(|m| *m != "gr-ieee802-11");
        if !gr_ieee802_11() {
            errln!(
                "gr-ieee802-11 not installed (its Python module `ieee802_11` does not load in \
                 /usr/bin/python3; Debian does not package it): gr-ieee802-11 skipped"
            );
        } else {
            errln!("gr-ieee802-11 is installed, but this benchmark does not drive it yet: skipped");
        }
    }
    if args.frames == 0 {
        bail!("--frames must be positive");
    }
    let dir = setup::files_dir(args.dir.as_deref());
    let mut files = Vec::new();
    let result = (|| -> anyhow::Result<Vec<Value>> {
        let speed = Scene::busy_channel(args.frames, Some(SPEED_SNR_DB), SEED).generate();
        files.push(write_capture(
            dir.join("rfgraph-bench-wlan-speed.cf32"),
            SPEED_SNR_DB,
            speed,
        )?);
        for &snr in &args.snr {
            if snr == SPEED_SNR_DB {
                continue;
            }
            let c = Scene::busy_channel(args.frames, Some(snr), SEED + 1).generate();
            files.push(write_capture(
                dir.join(format!("rfgraph-bench-wlan-{snr}db.cf32")),
                snr,
                c,
            )?);
        }
        let mut records = Vec::new();
        for run in 0..args.run.repeat {
            for &mode in &modes {
                let cores = if mode == "rfgraph-1core" { 1 } else { 2 };
                // Speed on the first file; quality (2 cores) on the others.
                let on: Vec<&File> = if cores == 2 {
                    files.iter().collect()
                } else {
                    files.iter().take(1).collect()
                };
                for file in on {
                    let r = measure(file, cores, args, run)?;
                    r.print();
                    r.summary();
                    records.push(r.value());
                }
            }
        }
        Ok(records)
    })();
    if !args.keep {
        for f in &files {
            let _ = std::fs::remove_file(&f.path);
        }
    }
    print_summary(&result?);
    Ok(())
}
