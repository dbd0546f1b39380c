//! [`TcpSink`]: a stream's items out over one TCP connection, GNU Radio
//! 3.10's `network.tcp_sink`.
//!
//! Owns the connection's life (made in `work`, shut down for writing in
//! `finishing`) and the bytes of an item only partly written. It never
//! reads from the peer.

use super::addr::LocalAddr;
use super::connection::{Connector, connected};
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, WorkIo};
use std::io::{self, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Instant;

/// Which end of the connection a TCP block is; as a parameter `client`
/// or `server`, or GNU Radio's `tcp_sink` mode numbers `1` (client) and
/// `2` (server).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum TcpMode {
    /// Connect to `host:port` (GNU Radio's `TCPSINKMODE_CLIENT`, 1),
    /// trying again every 100 ms while nobody listens there.
    #[choice(alias = "1")]
    Client,
    /// Listen on `host:port` and take the first client that connects
    /// (GNU Radio's `TCPSINKMODE_SERVER`, 2).
    #[choice(alias = "2")]
    Server,
}

/// The parameters of [`TcpSink`] (`tcp_sink`, GNU Radio's
/// `network_tcp_sink`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct TcpSinkParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, I32, I16, U8))]
    pub item: ItemKind,
    /// items per GNU Radio vector
    #[param(default = 1, min = 1, max = limits::MAX_VLEN, alias = "veclen")]
    pub vlen: usize,
    /// client: the server to connect to; server: the address to listen on
    /// (0.0.0.0 or :: for every interface)
    #[param(default = "127.0.0.1", alias = "addr", max_len = 255)]
    pub host: String,
    /// TCP port (a server may take 0: any free port, see `local_addr`)
    #[param(default = 2000)]
    pub port: u16,
    /// client (`1`) or server (`2`)
    #[param(default = TcpMode::Client, alias = "sinkmode")]
    pub mode: TcpMode,
}

impl TcpSinkParams {
    /// A client connecting to `host:port` (the rest at the defaults).
    pub fn new(item: ItemKind, host: impl Into<String>, port: u16, mode: TcpMode) -> Self {
        Self {
            item,
            vlen: 1,
            host: host.into(),
            port,
            mode,
        }
    }

    /// A client needs a port to connect to.
    fn check(&self) -> Result<(), ParamError> {
        check_port("tcp_sink", self.port, self.mode == TcpMode::Server)
    }
}

/// Port 0 means "any free port" to a server and nothing to a client.
pub(crate) fn check_port(block: &str, port: u16, server: bool) -> Result<(), ParamError> {
    if port == 0 && !server {
        return Err(ParamError::new(
            block,
            "port",
            "a client needs the server's port, not 0",
        ));
    }
    Ok(())
}

/// Writes every item of its input to one TCP connection, as raw bytes in
/// the host's byte order: GNU Radio 3.10's `network.tcp_sink`.
///
/// As a client it connects to `host:port` on its first call, trying
/// again every 100 ms while nothing listens there (GNU Radio's fails its
/// start instead). As a server it listens on `host:port` from `init`
/// ([`local_addr`](Self::local_addr) then says where) and takes the
/// first client. Until it is connected it keeps its input waiting
/// (GNU Radio's discards items while no client is connected), so no
/// item is lost to a slow start.
///
/// When the input ends, the sink sends what it holds and shuts its side
/// of the connection, so the peer reads the end of the stream. When the
/// peer closes the connection the sink finishes (GNU Radio's server
/// waits for another client instead).
///
/// The block runs on a thread of its own; every wait (accept, connect,
/// write) lasts at most [`IO_WAIT`](super::IO_WAIT), so a stop is seen
/// promptly.
///
/// # Stream Inputs
/// - `in`: `T`, `vlen` items per GNU Radio vector.
///
/// # Parameters
/// [`TcpSinkParams`].
///
/// # Usage
/// ```no_run
/// use rfgraph::params::ItemKind;
/// use rfgraph_net::{TcpMode, TcpSink, TcpSinkParams};
/// let sink = TcpSink::<f32>::new(TcpSinkParams::new(
///     ItemKind::F32, "127.0.0.1", 2000, TcpMode::Server,
/// ))?;
/// let local = sink.local_addr(); // where it listens, once it runs
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TcpSink<T: Item> {
    input: StreamInput<T>,
    params: TcpSinkParams,
    label: String,
    local: LocalAddr,
    connector: Option<Connector>,
    stream: Option<TcpStream>,
    /// Bytes of the first unconsumed item already written.
    partial: usize,
}

