//! [`UdpSink`]: a stream's items out as UDP datagrams with GNU Radio
//! 3.10's headers, `network.udp_sink`.
//!
//! Owns the sending socket, the datagram being filled and the sequence
//! count. It never receives.

use super::header::HeaderType;
use super::{MAX_PAYLOAD, check_payload};
use crate::tcp::{IO_WAIT, LocalAddr, resolve, sending_from};
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, WorkIo};
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Zero-length datagrams GNU Radio's sink sends at the end when
/// `send_eof` is on.
const EOF_DATAGRAMS: usize = 3;

/// The parameters of [`UdpSink`] (`udp_sink`, GNU Radio's
/// `network_udp_sink`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct UdpSinkParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, I32, I16, U8))]
    pub item: ItemKind,
    /// items per GNU Radio vector
    #[param(default = 1, min = 1, max = limits::MAX_VLEN, alias = "veclen")]
    pub vlen: usize,
    /// where the datagrams go: an IPv4 or IPv6 address or a host name
    #[param(default = "127.0.0.1", alias = "addr", max_len = 255)]
    pub host: String,
    /// destination UDP port
    #[param(default = 2000, min = 1)]
    pub port: u16,
    /// header of every datagram: none (0), seqnum (1) or seq_plus_size (2)
    #[param(default = HeaderType::None, alias = "header_type")]
    pub header: HeaderType,
    /// bytes of every datagram, header included (1472 fills an Ethernet
    /// frame); the items in it must be whole vectors
    #[param(default = 1472, min = 8, max = MAX_PAYLOAD, unit = "bytes")]
    pub payloadsize: usize,
    /// send three zero-length datagrams at the end, as GNU Radio does
    #[param(default = false)]
    pub send_eof: bool,
}

impl UdpSinkParams {
    /// Datagrams of items of `item` to `host:port`, without header (the
    /// rest at GNU Radio's defaults).
    pub fn new(item: ItemKind, host: impl Into<String>, port: u16) -> Self {
        Self {
            item,
            vlen: 1,
            host: host.into(),
            port,
            header: HeaderType::None,
            payloadsize: 1472,
            send_eof: false,
        }
    }

    /// Bytes of items in a full datagram.
    pub fn data_bytes(&self) -> usize {
        self.payloadsize.saturating_sub(self.header.size())
    }

    /// A datagram holds the header and whole vectors.
    fn check(&self) -> Result<(), ParamError> {
        check_payload(
            "udp_sink",
            self.payloadsize,
            self.header,
            self.item,
            self.vlen,
            true,
        )
    }
}

/// Sends the items of its input as UDP datagrams of `payloadsize` bytes,
/// each `header` then items: GNU Radio 3.10's `network.udp_sink`, byte
/// for byte (see [`header`](super::header) for the layouts).
///
/// The first datagram's sequence number is 1, as GNU Radio's. A
/// datagram goes out once it is full; at the end of the input the items
/// left go out in a last, shorter datagram (GNU Radio's sink drops
/// them), and with `send_eof` three zero-length datagrams follow, GNU
/// Radio's end-of-stream mark (rfgraph's [`UdpSource`](super::UdpSource)
/// ends its output there). Unlike GNU Radio's, the items of a datagram
/// must be whole vectors (`payloadsize` minus the header a multiple of
/// `itemsize · vlen`), which the defaults are for every item type.
///
/// The block runs on a thread of its own; a send that the kernel holds
/// back for longer than [`IO_WAIT`](crate::tcp::IO_WAIT) is tried again
/// on the next call, so a stop is seen promptly.
///
/// # Stream Inputs
/// - `in`: `T`, `vlen` items per GNU Radio vector.
///
/// # Parameters
/// [`UdpSinkParams`].
///
/// # Counters
/// - `datagrams_sent`: datagrams with items sent.
pub struct UdpSink<T: Item> {
    input: StreamInput<T>,
    params: UdpSinkParams,
    label: String,
    local: LocalAddr,
    socket: Option<UdpSocket>,
    dest: Option<SocketAddr>,
    /// The datagram being filled: header room, then items.
    datagram: Vec<u8>,
    /// Bytes of items in `datagram`.
    filled: usize,
    /// The last sequence number sent.
    seq: u64,
    sent: Arc<AtomicU64>,
}

