//! [`WebFreqSink`]: the spectrum display (`web_freq_sink`, GNU Radio's
//! `qtgui_freq_sink_x`) and the waterfall (`web_waterfall_sink`, see
//! `waterfall`), which differ only in how a browser draws their frames;
//! owns their shared parameters and the averaged spectrum.

use super::frame::{self, Capture, DisplayItem, Readings, Step};
use crate::spec_util::kind_of;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Pmt, Ports, StreamInput, WorkIo};
use rfgraph_dsp::{Spectrum, SpectrumMode, Window};

/// The window a spectrum display applies to each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum DisplayWindow {
    /// Four-term Blackman–Harris (GNU Radio's default for its sinks).
    BlackmanHarris,
    /// Hamming.
    Hamming,
    /// Hann.
    Hann,
    /// Blackman.
    Blackman,
    /// None (all ones).
    Rectangular,
    /// Kaiser with β = 6.76 (GNU Radio's sinks' β).
    Kaiser,
}

impl DisplayWindow {
    fn window(self) -> Window {
        match self {
            DisplayWindow::BlackmanHarris => Window::BlackmanHarris,
            DisplayWindow::Hamming => Window::Hamming,
            DisplayWindow::Hann => Window::Hann,
            DisplayWindow::Blackman => Window::Blackman,
            DisplayWindow::Rectangular => Window::Rectangular,
            DisplayWindow::Kaiser => Window::Kaiser { beta: 6.76 },
        }
    }
}

/// Largest `fft_size` of a spectrum display (GNU Radio offers up to
/// 32768): bounds a display's memory whatever a file asks.
pub const MAX_FFT_SIZE: usize = 1 << 18;

/// The parameters of `web_freq_sink` and `web_waterfall_sink`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct SpectrumSinkParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
    /// bins of each spectrum (items per frame)
    #[param(default = 1024, min = 2, max = MAX_FFT_SIZE, alias = "fftsize")]
    pub fft_size: usize,
    /// frequency shown at the centre
    #[param(default = 0.0, unit = "Hz", alias = "fc", settable)]
    pub center_freq: f64,
    /// the span shown: the stream's sample rate
    #[param(
        default = 1.0,
        above = 0.0,
        unit = "Hz",
        alias = "bw",
        alias = "samp_rate",
        settable
    )]
    pub bandwidth: f64,
    /// the display's title
    #[param(default = "", alias = "name", settable)]
    pub title: String,
    /// bottom of the scale (dB); the waterfall's colour scale
    #[param(default = -140.0, alias = "ymin", alias = "int_min", settable)]
    pub y_min: f64,
    /// top of the scale (dB)
    #[param(default = 10.0, alias = "ymax", alias = "int_max", settable)]
    pub y_max: f64,
    /// the y axis's label
    #[param(default = "Relative Gain", alias = "label")]
    pub y_label: String,
    /// the y axis's unit
    #[param(default = "dB")]
    pub units: String,
    /// weight of each new spectrum in the running average (1: none)
    #[param(default = 1.0, above = 0.0, max = 1.0, settable)]
    pub average: f64,
    /// number of inputs
    #[param(default = 1, min = 1, max = 64)]
    pub nconnections: usize,
    /// one label per input (strings; empty: `Data i`)
    #[param(default = Pmt::List(Vec::new()))]
    pub labels: Pmt,
    /// stream time between two frames
    #[param(default = 0.1, min = 0.0, unit = "s", settable)]
    pub update_time: f64,
    /// window applied to each frame
    #[param(default = DisplayWindow::BlackmanHarris, alias = "wintype")]
    pub window: DisplayWindow,
    /// where GNU Radio's window placed it (GRC's `gui_hint`: `row,col`, `tab@i: row,col,rs,cs`)
    #[param(default = "")]
    pub gui_hint: String,
}

/// Which way a browser draws a [`WebFreqSink`]'s frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpectrumKind {
    /// Each frame replaces the last (`freq`).
    Freq,
    /// Each frame is a new row (`waterfall`).
    Waterfall,
}

impl SpectrumKind {
    fn name(self) -> &'static str {
        match self {
            SpectrumKind::Freq => "freq",
            SpectrumKind::Waterfall => "waterfall",
        }
    }
}

