//! `fft`: GNU Radio's `fft_vxx` on the `rfgraph-dsp` FFT, frames carried
//! flat on the stream, with GNU Radio's optional shift of the spectrum.

use super::dsp;
use num_complex::Complex32;
use rfgraph::Block;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::{Fft, FftDirection, Kernel, Ratio, Window};

/// An FFT over whole frames, with GNU Radio's `shift`: a forward
/// transform's output is rotated so that 0 Hz sits in the middle, a
/// reverse transform's input is rotated back first.
struct ShiftedFft {
    fft: Fft,
    shift: bool,
}

impl Kernel for ShiftedFft {
    type Input = Complex32;
    type Output = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let size = self.fft.size();
        if !self.shift {
            return self.fft.process(input, output);
        }
        let frames = (input.len() / size).min(output.len() / size);
        let n = frames * size;
        if n == 0 {
            return (0, 0);
        }
        output[..n].copy_from_slice(&input[..n]);
        let forward = self.fft.direction() == FftDirection::Forward;
        if !forward {
            // ifftshift: the middle bin goes first.
            output[..n]
                .chunks_exact_mut(size)
                .for_each(|f| f.rotate_left(size / 2));
        }
        // A whole number of frames: the transform cannot fail.
        if self.fft.transform(&mut output[..n]).is_err() {
            return (0, 0);
        }
        if forward {
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
            let window = match p.string("window")?.as_str() {
                "rectangular" => None,
                "hann" => Some(Window::Hann),
                "hamming" => Some(Window::Hamming),
                "blackman" => Some(Window::Blackman),
                "blackman_harris" => Some(Window::BlackmanHarris),
                _ => Some(Window::Kaiser {
                    beta: p.f64("beta")?,
                }),
            };
            let mut fft = Fft::new(size, direction).map_err(dsp(p))?;
            if let Some(w) = window {
                fft = fft.with_window(w).map_err(dsp(p))?;
            }
            let kernel = ShiftedFft {
                fft,
                shift: p.bool("shift")?,
            };
            Ok(Box::new(crate::DspBlock::new(kernel)) as Box<dyn Block>)
        },
    )
    .doc(
        "GNU Radio's `fft_vxx` for complex vectors: each frame of `size` items is \
         multiplied by the window and transformed (forward `Σ x[n] e^{−j2πkn/N}` or \
         reverse, unscaled, as GNU Radio). GNU Radio's vectors of `size` are carried as \
         a flat stream, `size` items at a time. With `shift`, a forward transform's \
         output has 0 Hz in the middle, and a reverse transform expects its input so.",
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
        ParamSpec::string("window")
            .default("blackman_harris")
            .choices(&[
                "rectangular",
                "hann",
                "hamming",
                "blackman",
                "blackman_harris",
                "kaiser",
            ])
            .doc("window applied to each frame (periodic)"),
    )
    .param(ParamSpec::float("beta").default(6.76).doc("Kaiser β"))
    .param(
        ParamSpec::bool("shift")
            .default(false)
            .doc("0 Hz in the middle of each frame"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
