//! The receiver's speed on one core, on a capture 50 % busy: frames of
//! 100, 500 and 1500 bytes at every rate, each followed by noise of its
//! own length, at 25 dB SNR with a 50 kHz carrier offset.
//!
//! `cargo run --release -p rfgraph-wlan --example wlan_rx_speed`
//!
//! Prints MS/s for: the synchroniser without the header reader (the
//! part that sees every sample), the synchroniser with it, and the whole
//! one-thread receiver.

use num_complex::Complex32;
use rfgraph_wlan::burst::{Dropped, Header, Signal};
use rfgraph_wlan::channel::Pcg32;
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::receiver::Receiver;
use rfgraph_wlan::sync::Synchronizer;
use rfgraph_wlan::transmitter::Transmitter;
use std::time::Instant;

const CHUNK: usize = 1 << 15;

fn capture() -> (Vec<Complex32>, Vec<Signal>) {
    let mut rng = Pcg32::new(1);
    let mut tx = Transmitter::new();
    let mut xs = Vec::new();
    let mut signals = Vec::new();
    while xs.len() < 20_000_000 {
        for rate in Rate::ALL {
            for len in [100usize, 500, 1500] {
                let mpdu: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
                let frame = tx.frame(&mpdu, rate, 93);
                let n = frame.len();
                xs.extend(frame);
                xs.resize(xs.len() + n, Complex32::default());
                signals.push(Signal {
                    rate,
                    length: len + 4,
                });
            }
        }
    }
    let w = 2.0 * std::f64::consts::PI * 50e3 / 20e6;
    for (n, x) in xs.iter_mut().enumerate() {
        let p = w * n as f64;
        *x = *x * Complex32::new(p.cos() as f32, p.sin() as f32) + rng.complex_gaussian(0.00316);
    }
    (xs, signals)
}

thread_local! {
    static SIGNALS: std::cell::RefCell<(Vec<Signal>, usize)> = Default::default();
}

/// A header reader that costs nothing: the next frame's SIGNAL.
fn known_header(_head: &[Complex32]) -> Result<Header, Dropped> {
    SIGNALS.with(|s| {
        let mut s = s.borrow_mut();
        let i = s.1;
        s.1 += 1;
        Ok(Header {
            signal: *s.0.get(i).ok_or(Dropped::SignalParity)?,
            channel: [Complex32::default(); 64],
            snr_db: 0.0,
        })
    })
}

fn best_of<F: FnMut() -> usize>(runs: usize, samples: usize, mut f: F) -> (f64, usize) {
    let mut best = 0.0f64;
    let mut n = 0;
    for _ in 0..runs {
        let t = Instant::now();
        n = f();
        best = best.max(samples as f64 / t.elapsed().as_secs_f64() / 1e6);
    }
    (best, n)
}

fn main() {
    let (xs, signals) = capture();
    println!("{} samples, {} frames, 50 % busy", xs.len(), signals.len());
    let ltf = rfgraph_wlan::preamble::ltf_symbol();
    let (rate, n) = best_of(3, xs.len(), || {
        SIGNALS.with(|s| *s.borrow_mut() = (signals.clone(), 0));
        let mut sync = Synchronizer::with_parts(&ltf, known_header);
        let mut out = Vec::new();
        for c in xs.chunks(CHUNK) {
            sync.push(c, &mut out);
            out.clear();
        }
        sync.bursts() as usize
    });
    println!("synchroniser, header reader excluded: {rate:.1} MS/s ({n} bursts)");
    let (rate, n) = best_of(3, xs.len(), || {
        let mut sync = Synchronizer::new();
        let mut out = Vec::new();
        for c in xs.chunks(CHUNK) {
            sync.push(c, &mut out);
            out.clear();
        }
        sync.bursts() as usize
    });
    println!("synchroniser with header reader: {rate:.1} MS/s ({n} bursts)");
    let (rate, n) = best_of(2, xs.len(), || {
        let mut rx = Receiver::new();
        let mut out = Vec::new();
        let mut ok = 0;
        for c in xs.chunks(CHUNK) {
            rx.push(c, &mut out);
            ok += out.iter().filter(|f| f.fcs_ok).count();
            out.clear();
        }
        ok
    });
    println!("receiver (one thread): {rate:.1} MS/s ({n} frames with FCS ok)");
}
