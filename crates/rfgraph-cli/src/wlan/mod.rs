//! `rfgraph wlan`: IEEE 802.11a/g reception at 20 MS/s from a recording
//! (cf32, cs16, cs8, SigMF, ...) or a device. Parses the options,
//! assembles source → `wlan_sync` → one `wlan_decoder` per lane →
//! `wlan_frames` → [`FrameOutput`] (`rfgraph_wlan::block::add_receiver`),
//! runs it with the receivers' shared plumbing (`receiver`), and prints
//! the summary.
//!
//! Output: one line per frame on stdout (`--json`: one JSON object with
//! `mpdu`, `rate_mbps`, `encoding`, `length`, `snr_db`, `cfo_hz`,
//! `sample`, `fcs_ok`), frames for Wireshark with `--pcap`, and on
//! stderr the progress line and a summary (frames by rate, FCS failures,
//! frames dropped at the header, MS/s and the real-time factor).

mod output;

pub use output::{FrameOutput, Lines};

use crate::console::errln;
use crate::receiver::{self, ControlArgs, InputArgs, RunArgs, Source};
use anyhow::{Context, bail};
use clap::Args;
use rfgraph::Flowgraph;
use rfgraph_blocks::sigmf::is_sigmf_name;
use rfgraph_wlan::block::{MAX_LANES, WlanFrames, WlanFramesParams, WlanSync, add_receiver};
use rfgraph_wlan::pcap::PcapWriter;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// The channel's sample rate.
pub const RATE: f64 = 20.0e6;

/// `rfgraph wlan` arguments.
#[derive(Args, Debug, Clone)]
pub struct WlanArgs {
    #[command(flatten)]
    input: InputArgs,
    /// One JSON object per frame on stdout (`mpdu` hex without FCS,
    /// `rate_mbps`, `encoding`, `length`, `snr_db`, `cfo_hz`, `sample`,
    /// `fcs_ok`) instead of a readable line.
    #[arg(long, help_heading = "WLAN")]
    json: bool,
    /// Write the frames to FILE for Wireshark (pcap, radiotap headers).
    #[arg(long, value_name = "FILE", help_heading = "WLAN")]
    pcap: Option<PathBuf>,
    /// Report frames whose FCS failed too (marked `fcs_ok: false`).
    #[arg(long, help_heading = "WLAN")]
    bad_fcs: bool,
    /// Decoders the frames are shared between (default: one per core).
    #[arg(long, value_name = "N", help_heading = "WLAN")]
    lanes: Option<usize>,
    /// Print nothing per frame (with --pcap, or to measure).
    #[arg(long, help_heading = "WLAN")]
    no_frames: bool,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    control: ControlArgs,
}

/// One decoder per core, within what `wlan_sync` takes.
pub fn default_lanes() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_LANES)
}

/// Runs `rfgraph wlan`.
pub fn run(args: WlanArgs) -> anyhow::Result<()> {
    let mut input_args = args.input.clone();
    let raw_file = input_args.input.as_ref().is_some_and(|p| !is_sigmf_name(p));
    if (raw_file || input_args.device.is_some()) && input_args.rate.is_none() {
        input_args.rate = Some(RATE);
    }
    let input = input_args.open()?;
    let rate = input.sample_rate();
    if (rate - RATE).abs() > 1.0 {
        bail!(
            "the input is {rate} samples/s: 802.11a/g needs 20 MS/s (resample it, or record at 20e6)"
        );
    }
    let lanes = args.lanes.unwrap_or_else(default_lanes);
    if !(1..=MAX_LANES).contains(&lanes) {
        bail!("--lanes {lanes}: 1 to {MAX_LANES}");
    }
    let pcap = match &args.pcap {
        Some(path) => Some(
            std::fs::File::create(path)
                .and_then(|f| PcapWriter::new(std::io::BufWriter::new(f)))
                .with_context(|| format!("--pcap: cannot write {}", path.display()))?,
        ),
        None => None,
    };
    let lines = if args.no_frames {
        Lines::None
    } else if args.json {
        Lines::Json
    } else {
        Lines::Text
    };
    let mut fg = Flowgraph::new();
    let src = input.add_complex(&mut fg)?;
    let frames = WlanFrames::from_params(WlanFramesParams {
        with_bad_fcs: args.bad_fcs,
    });
    let rx = add_receiver(&mut fg, src.block, Source::PORT, lanes, frames)
        .map_err(anyhow::Error::msg)?;
    let out = fg.add_named("frames_out", FrameOutput::new(lines, pcap));
    fg.connect_message(rx.frames, "out", out, "in")?;
    if !args.run.quiet {
        errln!("{}", input.describe());
    }
    let run = RunArgs {
        stdout_is_product: !args.no_frames,
        control: args.control.control("wlan"),
        ..args.run.clone()
    };
    let started = std::time::Instant::now();
    let outcome = receiver::run(fg, &src, &run)?;
    let seconds = started.elapsed().as_secs_f64();
    let done = &outcome.finished;
    let out = done
        .block::<FrameOutput>(out)
        .context("the frame output's counts")?;
    let fcs_failed = done
        .block::<WlanFrames>(rx.frames)
        .context("the frames' counts")?
        .fcs_failed();
    let sync = done
        .block::<WlanSync>(rx.sync)
        .context("the synchroniser's counts")?
        .counts();
    if !args.run.quiet {
        let load = |c: &std::sync::Arc<std::sync::atomic::AtomicU64>| c.load(Ordering::Relaxed);
        let good: u64 = out.by_rate.iter().sum();
        let per_s = outcome.samples as f64 / seconds.max(1e-9);
        errln!("{:.1} MS/s, {:.2}x real time", per_s / 1e6, per_s / RATE);
        errln!(
            "{good} frames ({}), {} with a failed FCS; {} detections dropped at the header \
             ({} SIGNAL, {} no long preamble, {} cut off)",
            if good == 0 {
                "none".into()
            } else {
                out.rates()
            },
            fcs_failed,
            load(&sync.dropped_signal) + load(&sync.dropped_no_ltf) + load(&sync.dropped_truncated),
            load(&sync.dropped_signal),
            load(&sync.dropped_no_ltf),
            load(&sync.dropped_truncated),
        );
    }
    Ok(())
}
