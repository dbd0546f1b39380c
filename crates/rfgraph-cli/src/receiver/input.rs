//! Where a receiver's samples come from: the options every receiver command
//! shares ([`InputArgs`]), what they resolve to ([`Input`]: a raw or SigMF
//! file, or a device, with its rate, centre frequency and length), and the
//! source blocks that [`Input`] adds to a flowgraph ([`Source`]).
//!
//! This module owns checking the input options (every error names the
//! option at fault) and choosing the source block; it never runs a graph
//! (that is `run`'s) and never processes samples.

use anyhow::{Context, bail};
use clap::Args;
use num_complex::Complex32;
use rfgraph::{BlockId, Flowgraph};
use rfgraph_blocks::sigmf::{RecordingInfo, SigmfRecording, SigmfSource, format_hz};
use rfgraph_blocks::{FileSource, Head, SampleFormat, SampleItem};
use rfgraph_hw::{Gain, SdrConfig, SdrSource};
use std::path::PathBuf;

/// The input options of every receiver command (`rfgraph fm`,
/// `rfgraph adsb`, `rfgraph spectrum`): a file or a device. Flatten it into
/// a command's arguments (`#[command(flatten)] input: InputArgs`) and call
/// [`open`](Self::open).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Input")]
pub struct InputArgs {
    /// The recording: SigMF (`x.sigmf-meta`, `x.sigmf-data` or `x`: rate
    /// and centre frequency from its metadata) or raw (`.cu8`, `.cs8`,
    /// `.cs16`, `.cf32`, ..., or any name with --format; needs --rate).
    #[arg(
        value_name = "INPUT",
        required_unless_present = "device",
        conflicts_with = "device"
    )]
    pub input: Option<PathBuf>,
    /// Receive from an SDR instead: seify device arguments
    /// (`driver=rtlsdr`, `driver=soapy,soapy_driver=hackrf`,
    /// `driver=dummy`); needs --freq and --rate.
    #[arg(long, value_name = "ARGS")]
    pub device: Option<String>,
    /// The device's gain in dB (default: the driver's).
    #[arg(long, value_name = "DB", conflicts_with = "agc")]
    pub gain: Option<f64>,
    /// The device's automatic gain control.
    #[arg(long)]
    pub agc: bool,
    /// The device's antenna.
    #[arg(long, value_name = "NAME")]
    pub antenna: Option<String>,
    /// The raw input's sample format (cu8, cs8, cs16, cf32, or any SigMF
    /// datatype); by default its extension.
    #[arg(long, value_name = "FORMAT", conflicts_with = "device")]
    pub format: Option<String>,
    /// The sample rate in samples per second: required for raw files and
    /// devices; SigMF recordings carry theirs.
    #[arg(long, value_name = "SPS")]
    pub rate: Option<f64>,
    /// The centre frequency in Hz: the device's tuning, or what a raw
    /// file was recorded at (SigMF recordings carry theirs).
    #[arg(long, value_name = "HZ")]
    pub freq: Option<f64>,
    /// Stop after this many samples (a device runs until Ctrl-C
    /// otherwise).
    #[arg(long, value_name = "N", conflicts_with = "duration")]
    pub samples: Option<u64>,
    /// Stop after this many seconds of samples.
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
}

/// What the input options resolved to: a checked file or device
/// configuration with everything known about it. Adds its source block to
/// a flowgraph with [`add_complex`](Self::add_complex) (or
/// [`add_cu8`](Self::add_cu8) for decoders that read the bytes).
#[derive(Debug)]
pub struct Input {
    kind: Kind,
    rate: f64,
    frequency: Option<f64>,
    /// Samples the source delivers, after --samples / --duration.
    samples: Option<u64>,
    /// Samples to pass (--samples / --duration), when limited.
    limit: Option<u64>,
}

