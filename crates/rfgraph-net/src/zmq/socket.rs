//! [`ZmqSocket`]: one ZeroMQ socket of any of the six kinds gr-zeromq
//! uses, bound or connected the way GNU Radio does it, with every wait
//! bounded so that its block sees a stop promptly.
//!
//! A bound socket listens from `open` on. A connecting socket connects
//! in the background on the shared runtime ([`crate::runtime`]), as
//! libzmq does: the flowgraph starts whether or not its peer is up, and
//! a peer that goes away is reconnected to when it comes back (the
//! pure-Rust sockets other than SUB do not do that themselves: the socket
//! watches its events and starts over when its peer disconnects).

use crate::runtime;
use futures::channel::mpsc;
use std::time::Duration;
use zeromq::{
    PubSocket, PullSocket, PushSocket, RepSocket, ReqSocket, Socket, SocketEvent, SocketRecv,
    SocketSend, SubSocket, ZmqError, ZmqMessage,
};

/// The least time one connection attempt is given.
const CONNECT_SLICE: Duration = Duration::from_millis(50);

/// The ZeroMQ socket types gr-zeromq uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Sends round-robin to its peers, blocking when they are full.
    Push,
    /// Receives from its peers, fairly.
    Pull,
    /// Sends to every subscriber whose subscription prefixes the
    /// message; drops when there is none.
    Pub,
    /// Receives what it subscribed to.
    Sub,
    /// Asks, then waits for the answer.
    Req,
    /// Waits for a question, then answers.
    Rep,
}

/// `$body` with `$s` bound to whichever zeromq socket `$inner` holds.
macro_rules! on_any {
    ($inner:expr, $s:ident => $body:expr) => {
        match $inner {
            Inner::Push($s) => $body,
            Inner::Pull($s) => $body,
            Inner::Pub($s) => $body,
            Inner::Sub($s) => $body,
            Inner::Req($s) => $body,
            Inner::Rep($s) => $body,
        }
    };
}

enum Inner {
    Push(PushSocket),
    Pull(PullSocket),
    Pub(PubSocket),
    Sub(SubSocket),
    Req(ReqSocket),
    Rep(RepSocket),
}

/// A block's socket address as resolved (the port a `:0` bind got),
/// shared with whoever holds the block: set once the block starts.
pub type SharedEndpoint = std::sync::Arc<std::sync::Mutex<Option<String>>>;

/// What became of a message handed to [`ZmqSocket::send`].
#[derive(Debug)]
pub enum Sent {
    /// Queued for the peer.
    Yes,
    /// Not sent: no peer yet, or the peer's queue stayed full for the
    /// whole wait. Try again later with the same data.
    NotYet,
}

/// One socket, bound or connecting.
pub struct ZmqSocket {
    kind: Kind,
    key: String,
    inner: Inner,
    /// The address as resolved (the port a `:0` bind got).
    endpoint: String,
    /// For a connecting socket: the peer's address.
    peer: Option<String>,
    /// A connecting socket that has not reached its peer yet.
    connecting: bool,
    /// A connecting socket's events: a lost peer makes it start over.
    events: Option<mpsc::Receiver<SocketEvent>>,
    /// REQ: a request is out, its reply not yet in.
    asked: bool,
    /// REP: the request being answered (received, its reply not yet
    /// sent).
    request: Option<ZmqMessage>,
}

/// A new socket of `kind`, subscribed to `key` when it is SUB.
fn fresh(kind: Kind, key: &str) -> Result<Inner, ZmqError> {
    // Some sockets start their tasks as they are made.
    let handle = runtime::handle();
    let _context = handle.enter();
    let mut inner = match kind {
        Kind::Push => Inner::Push(PushSocket::new()),
        Kind::Pull => Inner::Pull(PullSocket::new()),
        Kind::Pub => Inner::Pub(PubSocket::new()),
        Kind::Sub => Inner::Sub(SubSocket::new()),
        Kind::Req => Inner::Req(ReqSocket::new()),
        Kind::Rep => Inner::Rep(RepSocket::new()),
    };
    if let Inner::Sub(sub) = &mut inner {
        runtime::block_on(sub.subscribe(key))?;
    }
    Ok(inner)
}

