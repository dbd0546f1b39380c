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
    /// `P`, whose angle the detector holds where it flags the item (the
    /// angle is only ever needed there).
    p: Complex32,
}

/// Input items the metrics are computed for at a time (the sums' working
/// set stays in the first-level cache).
const CHUNK: usize = 1024;

/// `acc[j] += x[j]`, a loop the compiler vectorises.
fn accumulate(acc: &mut [f32], x: &[f32]) {
    for (a, &b) in acc.iter_mut().zip(x) {
        *a += b;
    }
}

/// `out[j]`: the sum of the `w` values of `x` ending at `hist + j`
/// (`hist >= w - 1`). Sums of 1, 2, 4, … values ending at each position
/// are doubled pass by pass (`tmp` the other buffer), and those that
/// `w`'s binary digits name added up: a tree of additions over the
/// window, each sum made of its own `w` values only (no running total,
/// no subtraction: no drift, and silence sums to exactly 0). `x` is
/// left holding partial sums.
fn window_sums(x: &mut Vec<f32>, tmp: &mut Vec<f32>, hist: usize, w: usize, out: &mut [f32]) {
    let n = out.len();
    out.fill(0.0);
    tmp.clear();
    tmp.resize(x.len(), 0.0);
    let (mut cur, mut next) = (x, tmp);
    let (mut m, mut back, mut bits) = (1, 0, w);
    while bits != 0 {
        if bits & 1 == 1 {
            let from = hist - back;
            accumulate(out, &cur[from..from + n]);
            back += m;
        }
        bits >>= 1;
        if bits != 0 {
            // `cur` holds sums of `m` values from position `m - 1` on.
            let len = cur.len();
            for ((d, &a), &b) in next[m..].iter_mut().zip(&cur[m..]).zip(&cur[..len - m]) {
                *d = a + b;
            }
            std::mem::swap(&mut cur, &mut next);
            m *= 2;
        }
    }
}

/// The timing metric and `P` of each input item: the conjugate products
/// and energies of a chunk of input, and their moving sums (`fft_len / 2`
/// products, `fft_len` energies) summed afresh for every item, as GNU
/// Radio's FIR filters do (no drift; silence sums to exactly 0), but
/// for a whole chunk at once ([`window_sums`]), so the additions run
/// side by side over the chunk.
struct Metrics {
    /// `fft_len / 2`: the delay and the correlation window.
    half: usize,
    /// `fft_len`: the energy window.
    len: usize,
    tap: f32,
    /// The `len` items before the chunk (zeros before the stream), then
    /// the chunk.
    buf: Vec<Complex32>,
    /// Per item of `buf`: `x[h] · conj(x[h − half])` (split) and `|x[h]|²`.
    corr_re: Vec<f32>,
    corr_im: Vec<f32>,
    energy: Vec<f32>,
    /// Per item of the chunk: the sums.
    p_re: Vec<f32>,
    p_im: Vec<f32>,
    r: Vec<f32>,
    tmp: Vec<f32>,
}

impl Metrics {
    fn new(p: &SyncScParams) -> Self {
        Self {
            half: p.fft_len / 2,
            len: p.fft_len,
            tap: if p.use_even_carriers { 1.0 } else { -1.0 },
            buf: vec![Complex32::default(); p.fft_len],
            corr_re: Vec::new(),
            corr_im: Vec::new(),
            energy: Vec::new(),
            p_re: Vec::new(),
            p_im: Vec::new(),
            r: Vec::new(),
            tmp: Vec::new(),
        }
    }

    /// Queues the metric of each item of `x` (flag 0).
    fn extend(&mut self, x: &[Complex32], queue: &mut VecDeque<(Metric, u8)>) {
        for chunk in x.chunks(CHUNK) {
            self.chunk(chunk, queue);
        }
    }

