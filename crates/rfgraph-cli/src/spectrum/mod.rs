//! `rfgraph spectrum`: the averaged power spectrum and waterfall of a file
//! or device, as a PNG. Parses the options, assembles source →
//! `PowerSpectrum` → `Average` → `WaterfallDecimator` → sink from
//! `rfgraph_radio::spectrum`, runs it with the receivers' shared plumbing
//! (`receiver`), and draws what the sink collected.
//!
//! The blocks hold the signal processing; `plan` decides the averaging,
//! `picture` turns frames into numbers, `render` and `axis` draw.

use crate::console::errln;
mod axis;
mod picture;
mod plan;
mod render;

use crate::receiver::{self, Input, InputArgs, Outcome, RunArgs, Source};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use picture::Picture;
use plan::{Plan, Want};
use rfgraph::Flowgraph;
use rfgraph_blocks::VectorSink;
use rfgraph_dsp::Window;
use rfgraph_radio::spectrum::{
    Average, FrameMeta, Interval, PowerSpectrum, Scaling, WaterfallDecimator,
};
use std::path::PathBuf;

/// The FFT windows on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WindowName {
    /// Hann: a good default (−31 dB side lobes).
    Hann,
    /// Hamming.
    Hamming,
    /// Blackman.
    Blackman,
    /// Four-term Blackman–Harris: −92 dB side lobes, for weak signals
    /// beside strong ones.
    BlackmanHarris,
    /// None: the finest resolution, the most leakage.
    Rectangular,
}

impl WindowName {
    fn window(self) -> Window {
        match self {
            WindowName::Hann => Window::Hann,
            WindowName::Hamming => Window::Hamming,
            WindowName::Blackman => Window::Blackman,
            WindowName::BlackmanHarris => Window::BlackmanHarris,
            WindowName::Rectangular => Window::Rectangular,
        }
    }
}

/// What the power axis shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScaleName {
    /// Power spectral density, dBFS/Hz: noise reads the same whatever
    /// the FFT size.
    Density,
    /// Power per bin, dBFS: a tone reads its power whatever the FFT size.
    Power,
}

/// `rfgraph spectrum` arguments.
#[derive(Args, Debug, Clone)]
pub struct SpectrumArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The PNG to write.
    #[arg(short, long, value_name = "PNG", help_heading = "Spectrum")]
    output: PathBuf,
    /// FFT size: bins across the sample rate.
    #[arg(
        long,
        value_name = "BINS",
        default_value_t = 1024,
        help_heading = "Spectrum"
    )]
    fft: usize,
    /// FFT frames averaged into each line (default: a file's frames
    /// shared out over --waterfall-lines, so the lines cover it all; a
    /// device's over --line-time).
    #[arg(long, value_name = "N", help_heading = "Spectrum")]
    average: Option<usize>,
    /// The most lines the waterfall shows.
    #[arg(
        long,
        value_name = "L",
        default_value_t = 300,
        help_heading = "Spectrum"
    )]
    waterfall_lines: usize,
    /// One waterfall line per this many seconds of signal (default: the
    /// input's length over --waterfall-lines; 0.1 s for a device).
    #[arg(long, value_name = "SECONDS", help_heading = "Spectrum")]
    line_time: Option<f64>,
    /// The FFT window.
    #[arg(long, value_enum, default_value_t = WindowName::Hann, help_heading = "Spectrum")]
    window: WindowName,
    /// The power axis: density (dBFS/Hz) or power per bin (dBFS).
    #[arg(long, value_enum, default_value_t = ScaleName::Density, help_heading = "Spectrum")]
    scale: ScaleName,
    /// The image's width in pixels.
    #[arg(
        long,
        value_name = "PX",
        default_value_t = 1200,
        help_heading = "Spectrum"
    )]
    width: u32,
    /// The image's height in pixels.
    #[arg(
        long,
        value_name = "PX",
        default_value_t = 900,
        help_heading = "Spectrum"
    )]
    height: u32,
    #[command(flatten)]
    run: RunArgs,
}

/// The smallest and largest image sides, px.
const MIN_SIDE: u32 = 300;
const MAX_SIDE: u32 = 16_384;

/// Runs `rfgraph spectrum`.
pub fn run(args: SpectrumArgs) -> anyhow::Result<()> {
    for (flag, px) in [("--width", args.width), ("--height", args.height)] {
        if !(MIN_SIDE..=MAX_SIDE).contains(&px) {
            bail!("{flag} must be {MIN_SIDE} to {MAX_SIDE} pixels, not {px}");
        }
    }
    if !args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        bail!(
            "--output {}: the image is a PNG, name it `.png`",
            args.output.display()
        );
    }
    let input: Input = args.input.open()?;
    let Plan { average, interval } = plan::plan(Want {
        fft: args.fft,
        samples: input.samples(),
        rate: input.sample_rate(),
        average: args.average,
        lines: args.waterfall_lines,
        line_time: args.line_time,
    })?;
    let scaling = match args.scale {
        ScaleName::Density => Scaling::Density,
        ScaleName::Power => Scaling::Spectrum,
    };
    let mut power = PowerSpectrum::new(args.fft, args.window.window(), scaling)
        .context("--fft")?
        .with_sample_rate(input.sample_rate())?;
    if let Some(f) = input.frequency() {
        power = power.with_frequency(f)?;
    }
    let defaults = power.meta();

    let mut fg = Flowgraph::new();
    let src: Source = input.add_complex(&mut fg)?;
    let power = fg.add_named("power spectrum", power);
    let avg = fg.add_named("average", Average::new(args.fft, average)?);
    let lines = fg.add_named("waterfall", WaterfallDecimator::new(args.fft, interval)?);
    let sink = fg.add_named("lines", VectorSink::<f32>::new());
    fg.connect(src.block, Source::PORT, power, "in")?;
    fg.chain(&[power, avg, lines, sink])?;
    if !args.run.quiet {
        errln!("{}", input.describe());
        errln!(
            "{}-point FFT, {average} frames per line, {}",
            args.fft,
            match interval {
                Interval::Frames(_) => "every line kept".to_string(),
                Interval::Seconds(s) => format!("one line per {s:.4} s"),
            }
        );
    }
    let outcome: Outcome = receiver::run(fg, &src, &args.run)?;
    let sink = outcome
        .finished
        .block::<VectorSink<f32>>(sink)
        .context("the lines' sink")?;
    let name = match (&args.input.input, &args.input.device) {
        (Some(path), _) if input.is_file() => path.display().to_string(),
        (_, device) => format!("device {}", device.as_deref().unwrap_or("")),
    };
    let unit = match scaling {
        Scaling::Density => "dBFS/Hz",
        Scaling::Spectrum => "dBFS",
    };
    let picture = Picture::from_lines(
        sink.items(),
        sink.tags(),
        args.fft,
        FrameMeta {
            frame_samples: (args.fft * average) as u64,
            ..defaults
        },
        outcome.samples,
        args.waterfall_lines,
        unit,
        format!(
            "{name}: {}-point FFT, {average} averages per line",
            args.fft
        ),
    )?;
    render::save(&args.output, &picture, (args.width, args.height))?;
    if !args.run.quiet {
        errln!(
            "wrote {}: {} waterfall lines of {} bins, {:.3} s to {:.3} s{}",
            args.output.display(),
            picture.rows.len(),
            picture.size,
            picture.start,
            picture.end,
            if outcome.interrupted {
                " (stopped by Ctrl-C)"
            } else {
                ""
            }
        );
    }
    Ok(())
}
