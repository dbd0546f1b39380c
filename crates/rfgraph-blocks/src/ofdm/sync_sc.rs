//! `ofdm_sync_sc_cfb`: Schmidl & Cox timing and fine frequency
//! synchronisation (GNU Radio's `digital_ofdm_sync_sc_cfb`, a hierarchical
//! block there: delay, conjugate product, moving sums, normalisation,
//! `plateau_detector_fb` and `sample_and_hold_ff`, computed here sample by
//! sample in one block).

use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use std::collections::VecDeque;

/// The parameters of `ofdm_sync_sc_cfb` (GNU Radio's
/// `digital_ofdm_sync_sc_cfb`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct SyncScParams {
    /// FFT length: the preamble symbol repeats after `fft_len / 2` items
    #[param(default = 64, min = 2, max = limits::MAX_FFT)]
    pub fft_len: usize,
    /// cyclic prefix length: the longest plateau skipped after a detection
    #[param(default = 16, max = limits::MAX_FFT)]
    pub cp_len: usize,
    /// the preamble uses the even carriers (else the odd ones, as
    /// `ofdm_txrx.py`'s first sync word does)
    #[param(default = false)]
    pub use_even_carriers: bool,
    /// the timing metric a plateau must reach (GNU Radio's
    /// `set_threshold`)
    #[param(default = 0.9, settable)]
    pub threshold: f32,
}

/// The longest plateau the detector waits to see end: GNU Radio's
/// detector sees at most one buffer at a time (8192 floats by default)
/// and cuts a longer plateau at the buffer's end; here it is cut after
/// this many items.
pub const MAX_PLATEAU: usize = 8192;

/// An item between the metric and the outputs.
#[derive(Clone, Copy, Debug)]
struct Metric {
    /// `|P|² / R²`.
    metric: f32,
    /// `arg P`.
    angle: f32,
}

/// Moving sums over the last `len` values, kept in a ring and summed
/// afresh for every item (as GNU Radio's FIR filters do, no drift).
struct Window<T> {
    ring: Vec<T>,
    at: usize,
}

impl<T: Copy + Default> Window<T> {
    fn new(len: usize) -> Self {
        Self {
            ring: vec![T::default(); len],
            at: 0,
        }
    }

    /// Pushes `x`, returns the value pushed `len` items before.
    fn push(&mut self, x: T) -> T {
        let old = std::mem::replace(&mut self.ring[self.at], x);
        self.at = (self.at + 1) % self.ring.len();
        old
    }
}

/// The timing metric and angle of each input item.
struct Metrics {
    delay: Window<Complex32>,
    corr: Window<Complex32>,
    energy: Window<f32>,
    tap: f32,
}

impl Metrics {
    fn new(p: &SyncScParams) -> Self {
        Self {
            delay: Window::new(p.fft_len / 2),
            corr: Window::new(p.fft_len / 2),
            energy: Window::new(p.fft_len),
            tap: if p.use_even_carriers { 1.0 } else { -1.0 },
        }
    }

    fn next(&mut self, x: Complex32) -> Metric {
        let delayed = self.delay.push(x);
        self.corr.push(x * delayed.conj());
        self.energy.push(x.norm_sqr());
        let p: Complex32 = self.corr.ring.iter().map(|&c| c * self.tap).sum();
        let r: f32 = self.energy.ring.iter().map(|&e| e * 0.5).sum();
        Metric {
            metric: p.norm_sqr() / (r * r),
            angle: p.im.atan2(p.re),
        }
    }
}

/// `metric >= threshold`, false for NaN (GNU Radio's comparison).
fn reaches(metric: f32, threshold: f32) -> bool {
    metric >= threshold
}

/// GNU Radio's `plateau_detector_fb` over the metrics, as if it saw the
/// whole stream at once (up to [`MAX_PLATEAU`]), and the sample and hold
/// of the angle at each detection.
struct Detector {
    max_len: usize,
    /// Metrics not yet written; the first `decided` have their flag.
    queue: VecDeque<(Metric, u8)>,
    decided: usize,
    /// Items after a plateau to pass over unchecked.
    skip: usize,
    /// The angle held since the last detection.
    hold: f32,
    /// The stream ended where GNU Radio's detector stops for good.
    stopped: bool,
}

impl Detector {
    fn new(max_len: usize) -> Self {
        Self {
            max_len,
            queue: VecDeque::new(),
            decided: 0,
            skip: 0,
            hold: 0.0,
            stopped: false,
        }
    }

    /// How many metrics the detector may need to look ahead.
    fn horizon(&self) -> usize {
        (2 * self.max_len).max(MAX_PLATEAU) + 1
    }

