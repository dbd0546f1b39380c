//! `rfgraph fm`: receives an FM broadcast station from a recording or a
//! device into a WAV file (or, built with the `audio` feature, the sound
//! card). Parses the options, assembles the receiver from
//! `rfgraph_radio::fm::Receiver` behind the shared input plumbing
//! (`receiver`), and reports: the pilot's lock on stderr, RDS as JSON lines
//! on stdout.
//!
//! With `--control` the running graph is served on a control port as
//! `fm` (the stereo decoder's and the RDS decoder's readings show the
//! lock and the station), with spectrum displays (`control`).
//!
//! The signal processing is the library's; this module only chooses the
//! input, the output and what is printed. `audio` owns the sound card
//! sink, `report` the printing of messages, `control` the displays.

use crate::console::errln;
#[cfg(feature = "audio")]
mod audio;
pub mod control;
// The sound card's queue; compiled (and tested) without the device too.
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
mod handover;
mod report;

use crate::receiver::{self, ControlArgs, InputArgs, RunArgs, Source};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use rfgraph::Flowgraph;
use rfgraph_blocks::{SampleFormat, Throttle, WavFormat, WavSink};
use rfgraph_radio::fm::{Emphasis, Endpoint, FmConfig, MPX_RATE, Receiver};
use std::path::PathBuf;

/// The de-emphasis choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeemphName {
    /// 50 µs (Europe, most of the world).
    #[value(name = "50")]
    Us50,
    /// 75 µs (the Americas, South Korea).
    #[value(name = "75")]
    Us75,
    /// None.
    #[value(name = "none")]
    None,
}

impl DeemphName {
    fn emphasis(self) -> Emphasis {
        match self {
            DeemphName::Us50 => Emphasis::Tau50us,
            DeemphName::Us75 => Emphasis::Tau75us,
            DeemphName::None => Emphasis::None,
        }
    }
}

/// `rfgraph fm` arguments.
#[derive(Args, Debug, Clone)]
pub struct FmArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The WAV file to write (16-bit stereo). Without it the audio goes
    /// to the sound card (builds with the `audio` feature).
    #[arg(short, long, value_name = "WAV", help_heading = "FM")]
    output: Option<PathBuf>,
    /// The station's frequency minus the input's centre frequency, Hz.
    #[arg(
        long,
        value_name = "HZ",
        allow_hyphen_values = true,
        conflicts_with = "station",
        help_heading = "FM"
    )]
    offset: Option<f64>,
    /// The station's frequency, Hz (needs the input's centre frequency:
    /// SigMF metadata, a device's --freq, or --freq for a raw file).
    #[arg(long, value_name = "HZ", help_heading = "FM")]
    station: Option<f64>,
    /// The audio rate, Hz.
    #[arg(long, value_name = "HZ", default_value_t = 48_000, help_heading = "FM")]
    audio_rate: u32,
    /// De-emphasis time constant, µs: 50 (Europe), 75 (Americas) or none.
    #[arg(long, value_enum, default_value_t = DeemphName::Us50, help_heading = "FM")]
    deemph: DeemphName,
    /// Mono only: no stereo decoding.
    #[arg(long, help_heading = "FM")]
    mono: bool,
    /// Do not decode RDS.
    #[arg(long, help_heading = "FM")]
    no_rds: bool,
    /// Play on the default audio device (the default without -o).
    #[arg(long, conflicts_with = "output", help_heading = "FM")]
    play: bool,
    /// Play a file at its own sample rate, as if it were a device (to
    /// watch it with --control).
    #[arg(long, help_heading = "FM")]
    throttle: bool,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    control: ControlArgs,
}

/// Where the audio goes.
enum Output {
    Wav(PathBuf),
    Device,
}

/// The sound card is not in this build: say how to get audio anyway.
#[cfg(not(feature = "audio"))]
fn no_audio_device() -> anyhow::Error {
    anyhow::anyhow!(
        "no audio device: this rfgraph was built without the `audio` feature; \
         write a WAV file with -o out.wav (or rebuild with --features audio)"
    )
}

