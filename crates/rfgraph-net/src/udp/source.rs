//! [`UdpSource`]: a stream's items from UDP datagrams with GNU Radio
//! 3.10's headers, `network.udp_source`.
//!
//! Owns the bound socket, the datagram received but not yet written
//! out, the zeros owed for lost datagrams, and the counts of lost, late
//! and malformed datagrams. Datagrams are untrusted: each is checked by
//! [`header::parse`](super::header::parse) before any byte of it
//! becomes an item, and nothing is sized by what a datagram says.

use super::header::{self, HeaderType};
use super::sequence::{Sequence, Verdict};
use super::{MAX_DATAGRAM, MAX_PAYLOAD, check_payload};
use crate::tcp::{DEFAULT_HOST, IO_WAIT, LocalAddr, resolve};
use crate::{BadFrames, LOG_INTERVAL};
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamOutput, WorkIo};
use std::io;
use std::net::UdpSocket;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The most datagrams one call takes in, so that the items reach the
/// readers in pieces of bounded latency.
const DATAGRAMS_PER_CALL: usize = 64;

/// The longest gap (in datagrams) `source_zeros` fills; a longer one is
/// counted and logged but not filled, so that one forged sequence number
/// cannot make the source emit zeros for hours.
pub const MAX_ZERO_FILL: u64 = 4096;

/// The parameters of [`UdpSource`] (`udp_source`, GNU Radio's
/// `network_udp_source`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct UdpSourceParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, I32, I16, U8))]
    pub item: ItemKind,
    /// items per GNU Radio vector
    #[param(default = 1, min = 1, max = limits::MAX_VLEN, alias = "veclen")]
    pub vlen: usize,
    /// the address to listen on (127.0.0.1, or ::1 with `ipv6`, when not
    /// set; 0.0.0.0 or :: for every interface)
    #[param(alias = "addr", max_len = 255)]
    pub host: Option<String>,
    /// UDP port to listen on (0: any free port, see `local_addr`)
    #[param(default = 1234)]
    pub port: u16,
    /// header of every datagram: none (0), seqnum (1) or seq_plus_size (2)
    #[param(default = HeaderType::None, alias = "header_type")]
    pub header: HeaderType,
    /// bytes of the sender's full datagrams, header included: how many
    /// zeros stand for a lost one
    #[param(default = 1472, min = 8, max = MAX_PAYLOAD, unit = "bytes")]
    pub payloadsize: usize,
    /// log lost and late datagrams (at most a line a second)
    #[param(default = false)]
    pub notify_missed: bool,
    /// write zeros in place of lost datagrams (needs a sequence number)
    #[param(default = false, alias = "src_zeros")]
    pub source_zeros: bool,
    /// listen on IPv6 (::1 unless `host` says otherwise)
    #[param(default = false)]
    pub ipv6: bool,
    /// a zero-length datagram (GNU Radio's `send_eof`) ends the output
    #[param(default = true)]
    pub eof: bool,
    /// the kernel's receive buffer asked for (SO_RCVBUF): what absorbs a
    /// burst while the block is busy (the kernel caps it at
    /// `net.core.rmem_max`; at 50 MS/s of complex items its 208 KiB
    /// default is half a millisecond)
    #[param(default = DEFAULT_RECV_BUFFER, min = 4096, unit = "bytes")]
    pub recv_buffer: usize,
}

/// The receive buffer a `udp_source` asks for unless told otherwise.
pub const DEFAULT_RECV_BUFFER: usize = 8 << 20;

/// A UDP socket bound to `addr` with a receive buffer of (up to) `size`
/// bytes, set before the bind so that no datagram meets the default one;
/// also the size the kernel granted (it caps it at
/// `net.core.rmem_max`).
fn bind_with_buffer(addr: std::net::SocketAddr, size: usize) -> io::Result<(UdpSocket, usize)> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    socket.set_recv_buffer_size(size)?;
    // Linux reports twice what it keeps for the payload (its bookkeeping).
    let granted = socket.recv_buffer_size()? / 2;
    socket.bind(&addr.into())?;
    Ok((socket.into(), granted))
}

impl UdpSourceParams {
    /// Listens on 127.0.0.1:`port` for datagrams of `item` without header
    /// (the rest at GNU Radio's defaults).
    pub fn new(item: ItemKind, port: u16) -> Self {
        Self {
            item,
            vlen: 1,
            host: None,
            port,
            header: HeaderType::None,
            payloadsize: 1472,
            notify_missed: false,
            source_zeros: false,
            ipv6: false,
            eof: true,
            recv_buffer: DEFAULT_RECV_BUFFER,
        }
    }

