//! `Throttle`: limits a stream to a given item rate in wall-clock time,
//! without blocking the scheduler thread (it asks for a timer instead).

use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, WorkIo};
use std::time::{Duration, Instant};

/// Passes items at most at `rate` items per second.
pub struct Throttle<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    rate: f64,
    start: Option<Instant>,
    passed: u64,
}

impl<T: Item> Throttle<T> {
    /// Limits to `items_per_second`.
    ///
    /// Errors: a rate that is not a positive finite number.
    pub fn new(items_per_second: f64) -> Result<Self, ParamError> {
        if !(items_per_second.is_finite() && items_per_second > 0.0) {
            return Err(ParamError::new(
                "Throttle",
                "items_per_second",
                format!("must be a positive number of items per second, not {items_per_second}"),
            ));
        }
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            rate: items_per_second,
            start: None,
            passed: 0,
        })
    }
}

impl<T: Item> Block for Throttle<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let start = *self.start.get_or_insert_with(Instant::now);
        let allowed = (start.elapsed().as_secs_f64() * self.rate) as u64;
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
            // Rate-limited: come back when the next item is due.
            let due = Duration::from_secs_f64((self.passed + 1) as f64 / self.rate);
            io.call_again_at(start + due);
        }
        Ok(())
    }
}

/// The registry entry: `throttle`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::{ALL_KINDS, for_any_item};
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "throttle",
        "Stream Operators",
        "Limits a stream to an item rate in wall-clock time.",
        |p| {
            let rate = p.f64("sample_rate")?;
            for_any_item!(p, T => Throttle::<T>::new(rate).map_err(|e| p.invalid("sample_rate", e.to_string()))?)
        },
    )
    .doc("Passes items from `in` to `out` at most at `sample_rate` items per second, \
          measured from the first call; it asks the scheduler for a timer instead of \
          sleeping. GNU Radio's `blocks_throttle`.")
    .param(
        ParamSpec::float("sample_rate")
            .default(32_000.0)
            .unit("items/s")
            .doc("the rate items may pass at"),
    )
    .param(ParamSpec::item_type(&ALL_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
