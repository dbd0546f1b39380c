//! Host links: the stream edges of a flowgraph that spans hosts
//! ([`HostLinkSink`] on the writer's host, [`HostLinkSource`] on the
//! reader's), and the protocol between them.
//!
//! A link is gr-zeromq's PUSH/PULL with tags ([`crate::zmq`]) plus what a
//! graph split over hosts needs and GNU Radio's blocks lack:
//!
//! - **Back-pressure end to end.** The ZeroMQ socket queues up to
//!   100,000 frames per peer on its own, far past any ring. So the source
//!   acknowledges what it wrote to its output (a native `u64` of bytes,
//!   on a second connection, the data port + 1), and the sink keeps at
//!   most `window` bytes sent and not yet acknowledged: a slow reader
//!   host holds the writer host back as a slow block holds its writer.
//! - **End of stream.** When the writer's stream ends, the sink sends the
//!   frame [`END`], waits until everything sent is acknowledged, and
//!   finishes; the source finishes its output after the last items.
//! - **Liveness.** Each end says something at least every third of
//!   `peer_timeout` (the sink an empty frame, the source a zero
//!   acknowledgement). An end that hears nothing from its peer for
//!   `peer_timeout`, after first contact, fails the run naming the peer
//!   host (`on_loss = "stop"`), or logs the loss, forgets what was in
//!   flight and waits for the peer to come back (`"reconnect"`; ZeroMQ
//!   reconnects by itself). Before first contact it waits as long as it
//!   takes, saying so every [`WAITING_LOG`].
//!
//! The sink binds (on its own host's address), the source connects.

mod liveness;
mod params;
mod sink;
mod source;

pub use liveness::{Liveness, Peer, WAITING_LOG};
pub use params::{LinkParams, OnLoss};
pub use sink::HostLinkSink;
pub use source::HostLinkSource;

/// The frame that ends the stream (never a valid tagged frame: it lacks
/// the tag header's magic).
pub const END: &[u8] = b"rfgraph:end-of-stream";

/// The acknowledgement connection's address: `address` with its port
/// one higher.
pub fn credit_address(address: &str) -> Result<String, String> {
    let (head, port) = address
        .rsplit_once(':')
        .ok_or_else(|| format!("`{address}` has no port"))?;
    let port: u16 = port
        .parse()
        .map_err(|_| format!("`{address}` has no numeric port"))?;
    let next = port
        .checked_add(1)
        .filter(|_| port != 0)
        .ok_or_else(|| format!("`{address}`: a host link needs a fixed port below 65535"))?;
    Ok(format!("{head}:{next}"))
}

/// What one end of a link does about its peer at `now`: says so now and
/// then while waiting for first contact; for a lost peer, fails with an
/// error naming it (`on_loss = "stop"`) or logs the loss (with the
/// `in_flight` bytes it takes along) and gives true: the caller forgets
/// what was in flight and opens its sockets anew to wait for the peer.
pub(crate) fn watch_peer(
    live: &mut Liveness,
    now: std::time::Instant,
    params: &LinkParams,
    losses: &std::sync::atomic::AtomicU64,
    in_flight: u64,
) -> Result<bool, rfgraph::BoxError> {
    let name = format!("host `{}` ({})", params.peer, params.address);
    match live.check(now) {
        Peer::Alive | Peer::Waiting { log: false } => Ok(false),
        Peer::Waiting { log: true } => {
            eprintln!(
                "host link: waiting for {name} ({:.0} s so far)",
                live.waiting_for(now).as_secs_f64()
            );
            Ok(false)
        }
        Peer::Lost(silent) => {
            losses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let what = format!(
                "{name} is gone: nothing heard from it for {:.1} s",
                silent.as_secs_f64()
            );
            if params.on_loss == OnLoss::Stop {
                return Err(what.into());
            }
            let lost = if in_flight > 0 {
                format!("; {in_flight} bytes in flight are lost")
            } else {
                String::new()
            };
            eprintln!("host link: {what}{lost}; waiting for it to come back");
            live.forget(now);
            Ok(true)
        }
    }
}

/// The registry entries: `host_link_sink`, `host_link_source`.
pub(crate) fn specs() -> Vec<rfgraph::registry::BlockSpec> {
    vec![sink::spec(), source::spec()]
}

#[cfg(test)]
mod tests {
    use super::credit_address;

    #[test]
    fn the_credit_port_is_the_next_one() {
        assert_eq!(
            credit_address("tcp://10.0.0.1:5600").unwrap(),
            "tcp://10.0.0.1:5601"
        );
        assert!(credit_address("tcp://10.0.0.1:0").is_err());
        assert!(credit_address("tcp://10.0.0.1:65535").is_err());
        assert!(credit_address("tcp://host").is_err());
    }
}
