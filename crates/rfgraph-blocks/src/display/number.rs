//! [`WebNumberSink`]: the number display (`web_number_sink`, GNU
//! Radio's `qtgui_number_sink`) for a web page.

use super::frame::{self, Readings, WallClock};
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Pmt, Ports, StreamInput, WorkIo};

/// How a browser draws a [`WebNumberSink`]'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum GraphType {
    /// A horizontal bar (GNU Radio's `NUM_GRAPH_HORIZ`).
    Horizontal,
    /// A vertical bar (`NUM_GRAPH_VERT`).
    Vertical,
    /// The number only (`NUM_GRAPH_NONE`).
    Text,
}

/// The parameters of `web_number_sink`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct NumberSinkParams {
    /// stream item type
    #[param(name = "type", kinds(F32))]
    pub item: ItemKind,
    /// the display's title
    #[param(default = "", alias = "name", settable)]
    pub title: String,
    /// number of inputs
    #[param(default = 1, min = 1, max = 64)]
    pub nconnections: usize,
    /// one label per input (strings; empty: `Data i`)
    #[param(default = Pmt::List(Vec::new()))]
    pub labels: Pmt,
    /// bottom of the bar
    #[param(default = -1.0, settable)]
    pub min: f64,
    /// top of the bar
    #[param(default = 1.0, settable)]
    pub max: f64,
    /// the values' unit
    #[param(default = "", alias = "unit1")]
    pub units: String,
    /// every value is multiplied by this
    #[param(default = 1.0, alias = "factor1", settable)]
    pub factor: f64,
    /// weight of each new sample in the running average (0: none, the last sample)
    #[param(default = 0.0, min = 0.0, max = 1.0, alias = "avg", settable)]
    pub average: f64,
    /// how a browser draws the values
    #[param(default = GraphType::Horizontal)]
    pub graph_type: GraphType,
    /// the stream's sample rate; 0: unknown, frames paced by the wall clock
    #[param(default = 0.0, min = 0.0, unit = "Hz", alias = "samp_rate")]
    pub sample_rate: f64,
    /// time between two frames (stream time with a `sample_rate`)
    #[param(default = 0.1, min = 0.0, unit = "s", settable)]
    pub update_time: f64,
    /// where GNU Radio's window placed it (GRC's `gui_hint`)
    #[param(default = "")]
    pub gui_hint: String,
}

/// The level of up to 64 real streams for a web page: per input the
/// last sample, or its running average (`y ← a·x + (1−a)·y` per sample
/// with `a` = `average`), times `factor`, taken at most once per
/// `update_time` (of stream time when `sample_rate` is set, else of
/// wall-clock time).
///
/// Its readings: `display` (`kind` `"number"`, `title`, `inputs`,
/// `labels`, `min`, `max`, `units`, `graph_type` (`"horizontal"`,
/// `"vertical"`, `"text"`), `factor`, and `gui_hint` when set) and
/// `frame` (`seq`, 0 before the first; `values`: a list of one f64 per
/// input, non-finite as 0).
///
/// # Parameters
/// [`NumberSinkParams`].
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `f32`, `nconnections` of them.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::VectorSource;
/// use rfgraph_blocks::display::{NumberSinkParams, WebNumberSink};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.5f32; 100]));
/// let sink = fg.add(WebNumberSink::new(NumberSinkParams::default())?);
/// fg.connect(src, "out", sink, "in0")?;
/// fg.run(Tpb::new())?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WebNumberSink {
    inputs: Vec<StreamInput<f32>>,
    params: NumberSinkParams,
    /// Items per frame with a sample rate.
    period: u64,
    /// Items since the last frame.
    count: u64,
    clock: Option<WallClock>,
    /// The running levels.
    level: Vec<f64>,
    /// Whether any sample arrived yet (the average starts at it).
    started: bool,
    values: Vec<f64>,
    seq: u64,
}