    /// The address to bind.
    fn bind_host(&self) -> &str {
        match &self.host {
            Some(host) => host,
            None if self.ipv6 => "::1",
            None => DEFAULT_HOST,
        }
    }

    /// A full datagram holds the header and at least an item.
    fn check(&self) -> Result<(), ParamError> {
        check_payload(
            "udp_source",
            self.payloadsize,
            self.header,
            self.item,
            self.vlen,
            false,
        )
    }
}

/// Counts of one source, shared with its statistics.
#[derive(Debug, Default)]
struct Counts {
    datagrams: Arc<AtomicU64>,
    lost: Arc<AtomicU64>,
    reordered: Arc<AtomicU64>,
    /// The receive buffer the kernel granted, in bytes.
    recv_buffer: Arc<AtomicU64>,
}

/// Adds `n` to `counter`, stopping at the largest count rather than
/// wrapping (a forged sequence number may claim almost 2^64 lost).
fn add_saturating(counter: &AtomicU64, n: u64) -> u64 {
    let old = counter
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
            Some(c.saturating_add(n))
        })
        .unwrap_or(u64::MAX);
    old.saturating_add(n)
}

/// Log lines about the sequence, at most one per [`LOG_INTERVAL`].
#[derive(Debug, Default)]
struct Notices {
    last: Option<Instant>,
    suppressed: u64,
}

impl Notices {
    fn note(&mut self, label: &str, line: impl FnOnce() -> String) {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|at| now.duration_since(at) < LOG_INTERVAL)
        {
            self.suppressed += 1;
            return;
        }
        let more = std::mem::take(&mut self.suppressed);
        if more > 0 {
            eprintln!("{label}: {} ({more} similar lines not shown)", line());
        } else {
            eprintln!("{label}: {}", line());
        }
        self.last = Some(now);
    }
}

/// Receives UDP datagrams with GNU Radio 3.10's headers and produces
/// their items: GNU Radio's `network.udp_source`, for datagrams from its
/// `udp_sink`, rfgraph's [`UdpSink`](super::UdpSink) or any program
/// that sends the same bytes (see [`header`](super::header)).
///
/// The socket is bound in `init` to `host:port` (127.0.0.1 by default,
/// `::1` with `ipv6`; GNU Radio's binds every interface), and
/// [`local_addr`](Self::local_addr) says where. Every datagram is taken
/// on its own, whatever its length (GNU Radio's re-cuts the bytes into
/// pieces of `payloadsize`): a datagram shorter than its header, or
/// whose items are not whole vectors, is dropped, counted
/// (`frames_dropped`) and logged (at most a line a second).
///
/// With a sequence number in the header, the source counts the
/// datagrams that never came (`datagrams_lost`: the gaps in the
/// numbers) and those that came late (`datagrams_reordered`: a number
/// lower than expected, up to [`REORDER_WINDOW`](super::REORDER_WINDOW)
/// back). A late datagram is dropped: its place in the stream has
/// passed, and the output keeps the sender's order (GNU Radio's passes
/// it on out of order). A number far lower than expected, or 1, means
/// the sender started again, and the stream goes on from there. With
/// `source_zeros`, each lost datagram becomes `payloadsize` minus the
/// header bytes of zeros (whole vectors), so the output keeps the
/// sender's timing, for gaps up to [`MAX_ZERO_FILL`] datagrams. (GNU
/// Radio's `source_zeros` instead writes zeros whenever no datagram is
/// waiting, as fast as its readers take them.) `notify_missed` logs
/// gaps and late datagrams, at most a line a second.
///
/// A zero-length datagram, GNU Radio's end-of-stream mark
/// (`udp_sink(..., send_eof=True)`), ends the output after the items
/// before it, unless `eof` is off (GNU Radio's own source stalls on
/// it: it neither ends nor reads further).
///
/// The block runs on a thread of its own and waits for datagrams at
/// most [`IO_WAIT`](crate::tcp::IO_WAIT) at a time, so a stop is seen
/// promptly.
///
/// # Stream Outputs
/// - `out`: `T`, whole vectors of `vlen` items.
///
/// # Parameters
/// [`UdpSourceParams`].
///
/// # Counters
/// - `datagrams`: datagrams whose items went out;
/// - `datagrams_lost`: datagrams the sequence numbers say never came;
/// - `datagrams_reordered`: datagrams that came late (and were dropped);
/// - `frames_dropped`: malformed datagrams dropped.
pub struct UdpSource<T: Item> {
    output: StreamOutput<T>,
    params: UdpSourceParams,
    label: String,
    local: LocalAddr,
    socket: Option<UdpSocket>,
    /// The receive buffer, room for any datagram.
    buf: Vec<u8>,
    /// The items of the last datagram in `buf` not yet written out.
    pending: Range<usize>,
    /// Zero items owed for lost datagrams, written before `pending`.
    zeros: u64,
    /// A zero-length datagram came: end once everything is out.
    ended: bool,
    sequence: Sequence,
    counts: Counts,
    bad: BadFrames,
    notices: Notices,
}

