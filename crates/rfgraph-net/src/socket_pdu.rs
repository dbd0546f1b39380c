//! [`SocketPdu`]: PDUs in and out of a UDP or TCP socket, GNU Radio
//! 3.10's `network.socket_pdu`.
//!
//! Owns the socket of one block and the tasks on the crate's
//! [`runtime`] that read it (and, for TCP, write each connection), the
//! queue between those tasks and the block, and the one place that
//! knows the shape of a PDU message (`mod pdu`). Received bytes are
//! untrusted: each read becomes at most `mtu` bytes of one PDU, and
//! nothing is sized by what a peer sends.

use crate::runtime;
use crate::tcp::{LocalAddr, resolve, sending_from};
use crate::udp::MAX_PAYLOAD;
use crate::{BadFrames, udp};
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, Pmt, Ports, Waker, WorkIo};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, watch};

/// The largest `mtu`: bytes of one read, held once per connection.
pub const MAX_MTU: usize = 1 << 20;

/// Received PDUs waiting for the block; a full queue holds the sockets
/// back (TCP peers wait, the kernel drops UDP datagrams).
const INBOX: usize = 256;

/// PDUs waiting to be written to one TCP peer; more are dropped for that
/// peer and counted (`pdus_unsent`).
const OUTBOX: usize = 256;

/// TCP clients a server serves at once; more are closed at once.
pub const MAX_CLIENTS: usize = 64;

/// How long a TCP client waits for the server to accept it in `init`.
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// How long a reader that failed waits before it reads again.
const ERROR_PAUSE: Duration = Duration::from_millis(100);

/// PDUs handled per call; more wait for the next call.
const PER_CALL: usize = 256;

/// The socket of a [`SocketPdu`], as GNU Radio names it (in any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum SocketType {
    /// Listen on `host:port`; every client's bytes become PDUs, and
    /// every PDU goes to every client.
    TcpServer,
    /// Connect to `host:port` (in `init`); the server's bytes become
    /// PDUs, PDUs go to the server.
    TcpClient,
    /// Bind `host:port`; every datagram becomes a PDU, and PDUs go to the
    /// sender of the last datagram (nowhere before the first).
    UdpServer,
    /// Send PDUs to `host:port` from a port of its own; the datagrams the
    /// server sends back become PDUs.
    UdpClient,
}

impl SocketType {
    fn is_server(self) -> bool {
        matches!(self, SocketType::TcpServer | SocketType::UdpServer)
    }

    fn is_udp(self) -> bool {
        matches!(self, SocketType::UdpServer | SocketType::UdpClient)
    }
}

/// The parameters of [`SocketPdu`] (`socket_pdu`, GNU Radio's
/// `network_socket_pdu`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SocketPduParams {
    /// tcp_server, tcp_client, udp_server or udp_client (GNU Radio's
    /// TCP_SERVER, ...)
    #[param(name = "type", default = SocketType::TcpServer)]
    pub socket_type: SocketType,
    /// servers: the address to listen on (0.0.0.0 or :: for every
    /// interface); clients: the server's
    #[param(default = "127.0.0.1", alias = "addr", max_len = 255)]
    pub host: String,
    /// port (a server may take 0: any free port, see `local_addr`)
    #[param(default = 52001)]
    pub port: u16,
    /// the most bytes of one received PDU (one read or datagram), and of
    /// one datagram sent (longer PDUs go out in several)
    #[param(default = 10000, min = 1, max = MAX_MTU, unit = "bytes", alias = "MTU")]
    pub mtu: usize,
    /// TCP: send every write at once (no Nagle delay)
    #[param(default = false)]
    pub tcp_no_delay: bool,
}

impl SocketPduParams {
    /// A socket of `socket_type` on `host:port` (the rest at GNU Radio's
    /// defaults).
    pub fn new(socket_type: SocketType, host: impl Into<String>, port: u16) -> Self {
        Self {
            socket_type,
            host: host.into(),
            port,
            mtu: 10000,
            tcp_no_delay: false,
        }
    }

    /// Clients need a port; a datagram holds at most 65507 bytes.
    fn check(&self) -> Result<(), ParamError> {
        if self.port == 0 && !self.socket_type.is_server() {
            return Err(ParamError::new(
                "socket_pdu",
                "port",
                "a client needs the server's port, not 0",
            ));
        }
        if self.socket_type.is_udp() && self.mtu > MAX_PAYLOAD {
            return Err(ParamError::new(
                "socket_pdu",
                "mtu",
                format!(
                    "{} bytes is more than a UDP datagram holds ({MAX_PAYLOAD})",
                    self.mtu
                ),
            ));
        }
        Ok(())
    }
}

