//! `Throttle`: limits a stream to a given item rate in wall-clock time,
//! without blocking the scheduler thread (it asks for a timer instead).
//! Items go in pieces of about a millisecond (`chunk`), each when it is
//! due, so the throttle and its neighbours wake once a piece, not once an
//! item. The rate may change while it runs (GNU Radio's
//! `set_sample_rate`).

use crate::pace::{Pacer, piece_items};
use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, WorkIo};

/// The slowest rate: one item every 10⁶ s (11.6 days). A slower one
/// would wait for a time no timer can hold.
const MIN_RATE: f64 = 1e-6;

/// The fastest rate, far beyond any memory bandwidth.
const MAX_RATE: f64 = 1e15;

/// The longest piece, seconds: a piece is held back until its last item
/// is due, so a longer one would only add latency.
pub(crate) const MAX_CHUNK: f64 = 1.0;

/// The default piece, seconds: a thousand wake-ups a second at most,
/// whatever the rate, and a millisecond of latency.
pub(crate) const DEFAULT_CHUNK: f64 = 1e-3;

/// The parameters of [`Throttle`] (`throttle`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ThrottleParams {
    /// the rate items (vectors of `vlen`) may pass at; a change restarts
    /// the count from the moment it lands, as GNU Radio's
    /// `set_sample_rate`
    #[param(
        default = 32_000.0,
        unit = "items/s",
        min = MIN_RATE,
        max = MAX_RATE,
        alias = "samples_per_second",
        settable
    )]
    pub sample_rate: f64,
    /// seconds of items released at once: the items due go out together
    /// when the last of them is due (at least one vector, at most what the
    /// rings hold; 0: every vector on its own), so the block wakes once a
    /// piece
    #[param(default = DEFAULT_CHUNK, unit = "s", min = 0.0, max = MAX_CHUNK, settable)]
    pub chunk: f64,
    /// items per GNU Radio vector: the rate counts vectors
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

impl ThrottleParams {
    /// Items (not vectors) per second.
    fn item_rate(&self) -> f64 {
        self.sample_rate * self.vlen as f64
    }

    /// Items (not vectors) of one piece: the whole vectors due in
    /// `chunk`, at least one.
    fn piece(&self) -> u64 {
        piece_items(self.sample_rate, self.chunk, self.vlen as u64)
    }

    fn check(&self) -> Result<(), ParamError> {
        if self.item_rate() > MAX_RATE {
            return Err(ParamError::new(
                "throttle",
                "sample_rate",
                format!(
                    "{} vectors of {} items per second is more than {MAX_RATE} items per second",
                    self.sample_rate, self.vlen
                ),
            ));
        }
        Ok(())
    }
}

/// Passes items at most at `sample_rate · vlen` items per second, counted
/// from the first call (or from the last change of the rate), in pieces
/// of `chunk` seconds: a piece goes out when its last item is due, so the
/// stream is never ahead of the rate and at most a piece behind it.
///
/// # Parameters
/// [`ThrottleParams`]; `sample_rate` may change while the block runs.
pub struct Throttle<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: ThrottleParams,
    pacer: Pacer,
}

impl<T: Item> Throttle<T> {
    /// Limits to `items_per_second`.
    ///
    /// Errors: a rate that is not a number from 10⁻⁶ to 10¹⁵.
    pub fn new(items_per_second: f64) -> Result<Self, ParamError> {
        Self::from_params(ThrottleParams {
            sample_rate: items_per_second,
            ..Default::default()
        })
    }

    /// A throttle with `params` (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range.
    pub fn from_params(mut params: ThrottleParams) -> Result<Self, ParamError> {
        params.validate()?;
        params.item = kind_of::<T>().unwrap_or(params.item);
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            pacer: Pacer::default(),
        })
    }
}

impl<T: Item> Block for Throttle<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn paced_rate(&self) -> Option<f64> {
        Some(self.params.item_rate())
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        match name {
            // GNU Radio's set_sample_rate: the count starts again now.
            "sample_rate" => self.pacer.restart(),
            // The pieces to come have the new length.
            "chunk" => self.pacer.forget_target(),
            _ => {}
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let rate = self.params.item_rate();
        let i = self.input.slice();
        let o = self.output.slice();
        let available = i.len();
        let room = available.min(o.len());
        // A piece the rings cannot hold would never fill: at high rates
        // the piece is what fits now.
        let piece = self.params.piece().min(room.max(1) as u64);
        let budget = self.pacer.budget(rate, piece);
        let n = (room as u64).min(budget) as usize;
        rfgraph::copy_items(o, &i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.pacer.pass(n as u64);
        if n < available && budget == n as u64 {
            // Rate-limited: come back when the next piece is due.
            self.pacer.wake_for_next_piece(rate, piece, io);
        }
        Ok(())
    }
}

/// The registry entry: `throttle`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<ThrottleParams>(
        "throttle",
        "Stream Operators",
        "Limits a stream to an item rate in wall-clock time.",
        |p| for_any_item!(kind = p.item, T => Throttle::<T>::from_params(p)?),
    )
    .doc(
        "Passes items from `in` to `out` at most at `sample_rate` items per second, \
          measured from the first call, in pieces of `chunk` seconds (1 ms by default; at \
          least one item): a piece goes out when its last item is due, so the stream is \
          never ahead of the rate and the block wakes once a piece, not once an item. It \
          asks the scheduler for a timer instead of sleeping. GNU Radio's \
          `blocks_throttle`; with `vlen`, the rate counts vectors of `vlen` items, as GNU \
          Radio's does. The rate lies between 10⁻⁶ and \
          10¹⁵ items per second and may change while the flowgraph runs: as GNU Radio's \
          `set_sample_rate`, the count starts again from that moment. GNU Radio's \
          throttle sleeps in its work until all it was offered is due and passes that, up \
          to a whole buffer (a quarter second at 32 kS/s); here `chunk` sets that \
          granularity.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