impl<T: Item> UdpSource<T> {
    /// A source with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    ///
    /// Errors: a parameter out of its range; a datagram size that leaves
    /// no room for items after the header.
    pub fn new(mut params: UdpSourceParams) -> Result<Self, ParamError> {
        if let Some(kind) = crate::items::kind_of::<T>() {
            params.item = kind;
        }
        params.validate()?;
        let label = format!("udp_source({}:{})", params.bind_host(), params.port);
        Ok(Self {
            output: StreamOutput::new("out").with_min_items(params.vlen),
            bad: BadFrames::new(label.clone()),
            label,
            params,
            local: LocalAddr::default(),
            socket: None,
            buf: Vec::new(),
            pending: 0..0,
            zeros: 0,
            ended: false,
            sequence: Sequence::default(),
            counts: Counts::default(),
            notices: Notices::default(),
        })
    }

    /// The parameters.
    pub fn params(&self) -> &UdpSourceParams {
        &self.params
    }

    /// Where the socket is bound, once `init` has run (shared: keep it to
    /// read the address while the flowgraph runs).
    pub fn local_addr(&self) -> LocalAddr {
        self.local.clone()
    }

    /// Datagrams whose items went out so far.
    pub fn datagrams(&self) -> u64 {
        self.counts.datagrams.load(Ordering::Relaxed)
    }

    /// Datagrams the sequence numbers say never came.
    pub fn datagrams_lost(&self) -> u64 {
        self.counts.lost.load(Ordering::Relaxed)
    }

    /// Datagrams that came late and were dropped.
    pub fn datagrams_reordered(&self) -> u64 {
        self.counts.reordered.load(Ordering::Relaxed)
    }

    /// Malformed datagrams dropped.
    pub fn frames_dropped(&self) -> u64 {
        self.bad.count()
    }

    /// Bytes of one vector.
    fn vector_bytes(&self) -> usize {
        self.params.vlen * size_of::<T>()
    }

    /// Zero items standing for one lost datagram: its items, in whole
    /// vectors.
    fn zeros_per_datagram(&self) -> u64 {
        let data = self.params.payloadsize - self.params.header.size();
        (data / self.vector_bytes() * self.params.vlen) as u64
    }

    /// Takes in the `len`-byte datagram at the start of `buf`.
    fn take(&mut self, len: usize) {
        if len == 0 {
            if self.params.eof {
                self.ended = true;
            }
            return;
        }
        let header = self.params.header;
        let (seq, payload) = match header::parse(&self.buf[..len], header, self.vector_bytes()) {
            Ok(frame) => (frame.seq, frame.payload.len()),
            Err(why) => {
                self.bad.drop_frame(&why);
                return;
            }
        };
        if let Some(seq) = seq {
            match self.sequence.check(seq) {
                Verdict::Next { lost: 0 } => {}
                Verdict::Next { lost } => self.lost(lost, seq),
                Verdict::Late => {
                    let total = self.counts.reordered.fetch_add(1, Ordering::Relaxed) + 1;
                    if self.params.notify_missed {
                        self.notices.note(&self.label, || {
                            format!("datagram {seq} came late and is dropped ({total} so far)")
                        });
                    }
                    return;
                }
                Verdict::Restart => {
                    self.notices.note(&self.label, || {
                        format!("the sender started again at sequence number {seq}")
                    });
                }
            }
        }
        let start = header.size();
        self.pending = start..start + payload;
        self.counts.datagrams.fetch_add(1, Ordering::Relaxed);
    }

    /// `lost` datagrams never came before datagram `seq`.
    fn lost(&mut self, lost: u64, seq: u64) {
        let total = add_saturating(&self.counts.lost, lost);
        let filled = self.params.source_zeros && lost <= MAX_ZERO_FILL;
        if filled {
            self.zeros += lost * self.zeros_per_datagram();
        }
        if self.params.notify_missed || (self.params.source_zeros && !filled) {
            self.notices.note(&self.label, || {
                let fill = match (self.params.source_zeros, filled) {
                    (false, _) => "",
                    (true, true) => ", filled with zeros",
                    (true, false) => ", too many to fill with zeros",
                };
                format!("{lost} datagrams lost before sequence number {seq}{fill} ({total} so far)")
            });
        }
    }

