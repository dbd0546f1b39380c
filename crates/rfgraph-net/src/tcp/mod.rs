//! TCP stream blocks, GNU Radio 3.10's `network.tcp_sink` and
//! `network.tcp_source`: [`TcpSink`] writes its items to one TCP
//! connection as raw bytes (host byte order, as GNU Radio's), and
//! [`TcpSource`] produces items from one connection's byte stream.
//! Either end may be the server or the client.
//!
//! This module owns the two blocks, how they get their connection
//! (`connection`), and the addresses every socket block of the crate
//! shares ([`LocalAddr`], [`DEFAULT_HOST`]). Framing is GNU Radio's:
//! none, the bytes of the items back to back.

mod addr;
mod connection;
mod sink;
mod source;

pub use addr::{DEFAULT_HOST, LocalAddr};
pub(crate) use addr::{resolve, sending_from};
pub use connection::IO_WAIT;
pub use sink::{TcpMode, TcpSink, TcpSinkParams};
pub use source::{TcpSource, TcpSourceParams};

pub(crate) use sink::spec as sink_spec;
pub(crate) use source::spec as source_spec;
