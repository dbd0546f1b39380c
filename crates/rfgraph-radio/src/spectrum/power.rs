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
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use rfgraph_dsp::{Fft, FftDirection, Window};

/// What a bin's power is normalised to. As a parameter: `density` or
/// `spectrum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, rfgraph::ParamChoice)]
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

/// The window of [`PowerSpectrum`]'s frames, as a parameter: the
/// variant's snake-case name. Each is the `rfgraph_dsp` [`Window`] of
/// that name, periodic; `kaiser` takes its β from
/// [`PowerSpectrumParams::beta`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, rfgraph::ParamChoice)]
pub enum SpectrumWindow {
    /// All ones.
    Rectangular,
    /// Hann.
    Hann,
    /// Hamming.
    Hamming,
    /// Blackman.
    Blackman,
    /// Four-term Blackman–Harris.
    BlackmanHarris,
    /// Kaiser, with shape parameter `beta`.
    Kaiser,
}

/// The largest Kaiser β: the window's Bessel function overflows an `f64`
/// a little above it.
pub const MAX_KAISER_BETA: f64 = 700.0;

/// The parameters of [`PowerSpectrum`] (`power_spectrum`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PowerSpectrumParams {
    /// bins per frame (FFT size)
    #[param(default = 1024, min = 2, max = MAX_SIZE)]
    pub size: usize,
    /// window applied to each frame
    #[param(default = SpectrumWindow::Hann)]
    pub window: SpectrumWindow,
    /// shape parameter β of the `kaiser` window (unused by the others)
    #[param(default = rfgraph_dsp::firdes::DEFAULT_PARAM, min = 0.0, max = MAX_KAISER_BETA)]
    pub beta: f64,
    /// power per Hz (`density`) or per bin (`spectrum`)
    #[param(default = Scaling::Density)]
    pub scaling: Scaling,
    /// the input's rate when no tag says
    #[param(unit = "Hz", above = 0.0)]
    pub sample_rate: Option<f64>,
    /// the input's centre frequency when no tag says
    #[param(unit = "Hz")]
    pub frequency: Option<f64>,
}

impl PowerSpectrumParams {
    /// The parameters for frames of `size` bins through `window`, scaled
    /// as `scaling`, with no rate or frequency of their own.
    pub fn new(size: usize, window: Window, scaling: Scaling) -> Self {
        let (window, beta) = match window {
            Window::Rectangular => (SpectrumWindow::Rectangular, None),
            Window::Hann => (SpectrumWindow::Hann, None),
            Window::Hamming => (SpectrumWindow::Hamming, None),
            Window::Blackman => (SpectrumWindow::Blackman, None),
            Window::BlackmanHarris => (SpectrumWindow::BlackmanHarris, None),
            Window::Kaiser { beta } => (SpectrumWindow::Kaiser, Some(beta)),
        };
        Self {
            size,
            window,
            scaling,
            beta: beta.unwrap_or(rfgraph_dsp::firdes::DEFAULT_PARAM),
            ..Self::default()
        }
    }

    /// The window `window` (and `beta`) name.
    pub fn dsp_window(&self) -> Window {
        match self.window {
            SpectrumWindow::Rectangular => Window::Rectangular,
            SpectrumWindow::Hann => Window::Hann,
            SpectrumWindow::Hamming => Window::Hamming,
            SpectrumWindow::Blackman => Window::Blackman,
            SpectrumWindow::BlackmanHarris => Window::BlackmanHarris,
            SpectrumWindow::Kaiser => Window::Kaiser { beta: self.beta },
        }
    }

    /// The rule the declarations leave: the window can be built.
    fn check(&self) -> Result<(), ParamError> {
        self.dsp_window()
            .validate()
            .map_err(|e| ParamError::new("power_spectrum", "beta", e.to_string()))
    }
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
/// [`PowerSpectrumParams`]: the size, window and [`Scaling`]
/// ([`Scaling::Density`], full-scale²/Hz, or [`Scaling::Spectrum`],
/// full-scale²), and the rate and frequency to assume until the input's
/// tags say.
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
    params: PowerSpectrumParams,
    size: usize,
    fft: Fft,
    /// `Σw` and `Σw²` of the window.
    sum_w: f64,
    sum_w2: f64,
    frame: Vec<Complex32>,
    meta: FrameMeta,
    /// The meta last tagged on the output.
    tagged: Option<FrameMeta>,
}

