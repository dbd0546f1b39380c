//! FFT / IFFT over `rustfft` with plan caching. Owns the process-wide planner
//! (one cached plan per size and direction, shared by every [`Fft`]), the
//! per-instance scratch buffer, the optional window and output scaling. Never
//! allocates after construction.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use crate::window::Window;
use num_complex::Complex32;
use rustfft::FftPlanner;
use std::sync::{Arc, Mutex, OnceLock};

/// Transform direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FftDirection {
    /// `X[k] = Σ x[n] e^{-j2πkn/N}`.
    Forward,
    /// `x[n] = Σ X[k] e^{+j2πkn/N}` (unscaled unless
    /// [`Fft::with_scale`] is used).
    Inverse,
}

/// Largest supported transform size.
pub const MAX_FFT_SIZE: usize = 1 << 26;

fn plan(size: usize, direction: FftDirection) -> Arc<dyn rustfft::Fft<f32>> {
    static PLANNER: OnceLock<Mutex<FftPlanner<f32>>> = OnceLock::new();
    let planner = PLANNER.get_or_init(|| Mutex::new(FftPlanner::new()));
    // A panic while planning cannot leave the planner's cache half-written in a
    // way that matters to us, so a poisoned lock is still usable.
    let mut planner = planner.lock().unwrap_or_else(|e| e.into_inner());
    match direction {
        FftDirection::Forward => planner.plan_fft_forward(size),
        FftDirection::Inverse => planner.plan_fft_inverse(size),
    }
}

/// A fixed-size FFT with its own scratch, an optional window applied to each
/// input frame, and an optional output scale.
///
/// ```
/// use rfgraph_dsp::{Fft, FftDirection, Complex32};
/// let mut fft = Fft::new(4, FftDirection::Forward).unwrap();
/// let mut buf = [Complex32::new(1.0, 0.0); 4];
/// fft.transform(&mut buf).unwrap();
/// assert_eq!(buf[0], Complex32::new(4.0, 0.0));
/// ```
#[derive(Clone)]
pub struct Fft {
    size: usize,
    direction: FftDirection,
    plan: Arc<dyn rustfft::Fft<f32>>,
    scratch: Vec<Complex32>,
    window: Option<Vec<f32>>,
    scale: f32,
}

impl core::fmt::Debug for Fft {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Fft")
            .field("size", &self.size)
            .field("direction", &self.direction)
            .field("windowed", &self.window.is_some())
            .field("scale", &self.scale)
            .finish()
    }
}

impl Fft {
    /// A transform of `size` points (any size; powers of two are fastest).
    ///
    /// Errors: `size == 0` or above [`MAX_FFT_SIZE`].
    pub fn new(size: usize, direction: FftDirection) -> Result<Self, DspError> {
        if size == 0 || size > MAX_FFT_SIZE {
            return Err(DspError::OutOfRange {
                name: "size",
                value: size as f64,
                expected: "must be in 1..=2^26",
            });
        }
        let plan = plan(size, direction);
        let scratch = vec![Complex32::new(0.0, 0.0); plan.get_inplace_scratch_len()];
        Ok(Fft {
            size,
            direction,
            plan,
            scratch,
            window: None,
            scale: 1.0,
        })
    }

    /// Multiplies every input frame by `window` (periodic form) before the
    /// transform.
    ///
    /// Errors: invalid window parameters.
    pub fn with_window(mut self, window: Window) -> Result<Self, DspError> {
        self.window = Some(window.periodic(self.size)?);
        Ok(self)
    }

    /// Multiplies every output by `scale` (e.g. `1 / size` for a normalised
    /// inverse).
    ///
    /// Errors: non-finite scale.
    pub fn with_scale(mut self, scale: f32) -> Result<Self, DspError> {
        DspError::finite("scale", scale as f64)?;
        self.scale = scale;
        Ok(self)
    }

    /// Transform size.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Transform direction.
    pub fn direction(&self) -> FftDirection {
        self.direction
    }

    /// The window coefficients applied to input frames, if any.
    pub fn window(&self) -> Option<&[f32]> {
        self.window.as_deref()
    }

    /// Transforms `buf` in place; `buf.len()` must be a non-zero multiple of
    /// the size (each frame is transformed on its own).
    ///
    /// Errors: wrong length.
    pub fn transform(&mut self, buf: &mut [Complex32]) -> Result<(), DspError> {
        if buf.is_empty() || !buf.len().is_multiple_of(self.size) {
            return Err(DspError::InvalidSpec(format!(
                "FFT buffer of {} samples is not a multiple of the size {}",
                buf.len(),
                self.size
            )));
        }
        self.transform_frames(buf);
        Ok(())
    }

    /// `buf.len()` is a non-zero multiple of `size`.
    pub(crate) fn transform_frames(&mut self, buf: &mut [Complex32]) {
        if let Some(w) = &self.window {
            for frame in buf.chunks_exact_mut(self.size) {
                frame.iter_mut().zip(w).for_each(|(x, &w)| *x *= w);
            }
        }
        self.plan.process_with_scratch(buf, &mut self.scratch);
        if self.scale != 1.0 {
            let s = self.scale;
            buf.iter_mut().for_each(|x| *x *= s);
        }
    }

    /// Transforms as many whole frames as fit in both slices; returns
    /// `(consumed, produced)`, both a multiple of the size.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let frames = (input.len() / self.size).min(output.len() / self.size);
        let n = frames * self.size;
        if n == 0 {
            return (0, 0);
        }
        output[..n].copy_from_slice(&input[..n]);
        self.transform_frames(&mut output[..n]);
        (n, n)
    }
}

impl Kernel for Fft {
    type Input = Complex32;
    type Output = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        Fft::process(self, input, output)
    }

    fn min_input(&self) -> usize {
        self.size
    }

    fn min_output(&self) -> usize {
        self.size
    }

    /// An FFT has no state between frames.
    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {}
}
