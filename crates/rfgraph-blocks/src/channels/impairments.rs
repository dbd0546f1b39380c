//! `impairments` (GNU Radio `channels_impairments`): a radio front end's
//! frequency offset, phase noise, third- and second-order distortion, IQ
//! imbalance and DC offsets, in GNU Radio's order.

use super::fxpt::FxptNco;
use crate::generate::gr_random::GrRandom;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, ParamSet};

/// The weight of the phase noise's single-pole low-pass (GNU Radio's
/// `phase_noise_gen(…, .01)`).
const PHASE_NOISE_ALPHA: f64 = 0.01;

/// The parameters of [`Impairments`] (`impairments`, GNU Radio's
/// `channels_impairments`). All but the seed may change while it runs,
/// as GNU Radio's setters allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct ImpairmentsParams {
    /// standard deviation of the phase noise before its low-pass, in dB
    /// of a radian: 0 is 1 rad (filtered to about 0.07 rad), GNU Radio's
    /// default; −1000 or less leaves none (the amplitude rounds to 0)
    #[param(default = 0.0, unit = "dB", settable)]
    pub phase_noise_mag: f64,
    /// gain of I relative to Q (IQ magnitude imbalance)
    #[param(default = 0.0, unit = "dB", settable)]
    pub magbal: f64,
    /// part of I leaking into Q (IQ phase imbalance)
    #[param(default = 0.0, unit = "degrees", settable)]
    pub phasebal: f64,
    /// DC offset added to Q
    #[param(default = 0.0, settable)]
    pub q_ofs: f64,
    /// DC offset added to I
    #[param(default = 0.0, settable)]
    pub i_ofs: f64,
    /// carrier offset, taken out before the distortions and put back
    /// after them; phase-continuous when it changes
    #[param(default = 0.0, unit = "cycles/sample", alias = "freq_offset", settable)]
    pub frequency_offset: f64,
    /// second-order distortion: `x + γ·(x² + |x|²)`
    #[param(default = 0.0, settable)]
    pub gamma: f64,
    /// third-order distortion: `x + β·x·|x|²`
    #[param(default = 0.0, settable)]
    pub beta: f64,
    /// phase-noise seed (GNU Radio's block always uses 42)
    #[param(default = 42)]
    pub seed: u64,
}

/// The constants GNU Radio's hier block derives from the parameters,
/// each computed in `double` and stored as its blocks store it.
#[derive(Clone, Copy, Debug)]
struct Constants {
    noise_amplitude: f32,
    magnitude: f32,
    sin_phase: f32,
    cos_phase: f32,
    dc: Complex32,
    gamma: Complex32,
    beta: Complex32,
}

impl Constants {
    fn of(p: &ImpairmentsParams) -> Self {
        let phase = p.phasebal * std::f64::consts::PI / 180.0;
        Self {
            noise_amplitude: 10f64.powf(p.phase_noise_mag / 20.0) as f32,
            magnitude: 10f64.powf(p.magbal / 20.0) as f32,
            sin_phase: phase.sin() as f32,
            cos_phase: phase.cos() as f32,
            dc: Complex32::new(p.i_ofs as f32, p.q_ofs as f32),
            gamma: Complex32::new(p.gamma as f32, 0.0),
            beta: Complex32::new(p.beta as f32, 0.0),
        }
    }
}

/// The arithmetic of [`Impairments`].
pub struct ImpairmentsKernel {
    params: ImpairmentsParams,
    k: Constants,
    oscillator: FxptNco,
    noise: GrRandom,
    /// The low-passed phase noise, in radians.
    phase: f32,
}

