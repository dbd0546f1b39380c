//! The ZeroMQ blocks as registry entries: GNU Radio's twelve gr-zeromq
//! blocks under their ids without the module prefix (`zmq_push_sink`
//! for `zeromq_push_sink`).

use super::{
    MsgSinkPattern, MsgSocketParams, MsgSourcePattern, PubSinkParams, SinkPattern, SourcePattern,
    StreamSocketParams, SubSourceParams, ZmqMsgSink, ZmqMsgSource, ZmqSink, ZmqSource,
};
use rfgraph::Block;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

/// The category the blocks are listed under.
const CATEGORY: &str = "Networking";

const STREAM_SINK_DOC: &str = "GNU Radio's gr-zeromq stream sink, byte for byte: binds to \
     `address` (`tcp://host:port`; `*` for every interface) and sends each call's items as \
     one frame of whole items (`vlen` scalars each) in the host's byte order, after \
     gr-zeromq's tag header when `pass_tags` is on. A GNU Radio source of the matching \
     pattern connects unchanged. Runs on a thread of its own; each wait on the socket lasts \
     at most `timeout` ms. `hwm` is accepted for GNU Radio's files; the pure-Rust socket \
     bounds its queues itself.";

const STREAM_SOURCE_DOC: &str = "GNU Radio's gr-zeromq stream source, byte for byte: \
     connects to `address` (in the background, reconnecting when the peer comes back) and \
     writes the items of each frame, with their tags when `pass_tags` is on. Frames that \
     do not parse are dropped, counted (`frames_dropped`) and logged at most once a \
     second. Never ends on its own. Runs on a thread of its own.";

const MSG_DOC: &str = "GNU Radio's gr-zeromq message block: one frame per message, the \
     message serialized as GNU Radio serializes a PMT, so PDUs and any other message \
     cross between the two runtimes. `bind` chooses between binding to and connecting to \
     `address`.";

macro_rules! stream_sink {
    ($name:literal, $pattern:expr, $summary:literal) => {
        BlockSpec::of::<StreamSocketParams>($name, CATEGORY, $summary, |p| {
            crate::items::for_network_item!(p.item, T => ZmqSink::<T>::new($pattern, p))
        })
        .doc(STREAM_SINK_DOC)
        .input(PortSpec::new("in", PortItem::OfType))
    };
}

macro_rules! stream_source {
    ($name:literal, $pattern:expr, $summary:literal) => {
        BlockSpec::of::<StreamSocketParams>($name, CATEGORY, $summary, |p| {
            crate::items::for_network_item!(p.item, T => ZmqSource::<T>::new($pattern, p))
        })
        .doc(STREAM_SOURCE_DOC)
        .output(PortSpec::new("out", PortItem::OfType))
    };
}

fn msg_sink(name: &'static str, pattern: MsgSinkPattern, summary: &'static str) -> BlockSpec {
    BlockSpec::of::<MsgSocketParams>(name, CATEGORY, summary, move |p| {
        Ok(Box::new(ZmqMsgSink::new(pattern, p)) as Box<dyn Block>)
    })
    .doc(MSG_DOC)
    .message_input("in")
}

fn msg_source(name: &'static str, pattern: MsgSourcePattern, summary: &'static str) -> BlockSpec {
    BlockSpec::of::<MsgSocketParams>(name, CATEGORY, summary, move |p| {
        Ok(Box::new(ZmqMsgSource::new(pattern, p)) as Box<dyn Block>)
    })
    .doc(MSG_DOC)
    .message_output("out")
}

/// Every ZeroMQ block.
pub(crate) fn specs() -> Vec<BlockSpec> {
    vec![
        stream_sink!(
            "zmq_push_sink",
            SinkPattern::Push,
            "Pushes items to ZeroMQ pullers (gr-zeromq)."
        ),
        stream_sink!(
            "zmq_rep_sink",
            SinkPattern::Rep,
            "Answers ZeroMQ requests with items (gr-zeromq)."
        ),
        BlockSpec::of::<PubSinkParams>(
            "zmq_pub_sink",
            CATEGORY,
            "Publishes items to ZeroMQ subscribers (gr-zeromq).",
            |p| {
                crate::items::for_network_item!(p.socket.item, T => ZmqSink::<T>::publishing(SinkPattern::Pub, p))
            },
        )
        .doc(STREAM_SINK_DOC)
        .input(PortSpec::new("in", PortItem::OfType)),
        stream_source!(
            "zmq_pull_source",
            SourcePattern::Pull,
            "Pulls items from ZeroMQ pushers (gr-zeromq)."
        ),
        stream_source!(
            "zmq_req_source",
            SourcePattern::Req,
            "Requests items from a ZeroMQ replier (gr-zeromq)."
        ),
        BlockSpec::of::<SubSourceParams>(
            "zmq_sub_source",
            CATEGORY,
            "Subscribes to items from a ZeroMQ publisher (gr-zeromq).",
            |p| {
                crate::items::for_network_item!(p.socket.item, T => ZmqSource::<T>::subscribing(SourcePattern::Sub, p))
            },
        )
        .doc(STREAM_SOURCE_DOC)
        .output(PortSpec::new("out", PortItem::OfType)),
        msg_sink(
            "zmq_push_msg_sink",
            MsgSinkPattern::Push,
            "Pushes messages to ZeroMQ pullers (gr-zeromq).",
        ),
        msg_sink(
            "zmq_pub_msg_sink",
            MsgSinkPattern::Pub,
            "Publishes messages to ZeroMQ subscribers (gr-zeromq).",
        ),
        msg_sink(
            "zmq_rep_msg_sink",
            MsgSinkPattern::Rep,
            "Answers ZeroMQ requests with messages (gr-zeromq).",
        ),
        msg_source(
            "zmq_pull_msg_source",
            MsgSourcePattern::Pull,
            "Pulls messages from ZeroMQ pushers (gr-zeromq).",
        ),
        msg_source(
            "zmq_sub_msg_source",
            MsgSourcePattern::Sub,
            "Subscribes to messages from a ZeroMQ publisher (gr-zeromq).",
        ),
        msg_source(
            "zmq_req_msg_source",
            MsgSourcePattern::Req,
            "Requests messages from a ZeroMQ replier (gr-zeromq).",
        ),
    ]
}
