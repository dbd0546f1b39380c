//! `rfgraph adsb`: Mode S / ADS-B reception at 1090 MHz from a recording
//! (cu8 at 2 or 2.4 MS/s, as dump1090 and readsb record; other formats
//! through `Complex32`; a file whose name names no format, such as
//! dump1090's `modes1.bin`, is cu8 at 2 MS/s as dump1090 reads it) or a
//! device. Parses the options, assembles source
//! → receiver (`rfgraph_radio::modes::add_receiver`) → standard output
//! (and dump1090's network outputs with `--net`), runs it with the
//! receivers' shared plumbing (`receiver`), and prints the aircraft table.
//!
//! Output: one line per message on stdout, dump1090's raw `*HEX;` or,
//! with `--json`, the decoded message as JSON (raw hex, fields, signal
//! level in dBFS, sample index); the aircraft table at the end on stderr,
//! so stdout stays machine-readable.
//!
//! With `--control` the running graph is served on a control port as
//! `adsb`: the decoder's reading `aircraft` is the live table.

use crate::console::{err, errln};
use crate::receiver::{self, ControlArgs, Input, InputArgs, RunArgs, Source};
use anyhow::{Context, bail};
use clap::Args;
use rfgraph::{BlockId, Flowgraph};
use rfgraph_blocks::sigmf::{
    SigmfRecording, format_from_extension, is_sigmf_name, recording_paths,
};
use rfgraph_blocks::{SampleFormat, Throttle};
use rfgraph_radio::modes::net::{RAW_PORT, SBS_PORT};
use rfgraph_radio::modes::{
    DemodRate, LineWriter, Message, ModesDecoder, ModesDemod, ModesNetOutput, ReceiverConfig,
    ReceiverInput, add_receiver,
};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::atomic::Ordering;

/// `rfgraph adsb` arguments.
#[derive(Args, Debug, Clone)]
pub struct AdsbArgs {
    #[command(flatten)]
    input: InputArgs,
    /// One JSON object per message on stdout (raw hex, decoded fields,
    /// signal level in dBFS, sample index) instead of dump1090's raw
    /// `*HEX;` lines.
    #[arg(long, help_heading = "ADS-B")]
    json: bool,
    /// Serve dump1090's network outputs: raw frames (`*HEX;`, port 30002)
    /// and SBS/BaseStation (`MSG,...`, port 30003), for tar1090, Virtual
    /// Radar Server or a feeder.
    #[arg(long, help_heading = "ADS-B")]
    net: bool,
    /// The raw output's port (0: any free port, printed on stderr).
    #[arg(long, value_name = "PORT", default_value_t = RAW_PORT, requires = "net", help_heading = "ADS-B")]
    raw_port: u16,
    /// The SBS output's port (0: any free port, printed on stderr).
    #[arg(long, value_name = "PORT", default_value_t = SBS_PORT, requires = "net", help_heading = "ADS-B")]
    sbs_port: u16,
    /// The address the outputs listen on.
    #[arg(long, value_name = "IP", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), requires = "net", help_heading = "ADS-B")]
    net_bind: IpAddr,
    /// The receiver's latitude, degrees (with --lon): positions from a
    /// single frame, and surface positions, are decoded relative to it.
    /// SigMF recordings may carry it (`core:geolocation`).
    #[arg(
        long,
        value_name = "DEG",
        requires = "lon",
        allow_hyphen_values = true,
        help_heading = "ADS-B"
    )]
    lat: Option<f64>,
    /// The receiver's longitude, degrees (with --lat).
    #[arg(
        long,
        value_name = "DEG",
        requires = "lat",
        allow_hyphen_values = true,
        help_heading = "ADS-B"
    )]
    lon: Option<f64>,
    /// Do not repair bit errors in DF17/18 (one wrong bit, or two for an
    /// aircraft already proven).
    #[arg(long, help_heading = "ADS-B")]
    no_fix: bool,
    /// Play a file at its own sample rate, as if it were a device (for
    /// network clients, or the control port's page, to follow).
    #[arg(long, help_heading = "ADS-B")]
    throttle: bool,
    /// No aircraft table at the end.
    #[arg(long, help_heading = "ADS-B")]
    no_table: bool,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    control: ControlArgs,
}

/// The receiver's position from a SigMF recording's `core:geolocation`
/// (a GeoJSON point: longitude, latitude[, altitude]).
fn geolocation(input: &InputArgs) -> Option<(f64, f64)> {
    let path = input.input.as_ref().filter(|p| is_sigmf_name(p))?;
    let rec = SigmfRecording::open(path).ok()?;
    let point = rec.meta().global.extra.get("core:geolocation")?;
    let c = point.get("coordinates")?.as_array()?;
    let (lon, lat) = (c.first()?.as_f64()?, c.get(1)?.as_f64()?);
    ((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)).then_some((lat, lon))
}

/// dump1090's `--raw` line for a message's JSON: `*` + lower-case hex +
/// `;` (the network output's is upper-case, as dump1090's).
fn raw_stdout_line(json: &str) -> Option<String> {
    let m: Message = serde_json::from_str(json).ok()?;
    Some(format!("*{};", m.hex))
}

/// True when `path` is a SigMF recording: by its name, or by a
/// `.sigmf-meta` file beside it (as `RecordingInfo::probe` decides).
fn is_sigmf(path: &Path) -> bool {
    is_sigmf_name(path) || recording_paths(path).is_ok_and(|(meta, _)| meta.is_file())
}

