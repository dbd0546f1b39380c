//! `ofdm_chanest`: coarse (integer) carrier offset and initial channel
//! taps from one or two Schmidl & Cox preamble symbols in the frequency
//! domain (GNU Radio's `digital_ofdm_chanest_vcvc`).

use super::carriers::{txrx_sync_word1, txrx_sync_word2};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The tag with the coarse carrier offset (an integer, in carriers).
pub const CARR_OFFSET_KEY: &str = "ofdm_sync_carr_offset";

/// The tag with the channel taps (a complex vector of `fft_len`).
pub const CHAN_TAPS_KEY: &str = "ofdm_sync_chan_taps";

/// The parameters of `ofdm_chanest` (GNU Radio's `digital_ofdm_chanest_vcvc`);
/// the defaults are `ofdm_txrx.py`'s sync words.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ChanestParams {
    /// the first preamble symbol in the frequency domain (its length is
    /// the FFT length); zeros on every other carrier when it is the only
    /// one
    #[param(default = txrx_sync_word1(), max_len = limits::MAX_FFT)]
    pub sync_symbol1: Vec<Complex32>,
    /// the second preamble symbol, or none
    #[param(default = txrx_sync_word2(), max_len = limits::MAX_FFT)]
    pub sync_symbol2: Vec<Complex32>,
    /// data symbols after the preamble in each frame
    #[param(default = 1, min = 1, max = limits::MAX_ELEMENTS)]
    pub n_data_symbols: usize,
    /// GNU Radio's noise reduction of the taps (not implemented there
    /// either: no effect)
    #[param(default = 0)]
    pub eq_noise_red_len: usize,
    /// the largest carrier offset searched for (−1: any the preamble
    /// allows)
    #[param(default = -1)]
    pub max_carr_offset: i64,
    /// use only the first preamble symbol even when there are two
    #[param(default = false, alias = "force_one_sync_symbol")]
    pub force_one_symbol: bool,
}

impl ChanestParams {
    fn error(param: &'static str, why: String) -> ParamError {
        ParamError::new("ofdm_chanest", param, why)
    }

    fn check(&self) -> Result<(), ParamError> {
        let n = self.sync_symbol1.len();
        if n == 0 {
            return Err(Self::error("sync_symbol1", "must not be empty".into()));
        }
        if !self.sync_symbol2.is_empty() && self.sync_symbol2.len() != n {
            return Err(Self::error(
                "sync_symbol2",
                format!("has {} items, sync_symbol1 {n}", self.sync_symbol2.len()),
            ));
        }
        let sync_syms = if self.two_symbols() { 2 } else { 1 };
        if (sync_syms + self.n_data_symbols).saturating_mul(n) > limits::MAX_ELEMENTS {
            return Err(Self::error(
                "n_data_symbols",
                format!("frames of more than {} items", limits::MAX_ELEMENTS),
            ));
        }
        Estimator::new(self).map(drop)
    }

    /// Two preamble symbols are used.
    fn two_symbols(&self) -> bool {
        !self.sync_symbol2.is_empty() && !self.force_one_symbol
    }
}

/// The estimation, as GNU Radio sets it up.
struct Estimator {
    fft_len: usize,
    sync_syms: usize,
    /// The symbol the taps are measured against.
    reference: Vec<Complex32>,
    first_active: usize,
    last_active: usize,
    interpolate: bool,
    max_neg: i64,
    max_pos: i64,
    /// Two symbols: `sync2 / sync1` per carrier (0 where `sync1` is).
    corr: Vec<Complex32>,
    /// One symbol: `|s[i] − s[i+2]|²` of the known symbol.
    known_diffs: Vec<f32>,
}

