//! `rfgraph gen adsb`: Mode S / ADS-B traffic with known contents, as a
//! SigMF recording (every frame an annotation, the receiver's position in
//! `core:geolocation`) or a raw file, plus (optionally) the frames sent as
//! JSON lines. Arguments adjust `Traffic::demo`; the generator in
//! `rfgraph_radio::generate::adsb` does the rest.

use crate::console::outln;

use clap::Args;
use rfgraph_blocks::sigmf::{Annotation, Capture, SigmfMeta};
use rfgraph_blocks::{SampleCodec, SampleFormat};
use rfgraph_radio::generate::adsb::{DECODE_SNR_DB, Traffic};
use serde_json::json;
use std::path::PathBuf;

/// Where the demonstration scene's receiver stands (between Amsterdam and
/// Rotterdam): recorded as the recording's `core:geolocation`.
const RECEIVER: (f64, f64) = (52.0, 4.4);

/// `rfgraph gen adsb` arguments.
#[derive(Args)]
pub struct AdsbArgs {
    /// The output: `x.sigmf-meta` (or `.sigmf-data`) writes a SigMF
    /// recording, any other name a raw file (format from its extension:
    /// `.cu8`, `.cs16`, `.cf32`, ...).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Sample rate in samples per second: 2e6 (dump1090) or 2.4e6
    /// (readsb), or any rate of at least 2e6.
    #[arg(long, value_name = "HZ", default_value_t = 2.0e6)]
    rate: f64,
    /// Seconds of signal.
    #[arg(long, value_name = "S", default_value_t = 0.25)]
    seconds: f64,
    /// Noise power per sample, dBFS.
    #[arg(long, value_name = "DBFS", default_value_t = -32.0, allow_hyphen_values = true)]
    noise: f64,
    /// No noise at all.
    #[arg(long, conflicts_with = "noise")]
    no_noise: bool,
    /// The seed of every random choice (timing, phases, noise).
    #[arg(long, default_value_t = 1090)]
    seed: u64,
    /// Mean seconds between two frames of one aircraft.
    #[arg(long, value_name = "S", default_value_t = 0.005)]
    interval: f64,
    /// Pairs of overlapping frames (15 dB apart).
    #[arg(long, default_value_t = 8)]
    overlaps: usize,
    /// The sample format (cu8, cs8, cs16, cf32, or a SigMF datatype);
    /// default: the raw name's extension, else cu8.
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// Also write every frame sent (start, hex, level, the position and
    /// altitude it encodes, its sender's callsign, squawk and motion,
    /// whether a receiver must decode it) as JSON lines to this file.
    #[arg(long, value_name = "FILE")]
    truth: Option<PathBuf>,
    /// Replace existing output files.
    #[arg(long)]
    force: bool,
}

/// Runs `rfgraph gen adsb`.
pub fn run(args: AdsbArgs) -> anyhow::Result<()> {
    let format = super::complex_format(
        args.format.as_deref(),
        &args.output,
        SampleFormat::CU8,
        "Mode S",
    )?;
    let (meta_path, data_path) =
        super::output_paths(&args.output, args.truth.as_ref(), args.force)?;
    let traffic = Traffic {
        rate: args.rate,
        seed: args.seed,
        noise_dbfs: (!args.no_noise).then_some(args.noise),
        interval_s: args.interval,
        overlaps: args.overlaps,
        ..Traffic::demo(args.seconds)
    };
    let rec = traffic.generate()?;
    let mut bytes = vec![0u8; rec.samples.len() * format.bytes_per_item()];
    SampleCodec::new(format).encode(&rec.samples, &mut bytes);
    super::write_file(&data_path, &bytes)?;
    if let Some(meta_path) = &meta_path {
        let mut meta = SigmfMeta::new(format);
        meta.global.sample_rate = Some(args.rate);
        meta.global.recorder = Some("rfgraph gen adsb".into());
        meta.global.description = Some(format!(
            "rfgraph gen adsb: {} aircraft around Amsterdam, {} Mode S frames ({} at least {DECODE_SNR_DB} dB above the noise and in the clear), noise {}, seed {}",
            traffic.flights.len(),
            rec.frames.len(),
            rec.frames.iter().filter(|f| f.decodable).count(),
            traffic
                .noise_dbfs
                .map_or("none".to_string(), |n| format!("{n} dBFS")),
            traffic.seed
        ));
        meta.global.extra.insert(
            "core:geolocation".into(),
            json!({"type": "Point", "coordinates": [RECEIVER.1, RECEIVER.0]}),
        );
        meta.captures.push(Capture {
            frequency: Some(1.09e9),
            ..Capture::at(0)
        });
        let us = args.rate / 1e6;
        for f in &rec.frames {
            let mut a = Annotation::at(f.sample);
            a.sample_count = Some(((8 + f.hex.len() * 4) as f64 * us).ceil() as u64);
            a.label = Some(format!("{:?}", f.kind));
            a.comment = Some(format!(
                "{} {:.1} dBFS{}",
                f.hex,
                f.level_dbfs,
                if f.hidden { " (overlapped)" } else { "" }
            ));
            a.generator = Some("rfgraph gen adsb".into());
            meta.annotations.push(a);
        }
        meta.write(meta_path)?;
    }
    if let Some(path) = &args.truth {
        let text: String = rec
            .frames
            .iter()
            .map(|f| serde_json::to_string(f).map(|s| s + "\n"))
            .collect::<Result<_, _>>()?;
        super::write_file(path, text.as_bytes())?;
    }
    outln!(
        "{}",
        json!({
            "file": meta_path.as_ref().unwrap_or(&data_path).display().to_string(),
            "format": format.sigmf_name(),
            "sample_rate": args.rate,
            "samples": rec.samples.len(),
            "frames": rec.frames.len(),
            "decodable": rec.frames.iter().filter(|f| f.decodable).count(),
            "aircraft": traffic.flights.len(),
            "seed": traffic.seed,
        })
    );
    Ok(())
}
