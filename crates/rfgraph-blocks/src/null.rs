//! `NullSource` (endless zeros, or items it never writes) and `NullSink`
//! (discards everything).

use crate::limit::Limit;
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// Writes zeros, for ever (pair it with `Head`) or up to a limit; or,
/// [`without_writing`](Self::without_writing), produces items it never
/// writes.
pub struct NullSource<T: Item> {
    output: StreamOutput<T>,
    limit: Limit,
    writes: bool,
}

impl<T: Item> NullSource<T> {
    /// An endless source with output `out`.
    pub fn new() -> Self {
        Self {
            output: StreamOutput::new("out"),
            limit: Limit::unlimited(),
            writes: true,
        }
    }

    /// A source that writes `items` zeros and finishes.
    pub fn limited(items: u64) -> Self {
        Self {
            output: StreamOutput::new("out"),
            limit: Limit::of(items),
            writes: true,
        }
    }

    /// Produces items without writing them, like qsdr's "Dummy Source":
    /// readers get whatever the ring holds (zeros on its first lap, then
    /// items left by earlier laps or by blocks working in place). Items are
    /// plain data, so every such value is a valid `T`. For measuring a
    /// runtime and the blocks after this one, whose cost this source then
    /// no longer hides; never for signal processing.
    pub fn without_writing(mut self) -> Self {
        self.writes = false;
        self
    }
}

impl<T: Item> Default for NullSource<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> Block for NullSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let n = if self.writes {
            let out = self.output.slice();
            let n = self.limit.allow(out.len());
            out[..n].fill(T::zeroed());
            n
        } else {
            self.limit.allow(self.output.free())
        };
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// Consumes and discards everything on input `in`.
pub struct NullSink<T: Item> {
    input: StreamInput<T>,
}

impl<T: Item> NullSink<T> {
    /// A new sink.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
        }
    }
}

impl<T: Item> Default for NullSink<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> Block for NullSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.available();
        self.input.consume(n);
        Ok(())
    }
}

/// The registry entry: `null_source`.
pub(crate) fn source_spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::{ALL_KINDS, for_any_item, items_param};
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "null_source",
        "Sources",
        "Writes zeros, endlessly or N of them.",
        |p| {
            let items: Option<u64> = p.opt("items")?;
            for_any_item!(p, T => match items {
                Some(n) => NullSource::<T>::limited(n),
                None => NullSource::<T>::new(),
            })
        },
    )
    .doc(
        "Writes zero items on `out`: for ever, or `items` of them and then finishes. \
          GNU Radio's `blocks_null_source`.",
    )
    .param(items_param())
    .param(ParamSpec::item_type(&ALL_KINDS))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The registry entry: `null_sink`.
pub(crate) fn sink_spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::{ALL_KINDS, for_any_item};
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "null_sink",
        "Sinks",
        "Discards everything.",
        |p| for_any_item!(p, T => NullSink::<T>::new()),
    )
    .doc(
        "Consumes and discards every item on `in`. GNU Radio's `blocks_null_sink`; \
          GUI sinks of imported GNU Radio flowgraphs become this block.",
    )
    .param(ParamSpec::item_type(&ALL_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
}