/// A raw file whose name states no sample format (no extension, or
/// dump1090's `.bin`, `.raw`, ...) and no `--format`: dump1090 reads
/// such a file as cu8, and so does `rfgraph adsb` (saying so unless
/// `--quiet`).
fn format_unstated(input: &InputArgs) -> Option<&Path> {
    let path = input.input.as_deref()?;
    (input.format.is_none() && !is_sigmf(path) && format_from_extension(path).is_none())
        .then_some(path)
}

/// Opens the input. A raw file's or a device's rate defaults to
/// dump1090's 2 MS/s, a device's frequency to 1090 MHz; a raw file
/// whose name names no sample format is read as cu8 (dump1090's
/// default), with a note on stderr.
fn open(args: &AdsbArgs) -> anyhow::Result<Input> {
    let mut input = args.input.clone();
    if let Some(path) = format_unstated(&input) {
        if !args.run.quiet {
            let rate = match input.rate {
                None => "at 2 MS/s".to_string(),
                Some(r) => format!("at {r} samples/s"),
            };
            errln!(
                "rfgraph adsb: {}: no sample format in its name: reading it as cu8 {rate} \
                 (dump1090's default; give --format and --rate otherwise)",
                path.display()
            );
        }
        input.format = Some("cu8".into());
    }
    let raw_file = input.input.as_ref().is_some_and(|p| !is_sigmf(p));
    if (raw_file || input.device.is_some()) && input.rate.is_none() {
        input.rate = Some(2.0e6);
    }
    if input.device.is_some() && input.freq.is_none() {
        input.freq = Some(1.09e9);
    }
    input.open()
}

/// Adds a `Throttle` of `T` behind the source, at the input's rate.
fn throttled<T: rfgraph::Item>(
    fg: &mut Flowgraph,
    src: &Source,
    per_second: f64,
) -> anyhow::Result<BlockId> {
    let t = fg.add_named("throttle", Throttle::<T>::new(per_second)?);
    fg.connect(src.block, Source::PORT, t, "in")?;
    Ok(t)
}

/// Runs `rfgraph adsb`.
pub fn run(args: AdsbArgs) -> anyhow::Result<()> {
    let input = open(&args)?;
    let rate = input.sample_rate();
    DemodRate::from_hz(rate).with_context(|| {
        format!("resample the input to 2 MS/s or 2.4 MS/s (it is {rate} samples/s)")
    })?;
    if let Some(f) = input.frequency()
        && (f - 1.09e9).abs() > 1.0e6
    {
        errln!(
            "rfgraph adsb: warning: the input is centred on {f} Hz, not 1090 MHz: Mode S may be out of band"
        );
    }
    if args.throttle && !input.is_file() {
        bail!("--throttle is for files: a device delivers at its own rate");
    }
    let position = match (args.lat, args.lon) {
        (Some(lat), Some(lon)) => {
            if !((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)) {
                bail!("--lat/--lon: {lat}, {lon} is not a position (latitude ±90, longitude ±180)");
            }
            Some((lat, lon))
        }
        _ => geolocation(&args.input),
    };
    let mut fg = Flowgraph::new();
    let cu8 = input.format() == Some(SampleFormat::CU8);
    let (src, kind) = if cu8 {
        (input.add_cu8(&mut fg)?, ReceiverInput::Cu8Bytes)
    } else {
        (input.add_complex(&mut fg)?, ReceiverInput::Complex)
    };
    let feed = match (args.throttle, cu8) {
        (false, _) => src.block,
        (true, true) => throttled::<u8>(&mut fg, &src, 2.0 * rate)?,
        (true, false) => throttled::<num_complex::Complex32>(&mut fg, &src, rate)?,
    };
    let config = ReceiverConfig {
        rate_hz: rate,
        position,
        fix: !args.no_fix,
        keep: 0,
    };
    let rx = add_receiver(&mut fg, feed, Source::PORT, kind, &config)?;
    let mut out = LineWriter::new(Box::new(crate::console::Stdout));
    if !args.json {
        out = out.with_transform(raw_stdout_line);
    }
    let out = fg.add_named("stdout", out);
    fg.connect_message(rx.decoder, "messages", out, "in")?;
    if args.net {
        let at = |port| SocketAddr::new(args.net_bind, port);
        let net = ModesNetOutput::bind(Some(at(args.raw_port)), Some(at(args.sbs_port)))?;
        if !args.run.quiet {
            errln!(
                "raw output on {}, SBS output on {}",
                net.raw_addr().map_or("?".into(), |a| a.to_string()),
                net.sbs_addr().map_or("?".into(), |a| a.to_string())
            );
        }
        let net = fg.add_named("net", net);
        fg.connect_message(rx.decoder, "messages", net, "in")?;
    }
    if !args.run.quiet {
        errln!("{}", input.describe());
    }
    let run = RunArgs {
        stdout_is_product: true,
        control: args.control.control("adsb"),
        ..args.run.clone()
    };
    let outcome = receiver::run(fg, &src, &run)?;
    let done = &outcome.finished;
    let decoder = done
        .block::<ModesDecoder>(rx.decoder)
        .context("the decoder's results")?;
    let demod = done
        .block::<ModesDemod>(rx.demod)
        .context("the demodulator's counters")?
        .demod_counters();
    let tracker = decoder.tracker();
    if !args.no_table {
        let load = |c: &std::sync::Arc<std::sync::atomic::AtomicU64>| c.load(Ordering::Relaxed);
        err!("{}", tracker.table());
        errln!(
            "{} frames ({} repaired, {} addressed by parity), {} aircraft",
            load(&demod.frames),
            load(&demod.corrected),
            load(&demod.recovered),
            tracker.aircraft().count()
        );
    }
    Ok(())
}
