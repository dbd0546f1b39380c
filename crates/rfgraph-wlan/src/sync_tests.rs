//! The synchroniser on synthetic frames: the standard's short and long
//! training fields (built from their tones) followed by random symbols,
//! with a header reader that takes the length from a table, so timing,
//! offsets, cutting, chunking and the drop counts are tested without the
//! decoder.

use super::*;
use crate::burst::Signal;
use crate::rate::Rate;
use crate::sync_detect::tests::{Noise, stf_from_tones};
use crate::sync_timing::tests::{ltf_field, ltf_from_tones};
use proptest::prelude::*;

/// Every frame here says 64-QAM 3/4 and this many bytes: one data
/// symbol per 27 bytes.
const RATE: Rate = Rate::Qam64_34;

thread_local! {
    /// The PSDU lengths [`fake_reader`] gives, in order.
    static LENGTHS: std::cell::RefCell<std::collections::VecDeque<usize>> =
        Default::default();
}

/// A header reader for frames made by [`frame`]: the PSDU length is the
/// next of [`LENGTHS`], the channel left zero. A head that does not
/// start (after the back-off) with the long training field twice (a
/// wrong timing or offset) fails with `SignalParity`; a SIGNAL symbol
/// that is all zeros fails with `SignalLength`.
fn fake_reader(head: &[Complex32]) -> Result<Header, Dropped> {
    assert_eq!(head.len(), HEAD);
    let ltf = ltf_from_tones();
    let (a, b) = (
        &head[BACKOFF..BACKOFF + 64],
        &head[BACKOFF + 64..BACKOFF + 128],
    );
    let c: Complex32 = a.iter().zip(&ltf).map(|(x, l)| x * l.conj()).sum();
    let e: f32 = a.iter().map(|x| x.norm_sqr()).sum::<f32>() * 64.0;
    let same = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).norm_sqr())
        .sum::<f32>();
    if c.norm_sqr() < 0.8 * e || same > 0.2 * 64.0 {
        return Err(Dropped::SignalParity);
    }
    let signal: f32 = head[LTF..].iter().map(|x| x.norm_sqr()).sum::<f32>() / 80.0;
    if signal < 0.1 {
        return Err(Dropped::SignalLength);
    }
    let length = LENGTHS
        .with(|l| l.borrow_mut().pop_front())
        .expect("a length");
    Ok(Header {
        signal: Signal { rate: RATE, length },
        channel: [Complex32::default(); 64],
        snr_db: 0.0,
    })
}

/// A clean frame of `bytes`: STF, LTF, then the SIGNAL and data symbols
/// as unit-power random samples.
fn frame(bytes: usize, noise: &mut Noise) -> Vec<Complex32> {
    let symbols = 1 + RATE.data_symbols(bytes);
    let mut out = stf_from_tones();
    out.extend(ltf_field());
    out.extend((0..SYMBOL * symbols).map(|_| noise.complex_gaussian(1.0)));
    out
}

struct Capture {
    samples: Vec<Complex32>,
    lengths: Vec<usize>,
    /// (start, clean frame)
    frames: Vec<(usize, Vec<Complex32>)>,
}

/// Frames of the given lengths after gaps, with a carrier offset (rad
/// per sample) and noise at `snr_db` everywhere.
fn capture(lengths: &[usize], gap: usize, cfo: f32, snr_db: f32, seed: u64) -> Capture {
    let mut noise = Noise::new(seed);
    let mut samples = vec![Complex32::default(); gap];
    let mut frames = Vec::new();
    for &bytes in lengths {
        let f = frame(bytes, &mut noise);
        frames.push((samples.len(), f.clone()));
        samples.extend(f);
        samples.extend(std::iter::repeat_n(Complex32::default(), gap));
    }
    let np = 10f32.powf(-snr_db / 10.0);
    for (n, x) in samples.iter_mut().enumerate() {
        *x = *x * Complex32::from_polar(1.0, cfo * n as f32) + noise.complex_gaussian(np);
    }
    Capture {
        samples,
        lengths: lengths.to_vec(),
        frames,
    }
}

