//! The real recording (`testdata/adsb/modes1-part1.cu8`, dump1090's
//! modes1 at 2 MS/s): every one of the 159 frames dump1090 decodes is
//! found (as many times as dump1090 finds it), no reported frame fails
//! its parity, and the frame list does not depend on how the samples are
//! chunked.

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
    let bytes = std::fs::read(testdata("modes1-part1.cu8")).expect("the test recording");
    let mut m = vec![0u16; bytes.len() / 2];
    cu8_magnitudes(&bytes, &mut m);
    m
}

fn demodulate(m: &[u16], chunks: &mut dyn Iterator<Item = usize>) -> Vec<RawFrame> {
    let mut d = Demodulator::new(DemodRate::Msps2);
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
    let expected_text = std::fs::read_to_string(testdata("modes1-part1.expected.txt")).unwrap();
    let expected: Vec<&str> = expected_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(expected.len(), 159);
    let hexes: Vec<String> = frames.iter().map(|f| f.hex()).collect();
    let ours = counts(hexes.iter().map(String::as_str));
    for (hex, n) in counts(expected.iter().copied()) {
        let got = ours.get(hex).copied().unwrap_or(0);
        assert!(
            got >= n,
            "{hex}: dump1090 decodes it {n} times, rfgraph {got}"
        );
    }
    assert!(frames.len() >= 159, "{} frames", frames.len());
    for f in &frames {
        let s = syndrome(f.data());
        match f.df() {
            17 | 18 => assert_eq!(s, 0, "{}", f.hex()),
            11 => assert!(s < 80, "{}", f.hex()),
            _ => assert_eq!(s, 0x4D2023, "{}", f.hex()),
        }
        assert_eq!(f.address, 0x4D2023, "{}", f.hex());
        assert!(f.corrected <= 1);
    }
    // In order, one preamble each.
    assert!(frames.windows(2).all(|w| w[0].sample < w[1].sample));
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
