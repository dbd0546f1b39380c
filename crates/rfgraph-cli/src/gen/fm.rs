//! `rfgraph gen fm`: one FM broadcast station with known contents, as a
//! SigMF recording or a raw file, plus (optionally) a JSON file that says
//! what is in it. Arguments become an `FmStation`; the generator in
//! `rfgraph_radio::generate::fm` does the rest.

use crate::console::outln;
use anyhow::{Context, bail};
use clap::Args;
use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::{Annotation, format_from_extension, is_sigmf_name, recording_paths};
use rfgraph_radio::generate::fm::{Audio, FmStation, IqRecording, Preemphasis, write_iq};
use rfgraph_radio::rds::{DecoderId, RdsContent};
use serde_json::json;
use std::path::{Path, PathBuf};

/// `rfgraph gen fm` arguments.
#[derive(Args)]
pub struct FmArgs {
    /// The output: `x.sigmf-meta` (or `.sigmf-data`) writes a SigMF
    /// recording, any other name a raw file (format from its extension:
    /// `.cu8`, `.cs16`, `.cf32`, ...).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Sample rate in samples per second (at least 240e3).
    #[arg(long, value_name = "HZ", default_value_t = 2.4e6)]
    rate: f64,
    /// Seconds of signal.
    #[arg(long, value_name = "S", default_value_t = 5.0)]
    seconds: f64,
    /// Carrier-to-noise ratio in dB in 200 kHz; no noise without it.
    #[arg(long, value_name = "DB")]
    cnr: Option<f64>,
    /// The noise's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The station's frequency in Hz (the recording's centre is this minus
    /// --offset).
    #[arg(long, value_name = "HZ", default_value_t = 98.5e6)]
    freq: f64,
    /// The carrier's offset from the recording's centre, Hz.
    #[arg(
        long,
        value_name = "HZ",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    offset: f64,
    /// The sample format (cu8, cs8, cs16, cf32, or a SigMF datatype);
    /// default: the raw name's extension, else cu8.
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// The left channel's test tone, Hz.
    #[arg(long, value_name = "HZ", default_value_t = 1000.0)]
    left_tone: f64,
    /// The right channel's test tone, Hz.
    #[arg(long, value_name = "HZ", default_value_t = 2500.0)]
    right_tone: f64,
    /// Both tones' amplitude, full scale 1 (before pre-emphasis).
    #[arg(long, value_name = "A", default_value_t = 0.5)]
    tone_amplitude: f64,
    /// Pre-emphasis: 50 (µs, Europe), 75 (the Americas) or none.
    #[arg(long, value_name = "US", default_value = "50")]
    preemphasis: String,
    /// Mono: no pilot, no L−R; (L+R)/2 alone.
    #[arg(long)]
    mono: bool,
    /// No RDS.
    #[arg(long, conflicts_with_all = ["pi", "ps", "rt"])]
    no_rds: bool,
    /// RDS programme identification (hex, with or without 0x).
    #[arg(long, value_name = "HEX", default_value = "0x1234")]
    pi: String,
    /// RDS programme service name (up to 8 characters).
    #[arg(long, value_name = "NAME", default_value = "RFGRAPH")]
    ps: String,
    /// RDS RadioText (up to 64 characters).
    #[arg(long, value_name = "TEXT", default_value = "rfgraph test transmission")]
    rt: String,
    /// RDS programme type (0..=31).
    #[arg(long, default_value_t = 10)]
    pty: u8,
    /// RDS traffic-programme flag.
    #[arg(long)]
    tp: bool,
    /// RDS peak deviation of the 57 kHz subcarrier, Hz.
    #[arg(long, value_name = "HZ", default_value_t = 3000.0)]
    rds_deviation: f64,
    /// Also write what the recording holds (PI, PS, RT, tones, levels) as
    /// JSON to this file.
    #[arg(long, value_name = "FILE")]
    expected: Option<PathBuf>,
    /// Replace existing output files.
    #[arg(long)]
    force: bool,
}

fn parse_pi(text: &str) -> anyhow::Result<u16> {
    let hex = text.trim_start_matches("0x").trim_start_matches("0X");
    u16::from_str_radix(hex, 16).with_context(|| format!("--pi {text}: not a 16-bit hex number"))
}

fn preemphasis(text: &str) -> anyhow::Result<Preemphasis> {
    Ok(match text {
        "50" => Preemphasis::Us50,
        "75" => Preemphasis::Us75,
        "none" | "0" | "off" => Preemphasis::Off,
        other => bail!("--preemphasis {other}: give 50, 75 or none"),
    })
}

fn output_format(args: &FmArgs) -> anyhow::Result<SampleFormat> {
    let format = match &args.format {
        Some(name) => SampleFormat::parse(name).context("--format")?,
        None if is_sigmf_name(&args.output) => SampleFormat::CU8,
        None => format_from_extension(&args.output).unwrap_or(SampleFormat::CU8),
    };
    if !format.is_complex() {
        bail!("--format {format}: FM recordings are complex (cu8, cs16, cf32, ...)");
    }
    Ok(format)
}