    /// Decides the flags of the queued metrics as far as they allow;
    /// `ended`: no more metrics will come.
    fn decide(&mut self, threshold: f32, ended: bool) {
        while !self.stopped && self.decided < self.queue.len() {
            let i = self.decided;
            if self.skip > 0 {
                self.skip -= 1;
                self.decided += 1;
                continue;
            }
            if !reaches(self.queue[i].0.metric, threshold) {
                self.decided += 1;
                continue;
            }
            let left = self.queue.len() - i;
            if left < 2 * self.max_len {
                // GNU Radio comes back later, or never at the end.
                if ended {
                    self.stop();
                }
                return;
            }
            let mut j = i;
            while j < self.queue.len()
                && j - i < MAX_PLATEAU
                && reaches(self.queue[j].0.metric, threshold)
            {
                j += 1;
            }
            let cut = j - i == MAX_PLATEAU;
            if j == self.queue.len() && !ended && !cut {
                return;
            }
            let at_end = cut || j == self.queue.len();
            if j - i > 1 {
                self.queue[i + (j - i) / 2].1 = 1;
                if !at_end {
                    self.skip = self.max_len + 1;
                }
            } else if !at_end {
                self.skip = 1;
            }
            self.decided = j;
        }
        if ended && self.decided < self.queue.len() {
            self.stop();
        }
    }

    /// The stream ended where GNU Radio's detector waits for good: the
    /// items not decided are never written.
    fn stop(&mut self) {
        self.stopped = true;
        self.queue.truncate(self.decided);
    }

    /// Writes decided items; the number written.
    fn emit(&mut self, freq: &mut [f32], detect: &mut [u8]) -> usize {
        let n = self.decided.min(freq.len()).min(detect.len());
        for (k, (m, flag)) in self.queue.drain(..n).enumerate() {
            if flag != 0 {
                self.hold = m.angle;
            }
            freq[k] = self.hold;
            detect[k] = flag;
        }
        self.decided -= n;
        n
    }
}

/// Schmidl & Cox synchronisation of an OFDM stream (GNU Radio's
/// `digital_ofdm_sync_sc_cfb`): the correlation `P` of the input with
/// itself half a symbol (`fft_len / 2` items) earlier, summed over half a
/// symbol, against the energy `R` of the last `fft_len` items halved;
/// where the timing metric `|P|² / R²` stays at or above `threshold` for
/// more than one item, the middle of that plateau is flagged 1 on
/// `detect` (the start of the symbol after the preamble), the next
/// `cp_len` items pass unchecked, and `freq_offset` holds `arg P` of that
/// item from there on: the fine frequency offset times `π`, in carrier
/// spacings (the normalized frequency offset is `2 · freq_offset /
/// fft_len`).
///
/// As in GNU Radio, a plateau needs `2 · cp_len` items after its start
/// before it is judged, so the last items of a stream may stay unwritten.
/// GNU Radio judges a plateau within the buffer it sees; here, within
/// [`MAX_PLATEAU`] items.
///
/// # Parameters
/// [`SyncScParams`]; `threshold` has a message input of its name.
///
/// # Stream Inputs
/// - `in`: `Complex32`.
///
/// # Stream Outputs
/// - `freq_offset`: `f32`, the held fine frequency offset.
/// - `detect`: `u8`, 1 at the start of the symbol after each preamble.
///
/// # Usage
/// ```
/// use rfgraph_blocks::ofdm::{SyncSc, SyncScParams};
/// let sync = SyncSc::new(SyncScParams {
///     fft_len: 64,
///     cp_len: 16,
///     ..Default::default()
/// })?;
/// # let _ = sync;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct SyncSc {
    input: StreamInput<Complex32>,
    freq: StreamOutput<f32>,
    detect: StreamOutput<u8>,
    params: SyncScParams,
    metrics: Metrics,
    detector: Detector,
}

impl SyncSc {
    /// The synchroniser `params` describe.
    pub fn new(params: SyncScParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            freq: StreamOutput::new("freq_offset"),
            detect: StreamOutput::new("detect"),
            metrics: Metrics::new(&params),
            detector: Detector::new(params.cp_len),
            params,
        })
    }
}

impl Block for SyncSc {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.freq)
            .output(&mut self.detect)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    // GNU Radio's hierarchical block passes tags through its delay path
    // and filters, which keep them on their items.
    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::ONE_TO_ONE
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let horizon = self.detector.horizon();
        loop {
            let room = horizon.saturating_sub(self.detector.queue.len());
            let i = self.input.slice();
            let n = i.len().min(room);
            for &x in &i[..n] {
                let m = self.metrics.next(x);
                self.detector.queue.push_back((m, 0));
            }
            self.input.consume(n);
            let ended = self.input.is_finished();
            self.detector.decide(self.params.threshold, ended);
            let written = self.detector.emit(self.freq.slice(), self.detect.slice());
            self.freq.produce(written);
            self.detect.produce(written);
            if self.detector.stopped && self.detector.queue.is_empty() {
                io.finish();
                return Ok(());
            }
            if n == 0 && written == 0 {
                break;
            }
        }
        if self.detector.decided > 0 {
            io.in_flight();
        }
        Ok(())
    }
}

/// `ofdm_sync_sc_cfb`: GNU Radio's `digital_ofdm_sync_sc_cfb`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SyncScParams>(
        "ofdm_sync_sc_cfb",
        "OFDM",
        "Schmidl & Cox timing and fine frequency synchronisation for OFDM.",
        |p| Ok(Box::new(SyncSc::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_ofdm_sync_sc_cfb`: the timing metric `|P|²/R²` of the half-symbol \
         autocorrelation `P` and the energy `R`; the middle of each plateau above `threshold` \
         is flagged on `detect`, and `freq_offset` holds `arg P` there (normalized frequency \
         offset `2·freq_offset/fft_len`).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("freq_offset", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("detect", PortItem::Fixed(ItemKind::U8)))
}