impl WebNumberSink {
    /// A number display.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(mut params: NumberSinkParams) -> Result<Self, ParamError> {
        params.item = ItemKind::F32;
        params.validate()?;
        let n = params.nconnections;
        let (period, clock) = if params.sample_rate > 0.0 {
            (
                frame::period(params.update_time, params.sample_rate, 1),
                None,
            )
        } else {
            (1, Some(WallClock::new(params.update_time)))
        };
        Ok(Self {
            inputs: (0..n)
                .map(|i| StreamInput::new(crate::wav::ports::channel_port("in", i)))
                .collect(),
            period,
            count: 0,
            clock,
            level: vec![0.0; n],
            started: false,
            values: vec![0.0; n],
            seq: 0,
            params,
        })
    }

    fn display(&self) -> Pmt {
        let p = &self.params;
        let graph = match p.graph_type {
            GraphType::Horizontal => "horizontal",
            GraphType::Vertical => "vertical",
            GraphType::Text => "text",
        };
        Readings::display(
            "number",
            &p.title,
            p.nconnections,
            frame::labels(&p.labels, p.nconnections),
            &p.gui_hint,
        )
        .with("min", p.min)
        .with("max", p.max)
        .with("units", p.units.as_str())
        .with("graph_type", graph)
        .with("factor", p.factor)
        .done()
    }

    fn frame(&self) -> Pmt {
        let values = self.values.iter().map(|&v| Pmt::F64(v)).collect();
        Readings::frame(self.seq)
            .with("values", Pmt::List(values))
            .done()
    }

    /// Runs the levels over items `from..to` of every input.
    fn update(&mut self, from: usize, to: usize) {
        let a = self.params.average;
        for (input, level) in self.inputs.iter_mut().zip(&mut self.level) {
            let have = input.slice();
            for i in from..to {
                let x = have.get(i).copied().unwrap_or(0.0) as f64;
                let x = if x.is_finite() { x } else { 0.0 };
                *level = if a <= 0.0 || !self.started {
                    x
                } else {
                    a * x + (1.0 - a) * *level
                };
            }
        }
        self.started |= to > from;
    }

    fn make_frame(&mut self) {
        let factor = self.params.factor;
        for (v, l) in self.values.iter_mut().zip(&self.level) {
            let x = l * factor;
            *v = if x.is_finite() { x } else { 0.0 };
        }
        self.seq += 1;
        if let Some(clock) = &mut self.clock {
            clock.made();
        }
    }
}

impl Block for WebNumberSink {
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
                    self.period = frame::period(p.update_time, p.sample_rate, 1);
                    self.count = self.count.min(self.period - 1);
                }
            }
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = frame::common_len(&mut self.inputs);
        if n == 0 {
            return Ok(());
        }
        match self.clock.as_ref().map(WallClock::due) {
            // Wall-clock pacing: the levels follow every sample, a frame
            // is taken when due.
            Some(due) => {
                self.update(0, n);
                if due {
                    self.make_frame();
                }
            }
            // Stream time: a frame at the end of every `period` items.
            None => {
                let mut off = 0;
                while off < n {
                    let k = ((self.period - self.count) as usize).min(n - off);
                    self.update(off, off + k);
                    off += k;
                    self.count += k as u64;
                    if self.count == self.period {
                        self.count = 0;
                        self.make_frame();
                    }
                }
            }
        }
        frame::consume_all(&mut self.inputs, n);
        Ok(())
    }
}

/// `web_number_sink`: GNU Radio's `qtgui_number_sink`, drawn by a browser.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<NumberSinkParams>("web_number_sink", "Web Displays", "A number (level bar) display for the web UI.", |p| {
        Ok(Box::new(WebNumberSink::new(p)?) as Box<dyn Block>)
    })
    .doc("Consumes its real inputs and keeps, as its reading `frame`, each one's level (the last sample, or a running average with weight `average`) times `factor`: one frame per `update_time`, of stream time when `sample_rate` is set, else of wall-clock time. Its reading `display` describes the widget (`kind` `number`).")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).repeated("nconnections"))
}
