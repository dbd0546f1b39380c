//! Network blocks for rfgraph, wire-compatible with GNU Radio 3.10.
//!
//! How the crates fit together and the runtime contract:
//! `docs/architecture.md` in the repository. The runtime crate knows
//! nothing of sockets; this crate holds every network protocol:
//!
//! - [`gr_pmt`]: GNU Radio's PMT binary serialization, as a conversion
//!   between rfgraph's [`Pmt`](rfgraph::Pmt) and the bytes
//!   `pmt::serialize` writes (it lives in `rfgraph-blocks`, whose
//!   metadata file blocks share it; re-exported here);
//! - [`tag_header`]: gr-zeromq's stream-tag header;
//! - the blocks: [`zmq`] (gr-zeromq's twelve), [`udp`], [`tcp`] and
//!   [`socket_pdu`] (gr-network's), each a *blocking* block with a thread of its own,
//!   waiting on its socket with a timeout so that a stop is seen
//!   promptly ([`runtime`] holds the one asynchronous runtime their
//!   sockets share);
//! - [`link`]: the two ends of a stream edge between hosts, which
//!   `rfgraph run --host` puts into a flowgraph that spans hosts;
//! - [`BadFrames`]: how every block drops, counts and logs a frame it
//!   cannot use.
//!
//! Blocks that listen bind to `127.0.0.1` unless given another address.

#![warn(missing_docs)]

mod bad_frames;
mod items;
pub mod link;
pub mod registry;
pub mod runtime;
pub mod socket_pdu;
pub mod tag_header;
pub mod tcp;
pub mod udp;
pub mod zmq;

pub use bad_frames::{BadFrames, LOG_INTERVAL};
pub use rfgraph_blocks::gr_pmt;
pub use socket_pdu::{SocketPdu, SocketPduParams, SocketType};
pub use tcp::{LocalAddr, TcpMode, TcpSink, TcpSinkParams, TcpSource, TcpSourceParams};
pub use udp::{HeaderType, UdpSink, UdpSinkParams, UdpSource, UdpSourceParams};
