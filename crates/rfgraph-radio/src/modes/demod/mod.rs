//! [`ModesDemod`]: Mode S magnitudes in, parity-checked frames out.
//!
//! This module owns the scan: it keeps the magnitudes it has not finished
//! with (a frame split between two `work` calls is decided once all of it
//! has arrived), runs the rate's slicer (`slice2000`, `slice2400`) over
//! every position in order, hands each candidate to `score`, and teaches
//! proven addresses to its [`IcaoFilter`]. Positions are visited in
//! stream order and every decision reads only samples at or after the
//! position, so the frame list is the same whatever the chunking and the
//! scheduler. At the end of the input the last positions are decided
//! against silence, so no padding is needed.

pub(crate) mod score;
#[cfg(test)]
mod simd_equal;
mod slice2000;
mod slice2400;

use crate::modes::{IcaoFilter, ModesError, RawFrame};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use rfgraph_dsp::Isa;
use score::Judged;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Magnitudes taken from the input per call at most: with the history
/// they stay in L2 while scanned.
const CHUNK: usize = 32 * 1024;

/// Positions flagged per pass of the vectorised preamble test.
const FLAG_BLOCK: usize = 1024;

/// Samples kept before the next position: the 2 MS/s slicer looks one
/// sample back to tell a burst that starts early from one that starts
/// late.
const HISTORY: usize = 1;

/// A burst the slicer found and `score` accepted.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Burst {
    pub bytes: [u8; 14],
    pub judged: Judged,
    pub power: f32,
    /// How well the preamble fits the timing the bits were sliced at,
    /// higher being better: breaks ties of `judged.score` between the
    /// slicings of one burst at neighbouring positions.
    pub quality: f32,
    /// Position of the preamble, in the scanned slice.
    pub start: usize,
}

impl Burst {
    /// Whether `self` is a better reading of the same burst than `other`.
    fn beats(&self, other: &Burst) -> bool {
        (self.judged.score, self.quality) > (other.judged.score, other.quality)
    }
}

/// The sample rates the demodulator slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DemodRate {
    /// 2 MS/s: dump1090's and rtl_adsb's rate, one sample per half-bit.
    Msps2,
    /// 2.4 MS/s: dump1090-mutability's and readsb's rate.
    Msps2_4,
}

impl DemodRate {
    /// The rate for `hz` samples per second (2e6 or 2.4e6, within 1 Hz).
    ///
    /// Errors: [`ModesError::Rate`] for any other rate.
    pub fn from_hz(hz: f64) -> Result<Self, ModesError> {
        if (hz - 2.0e6).abs() <= 1.0 {
            Ok(DemodRate::Msps2)
        } else if (hz - 2.4e6).abs() <= 1.0 {
            Ok(DemodRate::Msps2_4)
        } else {
            Err(ModesError::Rate { hz })
        }
    }

    /// Samples per second.
    pub fn hz(self) -> f64 {
        match self {
            DemodRate::Msps2 => 2.0e6,
            DemodRate::Msps2_4 => 2.4e6,
        }
    }

    fn window(self) -> usize {
        match self {
            DemodRate::Msps2 => slice2000::WINDOW + 1,
            DemodRate::Msps2_4 => slice2400::WINDOW,
        }
    }
}

/// Counters of a demodulator, shared with the statistics.
#[derive(Clone, Debug, Default)]
pub struct DemodCounters {
    /// Positions whose preamble test passed and that were sliced.
    pub preambles: Arc<AtomicU64>,
    /// Frames emitted.
    pub frames: Arc<AtomicU64>,
    /// Frames emitted after a one- or two-bit repair (DF17/18).
    pub corrected: Arc<AtomicU64>,
    /// Frames emitted whose address came from the parity (DF0/4/5/16/20/21,
    /// DF11 with an interrogator code).
    pub recovered: Arc<AtomicU64>,
}

/// The demodulation engine without the block: scans magnitudes in stream
/// order and returns frames. [`ModesDemod`] wraps it; tests and tools may
/// drive it over a whole buffer.
pub struct Demodulator {
    rate: DemodRate,
    fix: bool,
    /// The build of the vectorised preamble tests (resolved: runnable).
    isa: Isa,
    filter: IcaoFilter,
    /// Unfinished magnitudes, `buf[HISTORY]` being stream sample
    /// `buf_start` (the stream starts after `HISTORY` silent samples).
    buf: Vec<u16>,
    buf_start: u64,
    /// The next stream position to test.
    next: u64,
    flags: Vec<u8>,
    counters: DemodCounters,
}

