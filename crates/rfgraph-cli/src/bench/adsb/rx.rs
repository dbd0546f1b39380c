//! rfgraph's side of `bench adsb`: the receiver `rfgraph adsb` builds
//! (`rfgraph_radio::modes::add_receiver` on the file's cu8 bytes:
//! magnitudes, demodulator, decoder) behind a file source of the passes,
//! with a [`DfCount`] beside the decoder on the demodulator's output, run
//! by `--scheduler` with as many workers as the cores it is pinned to.
//! `seconds` is [`setup::run_timed`]'s span; `cpu_seconds` the process's
//! CPU time over the same span (`getrusage`, every thread).

use super::super::{Record, setup};
use super::count::DfCount;
use super::files::Files;
use super::{AdsbArgs, Measured};
use anyhow::Context;
use rfgraph::Flowgraph;
use rfgraph::stats::CpuTime;
use rfgraph_blocks::{FileSource, SampleFormat};
use rfgraph_radio::modes::{ReceiverConfig, ReceiverInput, add_receiver};

/// The mode's name for `rate`: `rfgraph-2000` or `rfgraph-2400`.
pub fn mode(rate: f64) -> &'static str {
    if rate == 2.0e6 {
        "rfgraph-2000"
    } else {
        "rfgraph-2400"
    }
}

/// Decodes the file at `rate` once on `cores` workers (the caller pins
/// the process): the record's common part and what was measured.
///
/// Errors: the graph cannot be built or fails.
pub fn measure(
    rate: f64,
    files: &Files,
    args: &AdsbArgs,
    cores: usize,
    run: usize,
) -> anyhow::Result<(Record, Measured)> {
    let (path, samples) = files.at(rate);
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    // The passes only: the 2 MS/s file's padding is for antirez's dump1090.
    let src = fg.add_named(
        "source",
        FileSource::<u8>::new(path, SampleFormat::CU8)?.length(samples)?,
    );
    let rx = add_receiver(
        &mut fg,
        src,
        "out",
        ReceiverInput::Cu8Bytes,
        &ReceiverConfig::new(rate),
    )?;
    let count = fg.add_named("df_count", DfCount::new());
    fg.connect(rx.demod, "out", count, "in")?;
    let mode = mode(rate);
    let before = CpuTime::now();
    let (done, span) = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, Some(cores), &[], args.run.explain),
        &format!("adsb {mode} on {cores} core(s) run {run}"),
    )?;
    let cpu = CpuTime::now().since(before).total().as_secs_f64();
    if args.run.stats {
        setup::print_block_stats(&done, "adsb", &args.run.scheduler, run);
    }
    let counts = done
        .block::<DfCount>(count)
        .context("the frame counter")?
        .counts();
    let record = Record::new("adsb", &args.run.scheduler, run, span).field("mode", mode);
    Ok((
        record,
        Measured {
            rate,
            samples,
            frames: counts.total(),
            by_df: Some(counts),
            cpu_seconds: Some(cpu),
        },
    ))
}
