//! `rfgraph gen wlan`: IEEE 802.11a/g data frames with known contents at
//! 20 MS/s, as a SigMF recording (every frame an annotation) or a raw
//! file, plus (optionally) the frames sent as JSON lines. Arguments
//! adjust `rfgraph_wlan::scene::Scene`; it does the rest.

use crate::console::outln;
use anyhow::{Context, bail};
use clap::Args;
use rfgraph_blocks::sigmf::{Annotation, Capture, SigmfMeta};
use rfgraph_blocks::{SampleCodec, SampleFormat};
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::scene::Scene;
use serde_json::json;
use std::path::PathBuf;

/// Integer formats hold the frames at a quarter of full scale: OFDM's
/// peaks stay below clipping.
const INTEGER_SCALE: f32 = 0.25;

/// `rfgraph gen wlan` arguments.
#[derive(Args)]
pub struct WlanArgs {
    /// The output: `x.sigmf-meta` (or `.sigmf-data`) writes a SigMF
    /// recording, any other name a raw file (format from its extension:
    /// `.cf32`, `.cs16`, `.cs8`, ...).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Frames to send.
    #[arg(long, default_value_t = 64)]
    frames: usize,
    /// Rates in Mb/s, comma-separated (6, 9, 12, 18, 24, 36, 48, 54), or
    /// `all`; frames take them in turn.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    rates: Vec<String>,
    /// Payload bytes after the 24-byte MAC header, comma-separated; each
    /// round of rates takes the next.
    #[arg(long, value_delimiter = ',', default_value = "500")]
    payloads: Vec<usize>,
    /// Fraction of the time the channel carries a frame.
    #[arg(long, default_value_t = 0.5)]
    busy: f64,
    /// Signal to noise ratio, dB (noise over the whole 20 MHz band against
    /// frames of power 1).
    #[arg(
        long,
        value_name = "DB",
        default_value_t = 25.0,
        allow_hyphen_values = true
    )]
    snr: f32,
    /// No noise at all.
    #[arg(long, conflicts_with = "snr")]
    no_noise: bool,
    /// Each frame's carrier offset is drawn within ± this many Hz.
    #[arg(long, value_name = "HZ", default_value_t = 20e3)]
    cfo: f64,
    /// Multipath: taps (with --delay-spread), an exponential
    /// power-delay profile drawn per frame; 0: a flat channel.
    #[arg(long, default_value_t = 0)]
    taps: usize,
    /// The multipath channel's RMS delay spread, in samples (50 ns each).
    #[arg(long, value_name = "SAMPLES", default_value_t = 1.0)]
    delay_spread: f32,
    /// The seed of every random choice (scrambler seeds, offsets, noise).
    #[arg(long, default_value_t = 80211)]
    seed: u64,
    /// The sample format (cf32, cs16, cs8, or a SigMF datatype); default:
    /// the raw name's extension, else cf32.
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// Also write every frame sent (seq, rate, MPDU hex without FCS,
    /// first sample, length in samples, carrier offset) as JSON lines.
    #[arg(long, value_name = "FILE")]
    truth: Option<PathBuf>,
    /// Replace existing output files.
    #[arg(long)]
    force: bool,
}

/// `--rates` as rates.
fn rates(names: &[String]) -> anyhow::Result<Vec<Rate>> {
    let mut out = Vec::new();
    for n in names {
        if n == "all" {
            out.extend(Rate::ALL);
            continue;
        }
        let mbps: f32 = n.parse().with_context(|| format!("--rates: `{n}`"))?;
        let rate = Rate::ALL
            .into_iter()
            .find(|r| r.mbps() == mbps)
            .with_context(|| {
                format!("--rates: no {mbps} Mb/s rate (6, 9, 12, 18, 24, 36, 48, 54)")
            })?;
        out.push(rate);
    }
    Ok(out)
}

/// Runs `rfgraph gen wlan`.
pub fn run(args: WlanArgs) -> anyhow::Result<()> {
    let format = super::complex_format(
        args.format.as_deref(),
        &args.output,
        SampleFormat::CF32,
        "802.11",
    )?;
    if !(args.busy > 0.0 && args.busy <= 1.0) {
        bail!("--busy {}: a fraction in (0, 1]", args.busy);
    }
    if args.payloads.iter().any(|&p| p > 4095 - 28) {
        bail!("--payloads: at most 4067 bytes (a PSDU is at most 4095 with header and FCS)");
    }
    let (meta_path, data_path) =
        super::output_paths(&args.output, args.truth.as_ref(), args.force)?;
    let scene = Scene {
        frames: args.frames,
        rates: rates(&args.rates)?,
        payloads: args.payloads.clone(),
        busy: args.busy,
        snr_db: (!args.no_noise).then_some(args.snr),
        max_cfo_hz: args.cfo,
        multipath: (args.taps > 0).then_some((args.taps, args.delay_spread)),
        lead: 2000,
        seed: args.seed,
    };
    let mut capture = scene.generate();
    let scale = if format.scalar().is_float() {
        1.0
    } else {
        INTEGER_SCALE
    };
    if scale != 1.0 {
        capture.samples.iter_mut().for_each(|s| *s *= scale);
    }
    let mut bytes = vec![0u8; capture.samples.len() * format.bytes_per_item()];
    SampleCodec::new(format).encode(&capture.samples, &mut bytes);
    super::write_file(&data_path, &bytes)?;
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    if let Some(meta_path) = &meta_path {
        let mut meta = SigmfMeta::new(format);
        meta.global.sample_rate = Some(20e6);
        meta.global.recorder = Some("rfgraph gen wlan".into());
        meta.global.description = Some(format!(
            "rfgraph gen wlan: {} IEEE 802.11a/g data frames, channel {:.0} % busy, {}, carrier offsets within ±{} Hz, {}, seed {}",
            capture.frames.len(),
            args.busy * 100.0,
            scene
                .snr_db
                .map_or("no noise".into(), |s| format!("SNR {s} dB")),
            args.cfo,
            scene
                .multipath
                .map_or("flat channel".into(), |(t, d)| format!(
                    "{t}-tap exponential multipath ({d} samples RMS)"
                )),
            args.seed
        ));
        meta.captures.push(Capture::at(0));
        for f in &capture.frames {
            let mut a = Annotation::at(f.start);
            a.sample_count = Some(f.samples as u64);
            a.label = Some(format!("{} Mb/s", f.rate.mbps()));
            a.comment = Some(hex(&f.mpdu));
            a.generator = Some("rfgraph gen wlan".into());
            meta.annotations.push(a);
        }
        meta.write(meta_path)?;
    }
    if let Some(path) = &args.truth {
        let text: String = capture
            .frames
            .iter()
            .map(|f| {
                json!({
                    "seq": f.seq,
                    "rate_mbps": f.rate.mbps(),
                    "encoding": f.rate.encoding(),
                    "mpdu": hex(&f.mpdu),
                    "start": f.start,
                    "samples": f.samples,
                    "cfo_hz": f.cfo_hz,
                })
                .to_string()
                    + "\n"
            })
            .collect();
        super::write_file(path, text.as_bytes())?;
    }
    outln!(
        "{}",
        json!({
            "file": meta_path.as_ref().unwrap_or(&data_path).display().to_string(),
            "format": format.sigmf_name(),
            "sample_rate": 20e6,
            "samples": capture.samples.len(),
            "frames": capture.frames.len(),
            "seed": args.seed,
        })
    );
    Ok(())
}