    fn chunk(&mut self, x: &[Complex32], queue: &mut VecDeque<(Metric, u8)>) {
        let (half, len, n) = (self.half, self.len, x.len());
        self.buf.extend_from_slice(x);
        let total = len + n;
        for v in [&mut self.corr_re, &mut self.corr_im, &mut self.energy] {
            v.clear();
            v.resize(total, 0.0);
        }
        // Products from `half` on: the windows of the chunk's items reach
        // back to item `len − half + 1` of `buf` at most.
        for h in half..total {
            let c = self.buf[h] * self.buf[h - half].conj();
            self.corr_re[h] = c.re;
            self.corr_im[h] = c.im;
        }
        for (e, x) in self.energy.iter_mut().zip(&self.buf) {
            *e = x.norm_sqr();
        }
        for v in [&mut self.p_re, &mut self.p_im, &mut self.r] {
            v.clear();
            v.resize(n, 0.0);
        }
        // The products from `half` on: `len - half` of them before the
        // chunk, at least the `half - 1` its first window needs.
        for (v, out) in [
            (&mut self.corr_re, &mut self.p_re),
            (&mut self.corr_im, &mut self.p_im),
        ] {
            v.drain(..half);
            window_sums(v, &mut self.tmp, len - half, half, out);
        }
        window_sums(&mut self.energy, &mut self.tmp, len, len, &mut self.r);
        let tap = self.tap;
        queue.extend(
            self.p_re
                .iter()
                .zip(&self.p_im)
                .zip(&self.r)
                .map(|((&re, &im), &r)| {
                    // `tap` is ±1 and 0.5 a power of two: both exact, as
                    // GNU Radio's taps.
                    let p = Complex32::new(re * tap, im * tap);
                    let r = r * 0.5;
                    (
                        Metric {
                            metric: p.norm_sqr() / (r * r),
                            p,
                        },
                        0,
                    )
                }),
        );
        // Keep the last `len` items for the next chunk's windows.
        self.buf.drain(..n);
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
                self.hold = m.p.im.atan2(m.p.re);
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
            self.metrics.extend(&i[..n], &mut self.detector.queue);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The metrics of `x` fed `step` items at a time.
    fn metrics(p: &SyncScParams, x: &[Complex32], step: usize) -> Vec<Metric> {
        let mut m = Metrics::new(p);
        let mut queue = VecDeque::new();
        for part in x.chunks(step) {
            m.extend(part, &mut queue);
        }
        queue.into_iter().map(|(m, _)| m).collect()
    }

    /// The sums of the windows, one by one, as GNU Radio's filters.
    fn direct(p: &SyncScParams, x: &[Complex32]) -> Vec<(Complex32, f32)> {
        let (half, len) = (p.fft_len / 2, p.fft_len);
        let at = |i: isize| {
            usize::try_from(i)
                .ok()
                .map_or(Complex32::default(), |i| x[i])
        };
        let tap = if p.use_even_carriers { 1.0 } else { -1.0 };
        (0..x.len() as isize)
            .map(|h| {
                let pp: Complex32 = (0..half as isize)
                    .map(|k| at(h - k) * at(h - k - half as isize).conj() * tap)
                    .sum();
                let r: f32 = (0..len as isize).map(|k| at(h - k).norm_sqr() * 0.5).sum();
                (pp, r)
            })
            .collect()
    }

    #[test]
    fn chunked_sums_match_the_windows_and_silence_sums_to_zero() {
        let mut state = 1u32;
        let mut noise = || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        for fft_len in [2, 5, 64, 100] {
            let p = SyncScParams {
                fft_len,
                ..Default::default()
            };
            // A burst, silence longer than the windows, a burst.
            let mut x: Vec<Complex32> = (0..3000)
                .map(|_| Complex32::new(noise(), noise()))
                .collect();
            x[1000..2200].fill(Complex32::default());
            let want = direct(&p, &x);
            let whole = metrics(&p, &x, x.len());
            for step in [1, 7, 333] {
                let got = metrics(&p, &x, step);
                assert_eq!(got.len(), x.len());
                for (a, b) in got.iter().zip(&whole) {
                    assert_eq!(a.p, b.p, "fft_len {fft_len}, step {step}");
                    assert!(a.metric == b.metric || a.metric.is_nan() && b.metric.is_nan());
                }
            }
            for (i, (m, (pp, r))) in whole.iter().zip(&want).enumerate() {
                assert!((m.p - pp).norm() <= 1e-4, "fft_len {fft_len}: P at {i}");
                let metric = pp.norm_sqr() / (r * r);
                if (1000 + fft_len - 1..2200).contains(&i) {
                    assert_eq!(m.p, Complex32::default(), "silence at {i}");
                    assert!(m.metric.is_nan(), "silence at {i}");
                } else {
                    assert!((m.metric - metric).abs() <= 1e-3 * metric.max(1.0), "{i}");
                }
            }
        }
    }
}
