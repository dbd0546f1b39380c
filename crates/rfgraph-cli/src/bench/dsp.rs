//! The `dsp` experiment: one DSP block in the minimal flowgraph
//! source → head(N) → block → null sink, like `bench/gnuradio`'s `dsp`
//! (the source repeats 8192 random samples; the taps are a Hamming-windowed
//! sinc low-pass at 0.2·fs, shifted by +0.1·fs for complex taps).
//!
//! `seconds` is [`setup::run_timed`]'s span: the source data, the taps, the
//! kernel (FFT plans included) and the graph are made first; the timer
//! covers the scheduler's creation and the whole `Flowgraph::run` (rings,
//! `init`, threads, run, `deinit`). `gr_bench.py dsp` makes its pool, taps,
//! kernel block and top block first and times `tb.run(65536)`, the same span.
//!
//! Two kernels are more than one block, each in its own module: `viterbi`
//! (the FEC decoder, [`dsp_viterbi`](super::dsp_viterbi)) and `ofdm-rx`
//! (the OFDM receiver's chains, [`dsp_ofdm`](super::dsp_ofdm)).

use super::{Record, setup};
use anyhow::{Context, bail};
use clap::Args;
use num_complex::Complex32;
use rfgraph::{BlockId, Flowgraph, Item};
use rfgraph_blocks::{DspBlock, Head, NullSink, VectorSource};
use rfgraph_dsp::digital::{ResamplerKind, SymbolSync, TedKind};
use rfgraph_dsp::{
    Ccc, Ccf, Fff, Fft, FftDirection, Fir, QuadratureDemod, RationalResampler, Rotator, Window,
    design,
};

/// Kernels the experiment knows.
pub const KERNELS: &[&str] = &[
    "fir-fff",
    "fir-ccf",
    "fir-ccc",
    "fft",
    "resamp-ccf",
    "quad-demod",
    "rotator",
    "symsync-cc",
    "viterbi",
    "ofdm-rx",
];

/// Options of `rfgraph bench dsp`.
#[derive(Args, Debug, Clone)]
pub struct DspArgs {
    /// Kernel: fir-fff, fir-ccf, fir-ccc, fft, resamp-ccf, quad-demod, rotator,
    /// symsync-cc (symbol sync: Gardner, MMSE 8-tap, 4 samples/symbol),
    /// viterbi (see `dsp_viterbi`), ofdm-rx (see `dsp_ofdm`).
    #[arg(long)]
    pub kernel: String,
    /// Taps (FIR, resampler; default 64) or FFT size (default 1024).
    #[arg(long)]
    pub taps: Option<usize>,
    /// Input items.
    #[arg(long, default_value_t = 20_000_000)]
    pub items: u64,
    /// Scheduler.
    #[arg(long, default_value = "tpb")]
    pub scheduler: String,
    /// Runs to measure.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
}

const SOURCE_LEN: usize = 8192;

fn random_f32(n: usize) -> Vec<f32> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        })
        .collect()
}

fn random_c32(n: usize) -> Vec<Complex32> {
    let v = random_f32(2 * n);
    v.chunks_exact(2)
        .map(|c| Complex32::new(c[0], c[1]))
        .collect()
}

fn lowpass(taps: usize) -> anyhow::Result<Vec<f32>> {
    Ok(design::lowpass(taps, 1.0, 0.2, Window::Hamming)?)
}

/// Adds source → head → `block` → sink; returns the sink.
fn pipe<I: Item, O: Item>(
    fg: &mut Flowgraph,
    source: Vec<I>,
    items: u64,
    block: BlockId,
) -> anyhow::Result<BlockId> {
    let repeats = items.div_ceil(source.len() as u64);
    let src = fg.add(VectorSource::new(source).repeat(repeats));
    let head = fg.add(Head::<I>::new(items));
    let sink = fg.add(NullSink::<O>::new());
    fg.chain(&[src, head, block, sink])?;
    Ok(sink)
}