    /// Writes owed zeros, then pending items, as far as the output has
    /// room; true when nothing is left to write.
    fn flush(&mut self) -> bool {
        let vector = self.params.vlen;
        if self.zeros > 0 {
            let out = self.output.slice();
            let room = out.len() - out.len() % vector;
            let n = room.min(usize::try_from(self.zeros).unwrap_or(usize::MAX));
            out[..n].fill(T::zeroed());
            self.output.produce(n);
            self.zeros -= n as u64;
            if self.zeros > 0 {
                return false;
            }
        }
        if !self.pending.is_empty() {
            let vector_bytes = self.vector_bytes();
            let out = bytemuck::cast_slice_mut::<T, u8>(self.output.slice());
            let room = out.len() - out.len() % vector_bytes;
            let n = room.min(self.pending.len());
            let from = self.pending.start;
            out[..n].copy_from_slice(&self.buf[from..from + n]);
            self.output.produce(n / size_of::<T>());
            self.pending.start += n;
            if !self.pending.is_empty() {
                return false;
            }
        }
        true
    }
}

impl<T: Item> Block for UdpSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("datagrams", self.counts.datagrams.clone()),
            ("datagrams_lost", self.counts.lost.clone()),
            ("datagrams_reordered", self.counts.reordered.clone()),
            ("frames_dropped", self.bad.counter()),
            ("recv_buffer_bytes", self.counts.recv_buffer.clone()),
        ]
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let fail = |e: io::Error| format!("{}: {e}", self.label);
        let addr = resolve(self.params.bind_host(), self.params.port).map_err(fail)?;
        let (socket, granted) = bind_with_buffer(addr, self.params.recv_buffer).map_err(fail)?;
        self.counts
            .recv_buffer
            .store(granted as u64, Ordering::Relaxed);
        socket.set_read_timeout(Some(IO_WAIT)).map_err(fail)?;
        self.local.set(socket.local_addr().map_err(fail)?);
        self.socket = Some(socket);
        self.buf = vec![0; MAX_DATAGRAM];
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let mut received = 0;
        let mut waiting = true;
        let result = loop {
            if !self.flush() {
                // The output is full: the runtime calls again when there
                // is room.
                break Ok(());
            }
            if self.ended {
                io.finish();
                break Ok(());
            }
            if self.output.free() < self.params.vlen {
                break Ok(());
            }
            if received == DATAGRAMS_PER_CALL {
                // More may be waiting: come back for them.
                io.call_again_at(Instant::now());
                break Ok(());
            }
            let Some(socket) = &self.socket else {
                break Err(format!("{}: not initialised", self.label).into());
            };
            if received == 1 && waiting {
                // Only the first read of a call waits: later ones take
                // what has arrived, so the items go out without delay.
                if let Err(e) = socket.set_nonblocking(true) {
                    break Err(format!("{}: {e}", self.label).into());
                }
                waiting = false;
            }
            match socket.recv(&mut self.buf) {
                Ok(len) => {
                    received += 1;
                    self.take(len);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    io.call_again_at(Instant::now());
                    break Ok(());
                }
                // An ICMP error for an earlier datagram of this socket.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::Interrupted | io::ErrorKind::ConnectionRefused
                    ) => {}
                Err(e) => break Err(format!("{}: receiving: {e}", self.label).into()),
            }
        };
        if !waiting && let Some(socket) = &self.socket {
            socket.set_nonblocking(false)?;
        }
        result
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.socket = None;
        Ok(())
    }
}

/// The registry entry: `udp_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<UdpSourceParams>(
        "udp_source",
        "Networking",
        "Produces the items of UDP datagrams with GNU Radio's headers.",
        |p| crate::items::for_network_item!(p.item, T => UdpSource::<T>::new(p)?),
    )
    .doc(
        "GNU Radio 3.10's `network_udp_source`: listens on `host:port` (127.0.0.1, or \
         ::1 with `ipv6`, by default; 0.0.0.0 or :: for every interface) for datagrams \
         of a `header` (`none`/0, `seqnum`/1, `seq_plus_size`/2) then items in the host's \
         byte order, each datagram taken on its own. Malformed datagrams (shorter than \
         the header, items not whole vectors) are dropped and counted \
         (`frames_dropped`). With a sequence number, gaps count as `datagrams_lost` and \
         late datagrams as `datagrams_reordered` (dropped, so the output keeps the \
         sender's order); `source_zeros` writes zeros for each lost datagram \
         (`payloadsize` minus the header), `notify_missed` logs. A zero-length \
         datagram (GNU Radio's `send_eof`) ends the output unless `eof` is off.",
    )
    .output(PortSpec::new("out", PortItem::OfType).doc("items, `vlen` per vector"))
}
