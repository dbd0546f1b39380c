//! [`Liveness`]: when a host link's end must speak, and whether its peer
//! is alive, waiting for first contact, or lost. Pure: it takes the
//! clock as an argument, so its tests need no sleeping.

use std::time::{Duration, Instant};

/// How often an end waiting for its peer's first contact says so.
pub const WAITING_LOG: Duration = Duration::from_secs(5);

/// The peer as this end sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// Not heard from yet (or since it was lost); `log` when it is time
    /// to say this end is waiting.
    Waiting {
        /// Say so now.
        log: bool,
    },
    /// Heard from within the timeout.
    Alive,
    /// Silent for longer than the timeout, after first contact.
    Lost(Duration),
}

/// One end's view of its peer.
#[derive(Debug)]
pub struct Liveness {
    timeout: Duration,
    last_heard: Option<Instant>,
    last_said: Option<Instant>,
    waiting_since: Instant,
    last_waiting_log: Option<Instant>,
}

impl Liveness {
    /// A peer not heard from yet, as of `now`, lost after `timeout` of
    /// silence.
    pub fn new(timeout: Duration, now: Instant) -> Self {
        Self {
            timeout,
            last_heard: None,
            last_said: None,
            waiting_since: now,
            last_waiting_log: None,
        }
    }

    /// The peer said something at `now`.
    pub fn heard(&mut self, now: Instant) {
        self.last_heard = Some(now);
    }

    /// This end said something at `now`.
    pub fn said(&mut self, now: Instant) {
        self.last_said = Some(now);
    }

    /// This end should say something (a heartbeat) at `now`.
    pub fn heartbeat_due(&self, now: Instant) -> bool {
        self.last_said
            .is_none_or(|at| now.duration_since(at) >= self.timeout / 3)
    }

    /// When the next heartbeat is due.
    pub fn next_heartbeat(&self, now: Instant) -> Instant {
        self.last_said.map_or(now, |at| at + self.timeout / 3)
    }

    /// How long the peer has been waited for, at `now`.
    pub fn waiting_for(&self, now: Instant) -> Duration {
        now.duration_since(self.waiting_since)
    }

    /// The peer's state at `now`.
    pub fn check(&mut self, now: Instant) -> Peer {
        match self.last_heard {
            Some(at) if now.duration_since(at) > self.timeout => Peer::Lost(now.duration_since(at)),
            Some(_) => Peer::Alive,
            None => {
                let log = self.last_waiting_log.map_or(
                    now.duration_since(self.waiting_since) >= WAITING_LOG,
                    |at| now.duration_since(at) >= WAITING_LOG,
                );
                if log {
                    self.last_waiting_log = Some(now);
                }
                Peer::Waiting { log }
            }
        }
    }

    /// Forgets the peer (after a loss, to wait for it to come back).
    pub fn forget(&mut self, now: Instant) {
        self.last_heard = None;
        self.waiting_since = now;
        self.last_waiting_log = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_then_lives_then_is_lost_then_waits_again() {
        let t0 = Instant::now();
        let s = Duration::from_secs(1);
        let mut live = Liveness::new(2 * s, t0);
        assert_eq!(live.check(t0 + s), Peer::Waiting { log: false });
        assert_eq!(live.check(t0 + WAITING_LOG), Peer::Waiting { log: true });
        assert_eq!(
            live.check(t0 + WAITING_LOG + s),
            Peer::Waiting { log: false }
        );
        live.heard(t0 + 10 * s);
        assert_eq!(live.check(t0 + 11 * s), Peer::Alive);
        assert_eq!(live.check(t0 + 13 * s), Peer::Lost(3 * s));
        live.forget(t0 + 13 * s);
        assert_eq!(live.check(t0 + 14 * s), Peer::Waiting { log: false });
    }

    #[test]
    fn heartbeats_every_third_of_the_timeout() {
        let t0 = Instant::now();
        let mut live = Liveness::new(Duration::from_secs(3), t0);
        assert!(live.heartbeat_due(t0));
        live.said(t0);
        assert!(!live.heartbeat_due(t0 + Duration::from_millis(999)));
        assert!(live.heartbeat_due(t0 + Duration::from_secs(1)));
        assert_eq!(live.next_heartbeat(t0), t0 + Duration::from_secs(1));
    }
}
