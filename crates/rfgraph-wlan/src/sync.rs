//! The streaming synchroniser: finds frames in a sample stream and cuts
//! them into [`Burst`]s for the decoder (IEEE 802.11-2016 17.3.3, the
//! PHY preamble, and 17.3.4, the SIGNAL field that gives the length).
//!
//! For each frame: the short training field's plateau
//! ([`crate::sync_detect`]) gives the coarse carrier offset; the long
//! training field's two correlation peaks ([`crate::sync_timing`]) give
//! the timing and the fine offset; the header reader reads SIGNAL and the
//! channel from the frequency-corrected head; the burst is then cut to
//! [`Burst::len_for`] samples and the search resumes after it, so a
//! frame's own data symbols never retrigger it.
//!
//! It sees every sample: searching costs the detector's O(1) per sample
//! and no copy; only the 431 samples after a detection and the frames
//! themselves are copied (derotated on the way). Any chunking of the
//! input gives the same bursts: when a detection fails, the samples it
//! held are searched again from where the search resumes.

use crate::burst::{Burst, Dropped, Header, LTF, STF, SYMBOL};
use crate::sync_detect::{LAG, StfDetector};
use crate::sync_timing::{Derotator, LTF_SYMBOL, LtfSearch};
use num_complex::Complex32;

/// Reads the header from a burst's head: from the first long training
/// symbol, frequency-corrected, [`LTF`] + [`SYMBOL`] samples.
pub type HeaderReader = fn(&[Complex32]) -> Result<Header, Dropped>;

/// Candidate starts of the first long training symbol after a detection
/// (counted from the first of the 16 samples kept before it).
const SEARCH: usize = 224;
/// Samples held after a detection before deciding: the last candidate's
/// head.
const PRE_LEN: usize = SEARCH - 1 + HEAD;
/// The head the header reader gets.
const HEAD: usize = LTF + SYMBOL;
/// The first long training symbol starts this far after the frame.
const LTF_OFFSET: usize = STF + 32;
/// Bursts start this many samples before the long symbol's correlation
/// peak, inside the guard intervals, so a channel's later taps do not
/// spill the previous symbol into the FFT window.
pub const BACKOFF: usize = 3;

/// How many detections were dropped, for each [`Dropped`] reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DropCounts {
    counts: [u64; 6],
}

impl DropCounts {
    /// Every reason, in [`DropCounts::iter`] order.
    pub const REASONS: [Dropped; 6] = [
        Dropped::SignalParity,
        Dropped::SignalRate,
        Dropped::SignalLength,
        Dropped::SignalReserved,
        Dropped::Truncated,
        Dropped::NoLongPreamble,
    ];

    fn slot(reason: Dropped) -> usize {
        Self::REASONS
            .iter()
            .position(|&r| r == reason)
            .expect("listed")
    }

    /// Drops for `reason`.
    pub fn count(&self, reason: Dropped) -> u64 {
        self.counts[Self::slot(reason)]
    }

    /// Drops for all reasons.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Each reason with its count.
    pub fn iter(&self) -> impl Iterator<Item = (Dropped, u64)> + '_ {
        Self::REASONS
            .iter()
            .copied()
            .zip(self.counts.iter().copied())
    }

    /// Counts one more drop for `reason`.
    pub fn add(&mut self, reason: Dropped) {
        self.counts[Self::slot(reason)] += 1;
    }
}

enum State {
    /// Looking for a short training field.
    Search,
    /// Holding samples after a detection (in `pre`).
    Preamble { coarse: f32 },
    /// Filling a burst whose header was read.
    Frame(Box<Filling>),
}

/// A burst being filled.
struct Filling {
    burst: Burst,
    len: usize,
    rot: Derotator,
}

/// The streaming synchroniser; see the module documentation.
pub struct Synchronizer {
    detector: StfDetector,
    search: LtfSearch,
    read_header: HeaderReader,
    state: State,
    /// Raw samples from `pre_start` on, while in `State::Preamble`.
    pre: Vec<Complex32>,
    pre_start: u64,
    /// Coarsely corrected copy of `pre`.
    work: Vec<Complex32>,
    /// Stream index of the next sample to process.
    cursor: u64,
    consumed: u64,
    next_seq: u64,
    dropped: DropCounts,
}

impl Default for Synchronizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Synchronizer {
    /// A synchroniser with the crate's long training symbol and header
    /// reader.
    pub fn new() -> Self {
        Self::with_parts(&crate::preamble::ltf_symbol(), crate::decoder::read_header)
    }

    /// A synchroniser with its own long training symbol (time domain,
    /// any scale) and header reader.
    pub fn with_parts(ltf: &[Complex32; LTF_SYMBOL], read_header: HeaderReader) -> Self {
        Self {
            detector: StfDetector::new(),
            search: LtfSearch::new(ltf),
            read_header,
            state: State::Search,
            pre: Vec::with_capacity(PRE_LEN),
            pre_start: 0,
            work: Vec::with_capacity(PRE_LEN),
            cursor: 0,
            consumed: 0,
            next_seq: 0,
            dropped: DropCounts::default(),
        }
    }

    /// Takes the next samples of the stream; appends the bursts they
    /// complete to `out`.
    pub fn push(&mut self, samples: &[Complex32], out: &mut Vec<Burst>) {
        self.consumed += samples.len() as u64;
        self.process(samples, out);
    }

