//! `ChannelFilter`: the receiver's front end as one kernel, from the
//! input's samples to the demodulator's rate. Owns the chunked loop that
//! chains its steps through two scratch buffers allocated once: decoding
//! stored `cu8` bytes (when the input is bytes), the frequency-translating
//! first stage and the optional second decimator of the
//! [`ChannelPlan`](super::plan::ChannelPlan). The filters are
//! `rfgraph-dsp`'s; nothing here filters a sample itself.
//!
//! Fusing the steps keeps the 2.4 MS/s stream in L1 between them instead
//! of passing it through rings, and reading `cu8` bytes straight from the
//! file (a `FileSource<u8>` copies them into its ring untouched) saves the
//! 8-byte `Complex32` stream at the input rate altogether.

use super::error::FmError;
use super::plan::ChannelPlan;
use num_complex::Complex32;
use rfgraph_blocks::{SampleCodec, SampleFormat};
use rfgraph_dsp::{Ccf, DecimatingFir, DspError, FreqXlatingFir, Kernel, Ratio};

/// Input samples per inner step (bounds the scratch buffers).
const CHUNK: usize = 8192;

/// What the front end reads: complex samples, or `cu8` bytes (two per
/// sample).
pub trait ChannelInput: Copy + Send + 'static {
    /// Stream items per complex sample.
    const PER_SAMPLE: usize;
    /// Converts `items` (a whole number of samples) into `out`.
    fn to_complex(codec: &SampleCodec, items: &[Self], out: &mut [Complex32]);
}

impl ChannelInput for Complex32 {
    const PER_SAMPLE: usize = 1;
    fn to_complex(_: &SampleCodec, items: &[Self], out: &mut [Complex32]) {
        out.copy_from_slice(items);
    }
}

impl ChannelInput for u8 {
    const PER_SAMPLE: usize = 2;
    fn to_complex(codec: &SampleCodec, items: &[Self], out: &mut [Complex32]) {
        codec.decode(items, out);
    }
}

/// The channel filter: `I` samples (`Complex32`, or `u8` pairs of a
/// `cu8` recording, decoded as `FileSource` decodes them) at the input
/// rate in, the station at base band at the plan's `quad_rate` out.
///
/// ```
/// use num_complex::Complex32;
/// use rfgraph_dsp::Kernel;
/// use rfgraph_radio::fm::ChannelFilter;
/// use rfgraph_radio::fm::plan::ChannelPlan;
///
/// let plan = ChannelPlan::new(2.4e6, 300e3)?;
/// let mut bytes = ChannelFilter::<u8>::new(&plan)?;
/// let mut out = vec![Complex32::new(0.0, 0.0); 100];
/// // 2000 bytes: 1000 samples, 100 outputs after ÷10.
/// assert_eq!(bytes.process(&[128u8; 2000], &mut out), (2000, 100));
/// # Ok::<(), rfgraph_radio::fm::FmError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ChannelFilter<I: ChannelInput> {
    codec: SampleCodec,
    first: FreqXlatingFir<Ccf>,
    second: Option<DecimatingFir<Ccf>>,
    input_rate: f64,
    decoded: Vec<Complex32>,
    between: Vec<Complex32>,
    _input: core::marker::PhantomData<I>,
}

impl<I: ChannelInput> ChannelFilter<I> {
    /// The front end of `plan`.
    ///
    /// Errors: taps the filters refuse (a plan from
    /// [`ChannelPlan::new`] has none).
    pub fn new(plan: &ChannelPlan) -> Result<Self, FmError> {
        let first =
            FreqXlatingFir::<Ccf>::new(&plan.first.taps, plan.first.decimation, plan.center())?;
        let second = match &plan.second {
            Some(s) => Some(DecimatingFir::<Ccf>::new(&s.taps, s.decimation)?),
            None => None,
        };
        let between = CHUNK / plan.first.decimation + 1;
        Ok(ChannelFilter {
            codec: SampleCodec::new(SampleFormat::CU8),
            first,
            second,
            input_rate: plan.input_rate,
            decoded: vec![Complex32::new(0.0, 0.0); CHUNK],
            between: vec![Complex32::new(0.0, 0.0); between],
            _input: core::marker::PhantomData,
        })
    }

