//! [`BercurveGeneratorParams`]: the parameters of `bercurve_generator`
//! (GNU Radio's `fec_bercurve_generator`) and their rules.

use crate::fec::FecCodeParams;
use rfgraph::{ParamError, ParamSet};

/// Most Es/N0 points of one generator.
pub const MAX_POINTS: usize = 64;

/// The parameters of `bercurve_generator`. GNU Radio takes a list of
/// encoder and one of decoder objects, one of each per point, all alike
/// (the definitions' parallelism); here one code, the encoder's and the
/// decoder's settings together, serves every point. Its `threadtype`
/// does not apply (rfgraph schedules the block itself).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct BercurveGeneratorParams {
    /// the code of every point
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// the points' Es/N0 in dB: the noise of point `i` has standard
    /// deviation `√(10^(−esno[i]/10) / 2)` on symbols ±1 (floats: GNU
    /// Radio's doubles differ below 10⁻⁷ dB)
    #[param(default = vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5], max_len = MAX_POINTS)]
    pub esno: Vec<f32>,
    /// output streams, two a point (GNU Radio's `len(esno) * 2`)
    #[param(default = 16, max = 2 * MAX_POINTS)]
    pub outputs: usize,
    /// GNU Radio's throttle rate, which its generator stores and does
    /// not use; neither does this one
    #[param(default = 3_200_000.0)]
    pub samp_rate: f64,
    /// the encoder's puncturing pattern (`11`: none), as
    /// `extended_encoder` and `extended_decoder` take it
    #[param(default = "11", max_len = 31)]
    pub puncpat: String,
    /// the noise seed of every point (GNU Radio's `noise_source_f`
    /// seed; a negative one counts from 2⁶⁴ as GNU Radio's does)
    #[param(default = 0, min = i64::MIN, max = i64::MAX)]
    pub seed: i64,
    /// stop after each point sent this many bytes (endless when not
    /// set, as GNU Radio's)
    #[param(unit = "items")]
    pub items: Option<u64>,
}

impl BercurveGeneratorParams {
    fn check(&self) -> Result<(), ParamError> {
        let block = "bercurve_generator";
        if self.outputs != 2 * self.esno.len() {
            return Err(ParamError::new(
                block,
                "outputs",
                format!(
                    "must be twice the {} Es/N0 points (a decoded and a sent stream each), not {}",
                    self.esno.len(),
                    self.outputs
                ),
            ));
        }
        if let Some(x) = self.esno.iter().find(|x| !x.is_finite()) {
            return Err(ParamError::new(
                block,
                "esno",
                format!("must be finite dB values, not {x}"),
            ));
        }
        self.fec.check_encoder(block)?;
        crate::fec::extended_decoder::check_extended(block, &self.fec, &self.puncpat, "None")
            .map(drop)
    }
}
