//! UDP stream blocks, GNU Radio 3.10's `network.udp_sink` and
//! `network.udp_source`, wire-compatible with them: [`UdpSink`] sends a
//! stream's items as datagrams with GNU Radio's headers, [`UdpSource`]
//! produces the items of such datagrams, counting the ones lost, late
//! or malformed.
//!
//! This module owns the two blocks, the header layouts and the parser
//! every received datagram goes through ([`header`]), and the
//! bookkeeping of sequence numbers ([`sequence`]). Addresses are
//! [`tcp`](crate::tcp)'s ([`LocalAddr`](crate::LocalAddr)).

pub mod header;
pub mod sequence;
mod sink;
mod source;

pub use header::{Frame, FrameError, HeaderType, parse};
pub use sequence::{REORDER_WINDOW, Sequence, Verdict};
pub use sink::{UdpSink, UdpSinkParams};
pub use source::{MAX_ZERO_FILL, UdpSource, UdpSourceParams};

pub(crate) use sink::spec as sink_spec;
pub(crate) use source::spec as source_spec;

use rfgraph::ParamError;
use rfgraph::params::ItemKind;

/// The most bytes a UDP datagram over IPv4 carries: `payloadsize`'s
/// upper bound.
pub const MAX_PAYLOAD: usize = 65_507;

/// The receive buffer: room for any datagram, over IPv4 or IPv6.
pub(crate) const MAX_DATAGRAM: usize = 65_536;

/// A datagram of `payloadsize` bytes must hold the header and items;
/// with `whole`, its items must be whole vectors of `vlen` items of
/// `item`.
pub(crate) fn check_payload(
    block: &str,
    payloadsize: usize,
    header: HeaderType,
    item: ItemKind,
    vlen: usize,
    whole: bool,
) -> Result<(), ParamError> {
    let head = header.size();
    let vector = item.size().saturating_mul(vlen);
    let data = payloadsize.saturating_sub(head);
    if data < vector {
        return Err(ParamError::new(
            block,
            "payloadsize",
            format!(
                "{payloadsize} bytes leave no room for a {vector}-byte vector after the \
                 {head}-byte header"
            ),
        ));
    }
    if whole && !data.is_multiple_of(vector) {
        return Err(ParamError::new(
            block,
            "payloadsize",
            format!(
                "{payloadsize} bytes less the {head}-byte header are {data} bytes, not a \
                 whole number of {vector}-byte vectors ({} · {vlen} items)",
                item.size()
            ),
        ));
    }
    Ok(())
}
