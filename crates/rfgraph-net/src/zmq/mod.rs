//! GNU Radio 3.10's gr-zeromq blocks, byte for byte.
//!
//! - stream blocks: [`ZmqSink`] (`push_sink`, `pub_sink`, `rep_sink`)
//!   and [`ZmqSource`] (`pull_source`, `sub_source`, `req_source`);
//!   frames in [`frame`];
//! - message blocks: [`ZmqMsgSink`] and [`ZmqMsgSource`], one
//!   serialized PMT ([`gr_pmt`](crate::gr_pmt)) per frame;
//! - [`socket`]: the ZeroMQ socket under each, on the pure-Rust
//!   `zeromq` crate; [`address`]: GNU Radio's addresses.
//!
//! As in GNU Radio, stream sinks bind and stream sources connect;
//! message blocks take a `bind` parameter (sinks bind by default,
//! sources connect).

pub mod address;
pub mod frame;
mod msg_sink;
mod msg_source;
mod params;
pub mod pending;
pub mod pool;
pub mod socket;
mod specs;
mod stream_sink;
mod stream_source;

pub use msg_sink::{MAX_WAITING, MsgSinkPattern, ZmqMsgSink};
pub use msg_source::{MsgSourcePattern, ZmqMsgSource};
pub use params::{MsgSocketParams, PubSinkParams, StreamSocketParams, SubSourceParams};
pub(crate) use specs::specs;
pub use stream_sink::{LINGER, MAX_FRAME_BYTES, SinkPattern, ZmqSink};
pub use stream_source::{SourcePattern, ZmqSource};