impl Estimator {
    fn new(p: &ChanestParams) -> Result<Self, ParamError> {
        let n = p.sync_symbol1.len();
        let zero = Complex32::new(0.0, 0.0);
        let reference = if p.two_symbols() {
            p.sync_symbol2.clone()
        } else {
            p.sync_symbol1.clone()
        };
        let active = |i: &usize| reference[*i] != zero;
        let first = (0..n).find(active);
        let last = (0..n).rev().find(active);
        let (Some(first_active), Some(mut last_active)) = (first, last) else {
            return Err(ChanestParams::error(
                if p.two_symbols() {
                    "sync_symbol2"
                } else {
                    "sync_symbol1"
                },
                "has no carrier that is not 0".into(),
            ));
        };
        let mut interpolate = false;
        if p.sync_symbol2.is_empty() && p.sync_symbol1.get(first_active + 1) != Some(&zero) {
            // Not every other carrier: nothing to interpolate.
        } else if p.sync_symbol2.is_empty() {
            last_active += 1;
            interpolate = true;
            if last_active >= n {
                return Err(ChanestParams::error(
                    "sync_symbol1",
                    "its last carrier is active, so the gap after it cannot be interpolated".into(),
                ));
            }
        }
        let mut max_neg = -(first_active as i64);
        let mut max_pos = n as i64 - last_active as i64 - 1;
        if p.max_carr_offset != -1 {
            max_neg = max_neg.max(p.max_carr_offset.saturating_neg());
            max_pos = max_pos.min(p.max_carr_offset);
        }
        if max_neg % 2 != 0 {
            max_neg += 1;
        }
        if max_pos % 2 != 0 {
            max_pos -= 1;
        }
        let sync_syms = if p.two_symbols() { 2 } else { 1 };
        let (corr, known_diffs) = if sync_syms == 2 {
            let corr = p
                .sync_symbol1
                .iter()
                .zip(&p.sync_symbol2)
                .map(|(&s1, &s2)| if s1 == zero { zero } else { s2 / s1 })
                .collect();
            (corr, Vec::new())
        } else {
            let mut diffs = vec![0.0f32; n];
            let mut i = first_active;
            while i + 2 < last_active && i + 2 < n {
                diffs[i] = (p.sync_symbol1[i] - p.sync_symbol1[i + 2]).norm_sqr();
                i += 2;
            }
            (Vec::new(), diffs)
        };
        Ok(Self {
            fft_len: n,
            sync_syms,
            reference,
            first_active,
            last_active,
            interpolate,
            max_neg,
            max_pos,
            corr,
            known_diffs,
        })
    }

    /// The candidate offsets, even, from the most negative.
    fn offsets(&self) -> impl Iterator<Item = i64> + use<> {
        let (lo, hi) = (self.max_neg, self.max_pos);
        (0..).map(move |k| lo + 2 * k).take_while(move |&g| g <= hi)
    }

    /// The coarse carrier offset of a frame whose preamble is `s1` (and
    /// `s2`).
    fn carr_offset(&self, s1: &[Complex32], s2: &[Complex32]) -> i64 {
        let at = |v: &[Complex32], i: i64| {
            usize::try_from(i)
                .ok()
                .and_then(|i| v.get(i))
                .copied()
                .unwrap_or_default()
        };
        let zero = Complex32::new(0.0, 0.0);
        let mut offset = 0;
        if !self.corr.is_empty() {
            // Schmidl & Cox: the correlation of the two symbols' ratio.
            let mut best = 0.0f32;
            for g in self.offsets() {
                let mut sum = zero;
                for (k, &c) in self.corr.iter().enumerate() {
                    if c != zero {
                        let i = k as i64 + g;
                        sum += at(s1, i).conj() * c.conj() * at(s2, i);
                    }
                }
                if sum.norm() > best {
                    best = sum.norm();
                    offset = g;
                }
            }
        } else {
            // One symbol: its pattern of differences every two carriers.
            let n = self.fft_len;
            let new: Vec<f32> = (0..n)
                .map(|i| {
                    if i + 2 < n {
                        (s1[i] - s1[i + 2]).norm_sqr()
                    } else {
                        0.0
                    }
                })
                .collect();
            let mut max = 0.0f32;
            for g in self.offsets() {
                let mut sum = 0.0f32;
                for (j, &known) in self.known_diffs.iter().enumerate() {
                    if known != 0.0 {
                        let i = usize::try_from(j as i64 + g).ok();
                        sum += known * i.and_then(|i| new.get(i)).copied().unwrap_or(0.0);
                    }
                    if sum > max {
                        max = sum;
                        offset = g;
                    }
                }
            }
        }
        offset
    }

    /// The channel taps of a frame with offset `offset`: the received
    /// preamble over the known one, carrier by carrier, moved back by the
    /// offset; with one sparse symbol, the gaps copied from the carrier
    /// before.
    fn taps(&self, s1: &[Complex32], s2: &[Complex32], offset: i64) -> Vec<Complex32> {
        let n = self.fft_len as i64;
        let zero = Complex32::new(0.0, 0.0);
        let sym = if self.sync_syms == 2 { s2 } else { s1 };
        let mut taps = vec![zero; self.fft_len];
        let (start, end) = (offset.max(0), n + offset.min(0));
        for i in start..end {
            let k = (i - offset) as usize;
            if self.reference[k] != zero {
                taps[k] = sym[i as usize] / self.reference[k];
            }
        }
        if self.interpolate {
            let mut i = self.first_active + 1;
            while i < self.last_active {
                taps[i] = taps[i - 1];
                i += 2;
            }
            taps[self.last_active] = taps[self.last_active - 1];
        }
        taps
    }
}

