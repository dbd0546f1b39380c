//! [`Sequence`]: what a datagram's sequence number says about the ones
//! before it: none missing, some lost, or it comes late.
//!
//! Pure bookkeeping on numbers: it never sees a socket or the items.
//! Sequence numbers come from the network, so every step is checked
//! arithmetic: no number can make it panic or wrap.

/// How far back a sequence number may be and still be a datagram that
/// came late; one further back means the sender started again (GNU
/// Radio's sink numbers from 1 at every start).
pub const REORDER_WINDOW: u64 = 1024;

/// What one sequence number says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// In order, after `lost` datagrams that never came (0: none).
    Next {
        /// Datagrams skipped since the last one in order.
        lost: u64,
    },
    /// Lower than expected and within [`REORDER_WINDOW`]: reordered (or
    /// repeated), its place in the stream already passed.
    Late,
    /// Far lower than expected, or 1 again: the sender started again;
    /// the stream goes on from this datagram.
    Restart,
}

/// The sequence numbers seen so far on one socket.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequence {
    /// The last number in order, once one came.
    last: Option<u64>,
}

impl Sequence {
    /// The verdict on `seq`, remembered for the next one.
    pub fn check(&mut self, seq: u64) -> Verdict {
        let Some(last) = self.last else {
            // The first datagram primes the count, as GNU Radio's does.
            self.last = Some(seq);
            return Verdict::Next { lost: 0 };
        };
        if seq > last {
            self.last = Some(seq);
            return Verdict::Next {
                lost: seq - last - 1,
            };
        }
        if seq <= 1 || last - seq > REORDER_WINDOW {
            self.last = Some(seq);
            return Verdict::Restart;
        }
        Verdict::Late
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_late_datagrams_and_restarts() {
        let mut s = Sequence::default();
        assert_eq!(s.check(5), Verdict::Next { lost: 0 });
        assert_eq!(s.check(6), Verdict::Next { lost: 0 });
        assert_eq!(s.check(9), Verdict::Next { lost: 2 });
        assert_eq!(s.check(8), Verdict::Late);
        assert_eq!(s.check(9), Verdict::Late);
        assert_eq!(s.check(10), Verdict::Next { lost: 0 });
        assert_eq!(s.check(1), Verdict::Restart);
        assert_eq!(s.check(2), Verdict::Next { lost: 0 });
        assert_eq!(s.check(u64::MAX), Verdict::Next { lost: u64::MAX - 3 });
        assert_eq!(s.check(u64::MAX), Verdict::Late);
        assert_eq!(s.check(7), Verdict::Restart);
        assert_eq!(s.check(0), Verdict::Restart);
        assert_eq!(s.check(0), Verdict::Restart);
    }
}
