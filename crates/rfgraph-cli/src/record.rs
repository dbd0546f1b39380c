//! `rfgraph record`: writes a SigMF recording, converting a raw or SigMF
//! file (`--from`), or from an SDR through `rfgraph-hw` (`--device`).
//! Parses arguments, builds source → `SigmfSink`, shows a progress bar on
//! stderr, and stops cleanly on Ctrl-C (the recording's metadata is still
//! written); the blocks hold the logic.

use crate::console::{errln, outln};
use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph::{Block, Flowgraph};
use rfgraph_blocks::sigmf::{
    RecordingInfo, SigmfRecording, SigmfSink, SigmfSource, format_hz, recording_paths,
};
use rfgraph_blocks::{FileSource, Head, SampleFormat, SampleItem};
use rfgraph_hw::{Gain, SdrConfig, SdrSource};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// `rfgraph record` arguments.
#[derive(Args)]
pub struct RecordArgs {
    /// The recording to convert: raw (`.cu8`, `.cs16`, `.cf32`, ..., or any
    /// name with `--format`) or SigMF (`x.sigmf-meta`).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "device",
        required_unless_present = "device"
    )]
    from: Option<PathBuf>,
    /// Record from an SDR instead: seify device arguments
    /// (`driver=rtlsdr`, `driver=soapy,soapy_driver=hackrf`,
    /// `driver=dummy`); needs --freq and --rate.
    #[arg(long, value_name = "ARGS")]
    device: Option<String>,
    /// The device's gain in dB (default: the driver's).
    #[arg(long, value_name = "DB", conflicts_with = "agc", requires = "device")]
    gain: Option<f64>,
    /// The device's automatic gain control.
    #[arg(long, requires = "device")]
    agc: bool,
    /// The device's antenna.
    #[arg(long, requires = "device")]
    antenna: Option<String>,
    /// Stop after this many samples (a device records until Ctrl-C
    /// otherwise).
    #[arg(long, value_name = "N", conflicts_with = "duration")]
    samples: Option<u64>,
    /// Stop after this many seconds of samples (at --rate).
    #[arg(long, value_name = "SECONDS")]
    duration: Option<f64>,
    /// The raw input's sample format (cu8, cs8, cs16, cf32, f32, or any
    /// SigMF datatype); by default its extension.
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// The raw input's sample rate in samples per second (SigMF inputs
    /// carry theirs).
    #[arg(long, value_name = "HZ")]
    rate: Option<f64>,
    /// The raw input's centre frequency in Hz (`core:frequency` of the first capture).
    #[arg(long, value_name = "HZ")]
    freq: Option<f64>,
    /// The raw input's first sample time, ISO 8601 (`2024-05-01T12:00:00Z`).
    #[arg(long, value_name = "TIME")]
    datetime: Option<String>,
    /// The output's SigMF datatype (`cf32_le`, `ci16_le`, `cu8`, ...);
    /// by default the input's.
    #[arg(long, value_name = "DATATYPE")]
    datatype: Option<String>,
    /// `core:description` of the output.
    #[arg(long)]
    description: Option<String>,
    /// Replace an existing output recording.
    #[arg(long)]
    force: bool,
    /// The output recording (`out.sigmf-meta`, or `out`): writes
    /// `out.sigmf-meta` and `out.sigmf-data`.
    #[arg(long, value_name = "OUT")]
    to: PathBuf,
}