impl Demodulator {
    /// A demodulator for `rate`, with bit repair of DF17/18 on.
    pub fn new(rate: DemodRate) -> Self {
        Self {
            rate,
            fix: true,
            isa: Isa::detect(),
            // dump1090 forgets an address after 60 s.
            filter: IcaoFilter::new((60.0 * rate.hz()) as u64),
            buf: {
                let mut b = Vec::with_capacity(HISTORY + CHUNK + 2 * rate.window() + FLAG_BLOCK);
                b.resize(HISTORY, 0);
                b
            },
            buf_start: 0,
            next: 0,
            flags: vec![0; FLAG_BLOCK],
            counters: DemodCounters::default(),
        }
    }

    /// Turns bit repair of DF17/18 on or off: one wrong bit, or two for
    /// an aircraft already proven.
    pub fn with_fix(mut self, fix: bool) -> Self {
        self.fix = fix;
        self
    }

    /// Runs the vectorised preamble tests with `isa` (the default is
    /// [`Isa::detect`]; one the CPU lacks falls back to
    /// [`Isa::Scalar`]). Every build finds the same frames.
    pub fn with_isa(mut self, isa: Isa) -> Self {
        self.isa = isa.resolve();
        self
    }

    /// The counters.
    pub fn counters(&self) -> &DemodCounters {
        &self.counters
    }

    /// The rate.
    pub fn rate(&self) -> DemodRate {
        self.rate
    }

    /// Takes the next magnitudes of the stream and appends the frames
    /// they complete to `out`.
    pub fn push(&mut self, samples: &[u16], out: &mut impl Extend<RawFrame>) {
        self.buf.extend_from_slice(samples);
        let end = self.buf.len().saturating_sub(self.rate.window());
        self.scan_to(end, out);
        self.trim();
    }

    /// Decides the positions still waiting for later samples, as if the
    /// stream were followed by silence; the stream is over.
    pub fn finish(&mut self, out: &mut impl Extend<RawFrame>) {
        let end = self.buf.len();
        self.buf.resize(end + self.rate.window() + FLAG_BLOCK, 0);
        self.scan_to(end, out);
        self.buf.truncate(end);
        self.trim();
    }

    /// Drops the samples before the next position but `HISTORY`.
    fn trim(&mut self) {
        let drop = (self.next.saturating_sub(self.buf_start) as usize)
            .min(self.buf.len().saturating_sub(HISTORY));
        self.buf.drain(..drop);
        self.buf_start += drop as u64;
    }

    /// The stream index of buffer index `k` (at least `HISTORY`).
    fn stream_index(&self, k: usize) -> u64 {
        self.buf_start + (k - HISTORY) as u64
    }

    /// Tests every position from `next` up to (not including) buffer
    /// index `end`, each of which has a whole window after it.
    fn scan_to(&mut self, end: usize, out: &mut impl Extend<RawFrame>) {
        let mut j = (self.next.saturating_sub(self.buf_start)) as usize + HISTORY;
        let window = self.rate.window();
        while j < end {
            let block = (end - j).min(FLAG_BLOCK);
            // The preamble tests read up to 17 samples past a position,
            // well inside the window every position has.
            debug_assert!(j + block + 17 <= self.buf.len() && window >= 17);
            let flags = &mut self.flags[..block];
            match self.rate {
                DemodRate::Msps2 => slice2000::candidates(&self.buf, j, flags, self.isa),
                DemodRate::Msps2_4 => slice2400::candidates(&self.buf, j, flags, self.isa),
            }
            let mut k = 0;
            let mut resume = j + block;
            while k < block {
                // Skip runs of unflagged positions eight at a time.
                if k + 8 <= block
                    && u64::from_ne_bytes(self.flags[k..k + 8].try_into().unwrap_or([1; 8])) == 0
                {
                    k += 8;
                    continue;
                }
                if self.flags[k] == 0 {
                    k += 1;
                    continue;
                }
                let pos = j + k;
                if let Some(b) = self.decide(pos).map(|b| self.second_look(b)) {
                    let bits = usize::from(b.judged.bits);
                    let at = self.stream_index(b.start);
                    self.emit(b, at, out);
                    let skip = match self.rate {
                        DemodRate::Msps2 => slice2000::skip(bits),
                        DemodRate::Msps2_4 => slice2400::skip(bits),
                    };
                    let after = b.start + skip;
                    if after >= j + block {
                        resume = after;
                        break;
                    }
                    k = after - j;
                } else {
                    k += 1;
                }
            }
            j = resume;
        }
        self.next = self.stream_index(j);
    }

