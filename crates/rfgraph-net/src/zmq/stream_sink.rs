//! [`ZmqSink`]: gr-zeromq's `push_sink`, `pub_sink` and `rep_sink`.

use super::frame;
use super::params::{PubSinkParams, StreamSocketParams};
use super::pool::FramePool;
use super::socket::{Kind, Sent, SharedEndpoint, ZmqSocket};
use bytes::Bytes;
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, WorkIo};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use zeromq::ZmqMessage;

/// The most bytes of items one frame carries: a bound on the copy a
/// frame costs and on what a slow peer holds queued.
pub const MAX_FRAME_BYTES: usize = 1 << 20;

/// How long a finished sink waits for the frames its socket still holds.
pub const LINGER: std::time::Duration = std::time::Duration::from_secs(1);

/// Which gr-zeromq sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinkPattern {
    /// `push_sink`: to one puller at a time, blocking while none has room
    /// (back-pressure reaches this flowgraph).
    Push,
    /// `pub_sink`: to every subscriber, dropping frames nobody takes.
    Pub,
    /// `rep_sink`: answers each request of a `req_source` with at most
    /// the number of items it asked for.
    Rep,
}

/// Sends its input to ZeroMQ peers as gr-zeromq's sinks do: the socket
/// binds to `address`, each frame holds whole items (`vlen` scalars
/// each) in the host's byte order, after a tag header when `pass_tags`
/// is on, and a PUB key (when set) goes first as a frame of its own.
/// A GNU Radio `pull_source`, `sub_source` or `req_source` connects
/// unchanged.
///
/// The block runs on a thread of its own; each wait on the socket lasts
/// at most `timeout`, so a stop is seen promptly. Items leave the ring
/// only once their frame is queued for a peer, and the socket holds at
/// most `hwm` frames (8 by default, see [`FramePool`]): with PUSH and REP
/// a peer that does not read holds this flowgraph back, as in GNU Radio;
/// a PUB sink with `drop_on_hwm` drops frames instead (`frames_dropped`).
///
/// # Stream Inputs
/// - `in`: the items (`type`).
///
/// # Parameters
/// [`StreamSocketParams`] (`pub_sink`: [`PubSinkParams`]).
///
/// # Statistics
/// `frames_sent`, `bytes_sent`, `frames_dropped`.
///
/// # Usage
/// ```
/// use rfgraph::params::ItemKind;
/// use rfgraph_net::zmq::{SinkPattern, StreamSocketParams, ZmqSink};
/// let sink = ZmqSink::<f32>::new(
///     SinkPattern::Push,
///     StreamSocketParams::new(ItemKind::F32, "tcp://127.0.0.1:0"),
/// );
/// ```
pub struct ZmqSink<T: Item> {
    input: StreamInput<T>,
    pattern: SinkPattern,
    params: PubSinkParams,
    socket: Option<ZmqSocket>,
    endpoint: SharedEndpoint,
    frames: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
    dropped: Arc<AtomicU64>,
    pool: FramePool,
}

impl<T: Item> ZmqSink<T> {
    /// A `push_sink` or `rep_sink` (a `pub_sink` without a key).
    pub fn new(pattern: SinkPattern, socket: StreamSocketParams) -> Self {
        Self::publishing(
            pattern,
            PubSinkParams {
                socket,
                key: String::new(),
                drop_on_hwm: true,
            },
        )
    }

    /// A sink with `pub_sink`'s parameters (the key is used by PUB only).
    pub fn publishing(pattern: SinkPattern, params: PubSinkParams) -> Self {
        Self {
            input: StreamInput::new("in"),
            pattern,
            params,
            socket: None,
            endpoint: Arc::default(),
            frames: Arc::default(),
            bytes: Arc::default(),
            dropped: Arc::default(),
            pool: FramePool::default(),
        }
    }

    /// The address the socket bound to, resolved (the port a `:0`
    /// address got), shared: set once the block starts.
    pub fn endpoint(&self) -> SharedEndpoint {
        self.endpoint.clone()
    }

    fn socket_params(&self) -> &StreamSocketParams {
        &self.params.socket
    }

