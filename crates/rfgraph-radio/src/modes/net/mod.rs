//! dump1090's network outputs: [`ModesNetOutput`] serves raw frames
//! (`*HEX;`, dump1090's port 30002) and SBS/BaseStation CSV (port 30003)
//! to any number of TCP clients, so tar1090, Virtual Radar Server and
//! feeders can read `rfgraph adsb --net`. `format` holds the line
//! formats, `fanout` the sockets.

pub mod fanout;
pub mod format;

use crate::modes::Message;
use fanout::Fanout;
use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};
use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use thiserror::Error;

/// dump1090's raw output port.
pub const RAW_PORT: u16 = 30002;
/// dump1090's SBS/BaseStation output port.
pub const SBS_PORT: u16 = 30003;

/// A network output that could not start.
#[derive(Debug, Error)]
pub enum NetError {
    /// A listening address could not be bound.
    #[error("cannot listen on {addr} ({what} output): {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// `raw` or `sbs`.
        what: &'static str,
        /// Why.
        source: std::io::Error,
    },
}

/// Serves decoded messages to TCP clients in dump1090's formats: each
/// message's frame on the raw port (`*8D4840D6...;` and a newline), and
/// its SBS/BaseStation line (`MSG,3,...`) on the SBS port, with the
/// wall-clock time of sending as BaseStation's times. Sockets never block
/// the block: slow clients queue up to 1 MiB, then are dropped. At the end
/// of the run the queues are flushed (up to 2 s) and the connections
/// closed.
///
/// # Message Inputs
/// - `in`: `Pmt::String`, a [`Message`] as JSON (what
///   [`ModesDecoder`](crate::modes::ModesDecoder) posts); other messages
///   are ignored
///
/// # Usage
/// ```
/// use rfgraph_radio::modes::ModesNetOutput;
/// let local = |port| std::net::SocketAddr::from(([127, 0, 0, 1], port));
/// let net = ModesNetOutput::bind(Some(local(0)), Some(local(0)))?;
/// assert!(net.raw_addr().is_some());
/// # Ok::<(), rfgraph_radio::modes::NetError>(())
/// ```
pub struct ModesNetOutput {
    raw: Option<Fanout>,
    sbs: Option<Fanout>,
}

impl ModesNetOutput {
    /// Listens for raw clients on `raw` and SBS clients on `sbs` (either
    /// may be absent; port 0 picks a free port, see
    /// [`raw_addr`](Self::raw_addr)).
    ///
    /// Errors: [`NetError::Bind`] naming the address that failed.
    pub fn bind(raw: Option<SocketAddr>, sbs: Option<SocketAddr>) -> Result<Self, NetError> {
        let open = |addr: Option<SocketAddr>, what| {
            addr.map(|addr| {
                Fanout::bind(addr).map_err(|source| NetError::Bind { addr, what, source })
            })
            .transpose()
        };
        Ok(Self {
            raw: open(raw, "raw")?,
            sbs: open(sbs, "sbs")?,
        })
    }

    /// The raw output's address.
    pub fn raw_addr(&self) -> Option<SocketAddr> {
        self.raw.as_ref().and_then(|f| f.local_addr().ok())
    }

    /// The SBS output's address.
    pub fn sbs_addr(&self) -> Option<SocketAddr> {
        self.sbs.as_ref().and_then(|f| f.local_addr().ok())
    }

    fn send(&mut self, m: &Message) {
        if let Some(raw) = &mut self.raw {
            let mut line = format::raw_line(m);
            line.push('\n');
            raw.send(line.as_bytes());
        }
        if let Some(sbs) = &mut self.sbs {
            let ms = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            let (date, time) = format::sbs_datetime(ms);
            if let Some(mut line) = format::sbs_line(m, &date, &time) {
                // BaseStation lines end in CR LF.
                line.push_str("\r\n");
                sbs.send(line.as_bytes());
            }
        }
    }

    fn fanouts(&mut self) -> impl Iterator<Item = &mut Fanout> {
        self.raw.iter_mut().chain(self.sbs.iter_mut())
    }
}

impl Block for ModesNetOutput {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if let Pmt::String(s) = msg
            && let Ok(m) = serde_json::from_str::<Message>(&s)
        {
            self.send(&m);
        }
        Ok(Pmt::Null)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let mut queued = false;
        for f in self.fanouts() {
            f.poll();
            queued |= f.has_queued();
        }
        if queued {
            io.call_again_at(Instant::now() + Duration::from_millis(20));
        }
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        for f in self.fanouts() {
            f.close(Duration::from_secs(2));
        }
        Ok(())
    }
}
