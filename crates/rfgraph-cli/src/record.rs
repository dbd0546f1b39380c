//! `rfgraph record`: writes a SigMF recording, converting a raw or SigMF
//! file (`--from`), or (later, with the hardware crate) from a device
//! (`--device`). Parses arguments, builds source → `SigmfSink`, and shows
//! a progress bar on stderr; the blocks hold the logic.

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph::{Block, Flowgraph};
use rfgraph_blocks::sigmf::{
    RecordingInfo, SigmfRecording, SigmfSink, SigmfSource, format_hz, recording_paths,
};
use rfgraph_blocks::{FileSource, SampleFormat, SampleItem};
use std::path::{Path, PathBuf};
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
    /// Record from an SDR instead (`driver=rtlsdr,...`): needs the
    /// hardware crate, not part of this build yet.
    #[arg(long, value_name = "ARGS")]
    device: Option<String>,
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
    if let Some(device) = &args.device {
        bail!(
            "recording from a device (`--device {device}`) needs the rfgraph-hw crate, \
             which this build does not include yet; convert a file with --from"
        );
    }
    let from = args
        .from
        .clone()
        .context("--from FILE or --device ARGS is required")?;
    let (meta_out, data_out) = recording_paths(&args.to)?;
    if !args.force {
        for p in [&meta_out, &data_out] {
            if p.exists() {
                bail!("{} exists: pass --force to replace it", p.display());
            }
        }
    }
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
    println!(
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
    run_with_progress(source, sink, input.samples(), per)
}

fn run_with_progress<B: Block>(
    source: Box<dyn FnOnce(&mut Flowgraph) -> rfgraph::BlockId>,
    sink: B,
    total: u64,
    per: u64,
) -> anyhow::Result<u64> {
    let mut fg = Flowgraph::new();
    let src = source(&mut fg);
    let snk = fg.add_named("sigmf sink", sink);
    fg.connect(src, "out", snk, "in")?;
    let running = fg.start(Tpb::new())?;
    let handle = running.handle();
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {percent:>3}% {pos}/{len} samples, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let written = || {
        handle
            .stats()
            .iter()
            .find(|s| s.block == "sigmf sink")
            .map_or(0, |s| s.items_consumed / per)
    };
    while !running.is_finished() {
        bar.set_position(written());
        std::thread::sleep(Duration::from_millis(100));
    }
    let n = written();
    bar.set_position(n);
    bar.finish_and_clear();
    running.wait()?;
    Ok(n)
}