impl ZmqSocket {
    /// A socket of `kind` that binds to `address` (`bind`) or connects
    /// to it; a SUB socket subscribes to `key` (empty: everything).
    /// The address is GNU Radio's (`tcp://host:port`); see [`address`](super::address).
    pub fn open(kind: Kind, address: &str, bind: bool, key: &str) -> Result<Self, ZmqError> {
        let address = super::address::normalize(address);
        let mut socket = Self {
            kind,
            key: key.to_string(),
            inner: fresh(kind, key)?,
            endpoint: address.clone(),
            peer: None,
            connecting: false,
            events: None,
            asked: false,
            request: None,
        };
        if bind {
            let inner = &mut socket.inner;
            let endpoint =
                runtime::block_on(async { on_any!(inner, s => s.bind(&address).await) })?;
            socket.endpoint = endpoint.to_string();
        } else {
            socket.peer = Some(address);
            socket.start_over()?;
        }
        Ok(socket)
    }

    /// [`open`](Self::open) for a block's `init`: the error names the
    /// address, and the address as resolved goes into `shown` (what the
    /// block's `endpoint()` gives while it runs).
    pub fn open_for_block(
        kind: Kind,
        address: &str,
        bind: bool,
        key: &str,
        shown: &SharedEndpoint,
    ) -> Result<Self, rfgraph::BoxError> {
        let verb = if bind { "binding" } else { "connecting to" };
        let socket =
            Self::open(kind, address, bind, key).map_err(|e| format!("{verb} {address}: {e}"))?;
        *shown.lock().expect("endpoint lock") = Some(socket.endpoint().to_string());
        Ok(socket)
    }

    /// A connecting socket, made anew, to connect again: the pure-Rust
    /// sockets other than SUB do not reconnect by themselves, as
    /// libzmq's do.
    fn start_over(&mut self) -> Result<(), ZmqError> {
        if self.events.is_some() {
            self.inner = fresh(self.kind, &self.key)?;
        }
        // A new socket holds no conversation: a REQ asks again.
        self.asked = false;
        self.request = None;
        let inner = &mut self.inner;
        self.events = Some(on_any!(inner, s => s.monitor()));
        self.connecting = true;
        Ok(())
    }

    /// The address bound or connected to, resolved (GNU Radio's
    /// `last_endpoint`).
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Connects a connecting socket (again, once its peer was lost),
    /// waiting at most `wait`; true once connected (and for a bound
    /// socket).
    pub fn ready(&mut self, wait: Duration) -> bool {
        let lost = self.events.as_mut().is_some_and(|events| {
            std::iter::from_fn(|| events.try_recv().ok())
                .any(|e| matches!(e, SocketEvent::Disconnected(_)))
        });
        if lost && self.kind != Kind::Sub && self.start_over().is_err() {
            return false;
        }
        let Some(address) = self.peer.clone().filter(|_| self.connecting) else {
            return true;
        };
        // A connection takes a few round trips: a caller that would not
        // wait at all (a poll) still gives it this long.
        let wait = wait.max(CONNECT_SLICE);
        let inner = &mut self.inner;
        match runtime::block_on_for(wait, async {
            on_any!(inner, s => s.connect(&address).await)
        }) {
            Some(Ok(())) => {
                self.connecting = false;
                true
            }
            Some(Err(_)) => {
                // Refused or unreachable: wait out the rest as libzmq's
                // reconnect interval would, then try again.
                std::thread::sleep(wait.min(Duration::from_millis(100)));
                false
            }
            None => false,
        }
    }

