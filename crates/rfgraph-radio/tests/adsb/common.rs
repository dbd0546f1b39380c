//! Shared by the ADS-B integration tests: generated traffic as cu8 bytes
//! and magnitudes, and the demodulator run over a whole buffer.

#![allow(dead_code)]

use rfgraph_blocks::{SampleCodec, SampleFormat};
use rfgraph_radio::generate::adsb::{Traffic, TrafficRecording};
use rfgraph_radio::modes::{DemodRate, Demodulator, RawFrame, cu8_magnitudes};

/// The recording's samples as `cu8` bytes, as a file would hold them.
pub fn cu8(rec: &TrafficRecording) -> Vec<u8> {
    let mut bytes = vec![0u8; rec.samples.len() * 2];
    SampleCodec::new(SampleFormat::CU8).encode(&rec.samples, &mut bytes);
    bytes
}

/// Magnitudes of `cu8` bytes.
pub fn magnitudes(bytes: &[u8]) -> Vec<u16> {
    let mut m = vec![0u16; bytes.len() / 2];
    cu8_magnitudes(bytes, &mut m);
    m
}

/// Every frame the demodulator finds in `m` at `rate`.
pub fn demodulate(m: &[u16], rate: f64) -> Vec<RawFrame> {
    let mut d = Demodulator::new(DemodRate::from_hz(rate).expect("a demodulator rate"));
    let mut out = Vec::new();
    d.push(m, &mut out);
    d.finish(&mut out);
    out
}

/// The demonstration scene at `rate`, `seconds` long.
pub fn scene(rate: f64, seconds: f64) -> (Traffic, TrafficRecording) {
    scene_seeded(rate, seconds, Traffic::demo(seconds).seed)
}

/// The demonstration scene at `rate`, `seconds` long, drawn with `seed`.
pub fn scene_seeded(rate: f64, seconds: f64, seed: u64) -> (Traffic, TrafficRecording) {
    let mut t = Traffic::demo(seconds);
    t.rate = rate;
    t.seed = seed;
    let rec = t.generate().expect("the demo scene generates");
    (t, rec)
}