    /// Slices and judges the candidate at buffer index `pos`.
    fn decide(&mut self, pos: usize) -> Option<Burst> {
        self.counters.preambles.fetch_add(1, Ordering::Relaxed);
        let now = self.stream_index(pos);
        let filter = &self.filter;
        let fix = self.fix;
        let mut judge = |f: &mut [u8; 14]| score::judge(f, |a| filter.contains(a, now), fix);
        match self.rate {
            DemodRate::Msps2 => slice2000::decode(&self.buf, pos, &mut judge),
            DemodRate::Msps2_4 => slice2400::decode(&self.buf, pos, &mut judge),
        }
    }

    /// A burst whose bits are in some doubt (a repaired bit, an
    /// interrogator code read from the parity) is compared with the one
    /// the next position gives, which may be sliced nearer its timing;
    /// the better score wins, the earlier on a tie. The next position
    /// still has its whole window: `b.start < end`, the last position
    /// the scan may decide.
    fn second_look(&mut self, b: Burst) -> Burst {
        if b.judged.certain {
            return b;
        }
        match self.decide(b.start + 1) {
            Some(n) if n.beats(&b) => n,
            _ => b,
        }
    }

    fn emit(&mut self, b: Burst, at: u64, out: &mut impl Extend<RawFrame>) {
        if b.judged.learn {
            self.filter.add(b.judged.address, at);
        }
        let c = &self.counters;
        c.frames.fetch_add(1, Ordering::Relaxed);
        if b.judged.corrected > 0 {
            c.corrected.fetch_add(1, Ordering::Relaxed);
        }
        let df = b.bytes[0] >> 3;
        if !matches!(df, 11 | 17 | 18) || (df == 11 && !b.judged.learn) {
            c.recovered.fetch_add(1, Ordering::Relaxed);
        }
        out.extend(std::iter::once(RawFrame {
            sample: at,
            power: b.power,
            address: b.judged.address,
            bytes: b.bytes,
            bits: b.judged.bits,
            corrected: b.judged.corrected,
        }));
    }
}

/// The parameters of [`ModesDemod`] (`modes_demod`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ModesDemodParams {
    /// sample rate of the magnitudes: 2e6 or 2.4e6
    #[param(default = 2_000_000.0, unit = "Hz", above = 0.0)]
    pub sample_rate: f64,
    /// repair DF17/18: one wrong bit, or two for an aircraft already proven
    #[param(default = true)]
    pub fix: bool,
}

impl ModesDemodParams {
    /// The slicer's rate.
    pub fn rate(&self) -> Result<DemodRate, ModesError> {
        DemodRate::from_hz(self.sample_rate)
    }

    /// The rule no declaration states: a rate the slicers know.
    fn check(&self) -> Result<(), ParamError> {
        self.rate()
            .map(drop)
            .map_err(|e| ParamError::new("modes_demod", "sample_rate", e.to_string()))
    }
}

/// Demodulates Mode S: finds preambles in a stream of magnitudes, slices
/// the bits, checks the parity (repairing one wrong bit of a DF17/18
/// frame, or two for an aircraft already proven; recovering the address
/// of the others for aircraft proven by a DF11/17/18), and writes every
/// frame that checks as a [`RawFrame`].
///
/// Magnitudes are `u16`, full scale 65535 (see
/// [`Cu8Magnitude`](crate::modes::Cu8Magnitude) and
/// [`ComplexMagnitude`](crate::modes::ComplexMagnitude)); the rate is 2 or
/// 2.4 MS/s. Frames carry the index of their preamble's first sample in
/// the input stream. The output is the same however the input is chunked
/// (frames split between calls are decided once complete), and the last
/// positions are decided when the input ends.
///
/// Counters: `preambles` (candidates sliced), `frames`, `corrected`,
/// `recovered` (address from parity).
///
/// # Parameters
/// [`ModesDemodParams`]: the rate and whether to repair DF17/18.
///
/// # Stream Inputs
/// - `in`: `u16` magnitudes
///
/// # Stream Outputs
/// - `out`: [`RawFrame`]
///
/// # Usage
/// ```
/// use rfgraph_radio::modes::{DemodRate, ModesDemod};
/// let demod = ModesDemod::new(2.0e6)?; // or DemodRate::Msps2_4.hz()
/// # let _ = (demod, DemodRate::Msps2);
/// # Ok::<(), rfgraph_radio::modes::ModesError>(())
/// ```
pub struct ModesDemod {
    input: StreamInput<u16>,
    output: StreamOutput<RawFrame>,
    params: ModesDemodParams,
    demod: Demodulator,
    pending: VecDeque<RawFrame>,
    flushed: bool,
}