/// How PDUs look as messages: `rfgraph_blocks::message::pdu`'s pair of
/// a metadata map and the data, GNU Radio's `(meta . u8vector)`. The
/// only code of this crate that knows it.
mod pdu {
    use rfgraph::Pmt;
    use rfgraph::params::describe;
    use std::collections::BTreeMap;

    /// The PDU of received `bytes`, without metadata.
    pub(super) fn from_bytes(bytes: Vec<u8>) -> Pmt {
        Pmt::pair(Pmt::Map(BTreeMap::new()), Pmt::Blob(bytes))
    }

    /// The bytes of PDU `msg`; an error saying why when it is not a PDU
    /// of bytes.
    pub(super) fn bytes(msg: &Pmt) -> Result<&[u8], String> {
        let (meta, data) = match msg {
            Pmt::Pair(pair) => (&pair.0, &pair.1),
            Pmt::List(items) if items.len() == 2 => (&items[0], &items[1]),
            other => {
                return Err(format!(
                    "expected a PDU (a pair of metadata and bytes), not {}",
                    describe(other)
                ));
            }
        };
        if !matches!(meta, Pmt::Map(_) | Pmt::Null) {
            return Err(format!("a PDU's metadata is a map, not {}", describe(meta)));
        }
        match data {
            Pmt::Blob(bytes) => Ok(bytes),
            other => Err(format!(
                "only PDUs of bytes (u8 vectors) can be sent, not {}",
                describe(other)
            )),
        }
    }
}

/// What a socket task hands the block.
enum Inbound {
    /// The bytes of one read or datagram.
    Pdu(Vec<u8>),
    /// Something received that cannot be a PDU, and why.
    Bad(String),
}

/// Where PDUs go.
enum Outbound {
    /// A UDP socket and the peer PDUs go to. The block sends on its own
    /// handle of the reader's socket: a non-blocking send that only
    /// waits when the kernel's buffer is full (tokio's `try_send_to`
    /// refuses until its reactor has seen the socket writable once).
    Udp {
        socket: std::net::UdpSocket,
        peer: Arc<Mutex<Option<SocketAddr>>>,
    },
    /// The queues of the TCP connections.
    Tcp(Peers),
}

/// The outgoing queues of the TCP connections, one per connection.
type Peers = Arc<Mutex<Vec<mpsc::Sender<Arc<[u8]>>>>>;

/// The running socket: its tasks, and what connects them to the block.
struct Link {
    inbox: mpsc::Receiver<Inbound>,
    out: Outbound,
    /// Dropped with the link: every task of the socket ends.
    _stop: watch::Sender<()>,
    /// Something may still arrive.
    open: bool,
}

/// Counts of one block, shared with its statistics.
#[derive(Debug, Default)]
struct Counts {
    received: Arc<AtomicU64>,
    sent: Arc<AtomicU64>,
    unsent: Arc<AtomicU64>,
    connections: Arc<AtomicU64>,
}

/// What every socket task needs to hand the block what it received.
#[derive(Clone)]
struct Handoff {
    inbox: mpsc::Sender<Inbound>,
    stop: watch::Receiver<()>,
    waker: Option<Waker>,
    mtu: usize,
}

impl Handoff {
    /// Hands `msg` to the block; false when the block is gone.
    async fn give(&self, msg: Inbound) -> bool {
        let given = self.inbox.send(msg).await.is_ok();
        if let Some(waker) = &self.waker {
            waker.wake();
        }
        given
    }
}

