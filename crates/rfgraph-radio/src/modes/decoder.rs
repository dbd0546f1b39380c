//! [`ModesDecoder`]: the block around the [`Tracker`]: frames in,
//! messages (JSON lines) out, the aircraft table kept for the end.

use crate::modes::{Message, RawFrame, Tracker, aircraft_reading};
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, StreamInput, TagPolicy,
    WorkIo,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The parameters of [`ModesDecoder`] (`modes_decoder`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ModesDecoderParams {
    /// sample rate of the stream the frames came from
    #[param(default = 2_000_000.0, unit = "Hz", above = 0.0)]
    pub sample_rate: f64,
    /// receiver latitude, for local position decoding (with `longitude`)
    #[param(unit = "deg", min = -90.0, max = 90.0)]
    pub latitude: Option<f64>,
    /// receiver longitude, for local position decoding (with `latitude`)
    #[param(unit = "deg", min = -180.0, max = 180.0)]
    pub longitude: Option<f64>,
}

impl ModesDecoderParams {
    /// The rule no declaration states: a position is both coordinates.
    fn check(&self) -> Result<(), ParamError> {
        match (self.latitude, self.longitude) {
            (Some(_), None) => Err(ParamError::new(
                "modes_decoder",
                "longitude",
                "is needed with `latitude`: the receiver's position is both",
            )),
            (None, Some(_)) => Err(ParamError::new(
                "modes_decoder",
                "latitude",
                "is needed with `longitude`: the receiver's position is both",
            )),
            _ => Ok(()),
        }
    }
}

/// Decodes [`RawFrame`]s: fields, CPR positions, the aircraft table.
/// Each frame becomes one [`Message`], posted as its JSON text (one line,
/// no newline) on `messages`; the block keeps the last `keep` messages
/// too when asked (tests, tools), and the [`Tracker`] with the table,
/// which [`tracker`](Self::tracker) shows after the run.
///
/// Parameters ([`ModesDecoderParams`]): the sample rate of the frames'
/// sample indices (Hz), and optionally the receiver's position (degrees)
/// for local CPR decoding.
///
/// Counters: `messages`, `positions` (messages with a resolved position).
///
/// # Readings
/// - `aircraft`: the aircraft table now, a `Pmt::List` of one
///   `Pmt::Map` per aircraft heard in the last
///   [`ROW_TTL_S`](super::ROW_TTL_S) seconds of stream time, by address,
///   at most [`MAX_ROWS`](super::MAX_ROWS) (see
///   [`aircraft_row`](super::aircraft_row) for the keys).
///
/// # Stream Inputs
/// - `in`: [`RawFrame`]
///
/// # Message Outputs
/// - `messages`: `Pmt::String`, a [`Message`] as JSON
///
/// # Usage
/// ```
/// use rfgraph_radio::modes::ModesDecoder;
/// let decoder = ModesDecoder::new(2.0e6).with_receiver(52.0, 4.4).keeping(1000);
/// # let _ = decoder;
/// ```
pub struct ModesDecoder {
    input: StreamInput<RawFrame>,
    messages: MessageOutput,
    params: ModesDecoderParams,
    tracker: Tracker,
    keep: usize,
    kept: Vec<Message>,
    count: Arc<AtomicU64>,
    positions: Arc<AtomicU64>,
}

impl ModesDecoder {
    /// A decoder for frames from a stream at `rate_hz` samples per second,
    /// which only times the messages: unlike [`from_params`](Self::from_params)
    /// it does not refuse a rate that is not positive (the times are then
    /// meaningless).
    pub fn new(rate_hz: f64) -> Self {
        Self::build(ModesDecoderParams {
            sample_rate: rate_hz,
            ..ModesDecoderParams::default()
        })
    }

    /// The decoder `params` describe.
    ///
    /// Errors: a parameter outside its declaration, a latitude without a
    /// longitude or the other way round.
    pub fn from_params(params: ModesDecoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::build(params))
    }

    fn build(params: ModesDecoderParams) -> Self {
        let mut tracker = Tracker::new(params.sample_rate);
        if let (Some(lat), Some(lon)) = (params.latitude, params.longitude) {
            tracker = tracker.with_receiver(lat, lon);
        }
        Self {
            input: StreamInput::new("in"),
            messages: MessageOutput::new("messages"),
            params,
            tracker,
            keep: 0,
            kept: Vec::new(),
            count: Arc::default(),
            positions: Arc::default(),
        }
    }

    /// Sets the receiver's position (degrees) for local CPR decoding.
    pub fn with_receiver(mut self, lat: f64, lon: f64) -> Self {
        (self.params.latitude, self.params.longitude) = (Some(lat), Some(lon));
        self.tracker = self.tracker.with_receiver(lat, lon);
        self
    }

    /// Keeps up to `n` messages (the first `n`) for [`messages`](Self::messages).
    pub fn keeping(mut self, n: usize) -> Self {
        self.keep = n;
        self
    }

    /// The messages kept.
    pub fn messages(&self) -> &[Message] {
        &self.kept
    }

    /// The tracker and its aircraft table.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }
}

impl Block for ModesDecoder {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.messages)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let frames = self.input.slice();
        let n = frames.len();
        let post = self.messages.connections() > 0;
        for f in frames {
            let m = self.tracker.process(f);
            self.count.fetch_add(1, Ordering::Relaxed);
            if m.fields.lat.is_some() {
                self.positions.fetch_add(1, Ordering::Relaxed);
            }
            if post {
                self.messages.post(Pmt::String(serde_json::to_string(&m)?));
            }
            if self.kept.len() < self.keep {
                self.kept.push(m);
            }
        }
        self.input.consume(n);
        Ok(())
    }

    fn readings(&self) -> &'static [&'static str] {
        &["aircraft"]
    }

    fn reading(&mut self, name: &str) -> Option<Pmt> {
        (name == "aircraft").then(|| aircraft_reading(&self.tracker))
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("messages", self.count.clone()),
            ("positions", self.positions.clone()),
        ]
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }
}

/// The registry entry: `modes_decoder`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<ModesDecoderParams>(
        "modes_decoder",
        "Receivers",
        "Mode S / ADS-B decoder: frames in, decoded messages (JSON) out.",
        |p| Ok(Box::new(ModesDecoder::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Decodes `modes_demod`'s frames (identity, altitude, position by CPR, velocity, \
         ...), tracks the aircraft, and posts each message on `messages` as a JSON \
         string. With the receiver's `latitude` and `longitude`, single positions \
         decode locally. Reading `aircraft`: the table, one map per aircraft heard \
         in the last 300 s.",
    )
    .input(PortSpec::new("in", PortItem::Other("Mode S frame")))
    .message_output("messages")
}
