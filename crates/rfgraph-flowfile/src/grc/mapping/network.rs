//! GNU Radio's `network` module: the TCP and UDP stream blocks and the
//! socket PDU block, each to the `rfgraph-net` block that is wire
//! compatible with it (`network_tuntap_pdu` has no rfgraph block).
//!
//! Owns only these table entries. GNU Radio's addresses (`addr`,
//! `host`) are GRC string parameters and become text; its enumerations
//! (`tcp_sink`'s mode `1`/`2`, `udp_*`'s header numbers, `socket_pdu`'s
//! `TCP_SERVER`, ...) become the registry's choice names, and a value
//! rfgraph lacks (the CHDR and ATA headers) makes the block unsupported.
//! The rest (`port`, `payloadsize`, `send_eof`, `server`, `ipv6`,
//! `notify_missed`, `src_zeros`, `mtu`, `tcp_no_delay`) passes by name
//! or alias.

use super::{Map, P};

const T: P = P::Type("type");

/// GNU Radio's UDP header numbers; `4` (CHDR, sink only) and `5` (ATA,
/// source only) have no rfgraph form.
const HEADER: P = P::Enum(
    "header",
    "header",
    &[("0", "none"), ("1", "seqnum"), ("2", "seq_plus_size")],
);

const fn m(gr: &'static str, rf: &'static str, params: &'static [P]) -> Map {
    Map { gr, rf, params }
}

/// The entries.
pub(super) const MAPS: &[Map] = &[
    m(
        "network_tcp_sink",
        "tcp_sink",
        &[
            T,
            P::Vlen,
            P::Str("addr", "host"),
            P::Enum("mode", "mode", &[("1", "client"), ("2", "server")]),
        ],
    ),
    m(
        "network_tcp_source",
        "tcp_source",
        &[T, P::Vlen, P::Str("addr", "host")],
    ),
    m(
        "network_udp_sink",
        "udp_sink",
        &[T, P::Vlen, P::Str("addr", "host"), HEADER],
    ),
    // GNU Radio's source has no address: it listens on every interface,
    // rfgraph's on the loopback one unless told otherwise.
    m("network_udp_source", "udp_source", &[T, P::Vlen, HEADER]),
    m(
        "network_socket_pdu",
        "socket_pdu",
        &[
            P::Enum(
                "type",
                "type",
                &[
                    ("TCP_SERVER", "tcp_server"),
                    ("TCP_CLIENT", "tcp_client"),
                    ("UDP_SERVER", "udp_server"),
                    ("UDP_CLIENT", "udp_client"),
                ],
            ),
            P::Str("host", "host"),
        ],
    ),
];
