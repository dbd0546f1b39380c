//! [`ZmqMsgSink`]: gr-zeromq's `push_msg_sink`, `pub_msg_sink` and
//! `rep_msg_sink`.

use super::params::MsgSocketParams;
use super::socket::{Kind, Sent, SharedEndpoint, ZmqSocket};
use crate::{BadFrames, gr_pmt};
use bytes::Bytes;
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use zeromq::ZmqMessage;

/// Which gr-zeromq message sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsgSinkPattern {
    /// `push_msg_sink`: each message to one puller; held while none is
    /// connected.
    Push,
    /// `pub_msg_sink`: each message to every subscriber; dropped when
    /// there is none.
    Pub,
    /// `rep_msg_sink`: each message answers one request of a
    /// `req_msg_source`.
    Rep,
}

/// Sends each message that arrives on `in` to ZeroMQ peers as one frame
/// holding the message serialized as GNU Radio serializes a PMT
/// ([`gr_pmt`]): a GNU Radio `pull_msg_source`, `sub_msg_source` or
/// `req_msg_source` (and so its PDU blocks) takes it unchanged. PDUs
/// are pairs of a metadata map and a vector, as in GNU Radio.
///
/// Messages wait in arrival order until a peer takes them (PUSH, REP);
/// the block does not finish while any wait. At most [`MAX_WAITING`]
/// wait: beyond, messages are dropped, counted (`messages_dropped`) and
/// logged at most once a second. A message GNU Radio's
/// format cannot hold (a string over 65,535 bytes) fails the flowgraph
/// with the reason.
///
/// # Message Inputs
/// - `in`: any message.
///
/// # Parameters
/// [`MsgSocketParams`]; `bind` defaults to true.
///
/// # Statistics
/// `messages_sent`, `messages_dropped`.
pub struct ZmqMsgSink {
    pattern: MsgSinkPattern,
    params: MsgSocketParams,
    socket: Option<ZmqSocket>,
    queue: VecDeque<Bytes>,
    endpoint: SharedEndpoint,
    sent: Arc<AtomicU64>,
    dropped: BadFrames,
}

/// The most messages that wait for a peer (libzmq's default high-water
/// mark); more are dropped and counted.
pub const MAX_WAITING: usize = 1000;

impl ZmqMsgSink {
    /// A sink of `pattern` on `params`.
    pub fn new(pattern: MsgSinkPattern, params: MsgSocketParams) -> Self {
        let label = format!("zeromq {pattern:?} message sink ({})", params.address);
        Self {
            pattern,
            params,
            socket: None,
            queue: VecDeque::new(),
            endpoint: Arc::default(),
            sent: Arc::default(),
            dropped: BadFrames::new(label),
        }
    }

    /// The address the socket bound or connected to, resolved; set
    /// once the block starts.
    pub fn endpoint(&self) -> SharedEndpoint {
        self.endpoint.clone()
    }

    /// Sends what waits, as far as peers take it; true when a message
    /// still waits.
    fn flush(&mut self) -> Result<bool, BoxError> {
        let wait = self.params.wait();
        let socket = self.socket.as_mut().ok_or("not started")?;
        while let Some(front) = self.queue.front() {
            if self.pattern == MsgSinkPattern::Rep && socket.pending_request(wait)?.is_none() {
                return Ok(true);
            }
            match socket.send(ZmqMessage::from(front.clone()), wait)? {
                Sent::Yes => {
                    self.queue.pop_front();
                    self.sent.fetch_add(1, Ordering::Relaxed);
                }
                Sent::NotYet => return Ok(true),
            }
        }
        Ok(false)
    }
}

impl Block for ZmqMsgSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let kind = match self.pattern {
            MsgSinkPattern::Push => Kind::Push,
            MsgSinkPattern::Pub => Kind::Pub,
            MsgSinkPattern::Rep => Kind::Rep,
        };
        let bind = self.params.bind.unwrap_or(true);
        self.socket = Some(ZmqSocket::open_for_block(
            kind,
            &self.params.address,
            bind,
            "",
            &self.endpoint,
        )?);
        Ok(())
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if port != "in" {
            return Err(format!("no message input `{port}`").into());
        }
        let frame = Bytes::from(gr_pmt::encode(&msg)?);
        if self.queue.len() >= MAX_WAITING {
            // No peer takes them: drop rather than grow without bound.
            self.dropped
                .drop_frame(&format!("{MAX_WAITING} messages already wait for a peer"));
        } else {
            self.queue.push_back(frame);
        }
        io.call_again_at(Instant::now());
        Ok(Pmt::Null)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if self.flush()? {
            io.call_again_at(Instant::now());
        }
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.socket = None;
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("messages_sent", self.sent.clone()),
            ("messages_dropped", self.dropped.counter()),
        ]
    }

    fn is_blocking(&self) -> bool {
        true
    }
}
