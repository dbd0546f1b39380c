//! A BPSK loopback modem: random bytes → bits → differential coding →
//! symbols → RRC pulses → channel (noise, carrier offset) → matched filter
//! → Costas loop → M&M clock recovery → decisions → differential decoding,
//! then the bit error rate after the access code.
//!
//! `cargo run --release -p rfgraph-blocks --example loopback_modem [noise_voltage]`

use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::scheduler::Tpb;
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

fn bits_of(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .flat_map(|b| (0..8).rev().map(move |i| (b >> i) & 1))
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let noise: f32 = std::env::args().nth(1).map_or(Ok(0.1), |a| a.parse())?;
    let mut x = 7u32;
    let payload: Vec<u8> = (0..100_000)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect();
    let mut frame = vec![0x55u8; 64];
    frame.extend(ACCESS_CODE);
    frame.extend(&payload);
    frame.extend([0u8; 32]);

    let tx_taps = root_raised_cosine(SPS as f64, SPS as f64, 1.0, 0.35, 11 * SPS)?;
    let rx_taps = root_raised_cosine(1.0, SPS as f64, 1.0, 0.35, 11 * SPS)?;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(frame));
    let unpack = fg.add(repack_bits(RepackBitsParams {
        k: 8,
        l: 1,
        ..Default::default()
    })?);
    let enc = fg.add(diff_encoder(DiffCoderParams::default())?);
    let map = fg.add(chunks_to_symbols::<u8, Complex32>(
        ChunksToSymbolsParams::default(),
    )?);
    let shape = fg.add(DspBlock::new(InterpolatingFirCcf::new(&tx_taps, SPS)?));
    let channel = fg.add(ChannelModel::new(ChannelModelParams {
        noise_voltage: noise,
        frequency_offset: 0.0005,
        seed: 1,
        ..Default::default()
    })?);
    let matched = fg.add(DspBlock::new(FirCcf::new(&rx_taps)?));
    let costas = fg.add(costas_loop(CostasLoopParams {
        loop_bw: 2.0 * std::f32::consts::PI / 100.0,
        order: 2,
    })?);
    let clock = fg.add(clock_recovery_mm::<Complex32>(ClockRecoveryMmParams {
        omega: SPS as f32,
        gain_omega: 0.25 * 0.175 * 0.175,
        mu: 0.5,
        gain_mu: 0.175,
        omega_relative_limit: 0.005,
        ..Default::default()
    })?);
    let decide = fg.add(constellation_decoder(ConstellationDecoderParams {
        constellation: ConstellationParams::named(ConstellationName::Bpsk),
    })?);
    let dec = fg.add(diff_decoder(DiffCoderParams::default())?);
    let sink = fg.add(VectorSink::<u8>::new());
    fg.chain(&[
        src, unpack, enc, map, shape, channel, matched, costas, clock, decide, dec, sink,
    ])?;
    let done = fg.run(Tpb::new())?;
    let bits = done
        .block::<VectorSink<u8>>(sink)
        .ok_or("no sink")?
        .items()
        .to_vec();
    let code = bits_of(&ACCESS_CODE);
    let start = bits
        .windows(code.len())
        .position(|w| w == code.as_slice())
        .ok_or("access code not found")?
        + code.len();
    let want = bits_of(&payload);
    let got = &bits[start..(start + want.len()).min(bits.len())];
    let errors = got.iter().zip(&want).filter(|(a, b)| a != b).count();
    println!(
        "noise_voltage {noise}: {errors} bit errors in {} bits (BER {:.2e})",
        got.len(),
        errors as f64 / got.len().max(1) as f64
    );
    Ok(())
}
