//! [`HostLinkSink`]: the writer's end of a host link.

use super::{END, LinkParams, Liveness, credit_address, watch_peer};
use crate::zmq::frame;
use crate::zmq::pool::FramePool;
use crate::zmq::socket::{Kind, Sent, ZmqSocket};
use bytes::Bytes;
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, WorkIo};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use zeromq::ZmqMessage;

/// The longest one wait on a socket lasts, so a stop is seen promptly.
const WAIT: Duration = Duration::from_millis(100);

/// How long `init` retries a port still held by a writer before it.
const REBIND_WAIT: Duration = Duration::from_secs(3);

/// The most bytes of items one frame carries.
const MAX_FRAME_BYTES: usize = 1 << 20;

/// Sends its input to the [`HostLinkSource`](super::HostLinkSource) on
/// another host: gr-zeromq PUSH frames with tags, at most `window`
/// bytes ahead of what the source has acknowledged, an end-of-stream
/// frame when the input ends, and heartbeats while idle (see
/// [`link`](super) for the protocol). Binds `address` and the next port.
///
/// # Stream Inputs
/// - `in`: the items (`type`).
///
/// # Parameters
/// [`LinkParams`].
///
/// # Statistics
/// `bytes_sent`, `bytes_in_flight`, `peer_losses`.
pub struct HostLinkSink<T: Item> {
    input: StreamInput<T>,
    params: LinkParams,
    data: Option<ZmqSocket>,
    credit: Option<ZmqSocket>,
    live: Liveness,
    in_flight: u64,
    /// The end-of-stream frame is out.
    ended: bool,
    sent: Arc<AtomicU64>,
    flight: Arc<AtomicU64>,
    losses: Arc<AtomicU64>,
    pool: FramePool,
}

impl<T: Item> HostLinkSink<T> {
    /// The writer's end of a link with `params`.
    pub fn new(params: LinkParams) -> Self {
        let live = Liveness::new(params.timeout(), Instant::now());
        Self {
            input: StreamInput::new("in"),
            params,
            data: None,
            credit: None,
            live,
            in_flight: 0,
            ended: false,
            sent: Arc::default(),
            flight: Arc::default(),
            losses: Arc::default(),
            pool: FramePool::default(),
        }
    }

    /// Binds both sockets, anew: a lost reader's connections go with the
    /// old ones, so nothing is sent to it any more.
    fn open(&mut self) -> Result<(), BoxError> {
        self.data = None;
        self.credit = None;
        let address = &self.params.address;
        let acks = credit_address(address)?;
        // A writer restarted on this host finds its ports still held for
        // a moment by the one before it.
        let bind = |kind, at: &str| {
            let deadline = Instant::now() + REBIND_WAIT;
            loop {
                match ZmqSocket::open(kind, at, true, "") {
                    Ok(socket) => return Ok(socket),
                    Err(_) if Instant::now() < deadline => std::thread::sleep(WAIT / 2),
                    Err(e) => return Err(format!("binding {at}: {e}")),
                }
            }
        };
        self.data = Some(bind(Kind::Push, address)?);
        self.credit = Some(bind(Kind::Pull, &acks)?);
        Ok(())
    }

    /// Takes every acknowledgement that has arrived, waiting up to
    /// `wait` for the first.
    fn take_credits(&mut self, wait: Duration, now: Instant) -> Result<(), BoxError> {
        let credit = self.credit.as_mut().ok_or("not started")?;
        let mut wait = wait;
        while let Some(message) = credit.recv(wait)? {
            wait = Duration::ZERO;
            self.live.heard(now);
            let acked = message
                .get(0)
                .and_then(|f| f.get(..8))
                .map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")));
            self.in_flight = self.in_flight.saturating_sub(acked);
        }
        self.flight.store(self.in_flight, Ordering::Relaxed);
        Ok(())
    }

