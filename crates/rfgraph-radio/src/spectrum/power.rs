//! [`PowerSpectrum`]: windowed FFT frames of complex samples as linear
//! power per bin, fftshifted, labelled with their centre frequency and
//! span.
//!
//! This block owns the scaling ([`Scaling`]) and placing the frame tags;
//! the FFT and the windows are `rfgraph-dsp`'s. It never averages or
//! converts to dB (that is [`Average`](super::Average)'s).

use super::error::SpectrumError;
use super::frame::{FRAME_SAMPLES, FrameMeta, MAX_SIZE, tags_in};
use num_complex::Complex32;
use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};
use rfgraph_dsp::{Fft, FftDirection, Window};

/// What a bin's power is normalised to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scaling {
    /// Power spectral density in full-scale² per Hz: white noise of power
    /// `P` (full scale = 1) over the sample rate `fs` reads `P / fs` in
    /// every bin, whatever the window (`|X|² / (fs · Σw²)`; `fs = 1`, i.e.
    /// per cycle per sample, while no rate is known). In dB: dBFS/Hz.
    Density,
    /// Power of a tone on a bin: a complex tone `A e^{jωn}` reads `A²`
    /// whatever the window (`|X|² / (Σw)²`), as scipy's
    /// `scaling='spectrum'`. In dB: dBFS.
    Spectrum,
}

/// Windowed FFT frames of complex samples as linear power per bin.
///
/// Every `size` consecutive input samples (from the first, without
/// overlap) make one frame of `size` `f32` bins, fftshifted: bin `size/2`
/// is the centre frequency, bin 0 the most negative frequency
/// (`-rate/2`). The power is linear, scaled as [`Scaling`] says; a
/// remainder shorter than a frame at the end is dropped.
///
/// Frames are labelled with tags on their first bin (see the
/// [`spectrum`](super) module): `core:frequency` and `core:sample_rate`
/// of the input (from its tags, or the defaults given here) and
/// `rfgraph:frame_samples` (= `size`), on the first frame and whenever one
/// of them changes. Other input tags move to the first bin of the frame
/// holding their sample.
///
/// # Stream Inputs
/// - `in`: `Complex32` samples.
///
/// # Stream Outputs
/// - `out`: `f32` frames of `size` bins (linear power).
///
/// # Parameters
/// - `size`: bins per frame (FFT size), 2 to 2^20.
/// - `window`: the window applied to each frame.
/// - `scaling`: [`Scaling::Density`] (full-scale²/Hz) or
///   [`Scaling::Spectrum`] (full-scale²).
///
/// # Usage
/// ```
/// use rfgraph_dsp::Window;
/// use rfgraph_radio::spectrum::{PowerSpectrum, Scaling};
///
/// let power = PowerSpectrum::new(1024, Window::Hann, Scaling::Density)?
///     .with_sample_rate(2.4e6)?
///     .with_frequency(100e6)?;
/// assert_eq!(power.size(), 1024);
/// # Ok::<(), rfgraph_radio::spectrum::SpectrumError>(())
/// ```
pub struct PowerSpectrum {
    input: StreamInput<Complex32>,
    output: StreamOutput<f32>,
    size: usize,
    fft: Fft,
    scaling: Scaling,
    /// `Σw` and `Σw²` of the window.
    sum_w: f64,
    sum_w2: f64,
    frame: Vec<Complex32>,
    meta: FrameMeta,
    /// The meta last tagged on the output.
    tagged: Option<FrameMeta>,
}

impl PowerSpectrum {
    /// Frames of `size` bins through `window`, scaled as `scaling`.
    ///
    /// Errors: `size` outside 2..=2^20; a window that cannot be built
    /// (a negative Kaiser beta).
    pub fn new(size: usize, window: Window, scaling: Scaling) -> Result<Self, SpectrumError> {
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(SpectrumError::Size {
                size,
                max: MAX_SIZE,
            });
        }
        let fft = Fft::new(size, FftDirection::Forward)?.with_window(window)?;
        let w = fft.window().unwrap_or(&[]);
        let sum_w: f64 = w.iter().map(|&x| x as f64).sum();
        let sum_w2: f64 = w.iter().map(|&x| (x as f64) * (x as f64)).sum();
        if sum_w2 <= 0.0 || sum_w <= 0.0 {
            return Err(SpectrumError::Window(rfgraph_dsp::DspError::InvalidSpec(
                "the window sums to zero".into(),
            )));
        }
        Ok(Self {
            input: StreamInput::new("in").with_min_items(size),
            output: StreamOutput::new("out").with_min_items(size),
            size,
            fft,
            scaling,
            sum_w,
            sum_w2,
            frame: vec![Complex32::new(0.0, 0.0); size],
            meta: FrameMeta {
                frame_samples: size as u64,
                ..FrameMeta::default()
            },
            tagged: None,
        })
    }

    /// The input's sample rate until a `core:sample_rate` tag says
    /// otherwise (raw files carry no tag of their own).
    ///
    /// Errors: not a positive finite number.
    pub fn with_sample_rate(mut self, samples_per_second: f64) -> Result<Self, SpectrumError> {
        if !(samples_per_second.is_finite() && samples_per_second > 0.0) {
            return Err(SpectrumError::Value {
                name: "the sample rate",
                value: samples_per_second,
                expected: "a positive number of samples per second",
            });
        }
        self.meta.sample_rate = Some(samples_per_second);
        Ok(self)
    }

    /// The input's centre frequency in Hz until a `core:frequency` tag
    /// says otherwise.
    ///
    /// Errors: not a finite number.
    pub fn with_frequency(mut self, hz: f64) -> Result<Self, SpectrumError> {
        if !hz.is_finite() {
            return Err(SpectrumError::Value {
                name: "the centre frequency",
                value: hz,
                expected: "a finite number of Hz",
            });
        }
        self.meta.frequency = Some(hz);
        Ok(self)
    }

    /// Bins per frame.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The scaling of the bins.
    pub fn scaling(&self) -> Scaling {
        self.scaling
    }

    /// What the frames mean now (the defaults before the run, the input's
    /// tags after).
    pub fn meta(&self) -> FrameMeta {
        self.meta
    }

    /// The factor from `|X|²` to the bins' unit.
    fn scale(&self) -> f32 {
        match self.scaling {
            Scaling::Density => (1.0 / (self.meta.sample_rate.unwrap_or(1.0) * self.sum_w2)) as f32,
            Scaling::Spectrum => (1.0 / (self.sum_w * self.sum_w)) as f32,
        }
    }
}

