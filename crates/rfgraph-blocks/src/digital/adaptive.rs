//! [`AdaptiveParams`]: GNU Radio's adaptive algorithms
//! (`digital.adaptive_algorithm_lms/nlms/cma(cons, step_size[, modulus])`,
//! GRC's `variable_adaptive_algorithm`) as the equalizers take them, and
//! [`Adaptive`], their error and tap-update arithmetic.

use super::constellation_params::ConstellationParams;
use num_complex::Complex32;
use rfgraph::ParamError;
use rfgraph_dsp::digital::Constellation;

/// Which adaptive algorithm (GNU Radio's `adaptive_algorithm_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum AlgorithmKind {
    /// Least mean squares: `w += μ·conj(x)·e`.
    #[choice(alias = "adaptive_algorithm_lms")]
    Lms,
    /// Normalised LMS: `μ` divided by the window's energy.
    #[choice(alias = "adaptive_algorithm_nlms")]
    Nlms,
    /// Constant modulus: `e = y·(|y|² − modulus)` clipped to ±1 per
    /// component, `w −= μ·conj(x)·e`.
    #[choice(alias = "adaptive_algorithm_cma")]
    Cma,
}

/// An adaptive algorithm: its kind, its constellation (whose decisions
/// make the decision-directed error), its step size and (CMA) modulus.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct AdaptiveParams {
    /// the algorithm: `lms`, `nlms` or `cma`
    #[param(default = AlgorithmKind::Lms, alias = "alg")]
    pub algorithm: AlgorithmKind,
    /// the constellation deciding the symbols
    #[param(flatten)]
    pub constellation: ConstellationParams,
    /// the step size μ
    #[param(default = 0.0001)]
    pub step_size: f64,
    /// the modulus of CMA
    #[param(default = 2.0)]
    pub modulus: f64,
}

/// The algorithm's arithmetic, in `f32` as GNU Radio's.
pub struct Adaptive {
    kind: AlgorithmKind,
    constellation: Constellation,
    step: f32,
    modulus: f32,
}

/// GNU Radio's `gr::clip(x, 1)`: `x` limited to ±1 (branch-free there).
fn clip1(x: f32) -> f32 {
    0.5 * ((x + 1.0).abs() - (x - 1.0).abs())
}

impl Adaptive {
    /// The algorithm of `params`.
    ///
    /// Errors: a constellation that does not build.
    pub fn new(params: &AdaptiveParams) -> Result<Self, ParamError> {
        Ok(Self {
            kind: params.algorithm,
            constellation: params.constellation.build()?,
            step: params.step_size as f32,
            modulus: params.modulus as f32,
        })
    }

    /// GNU Radio's `initialize_taps`: zeros, but CMA's first tap is 1.
    pub fn initial_taps(&self, n: usize) -> Vec<Complex32> {
        let mut t = vec![Complex32::new(0.0, 0.0); n];
        if self.kind == AlgorithmKind::Cma
            && let Some(first) = t.first_mut()
        {
            *first = Complex32::new(1.0, 0.0);
        }
        t
    }

    fn cma_error(&self, y: Complex32) -> Complex32 {
        let e = y * (y.norm_sqr() - self.modulus);
        Complex32::new(clip1(e.re), clip1(e.im))
    }

    /// The decision-directed error of output `y` and the decision (the
    /// constellation point GNU Radio's decision maker picks; CMA makes
    /// none and leaves it 0, as GNU Radio's does).
    pub fn error_dd(&self, y: Complex32) -> (Complex32, Complex32) {
        if self.kind == AlgorithmKind::Cma {
            return (self.cma_error(y), Complex32::new(0.0, 0.0));
        }
        let i = self.constellation.decide(y) as usize;
        let d = self
            .constellation
            .points()
            .get(i)
            .copied()
            .unwrap_or_default();
        (d - y, d)
    }

    /// The training error of output `y` against symbol `d`.
    pub fn error_tr(&self, y: Complex32, d: Complex32) -> Complex32 {
        match self.kind {
            AlgorithmKind::Cma => self.cma_error(y),
            _ => d - y,
        }
    }

    /// GNU Radio's `update_taps`: each tap `w[k]` moves by the step times
    /// `conj(x[k])·e` (NLMS: over the window's energy; CMA: against it).
    pub fn update(&self, taps: &mut [Complex32], x: &[Complex32], e: Complex32) {
        let mu = match self.kind {
            AlgorithmKind::Lms => self.step,
            AlgorithmKind::Cma => -self.step,
            AlgorithmKind::Nlms => {
                let energy: f32 = x.iter().take(taps.len()).map(|v| v.norm_sqr()).sum();
                self.step / energy
            }
        };
        let scaled = e * mu;
        for (w, v) in taps.iter_mut().zip(x) {
            *w += v.conj() * scaled;
        }
    }
}