/// The files `path` would write.
fn outputs(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if is_sigmf_name(path) {
        let (meta, data) = recording_paths(path)?;
        Ok(vec![meta, data])
    } else {
        Ok(vec![path.to_path_buf()])
    }
}

/// Runs `rfgraph gen fm`.
pub fn run(args: FmArgs) -> anyhow::Result<()> {
    let format = output_format(&args)?;
    let files = outputs(&args.output)?;
    if !args.force {
        for p in files.iter().chain(args.expected.as_ref()) {
            if p.exists() {
                bail!("{} exists: pass --force to replace it", p.display());
            }
        }
    }
    let rds = (!args.no_rds).then(|| -> anyhow::Result<RdsContent> {
        Ok(RdsContent {
            pi: parse_pi(&args.pi)?,
            ps: args.ps.clone(),
            radiotext: args.rt.clone(),
            pty: args.pty,
            tp: args.tp,
            // The decoder identification says what the programme is: a
            // mono station does not claim stereo.
            di: DecoderId {
                stereo: !args.mono,
                ..DecoderId::default()
            },
            ..RdsContent::default()
        })
    });
    let rds = rds.transpose()?;
    let mut station = FmStation {
        carrier_offset: args.offset,
        left: Audio::tone(args.left_tone, args.tone_amplitude),
        right: Audio::tone(args.right_tone, args.tone_amplitude),
        preemphasis: preemphasis(&args.preemphasis)?,
        stereo: !args.mono,
        rds: rds.clone(),
        cnr_db: args.cnr,
        seed: args.seed,
        ..FmStation::new(args.rate, args.seconds)
    };
    if !(0.0..=10e3).contains(&args.rds_deviation) {
        bail!(
            "--rds-deviation {}: give 0 to 10000 Hz (the standard allows 1 to 7.5 kHz)",
            args.rds_deviation
        );
    }
    station.levels.rds = args.rds_deviation / station.deviation;
    let iq = station.generate()?;

    let centre = args.freq - args.offset;
    let what = match &rds {
        Some(r) => format!(
            "PI 0x{:04X}, PS {:?}, RadioText {:?}",
            r.pi, r.ps, r.radiotext
        ),
        None => "no RDS".into(),
    };
    let tones = if args.mono {
        format!("mono: ({} Hz + {} Hz)/2", args.left_tone, args.right_tone)
    } else {
        format!("L {} Hz, R {} Hz", args.left_tone, args.right_tone)
    };
    let description = format!(
        "rfgraph gen fm: FM station at {} Hz ({tones}, {} µs pre-emphasis, {what}){}",
        args.freq,
        station.preemphasis.tau() * 1e6,
        args.cnr
            .map_or(String::new(), |c| format!(", CNR {c} dB in 200 kHz"))
    );
    let mut station_note = Annotation::at(0);
    station_note.sample_count = Some(iq.len() as u64);
    station_note.freq_lower_edge = Some(args.freq - 100e3);
    station_note.freq_upper_edge = Some(args.freq + 100e3);
    station_note.label = Some("FM".into());
    station_note.comment = Some(what.clone());
    station_note.generator = Some("rfgraph gen fm".into());
    let recording = IqRecording {
        center_frequency: Some(centre),
        description: Some(description),
        annotations: vec![station_note],
        ..IqRecording::new(format, args.rate)
    };
    write_iq(&args.output, &iq, &recording)?;

    let summary = json!({
        "file": files[0].display().to_string(),
        "format": format.sigmf_name(),
        "sample_rate": args.rate,
        "samples": iq.len(),
        "center_frequency": centre,
        "station_frequency": args.freq,
        "carrier_offset": args.offset,
        "cnr_db": args.cnr,
        "seed": args.seed,
        "stereo": !args.mono,
        "preemphasis_us": station.preemphasis.tau() * 1e6,
        "left_tone_hz": args.left_tone,
        "right_tone_hz": args.right_tone,
        "tone_amplitude": args.tone_amplitude,
        "rds": rds.as_ref().map(|r| json!({
            "pi": format!("0x{:04X}", r.pi),
            "ps": format!("{:<8}", r.ps),
            "rt": r.radiotext,
            "pty": r.pty,
            "tp": r.tp,
            "ta": r.ta,
            "ms": r.music,
            "di": {
                "stereo": r.di.stereo,
                "artificial_head": r.di.artificial_head,
                "compressed": r.di.compressed,
                "dynamic_pty": r.di.dynamic_pty,
            },
            "rt_ab": if r.rt_ab { "B" } else { "A" },
            "deviation_hz": args.rds_deviation,
        })),
    });
    if let Some(path) = &args.expected {
        std::fs::write(
            path,
            format!("{}\n", serde_json::to_string_pretty(&summary)?),
        )
        .with_context(|| format!("cannot write {}", path.display()))?;
    }
    outln!("{summary}");
    Ok(())
}
