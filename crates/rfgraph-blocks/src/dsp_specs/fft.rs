//! `fft`: GNU Radio's `fft_vxx` on the `rfgraph-dsp` FFT, frames carried
//! flat on the stream, with GNU Radio's windows and optional shift of the
//! spectrum.

use super::{WINDOWS, win_type};
use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::params::{ParamType, ParamValue, PmtTypeError, limits};
use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
use rfgraph::{Block, ParamError, Pmt};
use rfgraph_dsp::firdes;
use rfgraph_dsp::{Fft, FftDirection, Kernel, Ratio};

/// GNU Radio's `fft_vcc` over whole frames: each frame times the window,
/// then with `shift` a reverse transform's input is rotated so that its
/// middle bin comes first, the transform, and a forward transform's output
/// rotated so that 0 Hz sits in the middle.
struct GrFft {
    fft: Fft,
    window: Option<Vec<f32>>,
    shift: bool,
}

impl Kernel for GrFft {
    type Input = Complex32;
    type Output = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let size = self.fft.size();
        let frames = (input.len() / size).min(output.len() / size);
        let n = frames * size;
        if n == 0 {
            return (0, 0);
        }
        let forward = self.fft.direction() == FftDirection::Forward;
        for (o, i) in output[..n]
            .chunks_exact_mut(size)
            .zip(input[..n].chunks_exact(size))
        {
            match &self.window {
                Some(w) => o
                    .iter_mut()
                    .zip(i.iter().zip(w))
                    .for_each(|(o, (&x, &w))| *o = x * w),
                None => o.copy_from_slice(i),
            }
            if self.shift && !forward {
                // ifftshift: the middle bin goes first.
                o.rotate_left(size / 2);
            }
        }
        // A whole number of frames: the transform cannot fail.
        if self.fft.transform(&mut output[..n]).is_err() {
            return (0, 0);
        }
        if self.shift && forward {
            // fftshift: 0 Hz to the middle.
            output[..n]
                .chunks_exact_mut(size)
                .for_each(|f| f.rotate_left(size.div_ceil(2)));
        }
        (n, n)
    }

    fn min_input(&self) -> usize {
        self.fft.size()
    }

    fn min_output(&self) -> usize {
        self.fft.size()
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {}
}

/// The window of `fft`: a name among GNU Radio's windows, or the
/// coefficients themselves (GNU Radio's own form,
/// `window.blackmanharris(1024)`; empty for none).
#[derive(Clone, Debug, PartialEq)]
pub enum FftWindow {
    /// A window by name (`hann`, `blackman_harris`, ...), with `beta` as
    /// its parameter.
    Named(String),
    /// `size` coefficients, or none.
    Coefficients(Vec<f32>),
}

impl FftWindow {
    /// The window called `name`.
    pub fn named(name: &str) -> Self {
        FftWindow::Named(name.to_string())
    }
}

impl ParamValue for FftWindow {
    const TYPE: ParamType = ParamType::Any;

    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        match pmt {
            Pmt::String(name) => Ok(FftWindow::Named(name)),
            other => Vec::<f32>::from_pmt(other).map(FftWindow::Coefficients),
        }
    }

    fn to_pmt(&self) -> Pmt {
        match self {
            FftWindow::Named(name) => Pmt::String(name.clone()),
            FftWindow::Coefficients(c) => Pmt::VecF32(c.clone()),
        }
    }

    fn choices() -> Vec<&'static str> {
        WINDOWS.to_vec()
    }
}

/// The parameters of `fft`, GNU Radio's `fft_vxx` for complex vectors.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FftParams {
    /// frame (vector) length
    #[param(default = 1024, min = 1, max = limits::MAX_FFT, alias = "fft_size")]
    pub size: usize,
    /// forward transform; reverse when false
    #[param(default = true)]
    pub forward: bool,
    /// window applied to each frame: a name, or `size` coefficients (empty: none)
    #[param(default = FftWindow::named("blackman_harris"))]
    pub window: FftWindow,
    /// window parameter: Kaiser β, exponential decay, Gaussian σ, Tukey α
    #[param(default = firdes::DEFAULT_PARAM)]
    pub beta: f64,
    /// 0 Hz in the middle of each frame
    #[param(default = false)]
    pub shift: bool,
}

impl FftParams {
    /// The window's coefficients (`None` for none).
    fn coefficients(&self) -> Result<Option<Vec<f32>>, ParamError> {
        let invalid = |param, reason: String| ParamError::new("fft", param, reason);
        match &self.window {
            FftWindow::Named(name) if name.trim().eq_ignore_ascii_case("rectangular") => Ok(None),
            FftWindow::Named(name) => {
                let win = win_type(name.trim()).ok_or_else(|| {
                    invalid(
                        "window",
                        format!("`{name}` is not one of {}", WINDOWS.join(", ")),
                    )
                })?;
                let w = firdes::window(win, self.size, self.beta)
                    .map_err(|e| invalid("beta", e.to_string()))?;
                if w.iter().any(|c| !c.is_finite()) {
                    return Err(invalid(
                        "beta",
                        format!("{} gives a `{name}` window that is not finite", self.beta),
                    ));
                }
                Ok(Some(w))
            }
            FftWindow::Coefficients(c) if c.is_empty() => Ok(None),
            FftWindow::Coefficients(c) if c.len() != self.size => Err(invalid(
                "window",
                format!("has {} coefficients for frames of {}", c.len(), self.size),
            )),
            FftWindow::Coefficients(c) => match c.iter().position(|v| !v.is_finite()) {
                Some(i) => Err(invalid("window", format!("coefficient {i} is not finite"))),
                None => Ok(Some(c.clone())),
            },
        }
    }

    /// The window must be one the transform can use.
    fn check(&self) -> Result<(), ParamError> {
        self.coefficients().map(drop)
    }
}

/// The registry entry: `fft`.
pub(crate) fn fft_spec() -> BlockSpec {
    BlockSpec::of::<FftParams>(
        "fft",
        "Fourier Analysis",
        "Windowed FFT of consecutive frames of `size` items.",
        |p| {
            let direction = if p.forward {
                FftDirection::Forward
            } else {
                FftDirection::Inverse
            };
            let kernel = GrFft {
                fft: Fft::new(p.size, direction)?,
                window: p.coefficients()?,
                shift: p.shift,
            };
            Ok(Box::new(DspBlock::with_params(kernel, p)) as Box<dyn Block>)
        },
    )
    .doc(
        "GNU Radio's `fft_vxx` for complex vectors: each frame of `size` items is \
         multiplied by the window (GNU Radio's `window.*` of `size` points) and \
         transformed (forward `Σ x[n] e^{−j2πkn/N}` or reverse, unscaled, as GNU Radio). \
         GNU Radio's vectors of `size` are carried as a flat stream, `size` items at a \
         time. With `shift`, a forward transform's output has 0 Hz in the middle, and a \
         reverse transform expects its input so.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
