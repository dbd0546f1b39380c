//! The `dsp` experiment's `ofdm-rx` kernel: the blocks of GNU Radio's
//! OFDM receiver (`ofdm_txrx.py`'s defaults: 64 carriers, cyclic prefix
//! 16, its occupied and pilot carriers, sync words and pilot symbols,
//! QPSK data) as two chains in one flowgraph, the same in
//! `gr_bench.py dsp --kernel ofdm-rx`:
//!
//! - acquisition: frames in time with their cyclic prefixes →
//!   `ofdm_sync_sc_cfb` (Schmidl & Cox) → its frequency-offset and
//!   trigger outputs into null sinks;
//! - demodulation: the same frames without prefixes, a `frame_len` tag
//!   of [`DATA_SYMBOLS`] on each frame's first symbol (the data symbols
//!   the channel estimator passes on) → FFT (shifted, no window) →
//!   `ofdm_chanest_vcvc` → `ofdm_frame_equalizer_vcvc` (simple DFE) →
//!   `ofdm_serializer_vcc` → null sink.
//!
//! GNU Radio's `ofdm_rx` hier block would also need its header parser
//! and the header/payload demultiplexer's feedback loop, which rfgraph
//! cannot import yet (`packet_headerparser_b`): these two chains are
//! the receiver's signal processing without that loop, block for block
//! the same on both sides (rfgraph's FFT a flat stream of 64-item
//! symbols, GNU Radio's vectors of 64). Each frame is 2 sync symbols
//! and [`DATA_SYMBOLS`] data symbols; a pool of [`POOL_FRAMES`] random
//! frames repeats. `--items` counts received samples (with prefixes),
//! rounded down to whole frames; the demodulation chain takes as many
//! frames. The record adds `frames_per_s`.

use num_complex::Complex32;
use rfgraph::registry::Registry;
use rfgraph::{BlockId, Flowgraph, Pmt, Tag};
use rfgraph_blocks::ofdm::{CarrierSets, SymbolSets, txrx_sync_word1, txrx_sync_word2};
use rfgraph_blocks::{Head, NullSink, VectorSource};
use rfgraph_dsp::{Fft, FftDirection};
use std::collections::BTreeMap;

/// Carriers.
pub const FFT_LEN: usize = 64;
/// Cyclic prefix.
pub const CP_LEN: usize = 16;
/// Data symbols per frame.
pub const DATA_SYMBOLS: usize = 20;
/// Frames in the repeating pool.
pub const POOL_FRAMES: usize = 8;
/// Received samples per frame (with prefixes).
pub const FRAME_SAMPLES: u64 = ((DATA_SYMBOLS + 2) * (FFT_LEN + CP_LEN)) as u64;

