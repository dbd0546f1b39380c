//! `gmsk_mod`: GNU Radio's `digital.gmsk_mod` (GRC `digital_gmsk_mod`),
//! the hierarchical modulator run as one block owning its stages: bytes →
//! MSB-first bits (when unpacking) → NRZ ±1 → interpolating Gaussian
//! filter (a Gaussian of `4·sps` taps convolved with `sps` ones) →
//! frequency modulator of sensitivity `π/2/sps`.

use super::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use rfgraph_dsp::analog::FrequencyModulator;
use rfgraph_dsp::filter::InterpolatingFirFff;

/// The parameters of `gmsk_mod`, GNU Radio's `digital.gmsk_mod`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct GmskModParams {
    /// samples per symbol
    #[param(default = 2, min = 2, max = limits::MAX_FACTOR, alias = "sps")]
    pub samples_per_symbol: usize,
    /// Gaussian filter bandwidth × symbol time
    #[param(default = 0.35, above = 0.0)]
    pub bt: f64,
    /// GNU Radio prints its settings; ignored
    #[param(default = false)]
    pub verbose: bool,
    /// GNU Radio logs its stages to files; ignored
    #[param(default = false)]
    pub log: bool,
    /// input bytes are packed (unpacked MSB first); otherwise one bit per
    /// byte (its lowest bit)
    #[param(default = true)]
    pub do_unpack: bool,
}

impl GmskModParams {
    /// gmsk_mod's pulse: `gaussian(1, sps, bt, 4·sps)` convolved with
    /// `sps` ones (in `f64`, as numpy does).
    fn taps(&self) -> Result<Vec<f32>, ParamError> {
        let sps = self.samples_per_symbol;
        let g = rfgraph_dsp::firdes::gaussian(1.0, sps as f64, self.bt, 4 * sps)
            .map_err(dsp_error("gmsk_mod", "bt", &[]))?;
        let mut taps = vec![0.0f64; g.len() + sps - 1];
        for (i, &t) in g.iter().enumerate() {
            for o in &mut taps[i..i + sps] {
                *o += t as f64;
            }
        }
        Ok(taps.into_iter().map(|t| t as f32).collect())
    }

    fn check(&self) -> Result<(), ParamError> {
        self.taps().map(drop)
    }
}

/// Modulates bits onto GMSK exactly as GNU Radio's `gmsk_mod`: each bit
/// (of packed bytes, MSB first, when `do_unpack`) becomes ±1, is
/// interpolated `sps` times through a Gaussian pulse `gaussian(1, sps, bt,
/// 4·sps)` convolved with `sps` ones, and steers a frequency modulator of
/// sensitivity `π/2/sps`.
///
/// # Parameters
/// [`GmskModParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, packed bytes (or one bit per byte)
///
/// # Stream Outputs
/// - `out`: `Complex32`, `samples_per_symbol` per bit
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{GmskMod, GmskModParams};
/// let m = GmskMod::new(GmskModParams::default())?;
/// # let _ = m;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct GmskMod {
    input: StreamInput<u8>,
    output: StreamOutput<Complex32>,
    params: GmskModParams,
    fir: InterpolatingFirFff,
    fm: FrequencyModulator,
    nrz: Vec<f32>,
    shaped: Vec<f32>,
    per_byte: usize,
}

impl GmskMod {
    /// A modulator with `params`.
    ///
    /// Errors: a parameter out of its range, a pulse that cannot be
    /// designed.
    pub fn new(params: GmskModParams) -> Result<Self, ParamError> {
        params.validate()?;
        let sps = params.samples_per_symbol;
        let taps = params.taps()?;
        let fir = InterpolatingFirFff::new(&taps, sps).map_err(dsp_error(
            "gmsk_mod",
            "samples_per_symbol",
            &[],
        ))?;
        let fm = FrequencyModulator::new(std::f32::consts::FRAC_PI_2 / sps as f32)
            .map_err(dsp_error("gmsk_mod", "samples_per_symbol", &[]))?;
        let per_byte = if params.do_unpack { 8 * sps } else { sps };
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out").with_min_items(per_byte),
            fir,
            fm,
            nrz: Vec::new(),
            shaped: Vec::new(),
            per_byte,
            params,
        })
    }
}

impl Block for GmskMod {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        use rfgraph_dsp::Kernel;
        let input = self.input.slice();
        let out = self.output.slice();
        let n = input.len().min(out.len() / self.per_byte).min(4096);
        if n == 0 {
            return Ok(());
        }
        let nrz = |b: u8| if b & 1 == 1 { 1.0f32 } else { -1.0 };
        self.nrz.clear();
        for &byte in &input[..n] {
            if self.params.do_unpack {
                self.nrz.extend((0..8).rev().map(|k| nrz(byte >> k)));
            } else {
                self.nrz.push(nrz(byte));
            }
        }
        let sps = self.params.samples_per_symbol;
        self.shaped.resize(self.nrz.len() * sps, 0.0);
        let (used, k) = self.fir.process(&self.nrz, &mut self.shaped);
        debug_assert_eq!((used, k), (self.nrz.len(), self.shaped.len()));
        let (_, produced) = self.fm.process(&self.shaped[..k], &mut out[..k]);
        self.input.consume(n);
        self.output.produce(produced);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: self.per_byte as u64,
            decimation: 1,
        }
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<GmskModParams>(
        "gmsk_mod",
        "Digital",
        "Modulates bits onto GMSK, as GNU Radio's gmsk_mod.",
        |p| Ok(Box::new(GmskMod::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital.gmsk_mod`: bits (packed bytes unpacked MSB first when \
         `do_unpack`) → NRZ ±1 → interpolating FIR of gaussian(1, sps, bt, 4·sps) convolved \
         with sps ones → frequency modulator of sensitivity π/2/sps. `verbose` and `log` \
         are accepted and ignored.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)).doc("packed bytes"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