/// Averaged power spectra of up to 64 streams for a web page, built at
/// most once per `update_time` of stream time from `fft_size`
/// consecutive items; the items between are dropped unread.
///
/// Its readings: `display` (`kind` `"freq"` or `"waterfall"`, `title`,
/// `inputs`, `labels`, `fft_size`, `center_hz`, `span_hz`, `y_min`,
/// `y_max`, `y_label`, `units`, and `gui_hint` when set) and `frame`
/// (`seq`, 0 before the first, and `db`: per input, `fft_size` f32 powers
/// in dB, DC in the middle, a tone of amplitude A reading 20 log10 A,
/// floored at −200 dB).
///
/// # Parameters
/// [`SpectrumSinkParams`].
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T` (`f32` or `c32`), `nconnections` of them.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::VectorSource;
/// use rfgraph_blocks::display::{SpectrumKind, SpectrumSinkParams, WebFreqSink};
/// use num_complex::Complex32;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 4096]));
/// let params = SpectrumSinkParams { fft_size: 64, ..Default::default() };
/// let sink = fg.add(WebFreqSink::<Complex32>::new(SpectrumKind::Freq, params)?);
/// fg.connect(src, "out", sink, "in0")?;
/// fg.run(Tpb::new())?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WebFreqSink<T: DisplayItem> {
    inputs: Vec<StreamInput<T>>,
    params: SpectrumSinkParams,
    kind: SpectrumKind,
    spectrum: Spectrum,
    capture: Capture,
    /// The frame being captured, per input.
    buffers: Vec<Vec<Complex32>>,
    /// One spectrum's bins.
    bins: Vec<f32>,
    /// The averaged spectra: the current frame.
    db: Vec<Vec<f32>>,
    seq: u64,
}

impl<T: DisplayItem> WebFreqSink<T> {
    /// A display drawn as `kind`.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(kind: SpectrumKind, mut params: SpectrumSinkParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let size = params.fft_size;
        let invalid =
            |e: rfgraph_dsp::DspError| ParamError::new("web_freq_sink", "window", e.to_string());
        let spectrum = Spectrum::new(size, params.window.window(), SpectrumMode::PowerDb)
            .map_err(invalid)?
            .with_shift(true);
        let n = params.nconnections;
        Ok(Self {
            inputs: (0..n)
                .map(|i| StreamInput::new(crate::wav::ports::channel_port("in", i)))
                .collect(),
            capture: Capture::new(
                size,
                frame::period(params.update_time, params.bandwidth, size),
            ),
            spectrum,
            buffers: vec![vec![Complex32::new(0.0, 0.0); size]; n],
            bins: vec![0.0; size],
            db: vec![vec![frame::DB_FLOOR; size]; n],
            seq: 0,
            kind,
            params,
        })
    }

    /// The frames made so far and the capacity of every buffer (tests:
    /// memory stays the same).
    #[cfg(test)]
    pub(super) fn footprint(&self) -> (u64, Vec<usize>) {
        let caps = self
            .buffers
            .iter()
            .map(Vec::capacity)
            .chain(self.db.iter().map(Vec::capacity))
            .chain([
                self.bins.capacity(),
                self.buffers.capacity(),
                self.db.capacity(),
            ])
            .collect();
        (self.seq, caps)
    }

    /// Transforms the captured frame into the running averages.
    fn compute(&mut self) {
        let alpha = self.params.average as f32;
        let first = self.seq == 0;
        for (buffer, db) in self.buffers.iter().zip(&mut self.db) {
            self.spectrum.process(buffer, &mut self.bins);
            for (d, &b) in db.iter_mut().zip(&self.bins) {
                let b = frame::finite_db(b);
                *d = if first {
                    b
                } else {
                    frame::finite_db(alpha * b + (1.0 - alpha) * *d)
                };
            }
        }
        self.seq += 1;
    }

    fn display(&self) -> Pmt {
        let p = &self.params;
        Readings::display(
            self.kind.name(),
            &p.title,
            p.nconnections,
            frame::labels(&p.labels, p.nconnections),
            &p.gui_hint,
        )
        .with("fft_size", Pmt::U64(p.fft_size as u64))
        .with("center_hz", p.center_freq)
        .with("span_hz", p.bandwidth)
        .with("y_min", p.y_min)
        .with("y_max", p.y_max)
        .with("y_label", p.y_label.as_str())
        .with("units", p.units.as_str())
        .done()
    }

    /// The current frame: `seq` and `db`.
    fn frame(&self) -> Pmt {
        Readings::frame(self.seq)
            .with("db", frame::rows(&self.db))
            .done()
    }
}

impl<T: DisplayItem> Block for WebFreqSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        ports
    }

    fn readings(&self) -> &'static [&'static str] {
        frame::READINGS
    }

    fn reading(&mut self, name: &str) -> Option<Pmt> {
        match name {
            "display" => Some(self.display()),
            "frame" => Some(self.frame()),
            _ => None,
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if matches!(name, "bandwidth" | "update_time") {
            let p = &self.params;
            let period = frame::period(p.update_time, p.bandwidth, p.fft_size);
            self.capture.set_period(period);
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = frame::common_len(&mut self.inputs);
        let mut off = 0;
        while off < n {
            match self.capture.step(n - off) {
                Step::Skip(k) => off += k,
                Step::Take { at, count, done } => {
                    for (input, buffer) in self.inputs.iter_mut().zip(&mut self.buffers) {
                        frame::read_or_zero(input, off, &mut buffer[at..at + count], T::to_c32);
                    }
                    off += count;
                    if done {
                        self.compute();
                    }
                }
            }
        }
        frame::consume_all(&mut self.inputs, n);
        Ok(())
    }
}

/// The registry entry of `kind`, named `name`.
pub(crate) fn spectrum_spec(
    name: &'static str,
    kind: SpectrumKind,
    summary: &'static str,
    doc: &'static str,
) -> BlockSpec {
    BlockSpec::of::<SpectrumSinkParams>(name, "Web Displays", summary, move |p| {
        rfgraph::for_item_kinds!(p.item, {
            C32 => Complex32, F32 => f32
        } as T => WebFreqSink::<T>::new(kind, p)?)
    })
    .doc(doc)
    .input(PortSpec::new("in", PortItem::OfType).repeated("nconnections"))
}

/// `web_freq_sink`: GNU Radio's `qtgui_freq_sink_x`, drawn by a browser.
pub(crate) fn spec() -> BlockSpec {
    spectrum_spec(
        "web_freq_sink",
        SpectrumKind::Freq,
        "A spectrum display for the web UI.",
        "Consumes its inputs and keeps, as its reading `frame`, the latest averaged power spectrum (dB, DC in the middle) of each: one per `update_time` of stream time, from `fft_size` consecutive items (the others are dropped unread). Its reading `display` describes the plot (`kind` `freq`).",
    )
}
