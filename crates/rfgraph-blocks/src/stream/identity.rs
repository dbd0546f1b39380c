//! `stream_to_vector` and `vector_to_stream`: GNU Radio's vector
//! conversions are identities on rfgraph's flat streams, registered so
//! GNU Radio flowgraphs load. Each copies `in` to `out` unchanged.
//!
//! # Usage
//! ```
//! let mut registry = rfgraph::registry::Registry::new();
//! registry.extend(rfgraph_blocks::registry::specs());
//! let params = [("items".to_string(), rfgraph::Pmt::U64(1024))].into_iter().collect();
//! let block = registry.build("stream_to_vector", params)?;
//! # let _ = block;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of `stream_to_vector` and `vector_to_stream`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct VectorIdentityParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio's items per vector (the stream stays flat)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN, alias = "num_items")]
    pub items: usize,
}

/// Copies `in` to `out`: a GNU Radio vector conversion on a flat stream.
struct Flat<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: VectorIdentityParams,
}

impl<T: Item> Block for Flat<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        rfgraph::copy_items(o, &i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

fn spec(name: &'static str, summary: &'static str) -> BlockSpec {
    BlockSpec::of::<VectorIdentityParams>(name, "Stream Operators", summary, |p| {
        crate::spec_util::for_any_item!(kind = p.item, T => Flat::<T> {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params: p,
        })
    })
    .doc("GNU Radio vectors are flat streams in rfgraph, so this passes items through unchanged; blocks after it that work on vectors take a `vlen`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `stream_to_vector`: GNU Radio's `blocks_stream_to_vector`.
pub(crate) fn stream_to_vector_spec() -> BlockSpec {
    spec(
        "stream_to_vector",
        "Groups items into GNU Radio vectors: an identity on flat streams.",
    )
}

/// `vector_to_stream`: GNU Radio's `blocks_vector_to_stream`.
pub(crate) fn vector_to_stream_spec() -> BlockSpec {
    spec(
        "vector_to_stream",
        "Splits GNU Radio vectors into items: an identity on flat streams.",
    )
}
