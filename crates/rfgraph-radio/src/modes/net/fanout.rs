//! [`Fanout`]: one TCP listening socket and the clients it accepted,
//! each line sent to every client without ever blocking the caller.
//!
//! Sockets are non-blocking: clients are accepted whenever a line is
//! sent (and on [`Fanout::poll`]), a client that cannot take a line at
//! once keeps it queued, and one whose queue passes [`MAX_QUEUED`] bytes,
//! or whose connection fails, is dropped, as dump1090 drops slow
//! clients. [`Fanout::close`] flushes the queues (for a bounded time) and
//! closes every connection.

use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// Bytes a slow client may have queued before it is dropped.
pub const MAX_QUEUED: usize = 1 << 20;

struct Client {
    stream: TcpStream,
    queued: Vec<u8>,
}

impl Client {
    /// Writes what the socket takes now; false when the client failed.
    fn pump(&mut self) -> bool {
        while !self.queued.is_empty() {
            match self.stream.write(&self.queued) {
                Ok(0) => return false,
                Ok(n) => {
                    self.queued.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return false,
            }
        }
        true
    }
}

/// A listening socket and its clients (see the module doc).
pub struct Fanout {
    listener: TcpListener,
    clients: Vec<Client>,
    dropped: u64,
}

impl Fanout {
    /// Listens on `addr` (port 0: any free port).
    ///
    /// Errors: the address cannot be bound.
    pub fn bind(addr: SocketAddr) -> io::Result<Self> {
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Self {
            listener,
            clients: Vec::new(),
            dropped: 0,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Clients connected now.
    pub fn clients(&self) -> usize {
        self.clients.len()
    }

    /// Clients dropped for being slow or failing.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// True when some client has bytes queued.
    pub fn has_queued(&self) -> bool {
        self.clients.iter().any(|c| !c.queued.is_empty())
    }

    /// Accepts waiting connections and writes queued bytes.
    pub fn poll(&mut self) {
        loop {
            match self.listener.accept() {
                Ok((stream, _)) => {
                    if stream.set_nonblocking(true).is_ok() {
                        let _ = stream.set_nodelay(true);
                        self.clients.push(Client {
                            stream,
                            queued: Vec::new(),
                        });
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // WouldBlock: nobody waiting; other errors (a connection
                // reset before it was accepted) end this round too.
                Err(_) => break,
            }
        }
        self.pump();
    }

    fn pump(&mut self) {
        let before = self.clients.len();
        self.clients
            .retain_mut(|c| c.pump() && c.queued.len() <= MAX_QUEUED);
        self.dropped += (before - self.clients.len()) as u64;
    }

    /// Sends `bytes` to every client (accepting new ones first).
    pub fn send(&mut self, bytes: &[u8]) {
        self.poll();
        for c in &mut self.clients {
            c.queued.extend_from_slice(bytes);
        }
        self.pump();
    }

    /// Flushes every queue, waiting at most `timeout` in all, then closes
    /// the connections.
    pub fn close(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.has_queued() && Instant::now() < deadline {
            self.pump();
            std::thread::sleep(Duration::from_millis(1));
        }
        for c in self.clients.drain(..) {
            let _ = c.stream.shutdown(std::net::Shutdown::Both);
        }
    }
}