/// Runs `xs` through a synchroniser in pieces of `chunks` (cycled);
/// [`fake_reader`] gives `lengths` in order.
fn run(xs: &[Complex32], lengths: &[usize], chunks: &[usize]) -> (Vec<Burst>, Synchronizer) {
    LENGTHS.with(|l| *l.borrow_mut() = lengths.iter().copied().collect());
    let mut sync = Synchronizer::with_parts(&ltf_from_tones(), fake_reader);
    let mut out = Vec::new();
    let mut rest = xs;
    let mut c = 0;
    while !rest.is_empty() {
        let n = chunks[c % chunks.len()].clamp(1, rest.len());
        sync.push(&rest[..n], &mut out);
        rest = &rest[n..];
        c += 1;
    }
    sync.finish(&mut out);
    (out, sync)
}

fn count(sync: &Synchronizer, reason: Dropped) -> u64 {
    sync.dropped().count(reason)
}

#[test]
fn cuts_every_frame_at_its_long_field_with_its_offset_removed() {
    let cfo = 2.0 * std::f32::consts::PI * 100e3 / 20e6;
    let lengths = [1, 27, 28, 300, 1500, 4095, 5];
    for (snr_db, c) in [(30.0, cfo), (15.0, -cfo), (30.0, 0.0)] {
        let cap = capture(&lengths, 700, c, snr_db, 9);
        let (bursts, sync) = run(&cap.samples, &cap.lengths, &[cap.samples.len()]);
        assert_eq!(
            bursts.len(),
            lengths.len(),
            "{snr_db} dB: {:?}",
            sync.dropped()
        );
        assert_eq!(sync.dropped().total(), 0, "{:?}", sync.dropped());
        for (i, (b, (start, clean))) in bursts.iter().zip(&cap.frames).enumerate() {
            assert_eq!(b.seq, i as u64);
            assert_eq!(b.start, *start as u64, "frame {i}");
            assert_eq!(b.header.signal.length, lengths[i]);
            assert_eq!(b.samples.len(), Burst::len_for(&b.header.signal));
            // About 3 standard deviations of the lag-64 estimate.
            let tol = if snr_db > 20.0 { 2e-4 } else { 1.2e-3 };
            assert!((b.cfo - c).abs() < tol, "frame {i}: {} vs {c}", b.cfo);
            // The burst is the clean frame from BACKOFF samples before
            // the first long symbol, times a phase that is constant over
            // each symbol (the residual offset turns it slowly; the
            // decoder's pilots follow that).
            let reference = &clean[STF + 32 - BACKOFF..][..b.samples.len()];
            let rho = b
                .samples
                .chunks(SYMBOL)
                .zip(reference.chunks(SYMBOL))
                .map(|(y, x)| {
                    let dot: Complex32 = y.iter().zip(x).map(|(y, x)| y * x.conj()).sum();
                    dot.norm() / x.iter().map(|x| x.norm_sqr()).sum::<f32>()
                })
                .fold(f32::INFINITY, f32::min);
            let min = if snr_db > 20.0 { 0.98 } else { 0.85 };
            assert!(rho > min, "frame {i}, {snr_db} dB: {rho}");
        }
    }
}

#[test]
fn a_frame_cut_short_by_the_end_of_the_stream_is_truncated() {
    let cap = capture(&[300, 300], 500, 0.01, 30.0, 10);
    for end in [
        cap.frames[1].0 + 100,
        cap.frames[1].0 + 500,
        cap.samples.len() - 600,
    ] {
        let (bursts, sync) = run(&cap.samples[..end], &cap.lengths, &[1000]);
        assert_eq!(bursts.len(), 1, "end {end}");
        assert_eq!(count(&sync, Dropped::Truncated), 1, "end {end}");
    }
}

#[test]
fn a_short_frame_that_ends_just_before_the_stream_is_still_cut() {
    // One data symbol: the whole burst fits in the samples held after a
    // detection, and the stream ends before that hold is full.
    let cap = capture(&[1], 400, 0.01, 30.0, 15);
    let (start, clean) = &cap.frames[0];
    for after in [0, 5, 60] {
        let end = start + clean.len() + after;
        let (bursts, sync) = run(&cap.samples[..end], &cap.lengths, &[777]);
        assert_eq!(bursts.len(), 1, "after {after}: {:?}", sync.dropped());
        assert_eq!(bursts[0].start, *start as u64);
        assert_eq!(sync.dropped().total(), 0);
    }
    // Cut inside the frame's one data symbol, it is truncated.
    let end = start + clean.len() - 20;
    let (bursts, sync) = run(&cap.samples[..end], &cap.lengths, &[777]);
    assert!(bursts.is_empty());
    assert_eq!(count(&sync, Dropped::Truncated), 1);
}

