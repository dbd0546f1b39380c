//! [`ZmqSource`]: gr-zeromq's `pull_source`, `sub_source` and
//! `req_source`.

use super::frame;
use super::params::{StreamSocketParams, SubSourceParams};
use super::pending::Pending;
use super::socket::{Kind, SharedEndpoint, ZmqSocket};
use crate::BadFrames;
use bytes::Bytes;
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Item, Ports, StreamOutput, TagPolicy, WorkIo};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use zeromq::ZmqMessage;

/// Which gr-zeromq source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourcePattern {
    /// `pull_source`: from pushers, fairly.
    Pull,
    /// `sub_source`: what a publisher sends under `key`.
    Sub,
    /// `req_source`: asks a `rep_sink` for as many items as it has room
    /// for, then waits for them.
    Req,
}

/// Receives items from ZeroMQ peers as gr-zeromq's sources do: the
/// socket connects to `address` (in the background: the flowgraph runs
/// while the peer is away, and reconnects when it comes back), each
/// frame must hold whole items (`vlen` scalars of `type` each) in the
/// host's byte order, after a tag header when `pass_tags` is on; a
/// frame larger than the output's room is written out over several
/// calls. A GNU Radio `push_sink`, `pub_sink` or `rep_sink` serves it
/// unchanged.
///
/// Tags arrive on the items they were on at the sender. Frames that do
/// not parse (a bad header, a partial item, a tag outside the frame)
/// are dropped, counted (`frames_dropped`) and logged at most once a
/// second.
///
/// The source never ends on its own (a ZeroMQ peer sends no end of
/// stream); bound it downstream (`head`) or stop the flowgraph.
///
/// # Stream Outputs
/// - `out`: the items (`type`).
///
/// # Parameters
/// [`StreamSocketParams`] (`sub_source`: [`SubSourceParams`]).
///
/// # Statistics
/// `frames_received`, `bytes_received`, `frames_dropped`.
pub struct ZmqSource<T: Item> {
    output: StreamOutput<T>,
    pattern: SourcePattern,
    params: SubSourceParams,
    socket: Option<ZmqSocket>,
    pending: Option<Pending>,
    bad: BadFrames,
    endpoint: SharedEndpoint,
    frames: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
}

impl<T: Item> ZmqSource<T> {
    /// A `pull_source` or `req_source` (a `sub_source` taking everything).
    pub fn new(pattern: SourcePattern, socket: StreamSocketParams) -> Self {
        Self::subscribing(
            pattern,
            SubSourceParams {
                socket,
                key: String::new(),
            },
        )
    }

    /// A source with `sub_source`'s parameters (the key is used by SUB only).
    pub fn subscribing(pattern: SourcePattern, params: SubSourceParams) -> Self {
        let label = format!("zeromq {pattern:?} source ({})", params.socket.address);
        Self {
            output: StreamOutput::new("out"),
            pattern,
            params,
            socket: None,
            pending: None,
            bad: BadFrames::new(label),
            endpoint: SharedEndpoint::default(),
            frames: Arc::default(),
            bytes: Arc::default(),
        }
    }

    /// The address the socket connects to, resolved; set once the block
    /// starts.
    pub fn endpoint(&self) -> SharedEndpoint {
        self.endpoint.clone()
    }

    /// Frames dropped as unusable so far.
    pub fn frames_dropped(&self) -> u64 {
        self.bad.count()
    }

    fn item_size(&self) -> usize {
        size_of::<T>() * self.params.socket.vlen
    }

    /// Waits for the next frame; `None` when none came in time.
    fn receive(&mut self, room: usize) -> Result<Option<ZmqMessage>, BoxError> {
        let wait = self.params.socket.wait();
        let socket = self.socket.as_mut().ok_or("not started")?;
        if self.pattern == SourcePattern::Req {
            // GNU Radio asks for as many items as it has room for: a
            // native u32.
            let room = u32::try_from(room).unwrap_or(u32::MAX);
            let request = || ZmqMessage::from(Bytes::copy_from_slice(&room.to_ne_bytes()));
            return Ok(socket.ask(request, wait)?);
        }
        Ok(socket.recv(wait)?)
    }

    fn accept(&mut self, message: ZmqMessage) {
        // A PUB key, when there is one, is a part of its own before the data.
        let Some(data) = message.into_vec().pop() else {
            self.bad.drop_frame(&frame::FrameError::Empty);
            return;
        };
        self.frames.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
        match frame::parse(data, self.params.socket.pass_tags, self.item_size()) {
            Ok(frame) => self.pending = Some(Pending::new(frame)),
            Err(why) => self.bad.drop_frame(&why),
        }
    }

    /// Writes out as much of the pending frame as there is room for.
    fn flush(&mut self) {
        if let Some(pending) = self.pending.as_mut()
            && pending
                .write_to(&mut self.output, self.params.socket.vlen)
                .1
        {
            self.pending = None;
        }
    }
}

impl<T: Item> Block for ZmqSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        match self.pattern {
            SourcePattern::Sub => Some(&mut self.params),
            SourcePattern::Pull | SourcePattern::Req => Some(&mut self.params.socket),
        }
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let kind = match self.pattern {
            SourcePattern::Pull => Kind::Pull,
            SourcePattern::Sub => Kind::Sub,
            SourcePattern::Req => Kind::Req,
        };
        let (address, key) = (&self.params.socket.address, &self.params.key);
        self.socket = Some(ZmqSocket::open_for_block(
            kind,
            address,
            false,
            key,
            &self.endpoint,
        )?);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let room = self.output.slice().len() / self.params.socket.vlen;
        if room == 0 {
            return Ok(());
        }
        if self.pending.is_none() {
            match self.receive(room)? {
                Some(message) => self.accept(message),
                None => {
                    io.call_again_at(Instant::now());
                    return Ok(());
                }
            }
        }
        self.flush();
        io.call_again_at(Instant::now());
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.socket = None;
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("frames_received", self.frames.clone()),
            ("bytes_received", self.bytes.clone()),
            ("frames_dropped", self.bad.counter()),
        ]
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn is_blocking(&self) -> bool {
        true
    }
}
