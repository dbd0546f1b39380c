//! [`ZmqMsgSource`]: gr-zeromq's `pull_msg_source`, `sub_msg_source`
//! and `req_msg_source`.

use super::params::MsgSocketParams;
use super::socket::{Kind, SharedEndpoint, ZmqSocket};
use crate::{BadFrames, gr_pmt};
use bytes::Bytes;
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, MessageOutput, Ports, WorkIo};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use zeromq::ZmqMessage;

/// Which gr-zeromq message source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsgSourcePattern {
    /// `pull_msg_source`.
    Pull,
    /// `sub_msg_source` (subscribed to everything, as GNU Radio's).
    Sub,
    /// `req_msg_source`: asks for one message at a time.
    Req,
}

/// Posts each frame that arrives from ZeroMQ peers on `out` as the
/// message it holds, serialized as GNU Radio serializes a PMT
/// ([`gr_pmt`]): a GNU Radio `push_msg_sink`, `pub_msg_sink` or
/// `rep_msg_sink` feeds it unchanged. A frame that does not decode is
/// dropped, counted (`frames_dropped`) and logged at most once a
/// second.
///
/// The source never ends on its own; stop the flowgraph to end it.
///
/// # Message Outputs
/// - `out`: the messages.
///
/// # Parameters
/// [`MsgSocketParams`]; `bind` defaults to false (connect).
///
/// # Statistics
/// `messages_received`, `frames_dropped`.
pub struct ZmqMsgSource {
    output: MessageOutput,
    pattern: MsgSourcePattern,
    params: MsgSocketParams,
    socket: Option<ZmqSocket>,
    bad: BadFrames,
    endpoint: SharedEndpoint,
    received: Arc<AtomicU64>,
}

impl ZmqMsgSource {
    /// A source of `pattern` on `params`.
    pub fn new(pattern: MsgSourcePattern, params: MsgSocketParams) -> Self {
        let label = format!("zeromq {pattern:?} message source ({})", params.address);
        Self {
            output: MessageOutput::new("out"),
            pattern,
            params,
            socket: None,
            bad: BadFrames::new(label),
            endpoint: Arc::default(),
            received: Arc::default(),
        }
    }

    /// The address the socket bound or connected to; set once the
    /// block starts.
    pub fn endpoint(&self) -> SharedEndpoint {
        self.endpoint.clone()
    }

    /// Frames dropped as unusable so far.
    pub fn frames_dropped(&self) -> u64 {
        self.bad.count()
    }
}

impl Block for ZmqMsgSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let kind = match self.pattern {
            MsgSourcePattern::Pull => Kind::Pull,
            MsgSourcePattern::Sub => Kind::Sub,
            MsgSourcePattern::Req => Kind::Req,
        };
        let bind = self.params.bind.unwrap_or(false);
        self.socket = Some(ZmqSocket::open_for_block(
            kind,
            &self.params.address,
            bind,
            "",
            &self.endpoint,
        )?);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        io.call_again_at(Instant::now());
        let wait = self.params.wait();
        let socket = self.socket.as_mut().ok_or("not started")?;
        let message = if self.pattern == MsgSourcePattern::Req {
            // GNU Radio asks for one message: a native int 1.
            socket.ask(
                || ZmqMessage::from(Bytes::copy_from_slice(&1i32.to_ne_bytes())),
                wait,
            )?
        } else {
            socket.recv(wait)?
        };
        let Some(message) = message else {
            return Ok(());
        };
        let Some(frame) = message.into_vec().pop() else {
            return Ok(());
        };
        match gr_pmt::decode(&frame) {
            Ok(msg) => {
                self.received.fetch_add(1, Ordering::Relaxed);
                self.output.post(msg);
            }
            Err(why) => self.bad.drop_frame(&why),
        }
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.socket = None;
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("messages_received", self.received.clone()),
            ("frames_dropped", self.bad.counter()),
        ]
    }

    fn is_blocking(&self) -> bool {
        true
    }
}