/// Runs `rfgraph fm`.
pub fn run(args: FmArgs) -> anyhow::Result<()> {
    let output = match (&args.output, args.play) {
        (Some(path), _) => Output::Wav(path.clone()),
        (None, _) => Output::Device,
    };
    if let Output::Device = output {
        #[cfg(not(feature = "audio"))]
        return Err(no_audio_device());
    }
    let input = args.input.open()?;
    let offset = match (args.offset, args.station) {
        (Some(o), _) => o,
        (None, Some(station)) => {
            let Some(centre) = input.frequency() else {
                bail!("--station needs the input's centre frequency: give --freq, or use --offset");
            };
            station - centre
        }
        (None, None) => 0.0,
    };
    let config = FmConfig {
        input_rate: input.sample_rate(),
        offset,
        audio_rate: args.audio_rate,
        emphasis: args.deemph.emphasis(),
        stereo: !args.mono,
        rds: !args.no_rds,
    };
    let rx = Receiver::new(config).context("rfgraph fm")?;
    if args.throttle && !input.is_file() {
        bail!("--throttle is for files: a device delivers at its own rate");
    }
    let control = args.control.control("fm");
    let mut fg = Flowgraph::new();
    // A cu8 file's bytes go to the channel filter as they are stored
    // (the same audio, bit for bit), unless a display needs the band as
    // complex samples.
    let bytes = input.is_file() && input.format() == Some(SampleFormat::CU8) && control.is_none();
    let (src, ports, feed) = if bytes {
        let src = input.add_cu8(&mut fg)?;
        let feed = throttled::<u8>(&mut fg, &src, args.throttle, 2.0 * input.sample_rate())?;
        let ports = rx.build_cu8(&mut fg, feed.block, feed.port)?;
        (src, ports, feed)
    } else {
        let src = input.add_complex(&mut fg)?;
        let feed =
            throttled::<num_complex::Complex32>(&mut fg, &src, args.throttle, input.sample_rate())?;
        let ports = rx.build(&mut fg, feed.block, feed.port)?;
        (src, ports, feed)
    };
    if control.is_some() {
        let taps = control::DisplayTaps {
            input: feed,
            input_rate: input.sample_rate(),
            centre_hz: input.frequency(),
            mpx: ports.mpx,
            mpx_rate: MPX_RATE,
        };
        control::add_displays(&mut fg, &taps)?;
    }
    let sink = match &output {
        Output::Wav(path) => fg.add_named(
            "wav",
            WavSink::new(path, 2, args.audio_rate, WavFormat::Pcm16)?,
        ),
        Output::Device => add_device_sink(&mut fg, args.audio_rate)?,
    };
    fg.connect(ports.left.block, ports.left.port, sink, "in0")?;
    fg.connect(ports.right.block, ports.right.port, sink, "in1")?;
    if let Some(stereo) = ports.stereo
        && !args.run.quiet
    {
        let printer = fg.add_named("stereo report", report::StereoReport::new());
        fg.connect_message(stereo.block, stereo.port, printer, "in")?;
    }
    if let Some(rds) = ports.rds {
        let printer = fg.add_named("rds report", report::JsonLines::new());
        fg.connect_message(rds.block, rds.port, printer, "in")?;
    }
    if !args.run.quiet {
        errln!("{}", input.describe());
        let plan = rx.channel_plan();
        errln!(
            "station at {offset:+} Hz: channel ÷{} to {} S/s, MPX at 240 kS/s, {} audio at {} Hz{}",
            plan.decimation,
            plan.quad_rate,
            if args.mono { "mono" } else { "stereo" },
            args.audio_rate,
            match &output {
                Output::Wav(p) => format!(" into {}", p.display()),
                Output::Device => " on the audio device".into(),
            }
        );
    }
    let run = RunArgs {
        control,
        ..args.run.clone()
    };
    let outcome = receiver::run(fg, &src, &run)?;
    if !args.run.quiet
        && let Output::Wav(path) = &output
    {
        let frames = outcome
            .finished
            .block::<WavSink>(sink)
            .map_or(0, WavSink::frames);
        errln!(
            "wrote {} ({frames} frames, {:.2} s of audio)",
            path.display(),
            frames as f64 / args.audio_rate as f64
        );
    }
    Ok(())
}

/// The source's output, or a `Throttle` of `T` behind it at `per_second`
/// items when `throttle`.
fn throttled<T: rfgraph::Item>(
    fg: &mut Flowgraph,
    src: &Source,
    throttle: bool,
    per_second: f64,
) -> anyhow::Result<Endpoint> {
    if !throttle {
        return Ok(Endpoint::new(src.block, Source::PORT));
    }
    let t = fg.add_named("throttle", Throttle::<T>::new(per_second)?);
    fg.connect(src.block, Source::PORT, t, "in")?;
    Ok(Endpoint::new(t, "out"))
}

/// Adds the sound card's sink.
#[cfg(feature = "audio")]
fn add_device_sink(fg: &mut Flowgraph, rate: u32) -> anyhow::Result<rfgraph::BlockId> {
    Ok(fg.add_named("audio device", audio::AudioSink::open(rate)?))
}

#[cfg(not(feature = "audio"))]
fn add_device_sink(_fg: &mut Flowgraph, _rate: u32) -> anyhow::Result<rfgraph::BlockId> {
    Err(no_audio_device())
}