impl ModesDemod {
    /// A demodulator for input at `rate_hz` samples per second (2e6 or
    /// 2.4e6).
    ///
    /// Errors: [`ModesError::Rate`] for other rates.
    pub fn new(rate_hz: f64) -> Result<Self, ModesError> {
        let params = ModesDemodParams {
            sample_rate: rate_hz,
            ..ModesDemodParams::default()
        };
        // A rate the slicers know is every rule of the parameters.
        let rate = params.rate()?;
        Ok(Self::build(params, rate))
    }

    /// The demodulator `params` describe.
    ///
    /// Errors: a parameter outside its declaration.
    pub fn from_params(params: ModesDemodParams) -> Result<Self, ParamError> {
        params.validate()?;
        let rate = params
            .rate()
            .map_err(|e| ParamError::new("modes_demod", "sample_rate", e.to_string()))?;
        Ok(Self::build(params, rate))
    }

    fn build(params: ModesDemodParams, rate: DemodRate) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            demod: Demodulator::new(rate).with_fix(params.fix),
            params,
            pending: VecDeque::new(),
            flushed: false,
        }
    }

    /// Turns bit repair of DF17/18 on (the default) or off.
    pub fn with_fix(mut self, fix: bool) -> Self {
        self.params.fix = fix;
        self.demod = self.demod.with_fix(fix);
        self
    }

    /// Runs the vectorised preamble tests with `isa` (see
    /// [`Demodulator::with_isa`]).
    pub fn with_isa(mut self, isa: Isa) -> Self {
        self.demod = self.demod.with_isa(isa);
        self
    }

    /// The counters (shared with the statistics).
    pub fn demod_counters(&self) -> DemodCounters {
        self.demod.counters().clone()
    }

    /// Moves pending frames to the output; true when none is left.
    fn drain(&mut self) -> bool {
        let o = self.output.slice();
        let n = o.len().min(self.pending.len());
        for (slot, f) in o.iter_mut().zip(self.pending.drain(..n)) {
            *slot = f;
        }
        self.output.produce(n);
        self.pending.is_empty()
    }
}

impl Block for ModesDemod {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if !self.drain() {
            // Frames wait for room: only this block knows it holds them.
            io.call_again_at(Instant::now() + Duration::from_millis(1));
            return Ok(());
        }
        let i = self.input.slice();
        let n = i.len().min(CHUNK);
        self.demod.push(&i[..n], &mut self.pending);
        self.input.consume(n);
        if !self.flushed && self.input.is_finished() {
            self.flushed = true;
            self.demod.finish(&mut self.pending);
        }
        if !self.drain() {
            io.call_again_at(Instant::now() + Duration::from_millis(1));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        let c = self.demod.counters();
        vec![
            ("preambles", c.preambles.clone()),
            ("frames", c.frames.clone()),
            ("corrected", c.corrected.clone()),
            ("recovered", c.recovered.clone()),
        ]
    }

    fn tag_policy(&self) -> TagPolicy {
        // Frames are not samples: sample tags do not map onto them.
        TagPolicy::Manual
    }
}

/// The registry entry: `modes_demod`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<ModesDemodParams>(
        "modes_demod",
        "Receivers",
        "Mode S demodulator: magnitudes in, CRC-checked frames out.",
        |p| Ok(Box::new(ModesDemod::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Finds Mode S preambles in u16 magnitudes at 2 or 2.4 MS/s (`modes_magnitude`, \
         `modes_cu8_magnitude`), slices the 56- or 112-bit frames, checks their CRC \
         (repairing one wrong bit of DF17/18, or two for an aircraft already proven, with `fix`) and writes the good ones.",
    )
    .input(PortSpec::new("in", PortItem::Other("u16")).doc("magnitudes"))
    .output(PortSpec::new("out", PortItem::Other("Mode S frame")))
}
