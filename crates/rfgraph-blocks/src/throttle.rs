//! `Throttle`: limits a stream to a given item rate in wall-clock time,
//! without blocking the scheduler thread (it asks for a timer instead).
//! The rate may change while it runs (GNU Radio's `set_sample_rate`).

use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, WorkIo};
use std::time::{Duration, Instant};

/// The slowest rate: one item every 10⁶ s (11.6 days). A slower one
/// would wait for a time no timer can hold.
const MIN_RATE: f64 = 1e-6;

/// The fastest rate, far beyond any memory bandwidth.
const MAX_RATE: f64 = 1e15;

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
/// from the first call (or from the last change of the rate).
///
/// # Parameters
/// [`ThrottleParams`]; `sample_rate` may change while the block runs.
pub struct Throttle<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: ThrottleParams,
    start: Option<Instant>,
    passed: u64,
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
            start: None,
            passed: 0,
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

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "sample_rate" {
            // GNU Radio's set_sample_rate: the count starts again now.
            self.start = None;
            self.passed = 0;
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let rate = self.params.item_rate();
        let start = *self.start.get_or_insert_with(Instant::now);
        let allowed = (start.elapsed().as_secs_f64() * rate) as u64;
        let budget = allowed.saturating_sub(self.passed) as usize;
        let i = self.input.slice();
        let o = self.output.slice();
        let available = i.len();
        let n = available.min(o.len()).min(budget);
        rfgraph::copy_items(o, &i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.passed += n as u64;
        if n < available && budget == n {
            // Rate-limited: come back when the next item is due. The
            // rate's range keeps the wait within what a timer holds.
            let due = Duration::try_from_secs_f64((self.passed + 1) as f64 / rate)
                .ok()
                .and_then(|d| start.checked_add(d))
                .unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
            io.call_again_at(due);
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
          measured from the first call; it asks the scheduler for a timer instead of \
          sleeping. GNU Radio's `blocks_throttle`; with `vlen`, the rate counts vectors \
          of `vlen` items, as GNU Radio's does. The rate lies between 10⁻⁶ and 10¹⁵ \
          items per second and may change while the flowgraph runs: as GNU Radio's \
          `set_sample_rate`, the count starts again from that moment.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
