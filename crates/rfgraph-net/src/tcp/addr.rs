//! Addresses of the socket blocks: [`LocalAddr`], the address a block
//! bound or listens on, shared with whoever needs it once the run has
//! started (a test that bound port 0, a program printing where to
//! connect), and [`resolve`], a host and port to one socket address.
//!
//! Owns no socket; it never binds or connects.

use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The host a block uses when none is given: listening blocks listen on
/// the loopback interface only unless told otherwise.
pub const DEFAULT_HOST: &str = "127.0.0.1";

/// Where a block's socket is bound, once it is: set when the block
/// binds (in `init`, or when a client socket connects), readable from
/// any thread. Clones share the one address.
#[derive(Clone, Debug, Default)]
pub struct LocalAddr {
    inner: Arc<(Mutex<Option<SocketAddr>>, Condvar)>,
}

impl LocalAddr {
    /// The address, if the block has bound its socket.
    pub fn get(&self) -> Option<SocketAddr> {
        *self.inner.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The address, waiting up to `timeout` for the block to bind its
    /// socket; `None` when it did not in that time.
    pub fn wait(&self, timeout: Duration) -> Option<SocketAddr> {
        let deadline = Instant::now() + timeout;
        let (lock, cond) = &*self.inner;
        let mut addr = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while addr.is_none() {
            let left = deadline.checked_duration_since(Instant::now())?;
            addr = cond
                .wait_timeout(addr, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        *addr
    }

    /// Records the bound address and wakes every waiter.
    pub(crate) fn set(&self, addr: SocketAddr) {
        let (lock, cond) = &*self.inner;
        *lock.lock().unwrap_or_else(PoisonError::into_inner) = Some(addr);
        cond.notify_all();
    }
}

/// The first address `host` and `port` name (`host` may be an IPv4 or
/// IPv6 literal or a name; an empty host is [`DEFAULT_HOST`]).
pub(crate) fn resolve(host: &str, port: u16) -> io::Result<SocketAddr> {
    let host = match host.trim() {
        "" => DEFAULT_HOST,
        h => h.trim_start_matches('[').trim_end_matches(']'),
    };
    (host, port)
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("`{host}` has no address")))
}

/// The local address a socket that sends to `dest` binds: the loopback
/// interface for a loopback destination, so that nothing from outside
/// reaches it, else any interface; any free port.
pub(crate) fn sending_from(dest: SocketAddr) -> SocketAddr {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    let ip = match (dest.ip().is_loopback(), dest.is_ipv6()) {
        (true, false) => IpAddr::V4(Ipv4Addr::LOCALHOST),
        (true, true) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        (false, false) => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        (false, true) => IpAddr::V6(Ipv6Addr::UNSPECIFIED),
    };
    SocketAddr::new(ip, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_literals_and_the_default() {
        assert_eq!(
            resolve("", 5).unwrap(),
            "127.0.0.1:5".parse::<SocketAddr>().unwrap()
        );
        assert_eq!(
            resolve("::1", 7).unwrap(),
            "[::1]:7".parse::<SocketAddr>().unwrap()
        );
        assert_eq!(
            resolve("[::1]", 7).unwrap(),
            "[::1]:7".parse::<SocketAddr>().unwrap()
        );
    }

    #[test]
    fn waiters_see_the_address_once_set() {
        let local = LocalAddr::default();
        assert_eq!(local.wait(Duration::from_millis(1)), None);
        let other = local.clone();
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let t = std::thread::spawn(move || other.wait(Duration::from_secs(30)));
        local.set(addr);
        assert_eq!(t.join().unwrap(), Some(addr));
        assert_eq!(local.get(), Some(addr));
    }
}
