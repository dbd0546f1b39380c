//! [`HostLinkSource`]: the reader's end of a host link.

use super::{END, LinkParams, Liveness, credit_address, watch_peer};
use crate::BadFrames;
use crate::zmq::frame;
use crate::zmq::pending::Pending;
use crate::zmq::socket::{Kind, Sent, ZmqSocket};
use bytes::Bytes;
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Item, Ports, StreamOutput, TagPolicy, WorkIo};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use zeromq::ZmqMessage;

/// The longest one wait on a socket lasts, so a stop is seen promptly.
const WAIT: Duration = Duration::from_millis(100);

/// Receives the stream a [`HostLinkSink`](super::HostLinkSink) on
/// another host sends, with its tags, acknowledging every byte it writes
/// out so that the writer host never runs more than its window ahead
/// (see [`link`](super) for the protocol). Connects to `address` and the
/// next port; ends its output when the writer's stream ends.
///
/// # Stream Outputs
/// - `out`: the items (`type`).
///
/// # Parameters
/// [`LinkParams`] (`window` is the sink's).
///
/// # Statistics
/// `bytes_received`, `frames_dropped`, `peer_losses`.
pub struct HostLinkSource<T: Item> {
    output: StreamOutput<T>,
    params: LinkParams,
    data: Option<ZmqSocket>,
    credit: Option<ZmqSocket>,
    pending: Option<Pending>,
    live: Liveness,
    /// Bytes written out and not yet acknowledged.
    unacked: u64,
    ended: bool,
    bad: BadFrames,
    received: Arc<AtomicU64>,
    losses: Arc<AtomicU64>,
}

impl<T: Item> HostLinkSource<T> {
    /// The reader's end of a link with `params`.
    pub fn new(params: LinkParams) -> Self {
        let live = Liveness::new(params.timeout(), Instant::now());
        let bad = BadFrames::new(format!("host link from `{}`", params.peer));
        Self {
            output: StreamOutput::new("out"),
            params,
            data: None,
            credit: None,
            pending: None,
            live,
            unacked: 0,
            ended: false,
            bad,
            received: Arc::default(),
            losses: Arc::default(),
        }
    }

    /// Opens both sockets, anew, to connect to the writer host (again).
    fn open(&mut self) -> Result<(), BoxError> {
        self.data = None;
        self.credit = None;
        let address = &self.params.address;
        let acks = credit_address(address)?;
        let connect = |kind, at: &str| {
            ZmqSocket::open(kind, at, false, "").map_err(|e| format!("opening {at}: {e}"))
        };
        self.data = Some(connect(Kind::Pull, address)?);
        self.credit = Some(connect(Kind::Push, &acks)?);
        Ok(())
    }

    /// Acknowledges what was written out (a zero when a heartbeat is due).
    fn acknowledge(&mut self, now: Instant) -> Result<(), BoxError> {
        if self.unacked == 0 && !self.live.heartbeat_due(now) {
            return Ok(());
        }
        let credit = self.credit.as_mut().ok_or("not started")?;
        let message = ZmqMessage::from(Bytes::copy_from_slice(&self.unacked.to_ne_bytes()));
        if let Sent::Yes = credit.send(message, Duration::ZERO)? {
            self.unacked = 0;
            self.live.said(now);
        }
        Ok(())
    }

    /// Applies the peer's state (see [`watch_peer`]).
    fn watch_peer(&mut self, now: Instant) -> Result<(), BoxError> {
        if watch_peer(&mut self.live, now, &self.params, &self.losses, 0)? {
            self.unacked = 0;
            self.open()?;
        }
        Ok(())
    }

    fn accept(&mut self, message: ZmqMessage, now: Instant) {
        self.live.heard(now);
        let Some(data) = message.into_vec().pop() else {
            return;
        };
        if data.as_ref() == END {
            self.ended = true;
            return;
        }
        self.received
            .fetch_add(data.len() as u64, Ordering::Relaxed);
        match frame::parse(data, true, size_of::<T>()) {
            Ok(f) if f.payload.is_empty() => {}
            Ok(f) => self.pending = Some(Pending::new(f)),
            Err(why) => self.bad.drop_frame(&why),
        }
    }
}

impl<T: Item> Block for HostLinkSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
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
        if let Some(pending) = self.pending.as_mut() {
            let (written, done) = pending.write_to(&mut self.output, 1);
            self.unacked += (written * size_of::<T>()) as u64;
            if done {
                self.pending = None;
            }
        }
        self.acknowledge(now)?;
        let full = self.output.slice().is_empty();
        if self.pending.is_none() {
            if self.ended {
                if self.unacked == 0 {
                    io.finish();
                    return Ok(());
                }
            } else if !full {
                let data = self.data.as_mut().ok_or("not started")?;
                match data.recv(WAIT)? {
                    Some(message) => self.accept(message, Instant::now()),
                    None => self.watch_peer(Instant::now())?,
                }
            }
        }
        // A full output wakes this block when there is room; until then
        // it only has heartbeats to say.
        let next = if full {
            self.live.next_heartbeat(Instant::now())
        } else {
            Instant::now()
        };
        io.call_again_at(next);
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.data = None;
        self.credit = None;
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("bytes_received", self.received.clone()),
            ("frames_dropped", self.bad.counter()),
            ("peer_losses", self.losses.clone()),
        ]
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn is_blocking(&self) -> bool {
        true
    }
}

/// The registry entry: `host_link_source`.
pub(super) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<LinkParams>(
        "host_link_source",
        "Networking",
        "The reader's end of a stream edge between hosts.",
        |p| crate::items::for_any_item!(p.item, T => HostLinkSource::<T>::new(p)),
    )
    .doc(
        "What `rfgraph run --host` puts where a stream edge enters this host: receives the \
         items and tags the `host_link_sink` on the writer's host sends, acknowledges \
         every byte it writes out (so the writer never runs more than its window ahead), \
         and ends its output when the writer's stream ends. A peer silent for \
         `peer_timeout` after first contact fails the run naming it (`on_loss = \"stop\"`) \
         or is waited for again (`\"reconnect\"`). Connects to `address`.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