impl<T: Item> UdpSink<T> {
    /// A sink with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    ///
    /// Errors: a parameter out of its range; a datagram that cannot hold
    /// the header and whole vectors.
    pub fn new(mut params: UdpSinkParams) -> Result<Self, ParamError> {
        if let Some(kind) = crate::items::kind_of::<T>() {
            params.item = kind;
        }
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            label: format!("udp_sink({}:{})", params.host, params.port),
            params,
            local: LocalAddr::default(),
            socket: None,
            dest: None,
            datagram: Vec::new(),
            filled: 0,
            seq: 0,
            sent: Arc::default(),
        })
    }

    /// The parameters.
    pub fn params(&self) -> &UdpSinkParams {
        &self.params
    }

    /// The address the datagrams come from, once `init` has run.
    pub fn local_addr(&self) -> LocalAddr {
        self.local.clone()
    }

    /// Datagrams with items sent so far.
    pub fn datagrams_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// Sends the datagram in hand (`filled` bytes of items) with the next
    /// sequence number. `Ok(false)`: the kernel held it back; try again.
    fn send(&mut self) -> io::Result<bool> {
        let (Some(socket), Some(dest)) = (&self.socket, self.dest) else {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "not initialised",
            ));
        };
        let header = self.params.header;
        let len = header.size() + self.filled;
        let seq = self.seq.wrapping_add(1);
        header.write(seq, len, &mut self.datagram[..header.size()]);
        match socket.send_to(&self.datagram[..len], dest) {
            Ok(_) => {
                self.seq = seq;
                self.filled = 0;
                self.sent.fetch_add(1, Ordering::Relaxed);
                Ok(true)
            }
            Err(e) if retry_later(&e) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// Send errors after which the same datagram may go out later: a full
/// send buffer, an interrupted call, a port that was unreachable when a
/// previous datagram arrived.
fn retry_later(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock
            | io::ErrorKind::TimedOut
            | io::ErrorKind::Interrupted
            | io::ErrorKind::ConnectionRefused
    )
}

impl<T: Item> Block for UdpSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![("datagrams_sent", self.sent.clone())]
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let fail = |e: io::Error| format!("{}: {e}", self.label);
        let dest = resolve(&self.params.host, self.params.port).map_err(fail)?;
        let socket = UdpSocket::bind(sending_from(dest)).map_err(fail)?;
        socket.set_write_timeout(Some(IO_WAIT)).map_err(fail)?;
        self.local.set(socket.local_addr().map_err(fail)?);
        self.socket = Some(socket);
        self.dest = Some(dest);
        self.datagram = vec![0; self.params.payloadsize];
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let head = self.params.header.size();
        let room = self.params.data_bytes();
        let mut used = 0;
        loop {
            if self.filled == room {
                match self.send() {
                    Ok(true) => {}
                    Ok(false) => {
                        io.call_again_at(Instant::now());
                        break;
                    }
                    Err(e) => {
                        return Err(format!("{}: sending: {e}", self.label).into());
                    }
                }
            }
            let items = &self.input.slice()[used..];
            if items.is_empty() {
                break;
            }
            let n = items.len().min((room - self.filled) / size_of::<T>());
            let bytes = bytemuck::cast_slice::<T, u8>(&items[..n]);
            let at = head + self.filled;
            self.datagram[at..at + bytes.len()].copy_from_slice(bytes);
            self.filled += bytes.len();
            used += n;
        }
        self.input.consume(used);
        Ok(())
    }

    fn finishing(&mut self) {
        if self.socket.is_none() {
            return;
        }
        if self.filled > 0 && !matches!(self.send(), Ok(true)) {
            eprintln!(
                "{}: the last {} bytes of items could not be sent",
                self.label, self.filled
            );
        }
        if self.params.send_eof
            && let (Some(socket), Some(dest)) = (&self.socket, self.dest)
        {
            for _ in 0..EOF_DATAGRAMS {
                let _ = socket.send_to(&[], dest);
            }
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.socket = None;
        Ok(())
    }
}

/// The registry entry: `udp_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<UdpSinkParams>(
        "udp_sink",
        "Networking",
        "Sends a stream's items as UDP datagrams with GNU Radio's headers.",
        |p| crate::items::for_network_item!(p.item, T => UdpSink::<T>::new(p)?),
    )
    .doc(
        "GNU Radio 3.10's `network_udp_sink`, byte for byte: datagrams of `payloadsize` \
         bytes (header included) to `host:port`, each a `header` (`none`/0; `seqnum`/1, a \
         little-endian u64 sequence number from 1; `seq_plus_size`/2, that number and a \
         16-bit length in 16 bytes) then items in the host's byte order. The items of a \
         datagram must be whole vectors. At the end of the input the items left go out \
         in a shorter datagram, and `send_eof` adds GNU Radio's three zero-length \
         datagrams, which end an rfgraph `udp_source`. Counts `datagrams_sent`.",
    )
    .input(PortSpec::new("in", PortItem::OfType).doc("items, `vlen` per vector"))
}
