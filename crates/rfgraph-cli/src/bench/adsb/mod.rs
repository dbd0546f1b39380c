//! The `adsb` experiment: decoding a long Mode S recording from a file,
//! rfgraph's receiver against every other decoder present, per core, in
//! one run.
//!
//! | mode | what runs | on |
//! |---|---|---|
//! | `rfgraph-2000` | `FileSource<u8>` → the receiver of `rfgraph adsb` (`add_receiver`: `Cu8Magnitude` → `ModesDemod` → `ModesDecoder`), 2 MS/s | the 2 MS/s file |
//! | `rfgraph-2400` | the same at 2.4 MS/s | the 2.4 MS/s file |
//! | `dump1090-mutability` | Debian's, `--ifile F --quiet --stats` | the 2.4 MS/s file |
//! | `dump1090-antirez` | antirez's `dump1090 --ifile F --stats` | the 2 MS/s file |
//! | `readsb` | `readsb --device-type ifile --ifile F --iformat UC8 --quiet --stats` | the 2.4 MS/s file |
//!
//! The input is the real recording (`testdata/adsb/modes1-part1.cu8`,
//! dump1090's modes1 at 2 MS/s) repeated to `--mib` MiB, and the same
//! recording resampled to 2.4 MS/s (rational 6/5 polyphase resampler from
//! `rfgraph-dsp`, its Kaiser low-pass cut at 1 MHz as
//! `scipy.signal.resample_poly(x, 6, 5)` cuts it) repeated as many times
//! (see [`files`]). The peers run when their programs are there; see
//! [`peers`] for how each is found, run and counted.
//!
//! `--cores 1,2`: every measurement runs pinned to the first C CPUs, for
//! each C of the list in turn ([`pin`]): rfgraph's whole process (the
//! scheduler gets C workers) and each peer's process.
//!
//! Each record: `cores`; `seconds` ([`setup::run_timed`]'s span for
//! rfgraph, process start to exit for a peer) and `cpu_seconds` (user +
//! system time over it); `samples` (of the passes read),
//! `samples_per_s`, `cpu_samples_per_s`, `realtime` (seconds of signal
//! per second); `frames` (every frame that passed its CRC or
//! address/parity check: rfgraph's demodulator output, counted by DF
//! beside the decoder; a peer's "total usable messages"), `passes`,
//! `frames_per_pass`, `df17_per_pass` (null when a peer's DF split is not
//! known), `frames_by_df` (DF → frames, all passes). The medians and the
//! ratios per core count are printed on stderr at the end ([`summary`]).

mod count;
mod files;
mod peers;
mod pin;
mod rx;
mod summary;

use super::setup::GraphOpts;
use super::{Record, Span};
use crate::console::errln;
use anyhow::bail;
use clap::Args;
use count::DfCounts;
use files::Files;
use peers::{PEERS, Peer};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::PathBuf;

/// Every mode, in the order `all` runs them.
pub const MODES: &[&str] = &[
    "rfgraph-2000",
    "rfgraph-2400",
    "dump1090-mutability",
    "dump1090-antirez",
    "readsb",
];

/// Options of `rfgraph bench adsb`.
#[derive(Args, Debug, Clone)]
pub struct AdsbArgs {
    /// Modes, comma-separated: rfgraph-2000, rfgraph-2400,
    /// dump1090-mutability, dump1090-antirez, readsb, or all (each peer
    /// only when its program is there).
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub mode: Vec<String>,
    /// Core counts, comma-separated: each measurement runs pinned to the
    /// first C CPUs, for each C.
    #[arg(long, default_value = "1,2", value_delimiter = ',')]
    pub cores: Vec<usize>,
    /// Size of the 2 MS/s file, MiB (the 2.4 MS/s one is 1.2 times it).
    #[arg(long, default_value_t = 256)]
    pub mib: u64,
    /// The recording to repeat (default: testdata/adsb/modes1-part1.cu8).
    #[arg(long)]
    pub recording: Option<PathBuf>,
    /// Folder for the files (default: /dev/shm, else the temporary folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Keep the files afterwards (they are reused if their size fits).
    #[arg(long)]
    pub keep: bool,
    /// dump1090-mutability's program (default: dump1090-mutability on
    /// PATH).
    #[arg(long, alias = "dump1090", value_name = "PATH")]
    pub mutability: Option<PathBuf>,
    /// antirez's dump1090 (default: dump1090 on PATH, unless that is
    /// mutability).
    #[arg(long, value_name = "PATH")]
    pub dump1090_antirez: Option<PathBuf>,
    /// readsb's program (default: readsb on PATH).
    #[arg(long, value_name = "PATH")]
    pub readsb: Option<PathBuf>,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// What one measurement counted, whoever ran it.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// The file's sample rate.
    pub rate: f64,
    /// Samples decoded.
    pub samples: u64,
    /// Frames that passed their CRC or parity check.
    pub frames: u64,
    /// The same by DF, when known.
    pub by_df: Option<DfCounts>,
    /// User + system time, when known.
    pub cpu_seconds: Option<f64>,
}

/// What `--mode` asked for, with the peers' programs.
#[derive(Clone, Debug)]
enum Mode {
    Rfgraph(f64),
    Peer(Peer, PathBuf),
}

