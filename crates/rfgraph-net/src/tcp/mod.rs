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

/// The item types GNU Radio's network blocks carry (`complex`, `float`,
/// `int`, `short`, `byte`), for a `BlockSpec::of` constructor:
/// `for_network_item!(p.item, T => TcpSink::<T>::new(p)?)`.
macro_rules! for_network_item {
    ($kind:expr, $t:ident => $body:expr) => {
        rfgraph::for_item_kinds!($kind, {
            C32 => num_complex::Complex32,
            F32 => f32,
            I32 => i32,
            I16 => i16,
            U8 => u8,
        } as $t => $body)
    };
}
pub(crate) use for_network_item;

/// The item kind whose Rust type is `T`, when it is one of the network
/// blocks' types: what a generic block built from Rust code reports as
/// its `type` parameter.
pub(crate) fn kind_of<T: 'static>() -> Option<rfgraph::params::ItemKind> {
    use rfgraph::params::ItemKind;
    use std::any::TypeId;
    let id = TypeId::of::<T>();
    [
        (TypeId::of::<num_complex::Complex32>(), ItemKind::C32),
        (TypeId::of::<f32>(), ItemKind::F32),
        (TypeId::of::<i32>(), ItemKind::I32),
        (TypeId::of::<i16>(), ItemKind::I16),
        (TypeId::of::<u8>(), ItemKind::U8),
    ]
    .into_iter()
    .find(|(t, _)| *t == id)
    .map(|(_, k)| k)
}
