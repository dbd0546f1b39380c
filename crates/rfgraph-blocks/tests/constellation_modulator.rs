//! `constellation_modulator` puts GNU Radio's symbol sequence on the air:
//! after a matched RRC filter, the samples at the symbol instants decide
//! to the points GNU Radio's `generic_mod` chain selects (bytes split MSB
//! first, the pre-diff Gray code where the constellation applies it,
//! differential coding modulo the arity when asked, then the point).

mod common;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::ParamChoice;
use rfgraph_blocks::digital::{
    ConstellationModulator, ConstellationModulatorParams, ConstellationName, ConstellationParams,
};
use rfgraph_blocks::{DspBlock, VectorSink, VectorSource};
use rfgraph_dsp::digital::Constellation;
use rfgraph_dsp::filter::FirCcf;
use rfgraph_dsp::firdes::root_raised_cosine;

const SPS: usize = 4;

fn bytes() -> Vec<u8> {
    (0..300u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect()
}

/// GNU Radio's symbol indices for `bytes`.
fn expected(c: &Constellation, differential: bool, bytes: &[u8]) -> Vec<u8> {
    let bps = c.bits_per_symbol() as usize;
    let bits: Vec<u8> = bytes
        .iter()
        .flat_map(|b| (0..8).rev().map(move |i| (b >> i) & 1))
        .collect();
    let mut last = 0u32;
    bits.chunks_exact(bps)
        .map(|chunk| {
            let mut s = chunk.iter().fold(0u8, |a, &b| (a << 1) | b);
            if c.differential() {
                s = c.pre_diff_code()[s as usize];
            }
            if differential {
                last = (last + s as u32) % c.arity() as u32;
                s = last as u8;
            }
            s
        })
        .collect()
}

fn modulate(
    constellation: ConstellationName,
    differential: bool,
    scheduler: Box<dyn rfgraph::Scheduler>,
) -> Vec<Complex32> {
    let taps = root_raised_cosine(1.0, SPS as f64, 1.0, 0.35, 11 * SPS).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bytes()));
    let m = fg.add(
        ConstellationModulator::new(ConstellationModulatorParams {
            constellation: ConstellationParams::named(constellation),
            differential,
            sps: SPS,
            excess_bw: 0.35,
        })
        .unwrap(),
    );
    let matched = fg.add(DspBlock::new(FirCcf::new(&taps).unwrap()));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, m, matched, sink]).unwrap();
    let done = fg.run_bounded(scheduler).unwrap();
    done.block::<VectorSink<Complex32>>(sink)
        .unwrap()
        .items()
        .to_vec()
}

#[test]
fn symbol_instants_decide_to_gnu_radios_symbols() {
    // Two 45-tap filters: 44 samples of delay to the first symbol's peak.
    let delay = 11 * SPS;
    for (name, differential) in [
        ("bpsk", false),
        ("qpsk", true),
        ("dqpsk", true),
        ("8psk", false),
        ("16qam", false),
    ] {
        for scheduler in every_scheduler() {
            let sched = scheduler.name().to_string();
            let c = Constellation::by_name(name).unwrap();
            let want = expected(&c, differential, &bytes());
            let named = ConstellationName::from_choice(name).unwrap();
            let samples = modulate(named, differential, scheduler);
            assert_eq!(samples.len(), want.len() * SPS, "{name} on {sched}");
            // Scale: the RRC pair has a peak gain near 1; compare decisions.
            let got: Vec<u8> = (0..want.len() - 12)
                .map(|k| c.decide(samples[k * SPS + delay]))
                .collect();
            assert_eq!(got, want[..got.len()], "{name} on {sched}");
        }
    }
}
