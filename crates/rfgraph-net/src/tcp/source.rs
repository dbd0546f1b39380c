//! [`TcpSource`]: a stream's items from one TCP connection, GNU Radio
//! 3.10's `network.tcp_source`.
//!
//! Owns the connection's life (made in `work`, closed in `deinit`) and
//! the bytes of a vector read only in part, kept until the rest arrives.
//! It never writes to the peer.

use super::addr::LocalAddr;
use super::connection::{Connector, connected};
use super::sink::{check_port, peer_gone};
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamOutput, WorkIo};
use std::io::{self, Read};
use std::net::{SocketAddr, TcpStream};
use std::time::Instant;

/// The parameters of [`TcpSource`] (`tcp_source`, GNU Radio's
/// `network_tcp_source`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct TcpSourceParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, I32, I16, U8))]
    pub item: ItemKind,
    /// items per GNU Radio vector
    #[param(default = 1, min = 1, max = limits::MAX_VLEN, alias = "veclen")]
    pub vlen: usize,
    /// server: the address to listen on (0.0.0.0 or :: for every
    /// interface); client: the server to connect to
    #[param(default = "127.0.0.1", alias = "addr", max_len = 255)]
    pub host: String,
    /// TCP port (a server may take 0: any free port, see `local_addr`)
    #[param(default = 2000)]
    pub port: u16,
    /// listen and take the first client (true) or connect to a server
    #[param(default = true)]
    pub server: bool,
}

impl TcpSourceParams {
    /// A source on `host:port`, as server or client (the rest at the
    /// defaults).
    pub fn new(item: ItemKind, host: impl Into<String>, port: u16, server: bool) -> Self {
        Self {
            item,
            vlen: 1,
            host: host.into(),
            port,
            server,
        }
    }

    /// A client needs a port to connect to.
    fn check(&self) -> Result<(), ParamError> {
        check_port("tcp_source", self.port, self.server)
    }
}

/// Produces items from the bytes one TCP connection carries, in the
/// host's byte order: GNU Radio 3.10's `network.tcp_source` (a Python
/// block there, around a file descriptor source).
///
/// As a server (the default, as GNU Radio's) it listens on `host:port`
/// from `init` ([`local_addr`](Self::local_addr) then says where) and
/// reads the first client; as a client it connects to `host:port`,
/// trying again every 100 ms while nothing listens there (GNU Radio's
/// fails instead). Reads need not end on item boundaries: the bytes of
/// a vector read in part wait for the rest. When the peer closes the
/// connection the source produces what it has and ends its output; the
/// bytes of a last incomplete vector are dropped, with a line on
/// standard error.
///
/// The block runs on a thread of its own and reads straight into its
/// output; every wait lasts at most [`IO_WAIT`](super::IO_WAIT), so a
/// stop is seen promptly.
///
/// # Stream Outputs
/// - `out`: `T`, whole vectors of `vlen` items.
///
/// # Parameters
/// [`TcpSourceParams`].
pub struct TcpSource<T: Item> {
    output: StreamOutput<T>,
    params: TcpSourceParams,
    label: String,
    local: LocalAddr,
    connector: Option<Connector>,
    stream: Option<TcpStream>,
    /// Bytes of one vector.
    vector_bytes: usize,
    /// The start of a vector read in part (fewer than `vector_bytes`).
    partial: Vec<u8>,
}

impl<T: Item> TcpSource<T> {
    /// A source with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    ///
    /// Errors: a parameter out of its range; a client without a port.
    pub fn new(mut params: TcpSourceParams) -> Result<Self, ParamError> {
        if let Some(kind) = crate::items::kind_of::<T>() {
            params.item = kind;
        }
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out").with_min_items(params.vlen),
            label: format!("tcp_source({}:{})", params.host, params.port),
            vector_bytes: params.vlen * size_of::<T>(),
            params,
            local: LocalAddr::default(),
            connector: None,
            stream: None,
            partial: Vec::new(),
        })
    }

    /// The parameters.
    pub fn params(&self) -> &TcpSourceParams {
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

    /// The connection ended: logs a vector cut short, ends the output.
    fn end(&mut self, io: &mut WorkIo, why: &str) {
        if !self.partial.is_empty() {
            eprintln!(
                "{}: {why} {} bytes into a {}-byte vector; those bytes are dropped",
                self.label,
                self.partial.len(),
                self.vector_bytes
            );
        }
        self.partial.clear();
        io.finish();
    }
}

impl<T: Item> Block for TcpSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let (host, port) = (&self.params.host, self.params.port);
        let connector = if self.params.server {
            Connector::listen(host, port, &self.local)
        } else {
            Connector::connect(host, port)
        };
        self.connector = Some(connector.map_err(|e| format!("{}: {e}", self.label))?);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let client = !self.params.server;
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
        let out = self.output.slice();
        let bytes = bytemuck::cast_slice_mut::<T, u8>(out);
        if bytes.len() < self.vector_bytes {
            // Full: the runtime calls again when there is room.
            return Ok(());
        }
        let kept = self.partial.len();
        bytes[..kept].copy_from_slice(&self.partial);
        let read = loop {
            match stream.read(&mut bytes[kept..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other,
            }
        };
        match read {
            Ok(0) => self.end(io, "the peer closed the connection"),
            Ok(n) => {
                let total = kept + n;
                let whole = total - total % self.vector_bytes;
                self.partial.clear();
                self.partial.extend_from_slice(&bytes[whole..total]);
                self.output.produce(whole / size_of::<T>());
                if whole == 0 {
                    // Part of a vector only: read on.
                    io.call_again_at(Instant::now());
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                io.call_again_at(Instant::now());
            }
            Err(e) if peer_gone(&e) => self.end(io, &format!("the connection broke ({e})")),
            Err(e) => return Err(format!("{}: reading: {e}", self.label).into()),
        }
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.stream = None;
        self.connector = None;
        Ok(())
    }
}

/// The registry entry: `tcp_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<TcpSourceParams>(
        "tcp_source",
        "Networking",
        "Produces items from the bytes of a TCP connection, as server or client.",
        |p| crate::items::for_network_item!(p.item, T => TcpSource::<T>::new(p)?),
    )
    .doc(
        "GNU Radio 3.10's `network_tcp_source`: the connection's bytes as items in the \
         host's byte order, no framing. With `server` (the default) it listens on \
         `host:port` (127.0.0.1 by default; 0.0.0.0 or :: for every interface) and \
         reads the first client; otherwise it connects to `host:port`, trying again \
         every 100 ms while nothing listens. Reads need not end on item boundaries. \
         When the peer closes the connection, the output ends (an incomplete last \
         vector is dropped and logged).",
    )
    .output(PortSpec::new("out", PortItem::OfType).doc("items, `vlen` per vector"))
}
