//! [`WebConstSink`]: the constellation display (`web_const_sink`, GNU
//! Radio's `qtgui_const_sink_x`) for a web page.

use super::frame::{self, Capture, Readings, Step, WallClock};
use super::time::MAX_POINTS;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Pmt, Ports, StreamInput, WorkIo};

/// The parameters of `web_const_sink`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct ConstSinkParams {
    /// stream item type
    #[param(name = "type", kinds(C32))]
    pub item: ItemKind,
    /// points per input (items per frame)
    #[param(default = 1024, min = 1, max = MAX_POINTS, alias = "size")]
    pub points: usize,
    /// the stream's sample rate; 0: unknown, frames paced by the wall clock
    #[param(default = 0.0, min = 0.0, unit = "Hz", alias = "samp_rate")]
    pub sample_rate: f64,
    /// the display's title
    #[param(default = "", alias = "name", settable)]
    pub title: String,
    /// left end of the in-phase axis
    #[param(default = -2.0, alias = "xmin", settable)]
    pub x_min: f64,
    /// right end of the in-phase axis
    #[param(default = 2.0, alias = "xmax", settable)]
    pub x_max: f64,
    /// bottom of the quadrature axis
    #[param(default = -2.0, alias = "ymin", settable)]
    pub y_min: f64,
    /// top of the quadrature axis
    #[param(default = 2.0, alias = "ymax", settable)]
    pub y_max: f64,
    /// number of inputs
    #[param(default = 1, min = 1, max = 64)]
    pub nconnections: usize,
    /// one label per input (strings; empty: `Data i`)
    #[param(default = Pmt::List(Vec::new()))]
    pub labels: Pmt,
    /// time between two frames (stream time with a `sample_rate`)
    #[param(default = 0.1, min = 0.0, unit = "s", settable)]
    pub update_time: f64,
    /// where GNU Radio's window placed it (GRC's `gui_hint`)
    #[param(default = "")]
    pub gui_hint: String,
}

/// The latest `points` consecutive complex samples of up to 64 streams
/// for a web page, taken at most once per `update_time` (of stream time
/// when `sample_rate` is set, else of wall-clock time); the items
/// between are dropped unread.
///
/// Its readings: `display` (`kind` `"const"`, `title`, `inputs`,
/// `labels`, `points`, `x_min`, `x_max`, `y_min`, `y_max`, and
/// `gui_hint` when set) and `frame` (`seq`, 0 before the first; `re`
/// and `im`: per input an f32 vector of `points`; non-finite parts
/// read 0).
///
/// # Parameters
/// [`ConstSinkParams`].
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `c32`, `nconnections` of them.
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::VectorSource;
/// use rfgraph_blocks::display::{ConstSinkParams, WebConstSink};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, -1.0); 100]));
/// let params = ConstSinkParams { points: 10, ..Default::default() };
/// let sink = fg.add(WebConstSink::new(params)?);
/// fg.connect(src, "out", sink, "in0")?;
/// fg.run(Tpb::new())?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WebConstSink {
    inputs: Vec<StreamInput<Complex32>>,
    params: ConstSinkParams,
    capture: Capture,
    /// Wall-clock pacing when there is no sample rate.
    clock: Option<WallClock>,
    /// The frame being captured, per input.
    buffers: Vec<Vec<Complex32>>,
    re: Vec<Vec<f32>>,
    im: Vec<Vec<f32>>,
    seq: u64,
}

impl WebConstSink {
    /// A constellation display.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(mut params: ConstSinkParams) -> Result<Self, ParamError> {
        params.item = ItemKind::C32;
        params.validate()?;
        let (n, points) = (params.nconnections, params.points);
        let (capture, clock) = if params.sample_rate > 0.0 {
            let period = frame::period(params.update_time, params.sample_rate, points);
            (Capture::new(points, period), None)
        } else {
            (
                Capture::new(points, points as u64),
                Some(WallClock::new(params.update_time)),
            )
        };
        Ok(Self {
            inputs: (0..n)
                .map(|i| StreamInput::new(crate::wav::ports::channel_port("in", i)))
                .collect(),
            capture,
            clock,
            buffers: vec![vec![Complex32::new(0.0, 0.0); points]; n],
            re: vec![vec![0.0; points]; n],
            im: vec![vec![0.0; points]; n],
            seq: 0,
            params,
        })
    }

    fn compute(&mut self) {
        for (i, buffer) in self.buffers.iter().enumerate() {
            for (k, c) in buffer.iter().enumerate() {
                self.re[i][k] = frame::finite(c.re);
                self.im[i][k] = frame::finite(c.im);
            }
        }
        self.seq += 1;
        if let Some(clock) = &mut self.clock {
            clock.made();
        }
    }

    fn display(&self) -> Pmt {
        let p = &self.params;
        Readings::display(
            "const",
            &p.title,
            p.nconnections,
            frame::labels(&p.labels, p.nconnections),
            &p.gui_hint,
        )
        .with("points", Pmt::U64(p.points as u64))
        .with("x_min", p.x_min)
        .with("x_max", p.x_max)
        .with("y_min", p.y_min)
        .with("y_max", p.y_max)
        .done()
    }

    fn frame(&self) -> Pmt {
        Readings::frame(self.seq)
            .with("re", frame::rows(&self.re))
            .with("im", frame::rows(&self.im))
            .done()
    }
}

impl Block for WebConstSink {
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
        if name == "update_time" {
            let p = &self.params;
            match &mut self.clock {
                Some(clock) => *clock = WallClock::new(p.update_time),
                None => {
                    let period = frame::period(p.update_time, p.sample_rate, p.points);
                    self.capture.set_period(period);
                }
            }
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = frame::common_len(&mut self.inputs);
        let mut off = 0;
        while off < n {
            let waiting = self
                .clock
                .as_ref()
                .is_some_and(|c| !c.due() && !self.capture.filling());
            if waiting {
                self.capture.dropped(n - off);
                break;
            }
            match self.capture.step(n - off) {
                Step::Skip(k) => off += k,
                Step::Take { at, count, done } => {
                    for (input, buffer) in self.inputs.iter_mut().zip(&mut self.buffers) {
                        frame::read_or_zero(input, off, &mut buffer[at..at + count], |c| c);
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

/// `web_const_sink`: GNU Radio's `qtgui_const_sink_x`, drawn by a browser.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ConstSinkParams>("web_const_sink", "Web Displays", "A constellation display for the web UI.", |p| {
        Ok(Box::new(WebConstSink::new(p)?) as Box<dyn Block>)
    })
    .doc("Consumes its complex inputs and keeps, as its reading `frame`, the latest `points` consecutive samples of each (`re`, `im`): one frame per `update_time`, of stream time when `sample_rate` is set, else of wall-clock time (the others are dropped unread). Its reading `display` describes the plot (`kind` `const`).")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)).repeated("nconnections"))
}