    /// Applies the peer's state (see [`watch_peer`]).
    fn watch_peer(&mut self, now: Instant) -> Result<(), BoxError> {
        if watch_peer(
            &mut self.live,
            now,
            &self.params,
            &self.losses,
            self.in_flight,
        )? {
            self.in_flight = 0;
            self.open()?;
        }
        Ok(())
    }

    fn send(&mut self, frame: Bytes, now: Instant) -> Result<bool, BoxError> {
        let data = self.data.as_mut().ok_or("not started")?;
        match data.send(ZmqMessage::from(frame), WAIT)? {
            Sent::Yes => {
                self.live.said(now);
                Ok(true)
            }
            Sent::NotYet => Ok(false),
        }
    }

    /// Whole items to send now: what the input has, as far as the window
    /// allows (always at least one item when nothing is in flight).
    fn items_to_send(&mut self) -> usize {
        let available = self.input.slice().len();
        let room = (self.params.window as u64).saturating_sub(self.in_flight) as usize;
        let mut n = available.min(room.min(MAX_FRAME_BYTES) / size_of::<T>());
        if n == 0 && self.in_flight == 0 {
            n = available.min(1);
        }
        n
    }
}

impl<T: Item> Block for HostLinkSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn init(&mut self) -> Result<(), BoxError> {
        self.open()?;
        self.live = Liveness::new(self.params.timeout(), Instant::now());
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let now = Instant::now();
        self.take_credits(Duration::ZERO, now)?;
        self.watch_peer(now)?;
        let n = self.items_to_send();
        if n > 0 {
            let first = self.input.position();
            let end = first + n as u64;
            let tags: Vec<_> = self
                .input
                .tags()
                .into_iter()
                .filter(|t| t.index < end)
                .collect();
            let items = bytemuck::cast_slice(&self.input.slice()[..n]);
            let frame = frame::build_in(&self.pool, items, first, &tags, true)?;
            if self.send(frame, now)? {
                self.input.consume(n);
                let bytes = (n * size_of::<T>()) as u64;
                self.in_flight += bytes;
                self.sent.fetch_add(bytes, Ordering::Relaxed);
            }
            io.call_again_at(Instant::now());
            return Ok(());
        }
        if self.input.is_finished() {
            if !self.ended {
                self.ended = self.send(Bytes::from_static(END), now)?;
            } else if self.in_flight == 0 {
                io.finish();
                return Ok(());
            }
        } else if self.live.heartbeat_due(now) {
            self.send(frame::build(&[], self.input.position(), &[], true)?, now)?;
        }
        // Waiting: for acknowledgements (a full window, the end), for
        // input, or for the next heartbeat.
        if self.in_flight > 0 {
            self.take_credits(WAIT, now)?;
            io.call_again_at(Instant::now());
        } else {
            io.call_again_at(self.live.next_heartbeat(Instant::now()));
        }
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.data = None;
        self.credit = None;
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("bytes_sent", self.sent.clone()),
            ("bytes_in_flight", self.flight.clone()),
            ("peer_losses", self.losses.clone()),
        ]
    }

    fn tag_policy(&self) -> rfgraph::TagPolicy {
        rfgraph::TagPolicy::Manual
    }

    fn is_blocking(&self) -> bool {
        true
    }
}

/// The registry entry: `host_link_sink`.
pub(super) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<LinkParams>(
        "host_link_sink",
        "Networking",
        "The writer's end of a stream edge between hosts.",
        |p| crate::items::for_any_item!(p.item, T => HostLinkSink::<T>::new(p)),
    )
    .doc(
        "What `rfgraph run --host` puts where a stream edge leaves this host: gr-zeromq \
         PUSH frames with tags to the `host_link_source` on the reader's host, at most \
         `window` bytes ahead of what it acknowledged (on the next port), an end-of-stream \
         frame when the input ends, heartbeats while idle. A peer silent for `peer_timeout` \
         after first contact fails the run naming it (`on_loss = \"stop\"`) or is waited \
         for again (`\"reconnect\"`). Binds `address`.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
}
