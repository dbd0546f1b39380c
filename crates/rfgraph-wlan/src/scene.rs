//! Test captures with known contents, for tests, `rfgraph gen wlan` and
//! `rfgraph bench wlan`: data frames at chosen rates and payload
//! lengths, each followed by silence so that the channel is busy a chosen
//! fraction of the time, each with its own carrier offset and (optionally)
//! multipath channel, with white noise over the whole capture.
//!
//! Frames have mean power 1 (the transmitter's scale); the noise power per
//! sample is `10^(−snr_db/10)` over the whole 20 MHz band, as in the
//! gr-ieee802-11 captures under `testdata/wlan/`.

use crate::channel::{Pcg32, apply_cfo, convolve, exponential_taps};
use crate::mac;
use crate::rate::Rate;
use crate::transmitter::Transmitter;
use num_complex::Complex32;

/// What a capture holds.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Frames to send.
    pub frames: usize,
    /// Frame `i` goes at `rates[i % rates.len()]`.
    pub rates: Vec<Rate>,
    /// Frame `i` carries `payloads[(i / rates.len()) % payloads.len()]`
    /// bytes after its 24-byte MAC header.
    pub payloads: Vec<usize>,
    /// The fraction of the time the channel carries a frame, (0, 1].
    pub busy: f64,
    /// Signal to noise ratio, dB; `None`: no noise.
    pub snr_db: Option<f32>,
    /// Each frame's carrier offset is drawn uniformly within ± this, Hz.
    pub max_cfo_hz: f64,
    /// Multipath: taps and RMS delay spread in samples (an exponential
    /// power-delay profile drawn per frame, normalised to unit energy);
    /// `None`: a flat channel.
    pub multipath: Option<(usize, f32)>,
    /// Silence before the first frame and after the last, samples.
    pub lead: usize,
    pub seed: u64,
}

impl Scene {
    /// `frames` frames at every rate in turn with 500-byte payloads, the
    /// channel half busy, at `snr_db`, carrier offsets within ±20 kHz (the
    /// standard's ±20 ppm at 5 GHz is ±100 kHz; see `max_cfo_hz`).
    pub fn busy_channel(frames: usize, snr_db: Option<f32>, seed: u64) -> Self {
        Self {
            frames,
            rates: Rate::ALL.to_vec(),
            payloads: vec![500],
            busy: 0.5,
            snr_db,
            max_cfo_hz: 20e3,
            multipath: None,
            lead: 2000,
            seed,
        }
    }
}

/// One frame of a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct SentFrame {
    pub seq: u64,
    pub rate: Rate,
    /// The MPDU without its FCS.
    pub mpdu: Vec<u8>,
    /// Its first sample in the capture.
    pub start: u64,
    /// Its length in samples.
    pub samples: usize,
    pub cfo_hz: f64,
}

/// A capture and what it holds.
#[derive(Clone, Debug)]
pub struct Capture {
    pub samples: Vec<Complex32>,
    pub frames: Vec<SentFrame>,
}

/// The payload of frame `seq`: readable text, `len` bytes.
pub fn payload(seq: u64, len: usize) -> Vec<u8> {
    let text = format!(
        "rfgraph wlan test seq={seq:05} Software radio frames for a receiver test. 0123456789 "
    );
    text.bytes().cycle().take(len).collect()
}

/// The addresses of the test frames (as in the shipped captures).
pub const ADDRESSES: [mac::Addr; 3] = [[0x42; 6], [0x23; 6], [0xff; 6]];

impl Scene {
    /// Makes the capture.
    ///
    /// # Panics
    /// If `rates` or `payloads` is empty, `busy` is not in (0, 1], or a
    /// payload makes a PSDU above 4095 bytes.
    pub fn generate(&self) -> Capture {
        assert!(!self.rates.is_empty() && !self.payloads.is_empty());
        assert!(self.busy > 0.0 && self.busy <= 1.0, "busy in (0, 1]");
        let mut rng = Pcg32::new(self.seed);
        let mut tx = Transmitter::new();
        let mut samples = vec![Complex32::default(); self.lead];
        let mut frames = Vec::with_capacity(self.frames);
        for i in 0..self.frames {
            let seq = i as u64;
            let rate = self.rates[i % self.rates.len()];
            let len = self.payloads[(i / self.rates.len()) % self.payloads.len()];
            let [a1, a2, a3] = ADDRESSES;
            let mpdu = mac::data_frame((seq & 0xfff) as u16, a1, a2, a3, &payload(seq, len));
            let scrambler = 1 + (rng.next_u32() % 127) as u8;
            let mut frame = tx.frame(&mpdu, rate, scrambler);
            if let Some((taps, rms)) = self.multipath {
                // Normalised to unit energy: the SNR holds per frame
                // (the fading shapes the spectrum, not the level).
                let mut h = exponential_taps(taps, rms, &mut rng);
                let energy = h.iter().map(|t| t.norm_sqr()).sum::<f32>().sqrt();
                h.iter_mut().for_each(|t| *t /= energy.max(1e-6));
                frame = convolve(&frame, &h);
            }
            let cfo_hz = (2.0 * rng.uniform() - 1.0) * self.max_cfo_hz;
            apply_cfo(&mut frame, cfo_hz, 20e6);
            let gap = (frame.len() as f64 * (1.0 - self.busy) / self.busy).round() as usize;
            frames.push(SentFrame {
                seq,
                rate,
                mpdu,
                start: samples.len() as u64,
                samples: frame.len(),
                cfo_hz,
            });
            samples.extend_from_slice(&frame);
            samples.resize(samples.len() + gap, Complex32::default());
        }
        samples.resize(samples.len() + self.lead, Complex32::default());
        if let Some(snr) = self.snr_db {
            let var = 10f32.powf(-snr / 10.0);
            for s in &mut samples {
                *s += rng.complex_gaussian(var);
            }
        }
        Capture { samples, frames }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_fill_the_busy_fraction_and_never_overlap() {
        let c = Scene::busy_channel(16, None, 1).generate();
        assert_eq!(c.frames.len(), 16);
        let busy: usize = c.frames.iter().map(|f| f.samples).sum();
        let span = c.samples.len() - 2 * 2000;
        let fraction = busy as f64 / span as f64;
        assert!((fraction - 0.5).abs() < 0.01, "busy {fraction}");
        for w in c.frames.windows(2) {
            assert!(w[0].start + w[0].samples as u64 <= w[1].start);
        }
        let rates: Vec<Rate> = c.frames.iter().take(8).map(|f| f.rate).collect();
        assert_eq!(rates, Rate::ALL);
        assert_eq!(c.frames[3].mpdu.len(), 24 + 500);
    }

    #[test]
    fn the_noise_has_the_asked_power() {
        let mut s = Scene::busy_channel(0, Some(10.0), 2);
        s.lead = 50_000;
        let c = s.generate();
        let p = crate::channel::mean_power(&c.samples);
        assert!((p - 0.1).abs() < 0.005, "noise power {p}");
    }

    #[test]
    fn the_same_seed_makes_the_same_capture() {
        let mut s = Scene::busy_channel(3, Some(20.0), 9);
        s.multipath = Some((3, 1.0));
        let (a, b) = (s.generate(), s.generate());
        assert_eq!(a.samples, b.samples);
        assert_eq!(a.frames, b.frames);
    }
}