/// Turns bytes from a UDP or TCP socket into PDUs on its message output
/// `pdus`, and sends the bytes of the PDUs that arrive on its message
/// input `pdus`: GNU Radio 3.10's `network.socket_pdu`, whose peers
/// (GNU Radio flowgraphs, `nc`, any program) it talks to unchanged.
///
/// The socket opens in `init`: servers bind `host:port` (127.0.0.1 by
/// default; GNU Radio's bind every interface when the host is empty)
/// and [`local_addr`](Self::local_addr) says where; a TCP client
/// connects there, failing the run if nothing accepts within 10 s. Each
/// datagram, or each read of a TCP connection (up to `mtu` bytes),
/// becomes one PDU with empty metadata; a datagram longer than `mtu` is
/// dropped and counted (`frames_dropped`; GNU Radio's truncates it).
/// A PDU's bytes go out as datagrams of at most `mtu` bytes (UDP) or
/// down the connection (TCP: to every client of a server). A UDP server
/// answers the sender of the last datagram and drops PDUs until one
/// came; a UDP client only hears its server (GNU Radio's answers
/// whoever sent last). A TCP server serves up to [`MAX_CLIENTS`]
/// clients; each has a queue of 256 PDUs, and a PDU that finds it full
/// is not sent to that client. PDUs nobody could take are counted
/// (`pdus_unsent`). When a TCP client's server closes the connection,
/// the block logs it and receives nothing more.
///
/// The socket's reads and writes run on the crate's network
/// [`runtime`], which wakes the block when a PDU arrives: the block
/// never waits in `work`, and runs until the flowgraph stops.
///
/// # Message Inputs
/// - `pdus`: PDUs to send; the data must be bytes (`Blob`, GNU Radio's
///   u8vector). Anything else is refused with an error.
///
/// # Message Outputs
/// - `pdus`: a PDU per datagram or read, the bytes as `Blob`, metadata
///   empty.
///
/// # Parameters
/// [`SocketPduParams`].
///
/// # Counters
/// - `pdus_received`, `pdus_sent`, `pdus_unsent` (no peer, or its queue
///   full), `connections` (TCP connections made), `frames_dropped`.
pub struct SocketPdu {
    params: SocketPduParams,
    label: String,
    output: MessageOutput,
    local: LocalAddr,
    waker: Option<Waker>,
    link: Option<Link>,
    counts: Counts,
    bad: BadFrames,
}

