//! `corr_est` (GNU Radio `digital_corr_est_cc`): correlates the input
//! with known symbols, delays the input by their length and tags each
//! correlation peak above the threshold (`corr_start` at the peak,
//! `phase_est`, `time_est`, `corr_est`, `amp_est` `mark_delay` samples
//! later), in blocks of the FFT size GNU Radio's filter works in, as
//! GNU Radio does (the dynamic threshold and `amp_est` are per block).

use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// How `corr_est` sets its threshold (GNU Radio's `tm_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum ThresholdMethod {
    /// `threshold · (Σ|s|²)²` (`digital.THRESHOLD_ABSOLUTE`).
    #[choice(
        alias = "digital.THRESHOLD_ABSOLUTE",
        alias = "THRESHOLD_ABSOLUTE",
        alias = "digital.corr_est_cc.THRESHOLD_ABSOLUTE"
    )]
    Absolute,
    /// `2 · mean(|corr|²) · −ln(1 − threshold)` over each block
    /// (`digital.THRESHOLD_DYNAMIC`).
    #[choice(
        alias = "digital.THRESHOLD_DYNAMIC",
        alias = "THRESHOLD_DYNAMIC",
        alias = "digital.corr_est_cc.THRESHOLD_DYNAMIC"
    )]
    Dynamic,
}

/// The parameters of `corr_est`, GNU Radio's `digital_corr_est_cc`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct CorrEstParams {
    /// the known symbols (samples) searched for
    #[param(default = vec![Complex32::new(1.0, 0.0)], max_len = 1 << 16)]
    pub symbols: Vec<Complex32>,
    /// samples per symbol: peaks this far apart (rounded) are distinct
    #[param(default = 1.0, min = 0.0, max = 1e6)]
    pub sps: f64,
    /// samples from the peak to the estimate tags (at most the symbols'
    /// length − 1)
    #[param(default = 0)]
    pub mark_delay: u32,
    /// the threshold, as `threshold_method` reads it
    #[param(default = 0.9)]
    pub threshold: f64,
    /// `absolute` or `dynamic`
    #[param(default = ThresholdMethod::Absolute)]
    pub threshold_method: ThresholdMethod,
}

impl CorrEstParams {
    fn check(&self) -> Result<(), ParamError> {
        if self.symbols.is_empty() {
            return Err(ParamError::new(
                "corr_est",
                "symbols",
                "needs at least one symbol",
            ));
        }
        Ok(())
    }
}

/// GNU Radio's `fft_filter` block size for `ntaps` taps: an FFT of
/// `2·2^⌈log2 ntaps⌉`, less the taps' overlap.
fn fft_block(ntaps: usize) -> usize {
    let fft = 2 * ntaps.next_power_of_two();
    fft - ntaps + 1
}

/// Correlates with known symbols and tags the peaks (GNU Radio's
/// `corr_est_cc`).
///
/// # Parameters
/// [`CorrEstParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, the input delayed by the symbols' length,
///   with the tags
/// - `corr` (optional): `Complex32`, the correlation (not delayed)
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::digital::{CorrEst, CorrEstParams};
/// let c = CorrEst::new(CorrEstParams {
///     symbols: vec![Complex32::new(1.0, 0.0), Complex32::new(-1.0, 0.0)],
///     ..Default::default()
/// })?;
/// # let _ = c;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct CorrEst {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    corr_out: StreamOutput<Complex32>,
    params: CorrEstParams,
    /// Time-reversed conjugated symbols.
    taps: Vec<Complex32>,
    mark_delay: usize,
    threshold: f32,
    pfa: f32,
    block: usize,
    /// The last `taps.len()` input samples, then the current call's.
    hist: Vec<Complex32>,
    corr: Vec<Complex32>,
    mag: Vec<f32>,
}

impl CorrEst {
    /// A correlator with `params`.
    ///
    /// Errors: no symbols, a parameter out of range.
    pub fn new(params: CorrEstParams) -> Result<Self, ParamError> {
        params.validate()?;
        let taps: Vec<Complex32> = params.symbols.iter().rev().map(|s| s.conj()).collect();
        let n = taps.len();
        let energy: f32 = taps.iter().map(|s| (s * s.conj()).norm()).sum();
        let block = fft_block(n);
        Ok(Self {
            input: StreamInput::new("in").with_min_items(block),
            output: StreamOutput::new("out").with_min_items(block),
            corr_out: StreamOutput::optional("corr").with_min_items(block),
            mark_delay: (params.mark_delay as usize).min(n - 1),
            threshold: params.threshold as f32 * energy * energy,
            pfa: -(1.0 - params.threshold as f32).ln(),
            block,
            hist: vec![Complex32::new(0.0, 0.0); n],
            corr: Vec::new(),
            mag: Vec::new(),
            taps,
            params,
        })
    }