#[derive(Debug)]
enum Kind {
    Raw { path: PathBuf, format: SampleFormat },
    Sigmf(Box<SigmfRecording>),
    Device { args: String, config: SdrConfig },
}

/// The block a source chain ends in, and how to count its samples for the
/// progress line: pass it to [`run`](super::run()).
#[derive(Clone, Debug)]
pub struct Source {
    /// The last block of the source chain (the source, or a `Head` when
    /// the input is limited); its output is `"out"`.
    pub block: BlockId,
    /// The instance name of `block`, whose statistics count the samples.
    pub(super) name: String,
    /// Stream items per sample on `block`'s output (2 for `cu8` bytes).
    pub(super) items_per_sample: u64,
    /// Samples it will deliver (files), or `None` (devices).
    pub(super) total: Option<u64>,
    /// The sample rate, for the real-time factor.
    pub(super) rate: f64,
}

impl Source {
    /// The output port of [`block`](Self::block) carrying the samples.
    pub const PORT: &'static str = "out";
}

fn check_rate(rate: f64, option: &str) -> anyhow::Result<f64> {
    if rate.is_finite() && rate > 0.0 {
        Ok(rate)
    } else {
        bail!("{option} must be a positive number of samples per second, not {rate}")
    }
}

fn check_freq(hz: f64) -> anyhow::Result<f64> {
    if hz.is_finite() {
        Ok(hz)
    } else {
        bail!("--freq must be a finite frequency in Hz, not {hz}")
    }
}

impl InputArgs {
    /// Checks the options and opens the file (metadata only) or prepares
    /// the device configuration (the device itself opens when the graph
    /// starts).
    ///
    /// Errors, each naming its option: no input; a raw file without
    /// `--rate`; a device without `--freq` or `--rate`; a rate, frequency,
    /// duration or gain that is not a finite number (rates and durations
    /// positive); `--format` naming no format; `--rate`/`--freq` given for
    /// a SigMF recording that states its own; and the file's own errors
    /// (missing, not a whole number of samples, bad metadata).
    pub fn open(&self) -> anyhow::Result<Input> {
        let rate = self.rate.map(|r| check_rate(r, "--rate")).transpose()?;
        let freq = self.freq.map(check_freq).transpose()?;
        if let Some(d) = self.duration
            && !(d.is_finite() && d > 0.0)
        {
            bail!("--duration must be a positive number of seconds, not {d}");
        }
        if let Some(0) = self.samples {
            bail!("--samples must be at least 1");
        }
        if let Some(device) = &self.device {
            return self.open_device(device, rate, freq);
        }
        // (clap's `requires` cannot say this: INPUT conflicts with --device.)
        for (flag, given) in [
            ("--gain", self.gain.is_some()),
            ("--agc", self.agc),
            ("--antenna", self.antenna.is_some()),
        ] {
            if given {
                bail!("{flag} is for --device: a file's gain was set when it was recorded");
            }
        }
        let path = self
            .input
            .clone()
            .context("give an INPUT file or --device ARGS")?;
        let format = self
            .format
            .as_deref()
            .map(SampleFormat::parse)
            .transpose()
            .context("--format")?;
        let info = RecordingInfo::probe(&path, format, rate).map_err(crate::with_format_hint)?;
        let (kind, rate, frequency, samples) = match info {
            RecordingInfo::Raw {
                path,
                format,
                bytes,
                ..
            } => {
                let rate = rate.with_context(|| {
                    format!(
                        "{} is a raw recording: give its sample rate with --rate",
                        path.display()
                    )
                })?;
                if !format.is_complex() {
                    bail!(
                        "{} holds real samples ({format}): receivers take complex ones \
                         (cu8, cs8, cs16, cf32, ...); give the right one with --format",
                        path.display()
                    );
                }
                let samples = bytes / format.bytes_per_item() as u64;
                (Kind::Raw { path, format }, rate, freq, samples)
            }
            RecordingInfo::Sigmf(rec) => {
                let global = &rec.meta().global;
                if !global.datatype.is_complex() {
                    bail!(
                        "{} holds real samples ({}): receivers take complex ones",
                        rec.meta_path().display(),
                        global.datatype
                    );
                }
                let meta_rate = global.sample_rate;
                let meta_freq = rec.meta().captures.first().and_then(|c| c.frequency);
                let rate = match (meta_rate, rate) {
                    (Some(m), Some(_)) => bail!(
                        "--rate is for raw input: {} says its rate in its metadata \
                         ({m} samples/s)",
                        rec.meta_path().display()
                    ),
                    (Some(m), None) => check_rate(m, "the recording's core:sample_rate")?,
                    (None, Some(r)) => r,
                    (None, None) => bail!(
                        "{} has no core:sample_rate: give it with --rate",
                        rec.meta_path().display()
                    ),
                };
                let frequency = match (meta_freq, freq) {
                    (Some(m), Some(_)) => bail!(
                        "--freq is for raw input: {} says its centre frequency in its \
                         metadata ({})",
                        rec.meta_path().display(),
                        format_hz(m)
                    ),
                    (m, f) => m.or(f),
                };
                let samples = rec.samples();
                (Kind::Sigmf(rec), rate, frequency, samples)
            }
        };
        let limit = self.limit(rate);
        Ok(Input {
            kind,
            rate,
            frequency,
            samples: Some(limit.map_or(samples, |n| n.min(samples))),
            limit,
        })
    }

