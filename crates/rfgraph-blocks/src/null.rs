//! `NullSource` (endless zeros, or items it never writes) and `NullSink`
//! (discards everything).

use crate::limit::Limit;
use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of [`NullSource`] (`null_source`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct NullSourceParams {
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

/// Writes zeros, for ever (pair it with `Head`) or up to a limit; or,
/// [`without_writing`](Self::without_writing), produces items it never
/// writes.
///
/// # Parameters
/// [`NullSourceParams`].
pub struct NullSource<T: Item> {
    output: StreamOutput<T>,
    params: NullSourceParams,
    limit: Limit,
    writes: bool,
}

impl<T: Item> NullSource<T> {
    /// An endless source with output `out`.
    pub fn new() -> Self {
        Self::with(NullSourceParams::default())
    }

    /// A source that writes `items` zeros and finishes.
    pub fn limited(items: u64) -> Self {
        Self::with(NullSourceParams {
            items: Some(items),
            ..Default::default()
        })
    }

    /// A source with `params` (the item type is `T`'s).
    ///
    /// Errors: none today; the parameters are checked as a file's are.
    pub fn from_params(params: NullSourceParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(mut params: NullSourceParams) -> Self {
        params.item = kind_of::<T>().unwrap_or(params.item);
        Self {
            output: StreamOutput::new("out"),
            limit: Limit::new(params.items),
            params,
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

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
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

/// The parameters of [`NullSink`] (`null_sink`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct NullSinkParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

/// Consumes and discards everything on input `in`.
///
/// # Parameters
/// [`NullSinkParams`].
pub struct NullSink<T: Item> {
    input: StreamInput<T>,
    params: NullSinkParams,
}

impl<T: Item> NullSink<T> {
    /// A new sink.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            params: NullSinkParams {
                item: kind_of::<T>().unwrap_or(ItemKind::F32),
            },
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

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.available();
        self.input.consume(n);
        Ok(())
    }
}

/// The registry entry: `null_source`.
pub(crate) fn source_spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<NullSourceParams>(
        "null_source",
        "Sources",
        "Writes zeros, endlessly or N of them.",
        |p| for_any_item!(kind = p.item, T => NullSource::<T>::from_params(p)?),
    )
    .doc(
        "Writes zero items on `out`: for ever, or `items` of them and then finishes. \
          GNU Radio's `blocks_null_source`.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The registry entry: `null_sink`.
pub(crate) fn sink_spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<NullSinkParams>(
        "null_sink",
        "Sinks",
        "Discards everything.",
        |p: NullSinkParams| for_any_item!(kind = p.item, T => NullSink::<T>::new()),
    )
    .doc(
        "Consumes and discards every item on `in`. GNU Radio's `blocks_null_sink`; \
          GUI sinks of imported GNU Radio flowgraphs become this block.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
}
