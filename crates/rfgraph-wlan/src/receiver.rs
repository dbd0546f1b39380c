//! The whole IEEE 802.11a/g OFDM receiver (IEEE 802.11-2016 17.3.12,
//! the receive procedure) in one thread: the
//! [`Synchronizer`] cuts bursts, the [`Decoder`] turns each into a frame
//! at once. The reference path for tests and the CLI; the block graph
//! runs the same two stages on several cores.

use crate::burst::{Burst, Decoded};
use crate::decoder::Decoder;
use crate::sync::{DropCounts, Synchronizer};
use num_complex::Complex32;

/// Synchroniser and decoder in series.
pub struct Receiver {
    sync: Synchronizer,
    decoder: Decoder,
    /// Bursts cut by one call, decoded before it returns.
    bursts: Vec<Burst>,
}

impl Default for Receiver {
    fn default() -> Self {
        Self::new()
    }
}

impl Receiver {
    pub fn new() -> Self {
        Self {
            sync: Synchronizer::new(),
            decoder: Decoder::new(),
            bursts: Vec::new(),
        }
    }

    /// Takes the next samples of the stream (20 MS/s); appends the frames
    /// they complete to `out`, in stream order. Frames whose FCS failed
    /// are given too, with `fcs_ok` false.
    pub fn push(&mut self, samples: &[Complex32], out: &mut Vec<Decoded>) {
        self.sync.push(samples, &mut self.bursts);
        self.decode(out);
    }

    /// Ends the stream (a frame cut short is counted as truncated).
    pub fn finish(&mut self, out: &mut Vec<Decoded>) {
        self.sync.finish(&mut self.bursts);
        self.decode(out);
    }

    /// Detections dropped before decoding, by reason.
    pub fn dropped(&self) -> &DropCounts {
        self.sync.dropped()
    }

    /// Samples pushed so far.
    pub fn consumed(&self) -> u64 {
        self.sync.consumed()
    }

    /// The synchroniser (for its other counts).
    pub fn synchronizer(&self) -> &Synchronizer {
        &self.sync
    }

    fn decode(&mut self, out: &mut Vec<Decoded>) {
        for burst in self.bursts.drain(..) {
            out.push(self.decoder.decode(&burst));
        }
    }
}
