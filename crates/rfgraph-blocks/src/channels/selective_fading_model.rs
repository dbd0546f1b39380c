//! `selective_fading_model` (GNU Radio `channels_selective_fading_model`):
//! frequency-selective fading, a few independently fading rays at
//! fractional delays spread over an FIR filter.

use super::fader_params::FaderParams;
use super::flat_fader::{FlatFader, SinCosTable};
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, ParamSet};

/// The most rays of a power delay profile.
const MAX_RAYS: usize = 1024;
/// The longest filter.
const MAX_NTAPS: usize = 1 << 16;

/// The parameters of [`SelectiveFadingModel`] (`selective_fading_model`,
/// GNU Radio's `channels_selective_fading_model`). `max_doppler` and
/// `k_factor` may change while it runs, as GNU Radio's `set_fDTs` and
/// `set_K` allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SelectiveFadingModelParams {
    /// how each ray fades (`los` and `k_factor` concern the first ray)
    #[param(flatten)]
    pub fader: FaderParams,
    /// seed: ray `i` draws its phases from `seed + i` and its walk from
    /// `seed + i + 1`
    #[param(default = 0)]
    pub seed: i32,
    /// delay of each ray, in samples (fractional delays spread over
    /// neighbouring taps)
    #[param(default = vec![0.0, 0.1, 1.3], max_len = MAX_RAYS, unit = "samples")]
    pub delays: Vec<f32>,
    /// amplitude of each ray, one per delay
    #[param(default = vec![1.0, 0.99, 0.97], max_len = MAX_RAYS)]
    pub mags: Vec<f32>,
    /// length of the channel's FIR filter
    #[param(default = 8, min = 1, max = MAX_NTAPS)]
    pub ntaps: usize,
}

impl SelectiveFadingModelParams {
    fn check(&self) -> Result<(), ParamError> {
        let fail = |param: &'static str, reason: String| {
            Err(ParamError::new("selective_fading_model", param, reason))
        };
        if self.delays.is_empty() {
            return fail(
                "delays",
                "needs at least one ray (a delay and a magnitude)".into(),
            );
        }
        if self.mags.len() != self.delays.len() {
            return fail(
                "mags",
                format!(
                    "{} magnitudes for {} delays: they go in pairs",
                    self.mags.len(),
                    self.delays.len()
                ),
            );
        }
        Ok(())
    }
}

/// The arithmetic of [`SelectiveFadingModel`].
pub struct SelectiveFadingModelKernel {
    params: SelectiveFadingModelParams,
    faders: Vec<FlatFader>,
    /// Per ray, its weight on each tap: GNU Radio's table `sinc(π·(k −
    /// delay))` (1024 entries, no interpolation).
    weights: Vec<Vec<f32>>,
    /// The filter of the current sample.
    taps: Vec<Complex32>,
    /// The last `ntaps` inputs, twice over (`history[i]` and
    /// `history[i + ntaps]` alike), so that the window is one slice.
    history: Vec<Complex32>,
    /// Where the next input goes, in `0..ntaps`.
    pos: usize,
}

impl SelectiveFadingModelKernel {
    /// The next output for input `x`.
    #[inline]
    fn fade(&mut self, x: Complex32) -> Complex32 {
        let n = self.taps.len();
        self.taps.fill(Complex32::new(0.0, 0.0));
        for ((fader, weights), &mag) in self
            .faders
            .iter_mut()
            .zip(&self.weights)
            .zip(&self.params.mags)
        {
            let h = fader.next();
            for (tap, &w) in self.taps.iter_mut().zip(weights) {
                *tap += h * w * mag;
            }
        }
        self.history[self.pos] = x;
        self.history[self.pos + n] = x;
        // Oldest input first, against the last tap, as GNU Radio sums.
        let window = &self.history[self.pos + 1..self.pos + 1 + n];
        self.pos = (self.pos + 1) % n;
        let mut sum = Complex32::new(0.0, 0.0);
        for (&v, &t) in window.iter().zip(self.taps.iter().rev()) {
            sum += v * t;
        }
        sum
    }
}

impl FixedRateKernel for SelectiveFadingModelKernel {
    type In = Complex32;
    type Out = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.fade(x);
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [Complex32]) {
        for x in data {
            *x = self.fade(*x);
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        for fader in &mut self.faders {
            fader.update(self.params.fader.shape());
        }
        Ok(())
    }
}

/// The block [`selective_fading_model`] builds.
pub type SelectiveFadingModel = FixedRateBlock<SelectiveFadingModelKernel>;

/// Frequency-selective fading, GNU Radio's
/// `channels.selective_fading_model`, value for value: one flat fader
/// per ray of the power delay profile (`delays`, `mags`; see
/// [`fading_model`](super::fading_model), the first ray Rician with
/// `los`), each spread over an FIR filter of `ntaps` taps by GNU Radio's
/// table sinc at its delay, the filter made anew every sample and run
/// over the input (zeros before the first). GNU Radio's generators,
/// tables and float steps are reproduced, so a seed gives GNU Radio's
/// output to the bit. `max_doppler` and `k_factor` may change while it
/// runs.
///
/// # Parameters
/// [`SelectiveFadingModelParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`
///
/// # Message Inputs
/// - `max_doppler` (`fDTs`), `k_factor` (`K`)
///
/// # Usage
/// ```
/// use rfgraph_blocks::channels::{SelectiveFadingModelParams, selective_fading_model};
/// let multipath = selective_fading_model(SelectiveFadingModelParams {
///     delays: vec![0.0, 1.5],
///     mags: vec![1.0, 0.5],
///     seed: 3,
///     ..Default::default()
/// })?;
/// # let _ = multipath;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn selective_fading_model(
    params: SelectiveFadingModelParams,
) -> Result<SelectiveFadingModel, ParamError> {
    params.validate()?;
    let sinc = SinCosTable::new(1024);
    let n = params.ntaps;
    let faders = (0..params.delays.len())
        .map(|i| {
            let seed = (params.seed as u32).wrapping_add(i as u32);
            FlatFader::new(
                params.fader.sinusoids,
                params.fader.shape(),
                i == 0 && params.fader.los,
                seed,
            )
        })
        .collect();
    let weights = params
        .delays
        .iter()
        .map(|&delay| {
            (0..n)
                .map(|k| sinc.sinc((std::f64::consts::PI * (k as f32 - delay) as f64) as f32))
                .collect()
        })
        .collect();
    FixedRateBlock::new(SelectiveFadingModelKernel {
        faders,
        weights,
        taps: vec![Complex32::new(0.0, 0.0); n],
        history: vec![Complex32::new(0.0, 0.0); 2 * n],
        pos: 0,
        params,
    })
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SelectiveFadingModelParams>(
        "selective_fading_model",
        "Channels",
        "Frequency-selective fading: fading rays at fractional delays over an FIR filter.",
        |p| Ok(Box::new(selective_fading_model(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `channels_selective_fading_model`, value for value: one flat fader (as \
         `fading_model`) per ray of the power delay profile `delays`/`mags`, ray `i` seeded \
         with `seed + i`, the first Rician with `los`; each sample, tap `k` of an `ntaps`-tap \
         FIR filter is the sum over rays of `h · sinc(π(k − delay)) · mag` (GNU Radio's \
         1024-entry table sinc), and the output that filter over the input (zeros before \
         the first). `max_doppler` and `k_factor` may change while it runs (GNU Radio's \
         `set_fDTs`, `set_K`).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