/// Estimates the coarse carrier offset and the channel of each frame of
/// OFDM symbols from its preamble (GNU Radio's `digital_ofdm_chanest_vcvc`):
/// frames of one or two sync symbols and `n_data_symbols` data symbols in
/// the frequency domain (after the FFT, shifted), one after another. The
/// sync symbols are taken off; the first data symbol gets the tags
/// `ofdm_sync_carr_offset` (the offset in carriers, even) and
/// `ofdm_sync_chan_taps` (the taps at the carriers' true positions), and
/// the tags of the sync symbols. With two sync symbols the offset comes
/// from the Schmidl & Cox correlation of both and the taps from the
/// second; with one, from the pattern of its differences, and the taps
/// of the carriers it leaves out copy their neighbour's.
///
/// # Parameters
/// [`ChanestParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`, frames of OFDM symbols of `fft_len` items.
///
/// # Stream Outputs
/// - `out`: `Complex32`, the data symbols, tagged.
/// - `taps` (optional): `Complex32`, the channel taps, `fft_len` per frame.
///
/// # Usage
/// ```
/// use rfgraph_blocks::ofdm::{Chanest, ChanestParams};
/// // ofdm_txrx.py's header channel estimation (its two sync words).
/// let chanest = Chanest::new(ChanestParams::default())?;
/// # let _ = chanest;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct Chanest {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    taps: StreamOutput<Complex32>,
    params: ChanestParams,
    estimator: Estimator,
}

impl Chanest {
    /// The estimator `params` describe.
    ///
    /// Errors: no sync symbol, sync symbols of different lengths, a
    /// reference symbol of zeros, or frames too long.
    pub fn new(params: ChanestParams) -> Result<Self, ParamError> {
        params.validate()?;
        let estimator = Estimator::new(&params)?;
        let n = estimator.fft_len;
        let frame = (estimator.sync_syms + params.n_data_symbols) * n;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(frame),
            output: StreamOutput::new("out").with_min_items(params.n_data_symbols * n),
            taps: StreamOutput::optional("taps").with_min_items(n),
            params,
            estimator,
        })
    }
}

impl Block for Chanest {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .output(&mut self.taps)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let e = &self.estimator;
        let n = e.fft_len;
        let (sync, data) = (e.sync_syms * n, self.params.n_data_symbols * n);
        let frame = sync + data;
        let start = self.input.position();
        // The tags are those of this slice: later slices may hold more
        // items, whose tags this one does not have.
        let available = self.input.slice().len();
        let tags = self.input.tags();
        let with_taps = self.taps.is_connected();
        let (mut read, mut written, mut frames) = (0, 0, 0);
        loop {
            let i = &self.input.slice()[..available];
            if i.len() < read + frame
                || self.output.slice().len() < written + data
                || (with_taps && self.taps.slice().len() < (frames + 1) * n)
            {
                break;
            }
            let f = &i[read..read + frame];
            let (s1, s2) = (&f[..n], &f[n.min(f.len())..(2 * n).min(f.len())]);
            let offset = e.carr_offset(s1, s2);
            let taps = e.taps(s1, s2, offset);
            self.output.slice()[written..written + data].copy_from_slice(&f[sync..]);
            self.output
                .add_tag(written, CARR_OFFSET_KEY, Pmt::I64(offset));
            let as_pmt = Pmt::VecComplexF32(taps.iter().map(|c| [c.re, c.im]).collect());
            self.output.add_tag(written, CHAN_TAPS_KEY, as_pmt);
            if with_taps {
                self.taps.slice()[frames * n..(frames + 1) * n].copy_from_slice(&taps);
            }
            let first = start + read as u64;
            for t in tags
                .iter()
                .filter(|t| (first..first + frame as u64).contains(&t.index))
            {
                let symbol = ((t.index - first) / n as u64) as usize;
                let at = symbol.saturating_sub(e.sync_syms) * n;
                self.output.add_tag(written + at, &t.key, t.value.clone());
            }
            read += frame;
            written += data;
            frames += 1;
        }
        self.input.consume(read);
        self.output.produce(written);
        if with_taps {
            self.taps.produce(frames * n);
        }
        Ok(())
    }
}

/// `ofdm_chanest`: GNU Radio's `digital_ofdm_chanest_vcvc`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ChanestParams>(
        "ofdm_chanest",
        "OFDM",
        "Estimates the coarse carrier offset and channel of OFDM frames from their preamble.",
        |p| Ok(Box::new(Chanest::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_ofdm_chanest_vcvc`: frames of 1 or 2 sync symbols and \
         `n_data_symbols` data symbols (frequency domain); the sync symbols are removed and the \
         first data symbol is tagged `ofdm_sync_carr_offset` (integer carriers) and \
         `ofdm_sync_chan_taps` (complex vector).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)).doc("OFDM symbols of fft_len items"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("the data symbols"))
    .output(
        PortSpec::new("taps", PortItem::Fixed(ItemKind::C32))
            .optional()
            .doc("the channel taps, fft_len per frame"),
    )
}