    /// Ends the stream: a frame cut short counts as
    /// [`Dropped::Truncated`]; a short frame that ended just before the
    /// stream is still cut. The synchroniser can then take a new stream
    /// (its indices go on).
    pub fn finish(&mut self, out: &mut Vec<Burst>) {
        match self.state {
            State::Search => {}
            State::Frame(_) => self.count(Dropped::Truncated),
            State::Preamble { coarse } => {
                let real = self.pre.len();
                let end = self.cursor;
                self.pre.resize(PRE_LEN, Complex32::default());
                self.cursor += (PRE_LEN - real) as u64;
                self.on_preamble(coarse, real, out);
                if !matches!(self.state, State::Search) {
                    self.count(Dropped::Truncated);
                }
                self.cursor = end;
            }
        }
        self.state = State::Search;
        self.detector.reset();
    }

    /// How many detections were dropped, for each reason.
    pub fn dropped(&self) -> &DropCounts {
        &self.dropped
    }

    /// Samples pushed so far.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Bursts cut so far.
    pub fn bursts(&self) -> u64 {
        self.next_seq
    }

    fn count(&mut self, reason: Dropped) {
        self.dropped.add(reason);
    }

    fn process(&mut self, xs: &[Complex32], out: &mut Vec<Burst>) {
        let mut i = 0;
        while i < xs.len() {
            let rest = &xs[i..];
            let used = match &mut self.state {
                State::Search => match self.detector.feed(rest) {
                    None => rest.len(),
                    Some(d) => {
                        self.pre.clear();
                        self.pre.extend_from_slice(&self.detector.history());
                        self.pre_start = self.cursor + d.at as u64 + 1 - LAG as u64;
                        self.state = State::Preamble { coarse: d.cfo };
                        d.at + 1
                    }
                },
                State::Preamble { .. } => {
                    let take = (PRE_LEN - self.pre.len()).min(rest.len());
                    self.pre.extend_from_slice(&rest[..take]);
                    take
                }
                State::Frame(f) => {
                    let take = (f.len - f.burst.samples.len()).min(rest.len());
                    f.rot.extend(&rest[..take], &mut f.burst.samples);
                    take
                }
            };
            i += used;
            self.cursor += used as u64;
            match &self.state {
                State::Preamble { coarse } if self.pre.len() == PRE_LEN => {
                    let coarse = *coarse;
                    self.on_preamble(coarse, PRE_LEN, out);
                }
                State::Frame(f) if f.burst.samples.len() == f.len => {
                    self.emit(out);
                }
                _ => {}
            }
        }
    }

    /// `pre` is full (its first `real` samples from the stream, the rest
    /// zeros when the stream ended): find the long training field, read
    /// the header, and start the burst (or count why not).
    fn on_preamble(&mut self, coarse: f32, real: usize, out: &mut Vec<Burst>) {
        self.work.clear();
        Derotator::new(coarse).extend(&self.pre, &mut self.work);
        let window = SEARCH - 1 + 2 * LTF_SYMBOL;
        let Some(found) = self.search.find(&self.work[..window]) else {
            self.count(if real < window {
                Dropped::Truncated
            } else {
                Dropped::NoLongPreamble
            });
            return self.resume(SEARCH, out);
        };
        let cfo = coarse + found.cfo;
        let cut = found.at.saturating_sub(BACKOFF);
        if cut + HEAD > real {
            self.count(Dropped::Truncated);
            return self.resume(SEARCH, out);
        }
        let mut rot = Derotator::new(cfo);
        let mut samples = Vec::with_capacity(HEAD);
        rot.extend(&self.pre[cut..cut + HEAD], &mut samples);
        let header = match (self.read_header)(&samples) {
            Ok(h) => h,
            Err(reason) => {
                self.count(reason);
                return self.resume(found.at + LTF, out);
            }
        };
        let len = Burst::len_for(&header.signal);
        if real < PRE_LEN && cut + len > real {
            self.count(Dropped::Truncated);
            return self.resume(SEARCH, out);
        }
        let have = (PRE_LEN - cut).min(len);
        samples.reserve_exact(len - HEAD);
        rot.extend(&self.pre[cut + HEAD..cut + have], &mut samples);
        let first_ltf = self.pre_start + found.at as u64;
        let burst = Burst {
            // Numbered when emitted: a frame cut short takes none.
            seq: 0,
            start: first_ltf.saturating_sub(LTF_OFFSET as u64),
            cfo,
            samples,
            header,
        };
        self.state = State::Frame(Box::new(Filling { burst, len, rot }));
        if have == len {
            // A burst shorter than what was held: the rest is searched.
            self.emit(out);
            self.resume(cut + len, out);
        }
    }

    /// Hands the finished burst out and searches on from its end.
    fn emit(&mut self, out: &mut Vec<Burst>) {
        if let State::Frame(f) = std::mem::replace(&mut self.state, State::Search) {
            let mut burst = f.burst;
            burst.seq = self.next_seq;
            self.next_seq += 1;
            out.push(burst);
        }
        self.detector.reset();
    }

    /// Searches again from `pre[from..]`, the held samples after a
    /// dropped detection or a short burst, before taking new input.
    fn resume(&mut self, from: usize, out: &mut Vec<Burst>) {
        self.state = State::Search;
        self.detector.reset();
        let held = std::mem::take(&mut self.pre);
        let end = self.cursor;
        self.cursor = self.pre_start + from as u64;
        // A replay is shorter than `PRE_LEN`, too short to fill another
        // preamble, so this recursion is one level deep.
        self.process(&held[from.min(held.len())..], out);
        debug_assert_eq!(self.cursor, end);
        if self.pre.capacity() == 0 {
            self.pre = held;
        }
    }
}

#[cfg(test)]
#[path = "sync_tests.rs"]
mod tests;