impl Block for PowerSpectrum {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let size = self.size;
        let available = self.input.slice().len();
        let frames = (available / size).min(self.output.slice().len() / size);
        if frames == 0 {
            return Ok(());
        }
        let start = self.input.position();
        let tags = self.input.tags();
        let mut others = Vec::new();
        for f in 0..frames {
            let at = f * size;
            others.clear();
            for t in tags_in(&tags, start + at as u64, size) {
                // A frame-samples tag means nothing on samples: frames
                // here summarise `size` of them.
                if t.key != FRAME_SAMPLES && !self.meta.absorb(t) {
                    others.push(t);
                }
            }
            if self.tagged != Some(self.meta) {
                self.meta.tag(&self.output, at);
                self.tagged = Some(self.meta);
            }
            for t in &others {
                self.output.add_tag(at, &t.key, t.value.clone());
            }
            self.frame
                .copy_from_slice(&self.input.slice()[at..at + size]);
            self.fft.transform(&mut self.frame)?;
            let scale = self.scale();
            let out = &mut self.output.slice()[at..at + size];
            // fftshift: negative frequencies (FFT bins size-size/2..) first.
            let half = size - size / 2;
            let (neg, pos) = out.split_at_mut(size / 2);
            for (o, x) in neg.iter_mut().zip(&self.frame[half..]) {
                *o = x.norm_sqr() * scale;
            }
            for (o, x) in pos.iter_mut().zip(&self.frame[..half]) {
                *o = x.norm_sqr() * scale;
            }
        }
        self.input.consume(frames * size);
        self.output.produce(frames * size);
        Ok(())
    }
}

/// The registry entry: `power_spectrum`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "power_spectrum",
        "Fourier Analysis",
        "Windowed power spectrum frames (fftshifted, linear) of complex samples.",
        |p| {
            let window = match p.string("window")?.as_str() {
                "rectangular" => Window::Rectangular,
                "hamming" => Window::Hamming,
                "blackman" => Window::Blackman,
                "blackman_harris" => Window::BlackmanHarris,
                _ => Window::Hann,
            };
            let scaling = match p.string("scaling")?.as_str() {
                "spectrum" => Scaling::Spectrum,
                _ => Scaling::Density,
            };
            let fail = |e: SpectrumError| p.refused(e);
            let mut block = PowerSpectrum::new(p.usize("size")?, window, scaling).map_err(fail)?;
            if let Some(rate) = p.opt::<f64>("sample_rate")? {
                block = block.with_sample_rate(rate).map_err(fail)?;
            }
            if let Some(f) = p.opt::<f64>("frequency")? {
                block = block.with_frequency(f).map_err(fail)?;
            }
            Ok(Box::new(block) as Box<dyn rfgraph::Block>)
        },
    )
    .doc(
        "Every `size` consecutive samples make one frame of `size` linear power bins, \
         fftshifted (bin `size/2` is the centre frequency). `density` scaling gives \
         full-scale²/Hz, `spectrum` full-scale² for a tone on a bin. Frames carry \
         `core:frequency`, `core:sample_rate` and `rfgraph:frame_samples` tags (from the \
         input's tags, or `sample_rate`/`frequency` here). Follow it with \
         `spectrum_average`.",
    )
    .param(
        ParamSpec::uint("size")
            .default(1024u64)
            .doc("bins per frame (FFT size), 2 to 2^20"),
    )
    .param(
        ParamSpec::string("window")
            .default("hann")
            .choices(&[
                "rectangular",
                "hann",
                "hamming",
                "blackman",
                "blackman_harris",
            ])
            .doc("window applied to each frame"),
    )
    .param(
        ParamSpec::string("scaling")
            .default("density")
            .choices(&["density", "spectrum"])
            .doc("power per Hz or per bin"),
    )
    .param(
        ParamSpec::float("sample_rate")
            .optional()
            .unit("Hz")
            .doc("the input's rate when no tag says"),
    )
    .param(
        ParamSpec::float("frequency")
            .optional()
            .unit("Hz")
            .doc("the input's centre frequency when no tag says"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("frames of `size` bins"))
}
