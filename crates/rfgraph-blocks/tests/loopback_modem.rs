//! A loopback modem through the new digital and channel blocks: known
//! bytes go out as differentially coded BPSK with root-raised-cosine
//! pulses, cross a channel with noise and a carrier offset, and come back
//! through a matched filter, a Costas loop, Mueller & Müller clock
//! recovery, a constellation decision and differential decoding. The test
//! finds the access code in the recovered bits and checks every payload
//! byte, on every scheduler.
//!
//! The chain (the flowgraph-file version uses the same blocks and
//! parameters):
//! `vector_source(u8)` → `repack_bits(k=8, l=1, msb)` →
//! `diff_encoder(modulus=2)` → `chunks_to_symbols(table=[-1, 1], u8 → c32)`
//! → `interp_fir_filter(interpolation=4, taps=rrc(gain 4, fs 4, rate 1,
//! 0.35, 45 taps))` → `channel_model(noise_voltage=0.05,
//! frequency_offset=0.0005, epsilon=1.0, seed=1)` →
//! `fir_filter(taps=rrc(gain 1, fs 4, rate 1, 0.35, 45 taps))` →
//! `costas_loop(loop_bw=2π/100, order=2)` → `clock_recovery_mm(omega=4,
//! gain_omega=0.25·0.175², mu=0.5, gain_mu=0.175,
//! omega_relative_limit=0.005, c32)` → `constellation_decoder(bpsk)` →
//! `diff_decoder(modulus=2)` → `vector_sink(u8)`.

mod common;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph_blocks::channels::{ChannelModel, ChannelModelParams};
use rfgraph_blocks::digital::{
    ChunksToSymbolsParams, ClockRecoveryMmParams, ConstellationDecoderParams, ConstellationName,
    ConstellationParams, CostasLoopParams, DiffCoderParams, RepackBitsParams, chunks_to_symbols,
    clock_recovery_mm, constellation_decoder, costas_loop, diff_decoder, diff_encoder, repack_bits,
};
use rfgraph_blocks::{DspBlock, VectorSink, VectorSource};
use rfgraph_dsp::filter::{FirCcf, InterpolatingFirCcf};
use rfgraph_dsp::firdes::root_raised_cosine;

const SPS: usize = 4;
const ACCESS_CODE: [u8; 4] = [0xac, 0xdd, 0xa4, 0xe2];
const PAYLOAD: usize = 1500;

/// Bytes from a fixed LCG: the same on every run.
fn payload() -> Vec<u8> {
    let mut x = 0x1234_5678u32;
    (0..PAYLOAD)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect()
}

/// Preamble (alternating bits, for the loops to settle), access code,
/// payload, and a tail to flush the filters.
fn frame() -> Vec<u8> {
    let mut v = vec![0x55u8; 64];
    v.extend(ACCESS_CODE);
    v.extend(payload());
    v.extend([0u8; 32]);
    v
}

fn bits_of(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .flat_map(|b| (0..8).rev().map(move |i| (b >> i) & 1))
        .collect()
}

fn modem(scheduler: Box<dyn rfgraph::Scheduler>) -> Vec<u8> {
    let tx_taps = root_raised_cosine(SPS as f64, SPS as f64, 1.0, 0.35, 11 * SPS).unwrap();
    let rx_taps = root_raised_cosine(1.0, SPS as f64, 1.0, 0.35, 11 * SPS).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(frame()));
    let unpack = fg.add(
        repack_bits(RepackBitsParams {
            k: 8,
            l: 1,
            ..Default::default()
        })
        .unwrap(),
    );
    let enc = fg.add(diff_encoder(DiffCoderParams::default()).unwrap());
    let map = fg.add(
        chunks_to_symbols::<u8, Complex32>(ChunksToSymbolsParams {
            symbol_table: vec![Complex32::new(-1.0, 0.0), Complex32::new(1.0, 0.0)],
            dimension: 1,
            ..Default::default()
        })
        .unwrap(),
    );
    let shape = fg.add(DspBlock::new(
        InterpolatingFirCcf::new(&tx_taps, SPS).unwrap(),
    ));
    let channel = fg.add(
        ChannelModel::new(ChannelModelParams {
            noise_voltage: 0.05,
            frequency_offset: 0.0005,
            epsilon: 1.0,
            taps: vec![Complex32::new(1.0, 0.0)],
            seed: 1,
            block_tags: false,
            ..Default::default()
        })
        .unwrap(),
    );
    let matched = fg.add(DspBlock::new(FirCcf::new(&rx_taps).unwrap()));
    let costas = fg.add(
        costas_loop(CostasLoopParams {
            loop_bw: 2.0 * std::f32::consts::PI / 100.0,
            order: 2,
        })
        .unwrap(),
    );
    let clock = fg.add(
        clock_recovery_mm::<Complex32>(ClockRecoveryMmParams {
            omega: SPS as f32,
            gain_omega: 0.25 * 0.175 * 0.175,
            mu: 0.5,
            gain_mu: 0.175,
            omega_relative_limit: 0.005,
            ..Default::default()
        })
        .unwrap(),
    );
    let decide = fg.add(
        constellation_decoder(ConstellationDecoderParams {
            constellation: ConstellationParams::named(ConstellationName::Bpsk),
        })
        .unwrap(),
    );
    let dec = fg.add(diff_decoder(DiffCoderParams::default()).unwrap());
    let sink = fg.add(VectorSink::<u8>::new());
    fg.chain(&[
        src, unpack, enc, map, shape, channel, matched, costas, clock, decide, dec, sink,
    ])
    .unwrap();
    let done = fg.run_bounded(scheduler).unwrap();
    done.block::<VectorSink<u8>>(sink).unwrap().items().to_vec()
}

#[test]
fn bytes_come_back_through_the_bpsk_loopback_without_bit_errors() {
    let code = bits_of(&ACCESS_CODE);
    let want = bits_of(&payload());
    for scheduler in every_scheduler() {
        let name = scheduler.name().to_string();
        let bits = modem(scheduler);
        let start = bits
            .windows(code.len())
            .position(|w| w == code.as_slice())
            .unwrap_or_else(|| panic!("{name}: access code not found in {} bits", bits.len()))
            + code.len();
        let got = &bits[start..];
        assert!(
            got.len() >= want.len(),
            "{name}: only {} payload bits",
            got.len()
        );
        let errors = got[..want.len()]
            .iter()
            .zip(&want)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            errors,
            0,
            "{name}: {errors} bit errors in {} bits",
            want.len()
        );
    }
}
