//! The real recording (`testdata/adsb/modes1-part1.cu8`, dump1090's
//! modes1 at 2 MS/s, and its 2.4 MS/s resample): every one of the 159
//! frames dump1090 decodes is found (as many times as dump1090 finds
//! it), every frame of rfgraph's own earlier lists (the baselines) still
//! is, no reported frame fails its parity, and the frame list does not
//! depend on how the samples are chunked.

use rfgraph_radio::modes::crc::syndrome;
use rfgraph_radio::modes::{DemodRate, Demodulator, RawFrame, cu8_magnitudes};
use std::collections::HashMap;
use std::path::PathBuf;

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/adsb")
        .join(name)
}

fn magnitudes() -> Vec<u16> {
    magnitudes_of("modes1-part1.cu8")
}

fn magnitudes_of(name: &str) -> Vec<u16> {
    let bytes = std::fs::read(testdata(name)).expect("the test recording");
    let mut m = vec![0u16; bytes.len() / 2];
    cu8_magnitudes(&bytes, &mut m);
    m
}

/// One hex frame a line.
fn frame_list(name: &str) -> Vec<String> {
    std::fs::read_to_string(testdata(name))
        .expect("a frame list")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

fn demodulate(m: &[u16], chunks: &mut dyn Iterator<Item = usize>) -> Vec<RawFrame> {
    demodulate_at(DemodRate::Msps2, m, chunks)
}

fn demodulate_at(
    rate: DemodRate,
    m: &[u16],
    chunks: &mut dyn Iterator<Item = usize>,
) -> Vec<RawFrame> {
    let mut d = Demodulator::new(rate);
    let mut out = Vec::new();
    let mut at = 0;
    while at < m.len() {
        let n = chunks.next().unwrap_or(usize::MAX).min(m.len() - at);
        d.push(&m[at..at + n], &mut out);
        at += n;
    }
    d.finish(&mut out);
    out
}

fn counts<'a>(hexes: impl Iterator<Item = &'a str>) -> HashMap<&'a str, usize> {
    let mut c = HashMap::new();
    for h in hexes {
        *c.entry(h).or_default() += 1;
    }
    c
}

#[test]
fn every_dump1090_frame_and_nothing_unchecked() {
    let frames = demodulate(&magnitudes(), &mut std::iter::repeat(1 << 20));
    let expected = frame_list("modes1-part1.expected.txt");
    assert_eq!(expected.len(), 159);
    let hexes: Vec<String> = frames.iter().map(|f| f.hex()).collect();
    let ours = counts(hexes.iter().map(String::as_str));
    for (hex, n) in counts(expected.iter().map(String::as_str)) {
        let got = ours.get(hex).copied().unwrap_or(0);
        assert!(
            got >= n,
            "{hex}: dump1090 decodes it {n} times, rfgraph {got}"
        );
    }
    assert!(frames.len() >= 159, "{} frames", frames.len());
    all_check(&frames);
}

/// Every frame's parity checks the way its format allows, and every one
/// is from the file's one aircraft; in order, one preamble each.
fn all_check(frames: &[RawFrame]) {
    for f in frames {
        let s = syndrome(f.data());
        match f.df() {
            17 | 18 => assert_eq!(s, 0, "{}", f.hex()),
            11 => assert!(s < 80, "{}", f.hex()),
            _ => assert_eq!(s, 0x4D2023, "{}", f.hex()),
        }
        assert_eq!(f.address, 0x4D2023, "{}", f.hex());
        assert!(f.corrected <= 2);
    }
    assert!(frames.windows(2).all(|w| w[0].sample < w[1].sample));
}

/// The frame lists stay supersets of what rfgraph decoded before its
/// demodulator was reworked, at both rates, every frame as many times.
#[test]
fn every_baseline_frame_at_both_rates() {
    for (recording, baseline, rate) in [
        (
            "modes1-part1.cu8",
            "modes1-part1.baseline.txt",
            DemodRate::Msps2,
        ),
        (
            "modes1-part1.2m4.cu8",
            "modes1-part1.2m4.baseline.txt",
            DemodRate::Msps2_4,
        ),
    ] {
        let frames = demodulate_at(rate, &magnitudes_of(recording), &mut std::iter::empty());
        let baseline = frame_list(baseline);
        assert!(baseline.len() > 190, "{rate:?}");
        let hexes: Vec<String> = frames.iter().map(|f| f.hex()).collect();
        let ours = counts(hexes.iter().map(String::as_str));
        for (hex, n) in counts(baseline.iter().map(String::as_str)) {
            let got = ours.get(hex).copied().unwrap_or(0);
            assert!(got >= n, "{rate:?} {hex}: {n} times before, {got} now");
        }
        assert!(
            frames.len() > baseline.len(),
            "{rate:?}: {} frames",
            frames.len()
        );
        all_check(&frames);
    }
}

#[test]
fn chunking_changes_nothing() {
    let m = magnitudes();
    let whole = demodulate(&m, &mut std::iter::repeat(usize::MAX));
    assert!(!whole.is_empty());
    for sizes in [
        vec![1usize, 2, 3, 5, 7, 11],
        vec![239, 240, 241],
        vec![4096],
        vec![65_537, 13],
    ] {
        let mut it = sizes.iter().copied().cycle();
        assert_eq!(demodulate(&m, &mut it), whole, "chunks {sizes:?}");
    }
}