impl PowerSpectrum {
    /// Frames of `size` bins through `window`, scaled as `scaling`
    /// ([`PowerSpectrumParams::new`]).
    ///
    /// Errors: `size` outside 2..=2^20; a window that cannot be built
    /// (a negative Kaiser beta).
    pub fn new(size: usize, window: Window, scaling: Scaling) -> Result<Self, SpectrumError> {
        Ok(Self::from_params(PowerSpectrumParams::new(
            size, window, scaling,
        ))?)
    }

    /// The block `params` describe.
    ///
    /// Errors: a parameter outside its declaration.
    pub fn from_params(params: PowerSpectrumParams) -> Result<Self, ParamError> {
        params.validate()?;
        let size = params.size;
        let invalid =
            |e: rfgraph_dsp::DspError| ParamError::new("power_spectrum", "window", e.to_string());
        let fft = Fft::new(size, FftDirection::Forward)
            .and_then(|f| f.with_window(params.dsp_window()))
            .map_err(invalid)?;
        let w = fft.window().unwrap_or(&[]);
        let sum_w: f64 = w.iter().map(|&x| x as f64).sum();
        let sum_w2: f64 = w.iter().map(|&x| (x as f64) * (x as f64)).sum();
        // A periodic window of 2 or more points is 1 in its middle.
        if !(sum_w2 > 0.0 && sum_w > 0.0) {
            return Err(ParamError::new(
                "power_spectrum",
                "window",
                "the window sums to zero",
            ));
        }
        Ok(Self {
            input: StreamInput::new("in").with_min_items(size),
            output: StreamOutput::new("out").with_min_items(size),
            size,
            fft,
            sum_w,
            sum_w2,
            frame: vec![Complex32::new(0.0, 0.0); size],
            meta: FrameMeta {
                frame_samples: size as u64,
                sample_rate: params.sample_rate,
                frequency: params.frequency,
            },
            tagged: None,
            params,
        })
    }

    /// The input's sample rate until a `core:sample_rate` tag says
    /// otherwise (raw files carry no tag of their own).
    ///
    /// Errors: not a positive finite number.
    pub fn with_sample_rate(mut self, samples_per_second: f64) -> Result<Self, SpectrumError> {
        let params = PowerSpectrumParams {
            sample_rate: Some(samples_per_second),
            ..self.params.clone()
        };
        params.validate()?;
        self.meta.sample_rate = params.sample_rate;
        self.params = params;
        Ok(self)
    }

    /// The input's centre frequency in Hz until a `core:frequency` tag
    /// says otherwise.
    ///
    /// Errors: not a finite number.
    pub fn with_frequency(mut self, hz: f64) -> Result<Self, SpectrumError> {
        let params = PowerSpectrumParams {
            frequency: Some(hz),
            ..self.params.clone()
        };
        params.validate()?;
        self.meta.frequency = params.frequency;
        self.params = params;
        Ok(self)
    }

    /// The parameters.
    pub fn params(&self) -> &PowerSpectrumParams {
        &self.params
    }

    /// Bins per frame.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The scaling of the bins.
    pub fn scaling(&self) -> Scaling {
        self.params.scaling
    }

    /// What the frames mean now (the defaults before the run, the input's
    /// tags after).
    pub fn meta(&self) -> FrameMeta {
        self.meta
    }

    /// The factor from `|X|²` to the bins' unit.
    fn scale(&self) -> f32 {
        match self.params.scaling {
            Scaling::Density => (1.0 / (self.meta.sample_rate.unwrap_or(1.0) * self.sum_w2)) as f32,
            Scaling::Spectrum => (1.0 / (self.sum_w * self.sum_w)) as f32,
        }
    }
}

impl Block for PowerSpectrum {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
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
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<PowerSpectrumParams>(
        "power_spectrum",
        "Fourier Analysis",
        "Windowed power spectrum frames (fftshifted, linear) of complex samples.",
        |p| Ok(Box::new(PowerSpectrum::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Every `size` consecutive samples make one frame of `size` linear power bins, \
         fftshifted (bin `size/2` is the centre frequency). `density` scaling gives \
         full-scale²/Hz, `spectrum` full-scale² for a tone on a bin. Frames carry \
         `core:frequency`, `core:sample_rate` and `rfgraph:frame_samples` tags (from the \
         input's tags, or `sample_rate`/`frequency` here). Follow it with \
         `spectrum_average`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("frames of `size` bins"))
}
