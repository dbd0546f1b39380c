//! [`Connector`]: how a TCP stream block gets its one connection, as a
//! server (listen, accept the first client) or as a client (connect,
//! retrying while the server is not up yet), each wait bounded so that
//! the block's thread sees a stop promptly.
//!
//! Owns the listening socket and the retries; the connected stream is
//! the block's. It never reads or writes data.

use super::addr::{LocalAddr, resolve};
use crate::LOG_INTERVAL;
use crate::runtime;
use std::io;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The longest one read, write, accept or connect waits, so that a stop
/// is seen within about this long.
pub const IO_WAIT: Duration = Duration::from_millis(100);

/// How long a client waits before it tries again after a refused
/// connection.
const RETRY: Duration = Duration::from_millis(100);

/// What [`Connector::poll`] found.
pub(crate) enum Peer {
    /// A connected stream, blocking, with [`IO_WAIT`] read and write
    /// timeouts.
    Connected(TcpStream),
    /// Nobody yet: call again at this instant.
    NotYet(Instant),
}

/// A server's listener or a client's destination.
pub(crate) enum Connector {
    /// Listening; the first client accepted is the peer.
    Server(tokio::net::TcpListener),
    /// Connecting to this address, retried until it accepts.
    Client {
        /// The server.
        addr: SocketAddr,
        /// When a failure was last logged.
        logged: Option<Instant>,
    },
}

impl Connector {
    /// Listens on `host:port` (port 0: any free port) and records the
    /// address in `local`.
    pub(crate) fn listen(host: &str, port: u16, local: &LocalAddr) -> io::Result<Self> {
        let addr = resolve(host, port)?;
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        local.set(listener.local_addr()?);
        let _runtime = runtime::handle().enter();
        Ok(Self::Server(tokio::net::TcpListener::from_std(listener)?))
    }

    /// Connects to `host:port` when polled.
    pub(crate) fn connect(host: &str, port: u16) -> io::Result<Self> {
        Ok(Self::Client {
            addr: resolve(host, port)?,
            logged: None,
        })
    }

    /// Waits up to [`IO_WAIT`] for the peer. `label` names the block in
    /// log lines. Errors: the listener failed, or connecting failed for a
    /// reason other than nobody listening yet.
    pub(crate) fn poll(&mut self, label: &str) -> io::Result<Peer> {
        let stream = match self {
            Self::Server(listener) => match runtime::block_on_for(IO_WAIT, listener.accept()) {
                None => return Ok(Peer::NotYet(Instant::now())),
                Some(Err(e)) if transient(&e) => return Ok(Peer::NotYet(Instant::now())),
                Some(accepted) => accepted?.0.into_std()?,
            },
            Self::Client { addr, logged } => match TcpStream::connect_timeout(addr, IO_WAIT) {
                Ok(stream) => stream,
                Err(e) if transient(&e) => {
                    let now = Instant::now();
                    if logged.is_none_or(|at| now.duration_since(at) >= LOG_INTERVAL) {
                        eprintln!("{label}: cannot connect yet ({e}); retrying");
                        *logged = Some(now);
                    }
                    return Ok(Peer::NotYet(now + RETRY));
                }
                Err(e) => return Err(e),
            },
        };
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(Some(IO_WAIT))?;
        stream.set_write_timeout(Some(IO_WAIT))?;
        Ok(Peer::Connected(stream))
    }
}

/// The block's connected stream, once there is one: made by polling
/// `connector` first (a client records its own address in `local`).
/// `None` while there is no peer yet, with the next call's time set on
/// `io`.
pub(crate) fn connected<'a>(
    stream: &'a mut Option<TcpStream>,
    connector: &mut Option<Connector>,
    label: &str,
    client: bool,
    local: &LocalAddr,
    io: &mut rfgraph::WorkIo,
) -> Result<Option<&'a mut TcpStream>, rfgraph::BoxError> {
    if stream.is_none() {
        let Some(connector) = connector else {
            return Err(format!("{label}: not initialised").into());
        };
        match connector.poll(label)? {
            Peer::NotYet(at) => {
                io.call_again_at(at);
                return Ok(None);
            }
            Peer::Connected(connected) => {
                if let Ok(at) = connected.local_addr()
                    && client
                {
                    local.set(at);
                }
                *stream = Some(connected);
            }
        }
    }
    Ok(stream.as_mut())
}

/// Errors after which waiting and trying again may succeed: nobody
/// listening yet, a peer that gave up during the handshake, a wait that
/// ran out.
fn transient(e: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused
            | ConnectionReset
            | ConnectionAborted
            | TimedOut
            | WouldBlock
            | Interrupted
            | HostUnreachable
            | NetworkUnreachable
    )
}