impl Mode {
    fn name(&self) -> &'static str {
        match self {
            Mode::Rfgraph(rate) => rx::mode(*rate),
            Mode::Peer(p, _) => p.mode(),
        }
    }
}

fn given(args: &AdsbArgs, peer: Peer) -> Option<&std::path::Path> {
    match peer {
        Peer::Mutability => args.mutability.as_deref(),
        Peer::Antirez => args.dump1090_antirez.as_deref(),
        Peer::Readsb => args.readsb.as_deref(),
    }
}

/// The modes to run, in [`MODES`] order; a peer whose program is missing
/// is left out with one line on stderr.
fn modes(args: &AdsbArgs) -> anyhow::Result<Vec<Mode>> {
    let mut wanted: Vec<&str> = Vec::new();
    for m in &args.mode {
        match m.as_str() {
            "all" => wanted.extend(MODES),
            m if MODES.contains(&m) => wanted.push(m),
            other => bail!(
                "unknown adsb mode `{other}`; known: {}, all",
                MODES.join(", ")
            ),
        }
    }
    let mut out = Vec::new();
    for &name in MODES.iter().filter(|m| wanted.contains(m)) {
        match name {
            "rfgraph-2000" => out.push(Mode::Rfgraph(2.0e6)),
            "rfgraph-2400" => out.push(Mode::Rfgraph(2.4e6)),
            _ => {
                let Some(&peer) = PEERS.iter().find(|p| p.mode() == name) else {
                    continue;
                };
                match peers::locate(peer, given(args, peer)) {
                    Ok(path) => out.push(Mode::Peer(peer, path)),
                    Err(why) => errln!("adsb: {name} skipped: {why}"),
                }
            }
        }
    }
    Ok(out)
}

/// The record's measured fields.
fn finish(r: Record, cores: usize, m: &Measured, passes: u64) -> Record {
    let seconds = r.seconds();
    let per_pass = |n: u64| n as f64 / passes as f64;
    let by_df: Map<String, Value> = m.by_df.map_or_else(Map::new, |c| {
        (0..32)
            .filter(|&df| c.0[df] > 0)
            .map(|df| (df.to_string(), c.0[df].into()))
            .collect()
    });
    r.field("cores", cores)
        .field("rate_hz", m.rate)
        .field("samples", m.samples)
        .field("signal_seconds", m.samples as f64 / m.rate)
        .field("samples_per_s", m.samples as f64 / seconds)
        .field("realtime", m.samples as f64 / m.rate / seconds)
        .field("cpu_seconds", m.cpu_seconds)
        .field(
            "cpu_samples_per_s",
            m.cpu_seconds
                .filter(|&c| c > 0.0)
                .map(|c| m.samples as f64 / c),
        )
        .field("frames", m.frames)
        .field("passes", passes)
        .field("frames_per_pass", per_pass(m.frames))
        .field("df17_per_pass", m.by_df.map(|c| per_pass(c.df17())))
        .field("frames_by_df", Value::Object(by_df))
}

/// Runs `rfgraph bench adsb`.
pub fn run(args: &AdsbArgs) -> anyhow::Result<()> {
    let cpus = pin::Cpus::new();
    let cores = cpus.usable(&args.cores)?;
    let modes = modes(args)?;
    let files = Files::new(args.recording.as_deref(), args.dir.as_deref(), args.mib)?;
    let mut records = Vec::new();
    // A peer's frames by DF, from one untimed `--raw` run when its
    // statistics do not split them.
    let mut peer_dfs: HashMap<Peer, Option<DfCounts>> = HashMap::new();
    let result = (|| -> anyhow::Result<()> {
        for &cores in &cores {
            for run in 0..args.run.repeat {
                for mode in &modes {
                    let (record, measured) = match mode {
                        Mode::Rfgraph(rate) => {
                            cpus.on(cores, || rx::measure(*rate, &files, args, cores, run))?
                        }
                        Mode::Peer(peer, program) => {
                            let (file, samples) = files.at(peer.rate());
                            let (seconds, mut m) =
                                cpus.on(cores, || peers::measure(*peer, program, file, samples))?;
                            if m.by_df.is_none() {
                                m.by_df = match peer_dfs.get(peer) {
                                    Some(c) => *c,
                                    None => {
                                        let c = peers::count_by_df(*peer, program, file)?;
                                        if c.is_none() {
                                            errln!(
                                                "adsb: {} printed no frame with --raw: its DF17 count is unknown",
                                                mode.name()
                                            );
                                        }
                                        peer_dfs.insert(*peer, c);
                                        c
                                    }
                                };
                            }
                            let r = Record::new("adsb", "-", run, Span::whole(seconds))
                                .field("runtime", mode.name())
                                .field("mode", mode.name());
                            (r, m)
                        }
                    };
                    let r = finish(record, cores, &measured, files.passes);
                    r.print();
                    r.summary();
                    records.push(r.value());
                }
            }
        }
        Ok(())
    })();
    if !args.keep {
        files.remove();
    }
    result?;
    summary::print(&records, &cores, &args.run.scheduler);
    Ok(())
}