    fn open_device(
        &self,
        device: &str,
        rate: Option<f64>,
        freq: Option<f64>,
    ) -> anyhow::Result<Input> {
        let rate = rate.context("--device needs --rate (samples per second)")?;
        let freq = freq.context("--device needs --freq (Hz)")?;
        let mut config = SdrConfig::new(device).frequency(freq).sample_rate(rate);
        if self.agc {
            config = config.gain(Gain::Agc);
        } else if let Some(db) = self.gain {
            if !db.is_finite() {
                bail!("--gain must be a finite number of dB, not {db}");
            }
            config = config.gain(Gain::Db(db));
        }
        if let Some(antenna) = &self.antenna {
            config = config.antenna(antenna.clone());
        }
        config.validate().context("--device")?;
        let limit = self.limit(rate);
        Ok(Input {
            kind: Kind::Device {
                args: device.to_string(),
                config,
            },
            rate,
            frequency: Some(freq),
            samples: limit,
            limit,
        })
    }

    /// Samples --samples or --duration allow, if either is given.
    fn limit(&self, rate: f64) -> Option<u64> {
        self.samples
            .or_else(|| self.duration.map(|d| ((d * rate).round() as u64).max(1)))
    }
}

impl Input {
    /// The sample rate in samples per second.
    pub fn sample_rate(&self) -> f64 {
        self.rate
    }

    /// The centre frequency in Hz, when known (a device's tuning, a SigMF
    /// recording's first capture, a raw file's `--freq`). SigMF files and
    /// devices also tag it on the stream (`core:frequency`); a raw file's
    /// is known only here, so pass it to blocks as their default.
    pub fn frequency(&self) -> Option<f64> {
        self.frequency
    }

    /// Samples the source will deliver, when known: a file's (or the
    /// --samples / --duration limit).
    pub fn samples(&self) -> Option<u64> {
        self.samples
    }

    /// The stored sample format of a file; `None` for a device (it
    /// delivers `Complex32`).
    pub fn format(&self) -> Option<SampleFormat> {
        match &self.kind {
            Kind::Raw { format, .. } => Some(*format),
            Kind::Sigmf(r) => Some(r.meta().global.datatype),
            Kind::Device { .. } => None,
        }
    }

    /// True for a file, false for a device.
    pub fn is_file(&self) -> bool {
        !matches!(self.kind, Kind::Device { .. })
    }

