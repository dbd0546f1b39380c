//! [`WebTimeSink`]: the oscilloscope display (`web_time_sink`, GNU
//! Radio's `qtgui_time_sink_x`) for a web page.

use super::frame::{self, Capture, DisplayItem, Readings, Step};
use crate::spec_util::kind_of;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Pmt, Ports, StreamInput, WorkIo};

/// Most points a time or constellation display shows per input: bounds a
/// display's memory whatever a file asks.
pub const MAX_POINTS: usize = 1 << 18;

/// The parameters of `web_time_sink`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct TimeSinkParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
    /// samples per trace (items per frame)
    #[param(default = 1024, min = 1, max = MAX_POINTS, alias = "size")]
    pub points: usize,
    /// the stream's sample rate
    #[param(
        default = 1.0,
        above = 0.0,
        unit = "Hz",
        alias = "srate",
        alias = "samp_rate",
        settable
    )]
    pub sample_rate: f64,
    /// the display's title
    #[param(default = "", alias = "name", settable)]
    pub title: String,
    /// bottom of the y axis
    #[param(default = -1.0, alias = "ymin", settable)]
    pub y_min: f64,
    /// top of the y axis
    #[param(default = 1.0, alias = "ymax", settable)]
    pub y_max: f64,
    /// the y axis's label
    #[param(default = "Amplitude", alias = "ylabel")]
    pub y_label: String,
    /// the y axis's unit
    #[param(default = "", alias = "yunit")]
    pub units: String,
    /// number of inputs
    #[param(default = 1, min = 1, max = 64)]
    pub nconnections: usize,
    /// one label per input (strings; empty: `Data i`)
    #[param(default = Pmt::List(Vec::new()))]
    pub labels: Pmt,
    /// stream time between two frames
    #[param(default = 0.1, min = 0.0, unit = "s", settable)]
    pub update_time: f64,
    /// where GNU Radio's window placed it (GRC's `gui_hint`)
    #[param(default = "")]
    pub gui_hint: String,
}

/// The latest `points` consecutive samples of up to 64 streams for a
/// web page, taken at most once per `update_time` of stream time; the
/// items between are dropped unread.
///
/// Its readings: `display` (`kind` `"time"`, `title`, `inputs`,
/// `labels`, `points`, `sample_rate`, `y_min`, `y_max`, `y_label`,
/// `units`, `complex`, and `gui_hint` when set) and `frame` (`seq`, 0
/// before the first; `t0`, the stream index of the first sample; `y`:
/// one f32 vector of `points` per trace: per input, or for complex
/// items per input its real then its imaginary part; non-finite
/// samples read 0).
///
/// # Parameters
/// [`TimeSinkParams`].
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T` (`f32` or `c32`), `nconnections` of them.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::VectorSource;
/// use rfgraph_blocks::display::{TimeSinkParams, WebTimeSink};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.5f32; 100]));
/// let params = TimeSinkParams { points: 10, ..Default::default() };
/// let sink = fg.add(WebTimeSink::<f32>::new(params)?);
/// fg.connect(src, "out", sink, "in0")?;
/// fg.run(Tpb::new())?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WebTimeSink<T: DisplayItem> {
    inputs: Vec<StreamInput<T>>,
    params: TimeSinkParams,
    capture: Capture,
    /// The frame being captured, per input.
    buffers: Vec<Vec<Complex32>>,
    /// The current frame's traces.
    traces: Vec<Vec<f32>>,
    t0: u64,
    seq: u64,
}

impl<T: DisplayItem> WebTimeSink<T> {
    /// A time display.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(mut params: TimeSinkParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let (n, points) = (params.nconnections, params.points);
        let traces = if T::COMPLEX { 2 * n } else { n };
        Ok(Self {
            inputs: (0..n)
                .map(|i| StreamInput::new(crate::wav::ports::channel_port("in", i)))
                .collect(),
            capture: Capture::new(
                points,
                frame::period(params.update_time, params.sample_rate, points),
            ),
            buffers: vec![vec![Complex32::new(0.0, 0.0); points]; n],
            traces: vec![vec![0.0; points]; traces],
            t0: 0,
            seq: 0,
            params,
        })
    }

    fn compute(&mut self) {
        let per_input = if T::COMPLEX { 2 } else { 1 };
        for (i, buffer) in self.buffers.iter().enumerate() {
            for (k, c) in buffer.iter().enumerate() {
                self.traces[i * per_input][k] = frame::finite(c.re);
                if T::COMPLEX {
                    self.traces[i * per_input + 1][k] = frame::finite(c.im);
                }
            }
        }
        self.t0 = self.capture.start();
        self.seq += 1;
    }

    fn display(&self) -> Pmt {
        let p = &self.params;
        Readings::display(
            "time",
            &p.title,
            p.nconnections,
            frame::labels(&p.labels, p.nconnections),
            &p.gui_hint,
        )
        .with("points", Pmt::U64(p.points as u64))
        .with("sample_rate", p.sample_rate)
        .with("y_min", p.y_min)
        .with("y_max", p.y_max)
        .with("y_label", p.y_label.as_str())
        .with("units", p.units.as_str())
        .with("complex", T::COMPLEX)
        .done()
    }

    fn frame(&self) -> Pmt {
        Readings::frame(self.seq)
            .with("t0", Pmt::U64(self.t0))
            .with("y", frame::rows(&self.traces))
            .done()
    }
}

impl<T: DisplayItem> Block for WebTimeSink<T> {
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
        if matches!(name, "sample_rate" | "update_time") {
            let p = &self.params;
            let period = frame::period(p.update_time, p.sample_rate, p.points);
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

/// `web_time_sink`: GNU Radio's `qtgui_time_sink_x`, drawn by a browser.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<TimeSinkParams>("web_time_sink", "Web Displays", "An oscilloscope display for the web UI.", |p| {
        rfgraph::for_item_kinds!(p.item, {
            C32 => Complex32, F32 => f32
        } as T => WebTimeSink::<T>::new(p)?)
    })
    .doc("Consumes its inputs and keeps, as its reading `frame`, the latest `points` consecutive samples of each (complex inputs as a real and an imaginary trace): one frame per `update_time` of stream time at `sample_rate` (the others are dropped unread). Its reading `display` describes the plot (`kind` `time`).")
    .input(PortSpec::new("in", PortItem::OfType).repeated("nconnections"))
}
