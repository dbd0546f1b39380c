//! `fft`: GNU Radio's `fft_vxx` on the `rfgraph-dsp` FFT, frames carried
//! flat on the stream, with GNU Radio's windows and optional shift of the
//! spectrum.

use super::{WINDOWS, beta_param, dsp, win_type};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{Block, Pmt};
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

/// The registry entry: `fft`.
pub(crate) fn fft_spec() -> BlockSpec {
    BlockSpec::new(
        "fft",
        "Fourier Analysis",
        "Windowed FFT of consecutive frames of `size` items.",
        |p| {
            let size = p.usize("size")?;
            let direction = if p.bool("forward")? {
                FftDirection::Forward
            } else {
                FftDirection::Inverse
            };
            let window = match p.raw("window")? {
                Pmt::String(name) if name == "rectangular" => None,
                Pmt::String(_) => {
                    Some(firdes::window(win_type(p)?, size, p.f64("beta")?).map_err(dsp(p))?)
                }
                // GNU Radio's own form: the coefficients (`window.blackmanharris(1024)`).
                _ => {
                    let taps: Vec<f32> = p.get("window")?;
                    match taps.len() {
                        0 => None,
                        n if n == size => Some(taps),
                        n => {
                            return Err(p.invalid(
                                "window",
                                format!("has {n} coefficients for frames of {size}"),
                            ));
                        }
                    }
                }
            };
            let kernel = GrFft {
                fft: Fft::new(size, direction).map_err(dsp(p))?,
                window,
                shift: p.bool("shift")?,
            };
            Ok(Box::new(crate::DspBlock::new(kernel)) as Box<dyn Block>)
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
    .param(
        ParamSpec::uint("size")
            .default(1024u64)
            .doc("frame (vector) length"),
    )
    .param(
        ParamSpec::bool("forward")
            .default(true)
            .doc("forward transform; reverse when false"),
    )
    .param(
        ParamSpec::any("window")
            .default("blackman_harris")
            .choices(&WINDOWS)
            .doc("window applied to each frame: a name, or `size` coefficients (empty: none)"),
    )
    .param(beta_param())
    .param(
        ParamSpec::bool("shift")
            .default(false)
            .doc("0 Hz in the middle of each frame"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