    /// Sends `message`, waiting at most `wait` for a peer with room.
    pub fn send(&mut self, message: ZmqMessage, wait: Duration) -> Result<Sent, ZmqError> {
        if !self.ready(wait) {
            return Ok(Sent::NotYet);
        }
        let result = runtime::block_on_for(wait, async {
            match &mut self.inner {
                Inner::Push(s) => s.send(message).await,
                Inner::Pub(s) => s.send(message).await,
                Inner::Req(s) => s.send(message).await,
                Inner::Rep(s) => s.send(message).await,
                Inner::Pull(_) | Inner::Sub(_) => {
                    Err(ZmqError::Socket("this socket only receives"))
                }
            }
        });
        if self.kind == Kind::Rep && matches!(result, Some(Ok(()) | Err(_))) {
            // Answered, or the asker is gone: the next reply waits for
            // the next request.
            self.request = None;
        }
        match result {
            None => Ok(Sent::NotYet),
            Some(Ok(())) => Ok(Sent::Yes),
            Some(Err(ZmqError::ReturnToSender { .. })) => {
                // No peer yet: do not spin while waiting for one.
                std::thread::sleep(wait.min(Duration::from_millis(10)));
                Ok(Sent::NotYet)
            }
            Some(Err(ZmqError::Codec(_) | ZmqError::Network(_) | ZmqError::BufferFull(_))) => {
                Ok(Sent::NotYet)
            }
            Some(Err(other)) => Err(other),
        }
    }

    /// The next message, waiting at most `wait`; `None` when none came.
    pub fn recv(&mut self, wait: Duration) -> Result<Option<ZmqMessage>, ZmqError> {
        if !self.ready(wait) {
            return Ok(None);
        }
        let result = runtime::block_on_for(wait, async {
            match &mut self.inner {
                Inner::Pull(s) => s.recv().await,
                Inner::Sub(s) => s.recv().await,
                Inner::Req(s) => s.recv().await,
                Inner::Rep(s) => s.recv().await,
                Inner::Push(_) | Inner::Pub(_) => Err(ZmqError::Socket("this socket only sends")),
            }
        });
        match result {
            None => Ok(None),
            Some(Ok(message)) => Ok(Some(message)),
            // A REQ whose server closed the connection (the zeromq crate
            // neither reports that nor reconnects a REQ), or that holds no
            // request: the request is lost and goes again, on a new
            // connection when this side connects.
            Some(Err(ZmqError::NoMessage | ZmqError::Other(_))) if self.kind == Kind::Req => {
                self.asked = false;
                if self.peer.is_some() {
                    self.start_over()?;
                }
                Ok(None)
            }
            Some(Err(ZmqError::Codec(_) | ZmqError::Network(_) | ZmqError::NoMessage)) => Ok(None),
            Some(Err(other)) => Err(other),
        }
    }

    /// REQ: sends the request `make` gives unless one is out, then waits
    /// at most `wait` for its reply. A request lost with its server is
    /// sent again, as libzmq's REQ does on reconnection.
    pub fn ask(
        &mut self,
        make: impl FnOnce() -> ZmqMessage,
        wait: Duration,
    ) -> Result<Option<ZmqMessage>, ZmqError> {
        if !self.asked {
            match self.send(make(), wait)? {
                Sent::Yes => self.asked = true,
                Sent::NotYet => return Ok(None),
            }
        }
        let reply = self.recv(wait)?;
        if reply.is_some() {
            self.asked = false;
        }
        Ok(reply)
    }

    /// REP: the request to answer next, waiting at most `wait` for one;
    /// it stays until [`send`](Self::send) answers it (or finds its
    /// asker gone), however many calls that takes.
    pub fn pending_request(&mut self, wait: Duration) -> Result<Option<&ZmqMessage>, ZmqError> {
        if self.request.is_none() {
            self.request = self.recv(wait)?;
        }
        Ok(self.request.as_ref())
    }
}

impl Drop for ZmqSocket {
    /// Closes the socket's listeners before returning: the zeromq
    /// crate stops them in the background, and a flowgraph started next
    /// on the same address would find it still taken.
    fn drop(&mut self) {
        let inner = &mut self.inner;
        runtime::block_on_for(Duration::from_secs(1), async {
            on_any!(inner, s => s.unbind_all().await)
        });
    }
}
