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

use crate::Copy;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};

fn spec(name: &'static str, summary: &'static str) -> BlockSpec {
    BlockSpec::new(name, "Stream Operators", summary, |p: &Params| {
        if p.usize("items")? == 0 {
            return Err(p.invalid("items", "must be at least 1"));
        }
        rfgraph::for_item_kinds!(p, p.item_type()?, {
            F32 => f32, C32 => Complex32, F64 => f64, I32 => i32, I16 => i16, I8 => i8, U8 => u8
        } as T => Copy::<T>::new())
    })
    .doc("GNU Radio vectors are flat streams in rfgraph, so this passes items through unchanged; blocks after it that work on vectors take a `vlen`.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(
        ParamSpec::uint("items")
            .default(1u64)
            .doc("GNU Radio's items per vector (the stream stays flat)"),
    )
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