impl ImpairmentsKernel {
    /// One sample through GNU Radio's chain, each step rounded to `f32`
    /// where GNU Radio's blocks store their outputs.
    #[inline]
    fn impair(&mut self, x: Complex32) -> Complex32 {
        let k = self.k;
        let o = self.oscillator.next();
        let x = o.conj() * x;
        // Phase noise: Gaussian, low-passed, as a rotation.
        let n = k.noise_amplitude * self.noise.gasdev();
        self.phase =
            (PHASE_NOISE_ALPHA * n as f64 + (1.0 - PHASE_NOISE_ALPHA) * self.phase as f64) as f32;
        let x = x * Complex32::new(self.phase.cos(), self.phase.sin());
        // Third order, then second order.
        let x = x + x * Complex32::new(x.norm_sqr(), 0.0) * k.beta;
        let x = x + (x * x + x * x.conj()) * k.gamma;
        // IQ imbalance (GNU Radio's transmitter model).
        let i = x.re * k.magnitude;
        let x = Complex32::new(i * k.cos_phase, i * k.sin_phase + x.im);
        o * (x + k.dc)
    }
}

impl FixedRateKernel for ImpairmentsKernel {
    type In = Complex32;
    type Out = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.impair(x);
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [Complex32]) {
        for x in data {
            *x = self.impair(*x);
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        // Everything follows from the parameters; the oscillator keeps
        // its phase and the phase noise its state.
        self.k = Constants::of(&self.params);
        self.oscillator.set_frequency(self.params.frequency_offset);
        Ok(())
    }
}

/// The block [`impairments`] builds.
pub type Impairments = FixedRateBlock<ImpairmentsKernel>;

/// Radio hardware impairments, GNU Radio's `channels.impairments` hier
/// block, value for value: the input is rotated by `−frequency_offset`
/// (GNU Radio's fixed-point `sig_source_c`, reproduced to the bit), then
/// phase noise (Gaussian of `10^(phase_noise_mag/20)` rad, low-passed
/// with weight 0.01, as a rotation), third-order distortion
/// `x + β·x·|x|²`, second-order `x + γ·(x² + x·x*)`, IQ imbalance (I
/// times `10^(magbal/20)`, its `sin(phasebal)` part added to Q, Q's
/// share `cos(phasebal)`), the DC offsets `i_ofs + j·q_ofs`, and the
/// rotation back. The phase noise is GNU Radio's own: its `gr::random`
/// (xoroshiro128+ and the polar Gaussian method) is reproduced bit for
/// bit with its fixed seed 42 (`seed` may pick another). Every parameter
/// but the seed may change while it runs.
///
/// # Parameters
/// [`ImpairmentsParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`
///
/// # Message Inputs
/// - one per parameter but `seed`, named after it
///
/// # Usage
/// ```
/// use rfgraph_blocks::channels::{ImpairmentsParams, impairments};
/// let front_end = impairments(ImpairmentsParams {
///     phase_noise_mag: -30.0,
///     magbal: 0.5,
///     i_ofs: 0.01,
///     ..Default::default()
/// })?;
/// # let _ = front_end;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn impairments(params: ImpairmentsParams) -> Result<Impairments, ParamError> {
    params.validate()?;
    FixedRateBlock::new(ImpairmentsKernel {
        k: Constants::of(&params),
        oscillator: FxptNco::new(params.frequency_offset),
        noise: GrRandom::new(params.seed),
        phase: 0.0,
        params,
    })
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ImpairmentsParams>(
        "impairments",
        "Channels",
        "Front-end impairments: frequency offset, phase noise, distortion, IQ imbalance, DC.",
        |p| Ok(Box::new(impairments(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `channels_impairments`, value for value: rotation by −`frequency_offset` \
         (GNU Radio's fixed-point oscillator), phase noise (Gaussian of \
         10^(`phase_noise_mag`/20) rad through a single-pole low-pass of weight 0.01), \
         `x + β·x·|x|²`, `x + γ·(x² + x·x*)`, IQ imbalance (transmitter model: I times \
         10^(`magbal`/20); Q = Q + I·sin(`phasebal`), I = I·cos(`phasebal`)), plus \
         `i_ofs + j·q_ofs`, and the rotation back. The phase noise is GNU Radio's own \
         generator and seed (42), reproduced bit for bit; `seed` may pick another. All but \
         `seed` may change while it runs, as with GNU Radio's setters.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
