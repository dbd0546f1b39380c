//! GNU Radio's `zeromq` module (gr-zeromq): the six stream blocks and
//! the six message blocks, each to the `zmq_*` block of `rfgraph-net`
//! that speaks the same wire format.
//!
//! Owns only these table entries. GNU Radio's `address` and `key` are
//! GRC string parameters (`tcp://127.0.0.1:5555`, or a quoted Python
//! string) and become text; `timeout`, `hwm`, `pass_tags`,
//! `drop_on_hwm` and `bind` share the registry's names and pass as
//! expressions (`True`/`False` as booleans).

use super::{Map, P};

const T: P = P::Type("type");
const ADDRESS: P = P::Str("address", "address");
const KEY: P = P::Str("key", "key");

const fn m(gr: &'static str, rf: &'static str, params: &'static [P]) -> Map {
    Map { gr, rf, params }
}

/// The entries.
pub(super) const MAPS: &[Map] = &[
    // Stream blocks: item type, vector length, address.
    m("zeromq_push_sink", "zmq_push_sink", &[T, P::Vlen, ADDRESS]),
    m(
        "zeromq_pull_source",
        "zmq_pull_source",
        &[T, P::Vlen, ADDRESS],
    ),
    m(
        "zeromq_pub_sink",
        "zmq_pub_sink",
        &[T, P::Vlen, ADDRESS, KEY],
    ),
    m(
        "zeromq_sub_source",
        "zmq_sub_source",
        &[T, P::Vlen, ADDRESS, KEY],
    ),
    m("zeromq_rep_sink", "zmq_rep_sink", &[T, P::Vlen, ADDRESS]),
    m(
        "zeromq_req_source",
        "zmq_req_source",
        &[T, P::Vlen, ADDRESS],
    ),
    // Message blocks: address (and `bind`, by name).
    m("zeromq_push_msg_sink", "zmq_push_msg_sink", &[ADDRESS]),
    m("zeromq_pull_msg_source", "zmq_pull_msg_source", &[ADDRESS]),
    m("zeromq_pub_msg_sink", "zmq_pub_msg_sink", &[ADDRESS]),
    m("zeromq_sub_msg_source", "zmq_sub_msg_source", &[ADDRESS]),
    m("zeromq_rep_msg_sink", "zmq_rep_msg_sink", &[ADDRESS]),
    m("zeromq_req_msg_source", "zmq_req_msg_source", &[ADDRESS]),
];
