//! This crate's blocks as registry entries (`rfgraph::registry::BlockSpec`):
//! each block file describes its block next to its code, and [`specs`]
//! lists them all for the `rfgraph-flowfile` crate.

use rfgraph::registry::BlockSpec;

/// Every block of this crate, described for the registry.
pub fn specs() -> Vec<BlockSpec> {
    vec![
        crate::socket_pdu::spec(),
        crate::tcp::sink_spec(),
        crate::tcp::source_spec(),
        crate::udp::sink_spec(),
        crate::udp::source_spec(),
    ]
    .into_iter()
    .chain(crate::zmq::specs())
    .chain(crate::link::specs())
    .collect()
}