/// The graph, the taps, and the block whose consumed items the record
/// counts when it is no `DspBlock`.
fn build(args: &DspArgs) -> anyhow::Result<(Flowgraph, Option<usize>, Option<BlockId>)> {
    let mut fg = Flowgraph::new();
    let mut measured = None;
    let n = args.items;
    let taps = match args.kernel.as_str() {
        "fft" => args.taps.unwrap_or(1024),
        "quad-demod" | "rotator" | "symsync-cc" | "viterbi" | "ofdm-rx" => 0,
        _ => args.taps.unwrap_or(64),
    };
    match args.kernel.as_str() {
        "fir-fff" => {
            let b = fg.add(DspBlock::new(Fir::<Fff>::new(&lowpass(taps)?)?));
            pipe::<f32, f32>(&mut fg, random_f32(SOURCE_LEN), n, b)?;
        }
        "fir-ccf" => {
            let b = fg.add(DspBlock::new(Fir::<Ccf>::new(&lowpass(taps)?)?));
            pipe::<Complex32, Complex32>(&mut fg, random_c32(SOURCE_LEN), n, b)?;
        }
        "fir-ccc" => {
            let shifted: Vec<Complex32> = lowpass(taps)?
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    t * Complex32::from_polar(1.0, 2.0 * std::f32::consts::PI * 0.1 * i as f32)
                })
                .collect();
            let b = fg.add(DspBlock::new(Fir::<Ccc>::new(&shifted)?));
            pipe::<Complex32, Complex32>(&mut fg, random_c32(SOURCE_LEN), n, b)?;
        }
        "fft" => {
            let fft = Fft::new(taps, FftDirection::Forward)?.with_window(Window::BlackmanHarris)?;
            let b = fg.add(DspBlock::new(fft));
            let whole = n / taps as u64 * taps as u64;
            pipe::<Complex32, Complex32>(&mut fg, random_c32(SOURCE_LEN), whole, b)?;
        }
        "resamp-ccf" => {
            let r = RationalResampler::<Ccf>::with_taps(
                3,
                2,
                &lowpass(taps)?,
                rfgraph_dsp::Isa::detect(),
            )?;
            let b = fg.add(DspBlock::new(r));
            pipe::<Complex32, Complex32>(&mut fg, random_c32(SOURCE_LEN), n, b)?;
        }
        "quad-demod" => {
            let b = fg.add(DspBlock::new(QuadratureDemod::new(1.0)?));
            pipe::<Complex32, f32>(&mut fg, random_c32(SOURCE_LEN), n, b)?;
        }
        "rotator" => {
            let b = fg.add(DspBlock::new(Rotator::new(0.01)?));
            pipe::<Complex32, Complex32>(&mut fg, random_c32(SOURCE_LEN), n, b)?;
        }
        "symsync-cc" => {
            let sync = SymbolSync::<Complex32>::new(
                TedKind::Gardner,
                4.0,
                0.045,
                1.0,
                1.0,
                1.5,
                1,
                None,
                &ResamplerKind::Mmse8Tap,
            )?;
            let b = fg.add(DspBlock::new(sync));
            pipe::<Complex32, Complex32>(&mut fg, random_c32(SOURCE_LEN), n, b)?;
        }
        "viterbi" => {
            let b = super::dsp_viterbi::add(&mut fg)?;
            let whole = super::dsp_viterbi::whole_frames(n);
            pipe::<f32, u8>(&mut fg, random_f32(SOURCE_LEN), whole, b)?;
            measured = Some(b);
        }
        "ofdm-rx" => {
            let frames = super::dsp_ofdm::whole_frames(n);
            measured = Some(super::dsp_ofdm::add(&mut fg, frames)?);
        }
        other => bail!("unknown kernel `{other}`; known: {}", KERNELS.join(", ")),
    }
    Ok((fg, (taps > 0).then_some(taps), measured))
}

/// Runs the experiment.
pub fn run(args: &DspArgs) -> anyhow::Result<()> {
    if args.items == 0 {
        bail!("--items must be positive");
    }
    for run in 0..args.repeat {
        let (fg, taps, measured) = build(args)?;
        let (done, span) = setup::run_timed(
            fg,
            || setup::scheduler(&args.scheduler, None, &[], false),
            &format!("dsp run {run}"),
        )?;
        let stats = done.stats();
        let processed = match measured {
            Some(b) => stats.get(b.0).map(|s| s.items_consumed),
            None => stats
                .iter()
                .find(|s| s.type_name.contains("DspBlock"))
                .map(|s| s.items_consumed),
        }
        .context("no DSP block in the graph")?;
        let seconds = span.seconds;
        let record = Record::new("dsp", &args.scheduler, run, span)
            .field("kernel", args.kernel.clone())
            .field("taps", taps.map_or(serde_json::Value::Null, Into::into))
            .field("items", args.items)
            .field("items_processed", processed)
            .field("items_per_s", processed as f64 / seconds)
            .field("block_items_per_s", processed as f64 / seconds);
        let record = match args.kernel.as_str() {
            "viterbi" => record.field(
                "decoded_bits_per_s",
                super::dsp_viterbi::decoded_bits_per_s(processed, seconds),
            ),
            "ofdm-rx" => record.field(
                "frames_per_s",
                (processed / super::dsp_ofdm::FRAME_SAMPLES) as f64 / seconds,
            ),
            _ => record,
        };
        record.print();
        record.summary();
    }
    Ok(())
}