    /// Tags the peaks of the block of `n` items starting at output
    /// `base`; `delayed` is the block's output.
    fn detect(&mut self, n: usize, delayed: &[Complex32]) {
        let dynamic = self.params.threshold_method == ThresholdMethod::Dynamic;
        let mag = &self.mag;
        let at = |i: usize| mag.get(i).copied().unwrap_or(0.0);
        let mut thresh = self.threshold;
        if dynamic {
            let mean = mag.iter().sum::<f32>() / n as f32;
            thresh = 2.0 * (mean * self.pfa);
        }
        let isps = (self.params.sps as f32 + 0.5) as usize;
        // The first of the largest magnitudes (volk's index_max).
        let mut maxi = 0;
        for (k, v) in delayed.iter().enumerate() {
            if v.norm_sqr() > delayed[maxi].norm_sqr() {
                maxi = k;
            }
        }
        let amp = 1.0 / delayed.get(maxi).map_or(0.0, |v| v.norm());
        let mut i = 0;
        while i < n {
            let level = if dynamic {
                (at(i) + at(i + 1)) * 0.5
            } else {
                at(i)
            };
            if level <= thresh {
                i += 1;
                continue;
            }
            while i + 1 < n && at(i) < at(i + 1) {
                i += 1;
            }
            let peak = f64::from(at(i));
            self.output.add_tag(i, "corr_start", Pmt::F64(peak));
            let (a, b, c) = (
                f64::from(if i == 0 { 0.0 } else { at(i - 1) }),
                f64::from(at(i)),
                f64::from(at(i + 1)),
            );
            let center = (a + 2.0 * b + 3.0 * c) / (a + b + c) - 2.0;
            let phase = f64::from(self.corr[i].im.atan2(self.corr[i].re));
            let index = i + self.mark_delay;
            for (key, v) in [
                ("phase_est", phase),
                ("time_est", center),
                ("corr_est", peak),
                ("amp_est", f64::from(amp)),
            ] {
                self.output.add_tag(index, key, Pmt::F64(v));
                if self.corr_out.is_connected() {
                    self.corr_out.add_tag(i, key, Pmt::F64(v));
                }
            }
            i += isps;
        }
    }
}

impl Block for CorrEst {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .output(&mut self.corr_out)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let l = self.taps.len();
        let start = self.input.position();
        let mut n = self.input.slice().len().min(self.output.slice().len());
        if self.corr_out.is_connected() {
            n = n.min(self.corr_out.slice().len());
        }
        n -= n % self.block;
        if n == 0 {
            return Ok(());
        }
        let tags = self.input.tags();
        self.hist.extend_from_slice(&self.input.slice()[..n]);
        self.corr.clear();
        self.mag.clear();
        for k in 0..n {
            // hist[l + k] is input sample k; the taps run back from it.
            let window = &self.hist[k + 1..k + 1 + l];
            let c: Complex32 = self
                .taps
                .iter()
                .zip(window.iter().rev())
                .map(|(t, x)| t * x)
                .sum();
            self.corr.push(c);
            self.mag.push(c.norm_sqr());
        }
        let delayed: Vec<Complex32> = self.hist[..n].to_vec();
        self.detect(n, &delayed);
        self.output.slice()[..n].copy_from_slice(&delayed);
        if self.corr_out.is_connected() {
            self.corr_out.slice()[..n].copy_from_slice(&self.corr);
        }
        // GNU Radio delays the input's tags by the symbols' length.
        let out_pos = self.output.position();
        for t in tags {
            if t.index >= start && t.index < start + n as u64 {
                let off = (t.index + l as u64 - out_pos) as usize;
                self.output.add_tag(off, &t.key, t.value.clone());
                if self.corr_out.is_connected() {
                    self.corr_out.add_tag(off, &t.key, t.value.clone());
                }
            }
        }
        self.hist.drain(..n);
        self.input.consume(n);
        self.output.produce(n);
        if self.corr_out.is_connected() {
            self.corr_out.produce(n);
        }
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<CorrEstParams>(
        "corr_est",
        "Digital",
        "Correlates with known symbols, delays the input by them and tags the peaks.",
        |p| Ok(Box::new(CorrEst::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_corr_est_cc`: `corr_start` (|corr|²) at each peak above the \
         threshold, `phase_est`, `time_est` (centre of mass of the three magnitudes around \
         the peak, −2), `corr_est` and `amp_est` (1/max|x| of the block) `mark_delay` \
         samples later; the output is the input delayed by the symbols' length.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("delayed input, tagged"))
    .output(
        PortSpec::new("corr", PortItem::Fixed(ItemKind::C32))
            .optional()
            .doc("the correlation"),
    )
}