impl SocketPdu {
    /// A block with `params`.
    ///
    /// Errors: a parameter out of its range; a client without a port; a
    /// UDP `mtu` larger than a datagram.
    pub fn new(params: SocketPduParams) -> Result<Self, ParamError> {
        params.validate()?;
        let label = format!(
            "socket_pdu({} {}:{})",
            rfgraph::ParamChoice::choice_name(&params.socket_type),
            params.host,
            params.port
        );
        Ok(Self {
            params,
            output: MessageOutput::new("pdus"),
            local: LocalAddr::default(),
            waker: None,
            link: None,
            counts: Counts::default(),
            bad: BadFrames::new(label.clone()),
            label,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &SocketPduParams {
        &self.params
    }

    /// The socket's own address once `init` has run: where a server
    /// listens, where a client's datagrams or connection come from
    /// (shared: keep it to read the address while the flowgraph runs).
    pub fn local_addr(&self) -> LocalAddr {
        self.local.clone()
    }

    /// PDUs received so far.
    pub fn pdus_received(&self) -> u64 {
        self.counts.received.load(Ordering::Relaxed)
    }

    /// PDUs sent so far (to at least one peer).
    pub fn pdus_sent(&self) -> u64 {
        self.counts.sent.load(Ordering::Relaxed)
    }

    /// PDUs (or, for a TCP server, copies for one client) not sent.
    pub fn pdus_unsent(&self) -> u64 {
        self.counts.unsent.load(Ordering::Relaxed)
    }

    /// Opens the socket and starts its tasks.
    fn open(&mut self) -> std::io::Result<Link> {
        let p = &self.params;
        let addr = resolve(&p.host, p.port)?;
        let (inbox_tx, inbox) = mpsc::channel(INBOX);
        let (stop_tx, stop) = watch::channel(());
        let handoff = Handoff {
            inbox: inbox_tx,
            stop,
            waker: self.waker.clone(),
            mtu: p.mtu,
        };
        let rt = runtime::handle();
        let _entered = rt.enter();
        let out = match p.socket_type {
            SocketType::UdpServer | SocketType::UdpClient => {
                let server = p.socket_type == SocketType::UdpServer;
                let socket = if server {
                    std::net::UdpSocket::bind(addr)?
                } else {
                    let socket = std::net::UdpSocket::bind(sending_from(addr))?;
                    // Only the server's datagrams reach a client.
                    socket.connect(addr)?;
                    socket
                };
                self.local.set(socket.local_addr()?);
                socket.set_nonblocking(true)?;
                let sender = socket.try_clone()?;
                let socket = tokio::net::UdpSocket::from_std(socket)?;
                let peer = Arc::new(Mutex::new((!server).then_some(addr)));
                rt.spawn(udp_reader(socket, server.then(|| peer.clone()), handoff));
                Outbound::Udp {
                    socket: sender,
                    peer,
                }
            }
            SocketType::TcpServer => {
                let listener = std::net::TcpListener::bind(addr)?;
                self.local.set(listener.local_addr()?);
                listener.set_nonblocking(true)?;
                let listener = tokio::net::TcpListener::from_std(listener)?;
                let peers = Peers::default();
                rt.spawn(accept_loop(
                    listener,
                    peers.clone(),
                    handoff,
                    p.tcp_no_delay,
                    self.counts.connections.clone(),
                ));
                Outbound::Tcp(peers)
            }
            SocketType::TcpClient => {
                let stream =
                    runtime::block_on_for(CONNECT_WAIT, tokio::net::TcpStream::connect(addr))
                        .ok_or_else(|| {
                            std::io::Error::new(
                                std::io::ErrorKind::TimedOut,
                                format!("no answer from {addr} in {CONNECT_WAIT:?}"),
                            )
                        })??;
                stream.set_nodelay(p.tcp_no_delay)?;
                self.local.set(stream.local_addr()?);
                self.counts.connections.fetch_add(1, Ordering::Relaxed);
                let peers = Peers::default();
                let queue = add_peer(&peers);
                rt.spawn(connection(stream, queue, handoff));
                Outbound::Tcp(peers)
            }
        };
        Ok(Link {
            inbox,
            out,
            _stop: stop_tx,
            open: true,
        })
    }

    /// Sends the bytes of one PDU.
    fn send(&self, bytes: &[u8]) -> Result<(), BoxError> {
        let Some(link) = &self.link else {
            return Err(format!("{}: the socket is not open", self.label).into());
        };
        let sent = match &link.out {
            Outbound::Udp { socket, peer } => {
                let peer = *peer.lock().unwrap_or_else(PoisonError::into_inner);
                match peer {
                    None => false,
                    Some(peer) => {
                        let mut all = true;
                        for chunk in bytes.chunks(self.params.mtu) {
                            match socket.send_to(chunk, peer) {
                                Ok(_) => {}
                                Err(e)
                                    if matches!(
                                        e.kind(),
                                        std::io::ErrorKind::WouldBlock
                                            | std::io::ErrorKind::ConnectionRefused
                                            | std::io::ErrorKind::Interrupted
                                    ) =>
                                {
                                    all = false;
                                }
                                Err(e) => {
                                    return Err(
                                        format!("{}: sending to {peer}: {e}", self.label).into()
                                    );
                                }
                            }
                        }
                        all
                    }
                }
            }
            Outbound::Tcp(peers) => {
                let data: Arc<[u8]> = bytes.into();
                let mut peers = peers.lock().unwrap_or_else(PoisonError::into_inner);
                let mut any = false;
                peers.retain(|queue| match queue.try_send(data.clone()) {
                    Ok(()) => {
                        any = true;
                        true
                    }
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        self.counts.unsent.fetch_add(1, Ordering::Relaxed);
                        true
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => false,
                });
                any
            }
        };
        let counter = if sent {
            &self.counts.sent
        } else {
            &self.counts.unsent
        };
        counter.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// Reads datagrams until the block stops; a server remembers each
/// sender in `peer`.
async fn udp_reader(
    socket: tokio::net::UdpSocket,
    peer: Option<Arc<Mutex<Option<SocketAddr>>>>,
    mut handoff: Handoff,
) {
    // One byte more than the mtu tells a longer datagram apart.
    let mut buf = vec![0u8; (handoff.mtu + 1).min(udp::MAX_DATAGRAM)];
    loop {
        let got = tokio::select! {
            _ = handoff.stop.changed() => return,
            got = socket.recv_from(&mut buf) => got,
        };
        let msg = match got {
            Ok((len, from)) => {
                if let Some(peer) = &peer {
                    *peer.lock().unwrap_or_else(PoisonError::into_inner) = Some(from);
                }
                if len > handoff.mtu {
                    Inbound::Bad(format!(
                        "a datagram from {from} is longer than mtu {} bytes",
                        handoff.mtu
                    ))
                } else {
                    Inbound::Pdu(buf[..len].to_vec())
                }
            }
            // An ICMP error about an earlier datagram sent.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => continue,
            Err(e) => {
                tokio::time::sleep(ERROR_PAUSE).await;
                Inbound::Bad(format!("receiving: {e}"))
            }
        };
        if !handoff.give(msg).await {
            return;
        }
    }
}

/// A new queue for one TCP connection, listed in `peers`.
fn add_peer(peers: &Peers) -> mpsc::Receiver<Arc<[u8]>> {
    let (tx, rx) = mpsc::channel(OUTBOX);
    peers
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(tx);
    rx
}

/// Accepts TCP clients until the block stops, each served by a
/// [`connection`] task.
async fn accept_loop(
    listener: tokio::net::TcpListener,
    peers: Peers,
    mut handoff: Handoff,
    no_delay: bool,
    connections: Arc<AtomicU64>,
) {
    loop {
        let accepted = tokio::select! {
            _ = handoff.stop.changed() => return,
            accepted = listener.accept() => accepted,
        };
        let Ok((stream, from)) = accepted else {
            // Out of descriptors, say: wait rather than spin.
            tokio::time::sleep(ERROR_PAUSE).await;
            continue;
        };
        let full = {
            let mut peers = peers.lock().unwrap_or_else(PoisonError::into_inner);
            peers.retain(|queue| !queue.is_closed());
            peers.len() >= MAX_CLIENTS
        };
        if full {
            let why = format!("{from} is refused: {MAX_CLIENTS} clients are connected");
            if !handoff.give(Inbound::Bad(why)).await {
                return;
            }
            continue;
        }
        let _ = stream.set_nodelay(no_delay);
        connections.fetch_add(1, Ordering::Relaxed);
        let queue = add_peer(&peers);
        tokio::spawn(connection(stream, queue, handoff.clone()));
    }
}

/// Serves one TCP connection until either side closes it or the block
/// stops: every read becomes a PDU, every queued PDU is written.
async fn connection(
    stream: tokio::net::TcpStream,
    mut queue: mpsc::Receiver<Arc<[u8]>>,
    mut handoff: Handoff,
) {
    let (mut reader, mut writer) = stream.into_split();
    let mut buf = vec![0u8; handoff.mtu];
    loop {
        tokio::select! {
            _ = handoff.stop.changed() => return,
            read = reader.read(&mut buf) => match read {
                Ok(0) | Err(_) => return,
                Ok(len) => {
                    if !handoff.give(Inbound::Pdu(buf[..len].to_vec())).await {
                        return;
                    }
                }
            },
            out = queue.recv() => match out {
                None => return,
                Some(bytes) => {
                    if writer.write_all(&bytes).await.is_err() {
                        return;
                    }
                }
            },
        }
    }
}

impl Block for SocketPdu {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("pdus")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn attach_waker(&mut self, waker: Waker) {
        self.waker = Some(waker);
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("pdus_received", self.counts.received.clone()),
            ("pdus_sent", self.counts.sent.clone()),
            ("pdus_unsent", self.counts.unsent.clone()),
            ("connections", self.counts.connections.clone()),
            ("frames_dropped", self.bad.counter()),
        ]
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let link = self.open().map_err(|e| format!("{}: {e}", self.label))?;
        self.link = Some(link);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let Some(link) = &mut self.link else {
            return Ok(());
        };
        let mut handled = 0;
        while handled < PER_CALL && link.open {
            match link.inbox.try_recv() {
                Ok(Inbound::Pdu(bytes)) => {
                    self.counts.received.fetch_add(1, Ordering::Relaxed);
                    self.output.post(pdu::from_bytes(bytes));
                }
                Ok(Inbound::Bad(why)) => self.bad.drop_frame(&why),
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => {
                    eprintln!(
                        "{}: the connection is closed; nothing more will arrive",
                        self.label
                    );
                    link.open = false;
                }
            }
            handled += 1;
        }
        if link.open {
            // The socket may deliver more at any time: the block is
            // never done on its own.
            io.in_flight();
            if handled == PER_CALL || self.waker.is_none() {
                let later = if handled == PER_CALL {
                    Duration::ZERO
                } else {
                    Duration::from_millis(10)
                };
                io.call_again_at(Instant::now() + later);
            }
        }
        Ok(())
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if port != "pdus" {
            return Err(format!("{}: no message input `{port}`", self.label).into());
        }
        let bytes = pdu::bytes(&msg).map_err(|why| format!("{}: {why}", self.label))?;
        self.send(bytes)?;
        Ok(Pmt::Null)
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.link = None;
        Ok(())
    }
}

/// The registry entry: `socket_pdu`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::BlockSpec;
    BlockSpec::of::<SocketPduParams>(
        "socket_pdu",
        "Networking",
        "Sends and receives PDUs of bytes over a UDP or TCP socket.",
        |p| Ok(Box::new(SocketPdu::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio 3.10's `network_socket_pdu`: `type` `tcp_server`, `tcp_client`, \
         `udp_server` or `udp_client` (GNU Radio's upper-case names work too) on \
         `host:port` (127.0.0.1 by default; 0.0.0.0 or :: for every interface). Every \
         datagram or TCP read (up to `mtu` bytes) becomes a PDU on `pdus` with empty \
         metadata; PDUs of bytes arriving on `pdus` are sent (datagrams of at most \
         `mtu` bytes; to every client of a TCP server; a UDP server answers the last \
         sender). PDUs whose data is not bytes are refused with an error. Counts \
         `pdus_received`, `pdus_sent`, `pdus_unsent`, `connections`, `frames_dropped`.",
    )
    .message_input("pdus")
    .message_output("pdus")
}