    /// One line for the user: what is read, at what rate and frequency.
    pub fn describe(&self) -> String {
        let what = match &self.kind {
            Kind::Raw { path, format } => format!("{} ({format})", path.display()),
            Kind::Sigmf(r) => format!("{} ({})", r.meta_path().display(), r.meta().global.datatype),
            Kind::Device { args, .. } => format!("device {args}"),
        };
        let mut line = format!("{what} at {} samples/s", self.rate);
        if let Some(f) = self.frequency {
            line += &format!(", centre {}", format_hz(f));
        }
        if let Some(n) = self.samples {
            line += &format!(", {n} samples ({:.3} s)", n as f64 / self.rate);
        }
        line
    }

    /// Adds the source of `Complex32` samples (the file converted from its
    /// format, or the device) to `fg`, followed by a `Head` when the input
    /// is limited. The first item carries `core:sample_rate` (and, from
    /// SigMF files and devices, `core:frequency`).
    ///
    /// Errors: the device's own (driver missing, bad arguments), the file
    /// cannot be opened.
    pub fn add_complex(&self, fg: &mut Flowgraph) -> anyhow::Result<Source> {
        if let Kind::Device { config, .. } = &self.kind {
            let src = fg.add_named("device", SdrSource::new(config.clone())?);
            return self.finish_chain::<Complex32>(fg, src, "device", 1);
        }
        self.add_file::<Complex32>(fg)
    }

    /// Adds a source of the file's stored bytes as `u8` items (two per
    /// sample, I then Q) for decoders that work on `cu8` directly (an
    /// RTL-SDR's format), followed by a `Head` when limited.
    ///
    /// Errors: the input is not a `cu8` file (a device, or another
    /// format: use [`add_complex`](Self::add_complex)).
    // Used by `rfgraph adsb`.
    #[allow(dead_code)]
    pub fn add_cu8(&self, fg: &mut Flowgraph) -> anyhow::Result<Source> {
        match self.format() {
            Some(SampleFormat::CU8) => self.add_file::<u8>(fg),
            Some(other) => {
                bail!("this takes cu8 samples (as an RTL-SDR records them), not {other}")
            }
            None => bail!("this takes a cu8 file, not a device"),
        }
    }

    fn add_file<T: SampleItem>(&self, fg: &mut Flowgraph) -> anyhow::Result<Source> {
        let per = self.format().map_or(1, |f| T::per_stored_item(f) as u64);
        match &self.kind {
            Kind::Raw { path, format } => {
                let mut src = FileSource::<T>::new(path, *format)?.sample_rate(self.rate);
                if let Some(n) = self.limit {
                    let len = self.samples.unwrap_or(n);
                    src = src.length(len)?;
                }
                let id = fg.add_named("source", src);
                Ok(Source {
                    block: id,
                    name: "source".into(),
                    items_per_sample: per,
                    total: self.samples,
                    rate: self.rate,
                })
            }
            Kind::Sigmf(rec) => {
                let src =
                    fg.add_named("source", SigmfSource::<T>::from_recording((**rec).clone())?);
                self.finish_chain::<T>(fg, src, "source", per)
            }
            Kind::Device { .. } => bail!("a device delivers complex samples, not stored bytes"),
        }
    }

    /// Puts a `Head` after `src` when the input is limited.
    fn finish_chain<T: SampleItem>(
        &self,
        fg: &mut Flowgraph,
        src: BlockId,
        name: &str,
        per: u64,
    ) -> anyhow::Result<Source> {
        let (block, name) = match self.limit {
            Some(n) => {
                let head = fg.add_named("head", Head::<T>::new(n * per));
                fg.connect(src, Source::PORT, head, "in")?;
                (head, "head")
            }
            None => (src, name),
        };
        Ok(Source {
            block,
            name: name.into(),
            items_per_sample: per,
            total: self.samples,
            rate: self.rate,
        })
    }
}