#[test]
fn a_short_field_without_a_long_one_is_counted_and_searching_goes_on() {
    let mut noise = Noise::new(11);
    let mut xs: Vec<Complex32> = (0..300).map(|_| noise.complex_gaussian(0.001)).collect();
    // A short training field, then noise where the long one should be.
    for (x, s) in xs[50..].iter_mut().zip(stf_from_tones()) {
        *x += s;
    }
    xs.extend((0..500).map(|_| noise.complex_gaussian(1.0)));
    let cap = capture(&[100], 300, 0.0, 30.0, 12);
    xs.extend(&cap.samples);
    let (bursts, sync) = run(&xs, &cap.lengths, &[64]);
    assert_eq!(count(&sync, Dropped::NoLongPreamble), 1);
    assert_eq!(bursts.len(), 1);
    assert_eq!(bursts[0].start, (800 + cap.frames[0].0) as u64);
}

#[test]
fn header_failures_are_counted_by_reason() {
    let mut noise = Noise::new(13);
    let mut bad = frame(100, &mut noise);
    // No SIGNAL symbol.
    bad[STF + 160..].fill(Complex32::default());
    let mut xs = vec![Complex32::default(); 400];
    xs.extend(&bad);
    xs.extend(std::iter::repeat_n(Complex32::default(), 400));
    let (bursts, sync) = run(&xs, &[], &[xs.len()]);
    assert!(bursts.is_empty());
    assert_eq!(
        count(&sync, Dropped::SignalLength),
        1,
        "{:?}",
        sync.dropped()
    );
}

#[test]
fn noise_alone_gives_no_bursts() {
    let mut noise = Noise::new(14);
    for power in [1e-6f32, 1.0, 1e4] {
        let xs: Vec<Complex32> = (0..300_000)
            .map(|_| noise.complex_gaussian(power))
            .collect();
        let (bursts, sync) = run(&xs, &[], &[4096]);
        assert!(bursts.is_empty());
        assert_eq!(sync.dropped().total(), 0, "{:?}", sync.dropped());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn any_chunking_gives_the_same_bursts(
        chunks in proptest::collection::vec(1usize..3000, 1..20),
        seed in 0u64..1000,
    ) {
        let cap = capture(&[1, 50, 4, 700], 350, -0.02, 20.0, seed);
        let (whole, _) = run(&cap.samples, &cap.lengths, &[cap.samples.len()]);
        prop_assert_eq!(whole.len(), 4);
        let (pieces, _) = run(&cap.samples, &cap.lengths, &chunks);
        prop_assert_eq!(pieces.len(), whole.len());
        for (a, b) in pieces.iter().zip(&whole) {
            prop_assert_eq!((a.seq, a.start, a.cfo), (b.seq, b.start, b.cfo));
            prop_assert_eq!(&a.samples, &b.samples);
        }
    }

    #[test]
    fn random_input_never_panics(
        xs in proptest::collection::vec((-1e3f32..1e3, -1e3f32..1e3), 0..5000),
        specials in proptest::collection::vec((0usize..5000, prop_oneof![
            Just(f32::NAN), Just(f32::INFINITY), Just(0.0f32), Just(1e30f32)]), 0..4),
        chunk in 1usize..2000,
    ) {
        let mut xs: Vec<Complex32> = xs.into_iter().map(|(a, b)| Complex32::new(a, b)).collect();
        for (at, v) in specials {
            if let Some(x) = xs.get_mut(at) {
                *x = Complex32::new(v, v);
            }
        }
        // A real frame in the middle too, so the later stages run.
        let cap = capture(&[200], 100, 0.0, 30.0, 1);
        let mid = xs.len() / 2;
        xs.splice(mid..mid, cap.samples);
        let _ = run(&xs, &[200; 8], &[chunk]);
    }
}