    /// Retunes to a station `hz` from the input's centre,
    /// phase-continuously.
    ///
    /// Errors: a non-finite frequency (unchanged).
    pub fn set_offset(&mut self, hz: f64) -> Result<(), DspError> {
        self.first.set_center(hz / self.input_rate)
    }

    /// The total decimation.
    pub fn decimation(&self) -> usize {
        self.first.decimation() * self.second.as_ref().map_or(1, |s| s.decimation())
    }
}

impl<I: ChannelInput> Kernel for ChannelFilter<I> {
    type Input = I;
    type Output = Complex32;

    fn process(&mut self, input: &[I], output: &mut [Complex32]) -> (usize, usize) {
        let (mut consumed, mut produced) = (0usize, 0usize);
        let d = self.decimation();
        loop {
            let samples = (input.len() - consumed) / I::PER_SAMPLE;
            let room = output.len() - produced;
            // As many samples as can produce outputs that fit (a whole
            // decimation's worth more only when the phase allows; the
            // filters stop where they must, and what they leave is given
            // again next time).
            let n = samples.min(CHUNK).min(room.saturating_mul(d));
            if n == 0 {
                break;
            }
            let items = &input[consumed..consumed + n * I::PER_SAMPLE];
            I::to_complex(&self.codec, items, &mut self.decoded[..n]);
            let (used, made) = match &mut self.second {
                None => self
                    .first
                    .process(&self.decoded[..n], &mut output[produced..]),
                Some(second) => {
                    // Only as much of the first stage as the second can
                    // take, so that neither holds samples back.
                    let d2 = second.decimation();
                    let mid_room = (room * d2).min(self.between.len());
                    let (used, mid) = self
                        .first
                        .process(&self.decoded[..n], &mut self.between[..mid_room]);
                    let (taken, made) =
                        second.process(&self.between[..mid], &mut output[produced..]);
                    debug_assert_eq!(taken, mid, "the second stage left samples");
                    (used, made)
                }
            };
            consumed += used * I::PER_SAMPLE;
            produced += made;
            if used == 0 {
                break;
            }
        }
        (consumed, produced)
    }

    fn min_input(&self) -> usize {
        self.decimation() * I::PER_SAMPLE
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(1, (self.decimation() * I::PER_SAMPLE) as u64)
    }

    fn reset(&mut self) {
        self.first.reset();
        if let Some(s) = &mut self.second {
            s.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(n: usize) -> Vec<u8> {
        let mut state = 12345u32;
        (0..2 * n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 24) as u8
            })
            .collect()
    }

    /// Runs `k` over `input` in calls of the given sizes, with output room
    /// `room` each time.
    fn split<I: ChannelInput>(
        k: &mut ChannelFilter<I>,
        input: &[I],
        sizes: &[usize],
        room: usize,
    ) -> Vec<Complex32> {
        let mut out = Vec::new();
        let mut buf = vec![Complex32::new(0.0, 0.0); room];
        let mut at = 0;
        for len in sizes.iter().cycle() {
            let end = (at + len).min(input.len());
            let (c, p) = k.process(&input[at..end], &mut buf);
            out.extend_from_slice(&buf[..p]);
            at += c;
            if c == 0 && end == input.len() {
                break;
            }
        }
        out
    }

    #[test]
    fn bytes_and_samples_agree_however_split() {
        for rate in [2.4e6, 1e6, 240e3] {
            let plan = ChannelPlan::new(rate, 0.05 * rate).unwrap();
            let raw = bytes(50_000);
            let mut samples = vec![Complex32::new(0.0, 0.0); 50_000];
            SampleCodec::new(SampleFormat::CU8).decode(&raw, &mut samples);
            let whole = split(
                &mut ChannelFilter::<Complex32>::new(&plan).unwrap(),
                &samples,
                &[50_000],
                50_000,
            );
            assert_eq!(whole.len(), 50_000 / plan.decimation);
            let from_bytes = split(
                &mut ChannelFilter::<u8>::new(&plan).unwrap(),
                &raw,
                &[2, 7_777, 20_000, 64],
                333,
            );
            assert!(whole == from_bytes, "{rate}: bytes differ from samples");
            let odd = split(
                &mut ChannelFilter::<Complex32>::new(&plan).unwrap(),
                &samples,
                &[1, 9, 13_000, 10],
                7,
            );
            assert!(whole == odd, "{rate}: the split changed the output");
        }
    }
}
