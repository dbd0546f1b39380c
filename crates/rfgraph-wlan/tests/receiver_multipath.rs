//! Long low-rate frames through multipath channels whose energy is
//! spread over several taps, at 25 dB SNR, where BPSK and QPSK at rate
//! 1/2 should never fail: every frame must be found and come back bit
//! for bit.
//!
//! The long training field's correlation with the known symbol splits
//! over the channel's taps; a receiver that asks the strongest tap alone
//! to explain most of the field's energy misses frames whose energy is
//! spread (one in fifty with 6 taps of 2 samples' RMS delay, every one
//! through the equal-power channel below). Long frames make every miss
//! count: each is 100 to 200 OFDM symbols.

use num_complex::Complex32;
use rfgraph_wlan::burst::Decoded;
use rfgraph_wlan::channel::{Pcg32, convolve};
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::receiver::Receiver;
use rfgraph_wlan::scene::Scene;
use rfgraph_wlan::transmitter::Transmitter;

const SNR_DB: f32 = 25.0;

fn receive(samples: &[Complex32]) -> (Vec<Decoded>, Receiver) {
    let mut rx = Receiver::new();
    let mut out = Vec::new();
    for chunk in samples.chunks(8192) {
        rx.push(chunk, &mut out);
    }
    rx.finish(&mut out);
    (out, rx)
}

/// Frames drawn per frame from an exponential power-delay profile of 6
/// one-sample taps (2 samples RMS), as `rfgraph gen wlan --taps 6
/// --delay-spread 2` makes them.
#[test]
fn long_low_rate_frames_through_random_multipath_all_decode() {
    let scene = Scene {
        frames: 120,
        rates: vec![Rate::Bpsk12, Rate::Qpsk12],
        payloads: vec![500],
        busy: 0.5,
        snr_db: Some(SNR_DB),
        max_cfo_hz: 20e3,
        multipath: Some((6, 2.0)),
        lead: 2000,
        seed: 7,
    };
    let cap = scene.generate();
    let (decoded, rx) = receive(&cap.samples);
    assert_eq!(rx.dropped().total(), 0, "{:?}", rx.dropped());
    assert_eq!(decoded.len(), cap.frames.len());
    for (f, sent) in decoded.iter().zip(&cap.frames) {
        assert!(f.fcs_ok, "frame {} ({}): FCS failed", sent.seq, sent.rate);
        assert_eq!(f.rate, sent.rate, "frame {}", sent.seq);
        assert_eq!(f.mpdu, sent.mpdu, "frame {}", sent.seq);
    }
}

/// Six taps of equal power (fixed phases, no deep notch in the band):
/// the strongest holds a sixth of the energy.
#[test]
fn long_frames_through_an_equal_power_six_tap_channel_all_decode() {
    let taps: Vec<Complex32> = [0.0f32, 2.4, -1.1, 0.9, 3.0, -2.2]
        .iter()
        .map(|&phase| Complex32::from_polar(6f32.sqrt().recip(), phase))
        .collect();
    let mut rng = Pcg32::new(21);
    let mut tx = Transmitter::new();
    let mut samples = vec![Complex32::default(); 1000];
    let mut sent = Vec::new();
    for i in 0..12 {
        let rate = [Rate::Bpsk12, Rate::Qpsk12][i % 2];
        let mpdu: Vec<u8> = (0..800).map(|_| rng.next_u32() as u8).collect();
        let frame = convolve(
            &tx.frame(&mpdu, rate, 1 + (rng.next_u32() % 127) as u8),
            &taps,
        );
        let cfo = (2.0 * rng.uniform() - 1.0) * std::f64::consts::TAU * 50e3 / 20e6;
        samples.extend(frame.iter().enumerate().map(|(n, &x)| {
            let p = cfo * n as f64;
            x * Complex32::new(p.cos() as f32, p.sin() as f32)
        }));
        samples.resize(samples.len() + 1500, Complex32::default());
        sent.push((rate, mpdu));
    }
    let var = 10f32.powf(-SNR_DB / 10.0);
    for x in &mut samples {
        *x += rng.complex_gaussian(var);
    }
    let (decoded, rx) = receive(&samples);
    assert_eq!(rx.dropped().total(), 0, "{:?}", rx.dropped());
    assert_eq!(decoded.len(), sent.len());
    for (i, (f, (rate, mpdu))) in decoded.iter().zip(&sent).enumerate() {
        assert!(f.fcs_ok, "frame {i} ({rate}): FCS failed");
        assert_eq!(f.rate, *rate, "frame {i}");
        assert_eq!(&f.mpdu, mpdu, "frame {i}");
    }
}