/// The pool's frames as time-domain symbols of [`FFT_LEN`] samples.
fn frames() -> anyhow::Result<Vec<Vec<Vec<Complex32>>>> {
    let occupied = &CarrierSets::txrx_occupied().0[0];
    let pilots = &CarrierSets::txrx_pilots().0[0];
    let pilot_symbols = SymbolSets::txrx_pilot_symbols().0;
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let qpsk = [
        Complex32::new(s, s),
        Complex32::new(-s, s),
        Complex32::new(-s, -s),
        Complex32::new(s, -s),
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut ifft = Fft::new(FFT_LEN, FftDirection::Inverse)?;
    let half = FFT_LEN as i64 / 2;
    // Shifted carrier `k` (−32…31) is unshifted bin `k mod FFT_LEN`.
    let bin = |k: i64| (k + FFT_LEN as i64).rem_euclid(FFT_LEN as i64) as usize;
    let mut out = Vec::new();
    for _ in 0..POOL_FRAMES {
        let mut symbols = Vec::new();
        for word in [txrx_sync_word1(), txrx_sync_word2()] {
            let mut x = vec![Complex32::default(); FFT_LEN];
            for (i, &v) in word.iter().enumerate() {
                x[bin(i as i64 - half)] = v;
            }
            symbols.push(x);
        }
        for d in 0..DATA_SYMBOLS {
            let mut x = vec![Complex32::default(); FFT_LEN];
            for &k in occupied {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                x[bin(k)] = qpsk[(state >> 62) as usize];
            }
            let p = &pilot_symbols[d % pilot_symbols.len()];
            for (&k, &v) in pilots.iter().zip(p) {
                x[bin(k)] = v;
            }
            symbols.push(x);
        }
        for x in &mut symbols {
            ifft.transform(x)?;
            for v in x.iter_mut() {
                *v /= FFT_LEN as f32;
            }
        }
        out.push(symbols);
    }
    Ok(out)
}

/// `items` received samples rounded down to whole frames (at least one).
pub fn whole_frames(items: u64) -> u64 {
    (items / FRAME_SAMPLES).max(1)
}

fn params(list: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Adds both chains for `frames` frames; returns the acquisition's
/// Schmidl & Cox block (whose consumed samples the record counts).
pub fn add(fg: &mut Flowgraph, frames: u64) -> anyhow::Result<BlockId> {
    let pool = self::frames()?;
    let mut reg = Registry::new();
    reg.extend(rfgraph_blocks::registry::specs());
    let build = |fg: &mut Flowgraph, name: &str, p: &[(&str, Pmt)]| -> anyhow::Result<BlockId> {
        let b = reg.build(name, params(p))?;
        Ok(fg.add_boxed(name, name, b))
    };
    // Acquisition: time samples with prefixes.
    let timed: Vec<Complex32> = pool
        .iter()
        .flatten()
        .flat_map(|s| s[FFT_LEN - CP_LEN..].iter().chain(s).copied())
        .collect();
    let per_pool = (POOL_FRAMES as u64) * FRAME_SAMPLES;
    let n = frames * FRAME_SAMPLES;
    let src = fg.add(VectorSource::new(timed).repeat(n.div_ceil(per_pool)));
    let head = fg.add(Head::<Complex32>::new(n));
    let sync = build(
        fg,
        "ofdm_sync_sc_cfb",
        &[
            ("fft_len", Pmt::U64(FFT_LEN as u64)),
            ("cp_len", Pmt::U64(CP_LEN as u64)),
        ],
    )?;
    let freq = fg.add(NullSink::<f32>::new());
    let detect = fg.add(NullSink::<u8>::new());
    fg.connect(src, "out", head, "in")?;
    fg.connect(head, "out", sync, "in")?;
    fg.connect(sync, "freq_offset", freq, "in")?;
    fg.connect(sync, "detect", detect, "in")?;
    // Demodulation: symbols without prefixes, a length tag per frame.
    let symbols = (DATA_SYMBOLS + 2) * FFT_LEN;
    let payload: Vec<Complex32> = pool.iter().flatten().flatten().copied().collect();
    let tags = (0..POOL_FRAMES)
        .map(|f| {
            Tag::new(
                (f * symbols) as u64,
                "frame_len",
                Pmt::U64(DATA_SYMBOLS as u64),
            )
        })
        .collect();
    let per_pool = (POOL_FRAMES * symbols) as u64;
    let n = frames * symbols as u64;
    let src = fg.add(
        VectorSource::new(payload)
            .with_tags(tags)
            .repeat(n.div_ceil(per_pool)),
    );
    let head = fg.add(Head::<Complex32>::new(n));
    let fft = build(
        fg,
        "fft",
        &[
            ("size", Pmt::U64(FFT_LEN as u64)),
            ("forward", Pmt::Bool(true)),
            ("window", Pmt::VecF32(Vec::new())),
            ("shift", Pmt::Bool(true)),
        ],
    )?;
    let chanest = build(
        fg,
        "ofdm_chanest",
        &[("n_data_symbols", Pmt::U64(DATA_SYMBOLS as u64))],
    )?;
    let eq = build(
        fg,
        "ofdm_frame_equalizer",
        &[
            ("cp_len", Pmt::U64(CP_LEN as u64)),
            ("propagate_channel_state", Pmt::Bool(true)),
        ],
    )?;
    let ser = build(fg, "ofdm_serializer", &[])?;
    let sink = fg.add(NullSink::<Complex32>::new());
    fg.chain(&[src, head, fft, chanest])?;
    fg.connect(chanest, "out", eq, "in")?;
    fg.chain(&[eq, ser, sink])?;
    Ok(sync)
}