    /// How many whole GNU Radio items to send now.
    fn items_to_send(&mut self) -> usize {
        let vlen = self.socket_params().vlen;
        let per_item = size_of::<T>() * vlen;
        let available = self.input.slice().len() / vlen;
        available.min((MAX_FRAME_BYTES / per_item).max(1))
    }

    /// The message for the first `n` GNU Radio items of the input.
    fn message(&mut self, n: usize) -> Result<ZmqMessage, BoxError> {
        let vlen = self.params.socket.vlen;
        let pass_tags = self.params.socket.pass_tags;
        let first = self.input.position();
        let scalars = n * vlen;
        let tags = if pass_tags {
            let end = first + scalars as u64;
            self.input
                .tags()
                .into_iter()
                .filter(|t| t.index < end)
                .map(|mut t| {
                    t.index /= vlen as u64;
                    t
                })
                .collect()
        } else {
            Vec::new()
        };
        let items = bytemuck::cast_slice(&self.input.slice()[..scalars]);
        let data = frame::build_in(&self.pool, items, first / vlen as u64, &tags, pass_tags)?;
        let mut message = ZmqMessage::from(data);
        if self.pattern == SinkPattern::Pub && !self.params.key.is_empty() {
            message.push_front(Bytes::from(self.params.key.clone().into_bytes()));
        }
        Ok(message)
    }

    fn sent(&mut self, n: usize) {
        let vlen = self.params.socket.vlen;
        self.input.consume(n * vlen);
        self.frames.fetch_add(1, Ordering::Relaxed);
        self.bytes
            .fetch_add((n * vlen * size_of::<T>()) as u64, Ordering::Relaxed);
    }
}

impl<T: Item> Block for ZmqSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        match self.pattern {
            SinkPattern::Pub => Some(&mut self.params),
            SinkPattern::Push | SinkPattern::Rep => Some(&mut self.params.socket),
        }
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let kind = match self.pattern {
            SinkPattern::Push => Kind::Push,
            SinkPattern::Pub => Kind::Pub,
            SinkPattern::Rep => Kind::Rep,
        };
        let address = &self.params.socket.address;
        self.socket = Some(ZmqSocket::open_for_block(
            kind,
            address,
            true,
            "",
            &self.endpoint,
        )?);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.items_to_send();
        if n == 0 {
            return Ok(());
        }
        let wait = self.params.socket.wait();
        let mut n = n;
        if self.pattern == SinkPattern::Rep {
            let socket = self.socket.as_mut().ok_or("not started")?;
            let Some(request) = socket.pending_request(wait)? else {
                io.call_again_at(Instant::now());
                return Ok(());
            };
            // The request: how many items the source has room for (a
            // native u32, as GNU Radio writes it).
            if let Some(bytes) = request.get(0).and_then(|f| f.get(..4)) {
                let asked = u32::from_ne_bytes(bytes.try_into().expect("4 bytes"));
                n = n.min(asked as usize);
            }
        }
        // The high-water mark: wait until the socket holds fewer frames.
        if let Some(limit) = self.params.socket.frames_held()
            && !self.pool.wait_below(limit, wait)
        {
            if self.pattern == SinkPattern::Pub && self.params.drop_on_hwm {
                // A publisher drops for slow subscribers rather than wait.
                self.input.consume(n * self.params.socket.vlen);
                self.dropped.fetch_add(1, Ordering::Relaxed);
            } else {
                io.call_again_at(Instant::now());
            }
            return Ok(());
        }
        let message = self.message(n)?;
        let socket = self.socket.as_mut().ok_or("not started")?;
        match socket.send(message, wait)? {
            Sent::Yes => self.sent(n),
            Sent::NotYet => io.call_again_at(Instant::now()),
        }
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        // libzmq's linger: frames the socket still holds get a moment to
        // leave before it closes (a process that exits next would lose
        // them).
        self.pool.wait_below(1, LINGER);
        self.socket = None;
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("frames_sent", self.frames.clone()),
            ("bytes_sent", self.bytes.clone()),
            ("frames_dropped", self.dropped.clone()),
        ]
    }

    fn is_blocking(&self) -> bool {
        true
    }
}