impl<T: Item> TcpSink<T> {
    /// A sink with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    ///
    /// Errors: a parameter out of its range; a client without a port.
    pub fn new(mut params: TcpSinkParams) -> Result<Self, ParamError> {
        if let Some(kind) = crate::items::kind_of::<T>() {
            params.item = kind;
        }
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            label: format!("tcp_sink({}:{})", params.host, params.port),
            params,
            local: LocalAddr::default(),
            connector: None,
            stream: None,
            partial: 0,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &TcpSinkParams {
        &self.params
    }

    /// Where a server listens, once `init` has run (shared: keep it to
    /// read the address while the flowgraph runs).
    pub fn local_addr(&self) -> LocalAddr {
        self.local.clone()
    }

    /// The peer, once connected.
    pub fn peer_addr(&self) -> Option<SocketAddr> {
        self.stream.as_ref().and_then(|s| s.peer_addr().ok())
    }
}

impl<T: Item> Block for TcpSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let (host, port) = (&self.params.host, self.params.port);
        let connector = match self.params.mode {
            TcpMode::Server => Connector::listen(host, port, &self.local),
            TcpMode::Client => Connector::connect(host, port),
        };
        self.connector = Some(connector.map_err(|e| format!("{}: {e}", self.label))?);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let client = self.params.mode == TcpMode::Client;
        let Some(stream) = connected(
            &mut self.stream,
            &mut self.connector,
            &self.label,
            client,
            &self.local,
            io,
        )?
        else {
            return Ok(());
        };
        let items = self.input.slice();
        let bytes = &bytemuck::cast_slice::<T, u8>(items)[self.partial..];
        if bytes.is_empty() {
            return Ok(());
        }
        let total = bytes.len();
        let mut written = 0;
        let mut closed = false;
        while written < total {
            match stream.write(&bytes[written..]) {
                Ok(0) => {
                    closed = true;
                    break;
                }
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    break;
                }
                Err(e) if peer_gone(&e) => {
                    closed = true;
                    break;
                }
                Err(e) => return Err(format!("{}: writing: {e}", self.label).into()),
            }
        }
        let done = self.partial + written;
        self.input.consume(done / size_of::<T>());
        self.partial = done % size_of::<T>();
        if closed {
            eprintln!("{}: the peer closed the connection; finishing", self.label);
            io.finish();
        } else if written < total {
            // The peer is slow: come back to write the rest.
            io.call_again_at(Instant::now());
        }
        Ok(())
    }

    fn finishing(&mut self) {
        if let Some(stream) = &self.stream {
            // The peer reads the end of the stream after the last byte.
            let _ = stream.shutdown(Shutdown::Write);
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.stream = None;
        self.connector = None;
        Ok(())
    }
}

/// Errors that say the peer closed the connection.
pub(crate) fn peer_gone(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::BrokenPipe
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::NotConnected
            | io::ErrorKind::UnexpectedEof
    )
}

/// The registry entry: `tcp_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<TcpSinkParams>(
        "tcp_sink",
        "Networking",
        "Writes a stream's items to a TCP connection, as server or client.",
        |p| crate::items::for_network_item!(p.item, T => TcpSink::<T>::new(p)?),
    )
    .doc(
        "GNU Radio 3.10's `network_tcp_sink`: the items' bytes back to back, in the \
         host's byte order, no framing. `mode` `client` (GNU Radio's 1) connects to \
         `host:port`, trying again every 100 ms while nothing listens; `server` (2) \
         listens on `host:port` (127.0.0.1 by default; 0.0.0.0 or :: for every \
         interface) and writes to the first client. Items wait until a peer is \
         connected (GNU Radio drops them). At the end of the input the sink shuts its \
         side of the connection; when the peer closes, the sink finishes.",
    )
    .input(PortSpec::new("in", PortItem::OfType).doc("items, `vlen` per vector"))
}