/// Runs `rfgraph record`.
pub fn run(args: RecordArgs) -> anyhow::Result<()> {
    let (meta_out, data_out) = recording_paths(&args.to)?;
    if !args.force {
        for p in [&meta_out, &data_out] {
            if p.exists() {
                bail!("{} exists: pass --force to replace it", p.display());
            }
        }
    }
    if let Some(device) = &args.device {
        return record_device(&args, device, &meta_out);
    }
    let from = args
        .from
        .clone()
        .context("--from FILE or --device ARGS is required")?;
    let format = args
        .format
        .as_deref()
        .map(SampleFormat::parse)
        .transpose()
        .context("--format")?;
    let input = RecordingInfo::probe(&from, format, args.rate).map_err(crate::with_format_hint)?;
    let input_data = match &input {
        RecordingInfo::Sigmf(r) => r.data_path().to_path_buf(),
        RecordingInfo::Raw { path, .. } => path.clone(),
    };
    if same_file(&input_data, &data_out) {
        bail!(
            "{} is the input's own data: choose another --to",
            data_out.display()
        );
    }
    let in_format = input.format();
    let out_format = match &args.datatype {
        Some(d) => SampleFormat::parse(d).context("--datatype")?,
        None => in_format,
    };
    if out_format.is_complex() != in_format.is_complex() {
        bail!(
            "cannot convert {} samples ({in_format}) to {} ones ({out_format})",
            kind(in_format),
            kind(out_format)
        );
    }
    if let RecordingInfo::Sigmf(_) = input {
        for (flag, given) in [
            ("--rate", args.rate.is_some()),
            ("--freq", args.freq.is_some()),
            ("--datetime", args.datetime.is_some()),
            ("--format", args.format.is_some()),
        ] {
            if given {
                bail!(
                    "{flag} is for raw input: {} says it in its metadata",
                    from.display()
                );
            }
        }
    }
    let total = input.samples();
    let rate = input.sample_rate();
    // The same format: the bytes pass as they are (`u8` items), exactly.
    let written = match (in_format == out_format, in_format.is_complex()) {
        (true, _) => convert::<u8>(&args, &input, out_format)?,
        (false, true) => convert::<Complex32>(&args, &input, out_format)?,
        (false, false) => convert::<f32>(&args, &input, out_format)?,
    };
    debug_assert_eq!(written, total);
    let check = SigmfRecording::open(&meta_out)?;
    outln!(
        "wrote {}: {} samples of {}{}{}",
        meta_out.display(),
        check.samples(),
        out_format,
        rate.map_or(String::new(), |r| format!(" at {} samples/s", r)),
        check
            .meta()
            .captures
            .first()
            .and_then(|c| c.frequency)
            .map_or(String::new(), |f| format!(", centre {}", format_hz(f)))
    );
    Ok(())
}

fn kind(f: SampleFormat) -> &'static str {
    if f.is_complex() { "complex" } else { "real" }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Input → `SigmfSink<T>`, with a progress bar; returns samples written.
fn convert<T: SampleItem>(
    args: &RecordArgs,
    input: &RecordingInfo,
    out_format: SampleFormat,
) -> anyhow::Result<u64> {
    let mut sink = SigmfSink::<T>::create(&args.to, out_format)?;
    let source: Box<dyn FnOnce(&mut Flowgraph) -> rfgraph::BlockId> = match input {
        RecordingInfo::Sigmf(r) => {
            sink = sink.with_global(&r.meta().global);
            let src = SigmfSource::<T>::from_recording((**r).clone())?;
            Box::new(move |fg| fg.add_named("source", src))
        }
        RecordingInfo::Raw { path, format, .. } => {
            if let Some(rate) = args.rate {
                sink = sink.with_sample_rate(rate);
            }
            if let Some(f) = args.freq {
                sink = sink.with_frequency(f);
            }
            if let Some(d) = &args.datetime {
                sink = sink.with_datetime(d.clone());
            }
            let src = FileSource::<T>::new(path, *format)?;
            Box::new(move |fg| fg.add_named("source", src))
        }
    };
    if let Some(d) = &args.description {
        sink = sink.with_description(d.clone());
    }
    let per = T::per_stored_item(out_format) as u64;
    run_with_progress(source, sink, Some(input.samples()), per)
}

