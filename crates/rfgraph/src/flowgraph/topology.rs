//! What a running flowgraph looks like from outside: its blocks with
//! their ports, its stream and message edges, and how full each stream
//! edge is now ([`FlowgraphHandle::topology`] and
//! [`FlowgraphHandle::edge_fill`](super::FlowgraphHandle::edge_fill)).
//! A control port or a user interface draws the graph from this and
//! shows where items pile up; nothing here touches the hot path (the
//! fill is read from the atomics the rings publish anyway).
//!
//! [`FlowgraphHandle::topology`]: super::FlowgraphHandle::topology

use crate::block::Block;
use crate::buffer::EdgeBuffer;
use crate::flowgraph::Flowgraph;
use serde::Serialize;
use std::sync::Arc;

/// A stream port: its name and item type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StreamPortInfo {
    /// The port's name.
    pub name: String,
    /// The Rust type of its items (`num_complex::Complex<f32>`).
    pub item: &'static str,
    /// Bytes per item.
    pub item_size: usize,
}

/// One block and its ports, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlockInfo {
    /// The instance name.
    pub name: String,
    /// The Rust type's name (registry blocks say which in their name).
    pub type_name: String,
    /// Stream inputs.
    pub inputs: Vec<StreamPortInfo>,
    /// Stream outputs.
    pub outputs: Vec<StreamPortInfo>,
    /// Message inputs (settable parameters among them).
    pub message_inputs: Vec<String>,
    /// Message outputs.
    pub message_outputs: Vec<String>,
    /// Readings (see [`Block::readings`]).
    pub readings: Vec<&'static str>,
    /// Inserted by the runtime to move items between memory domains.
    pub transfer: bool,
}

/// A connection from `writer`'s port `output` to `reader`'s port
/// `input`; blocks are indices into [`Topology::blocks`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeInfo {
    /// The writing block.
    pub writer: usize,
    /// Its output port.
    pub output: String,
    /// The reading block.
    pub reader: usize,
    /// Its input port.
    pub input: String,
}

/// A stream edge: the connection, and the ring's size in items (shared
/// by every reader of one output).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StreamEdgeInfo {
    /// Who writes and who reads.
    #[serde(flatten)]
    pub edge: EdgeInfo,
    /// Items the ring holds.
    pub capacity: usize,
}

/// A running flowgraph's shape, fixed when it started.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Topology {
    /// Every block, in the order of their ids.
    pub blocks: Vec<BlockInfo>,
    /// Every stream edge, one per reader.
    pub streams: Vec<StreamEdgeInfo>,
    /// Every message edge.
    pub messages: Vec<EdgeInfo>,
}

/// How full one stream edge is, for its reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeFill {
    /// Items written and not yet read by this edge's reader.
    pub unread: u64,
    /// Items the ring holds.
    pub capacity: usize,
}

/// The live side of one stream edge: its ring and reader.
pub(crate) struct LiveEdge {
    pub(crate) ring: Arc<dyn EdgeBuffer>,
    pub(crate) reader: usize,
}

impl LiveEdge {
    pub(crate) fn fill(&self) -> EdgeFill {
        // The reader's position first, so `written` cannot be behind it.
        let read = self.ring.read_by(self.reader);
        EdgeFill {
            unread: self.ring.written().saturating_sub(read),
            capacity: self.ring.capacity(),
        }
    }
}

/// The blocks of `fg` with their ports, read before it starts.
pub(crate) fn blocks(fg: &mut Flowgraph) -> Vec<BlockInfo> {
    fg.blocks
        .iter_mut()
        .map(|entry| {
            let readings = entry.block.readings().to_vec();
            // Its own inputs and those of its settable parameters, in the
            // order connections index them.
            let message_inputs = super::message_inputs(entry.block.as_mut())
                .names
                .iter()
                .map(|s| s.to_string())
                .collect();
            let (name, type_name, transfer) =
                (entry.name.clone(), entry.type_name.clone(), entry.transfer);
            let block: &mut dyn Block = entry.block.as_mut();
            let ports = block.ports();
            let stream = |name: &str, item: crate::item::ItemType| StreamPortInfo {
                name: name.to_string(),
                item: item.name(),
                item_size: item.size(),
            };
            BlockInfo {
                name,
                type_name,
                inputs: ports
                    .inputs
                    .iter()
                    .map(|p| stream(p.name(), p.item_type()))
                    .collect(),
                outputs: ports
                    .outputs
                    .iter()
                    .map(|p| stream(p.name(), p.item_type()))
                    .collect(),
                message_inputs,
                message_outputs: ports
                    .message_outputs
                    .iter()
                    .map(|p| p.name().to_string())
                    .collect(),
                readings,
                transfer,
            }
        })
        .collect()
}

/// The message edges of `fg`, named by the `blocks` it has.
pub(crate) fn message_edges(fg: &Flowgraph, blocks: &[BlockInfo]) -> Vec<EdgeInfo> {
    fg.messages
        .iter()
        .map(|e| EdgeInfo {
            writer: e.src,
            output: blocks[e.src].message_outputs[e.src_port].clone(),
            reader: e.dst,
            input: blocks[e.dst].message_inputs[e.dst_port].clone(),
        })
        .collect()
}