/// Records `device` (seify arguments) into a SigMF recording: source →
/// (head) → sink. The sink takes the centre frequency, sample rate and
/// start time from the source's first tags.
fn record_device(args: &RecordArgs, device: &str, meta_out: &Path) -> anyhow::Result<()> {
    let rate = args
        .rate
        .context("--device needs --rate (samples per second)")?;
    let freq = args.freq.context("--device needs --freq (Hz)")?;
    let mut config = SdrConfig::new(device).frequency(freq).sample_rate(rate);
    if args.agc {
        config = config.gain(Gain::Agc);
    } else if let Some(db) = args.gain {
        config = config.gain(Gain::Db(db));
    }
    if let Some(antenna) = &args.antenna {
        config = config.antenna(antenna.clone());
    }
    let limit = match (args.samples, args.duration) {
        (Some(n), _) => Some(n),
        (None, Some(s)) if s.is_finite() && s > 0.0 => Some((s * rate).round() as u64),
        (None, Some(s)) => bail!("--duration must be a positive number of seconds, not {s}"),
        (None, None) => None,
    };
    let format = match &args.datatype {
        Some(d) => SampleFormat::parse(d).context("--datatype")?,
        None => SampleFormat::CF32,
    };
    if !format.is_complex() {
        bail!("a device delivers complex samples: --datatype must be a complex one, not {format}");
    }
    let mut sink = SigmfSink::<Complex32>::create(&args.to, format)?.with_hw(device.to_string());
    if let Some(d) = &args.description {
        sink = sink.with_description(d.clone());
    }
    let source = SdrSource::new(config)?;
    let counters = source.counters();
    let make_source: Box<dyn FnOnce(&mut Flowgraph) -> rfgraph::BlockId> = Box::new(move |fg| {
        let src = fg.add_named("device", source);
        match limit {
            Some(n) => {
                let head = fg.add_named("head", Head::<Complex32>::new(n));
                // `head` has the ports `chain` joins; both exist.
                let _ = fg.connect(src, "out", head, "in");
                head
            }
            None => src,
        }
    });
    if limit.is_none() {
        errln!("recording until Ctrl-C");
    }
    let written = match run_with_progress(make_source, sink, limit, 1) {
        Ok(n) => n,
        Err(e) => {
            // A device that could not start leaves no empty recording.
            let (meta, data) = recording_paths(&args.to)?;
            if std::fs::metadata(&data).is_ok_and(|m| m.len() == 0) {
                let _ = std::fs::remove_file(&data);
                let _ = std::fs::remove_file(&meta);
            }
            return Err(e);
        }
    };
    let overflows = counters.overflows();
    outln!(
        "wrote {}: {written} samples of {format} at {rate} samples/s, centre {}{}",
        meta_out.display(),
        format_hz(freq),
        if overflows > 0 {
            format!(
                " ({overflows} overflows: samples were lost, see the recording's rfgraph:overflow annotations)"
            )
        } else {
            String::new()
        }
    );
    Ok(())
}

/// Set by Ctrl-C: the recording stops cleanly.
fn interrupted() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = flag.clone();
    // Only the first handler of a process installs; later recordings in
    // the same process (tests) keep the first, which is harmless.
    let _ = ctrlc::set_handler(move || set.store(true, Ordering::SeqCst));
    flag
}

/// Runs `source` → `sink` with a progress bar (a spinner when `total` is
/// unknown), stopping the graph on Ctrl-C; returns the samples written.
fn run_with_progress<B: Block>(
    source: Box<dyn FnOnce(&mut Flowgraph) -> rfgraph::BlockId>,
    sink: B,
    total: Option<u64>,
    per: u64,
) -> anyhow::Result<u64> {
    let mut fg = Flowgraph::new();
    let src = source(&mut fg);
    let snk = fg.add_named("sigmf sink", sink);
    fg.connect(src, "out", snk, "in")?;
    let stop = interrupted();
    let running = fg.start(Tpb::new())?;
    let handle = running.handle();
    let bar = match total {
        Some(total) => {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {percent:>3}% {pos}/{len} samples, {eta} left",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} {spinner} {pos} samples")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        }
    };
    let written = || {
        handle
            .stats()
            .iter()
            .find(|s| s.block == "sigmf sink")
            .map_or(0, |s| s.items_consumed / per)
    };
    let mut stopping = false;
    while !running.is_finished() {
        if !stopping && stop.load(Ordering::SeqCst) {
            stopping = true;
            handle.stop();
        }
        bar.set_position(written());
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
    running.wait()?;
    Ok(written())
}
