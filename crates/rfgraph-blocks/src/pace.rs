//! `Pacer`: releases items at a rate in wall-clock time, in pieces.
//!
//! What [`Throttle`](crate::Throttle) and [`FileSource`](crate::FileSource)'s
//! throttle share. Items are due at `start + k / rate`; they are released
//! in pieces of `piece` items, each when its last item is due, so a paced
//! stream wakes its block (and the blocks around it) once a piece, not once
//! an item. The schedule is counted from the start instant, never from the
//! last wake-up, so late wake-ups do not add up: the long-run rate is
//! exact, and the stream is never ahead of it.

use rfgraph::WorkIo;
use std::time::{Duration, Instant};

/// Pacing state of one stream.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pacer {
    /// The instant item 0 was due (the first call).
    start: Option<Instant>,
    /// Items released since `start`.
    passed: u64,
    /// The piece boundary a timer was asked for and the instant it is due
    /// (computed once, so that the call the timer brings releases the
    /// whole piece whatever the rounding of `elapsed · rate`).
    target: Option<(u64, Instant)>,
}

/// Items of one piece: the whole units (`unit` items each: a vector)
/// due in `chunk` seconds at `rate` units per second, at least one unit.
pub(crate) fn piece_items(rate: f64, chunk: f64, unit: u64) -> u64 {
    let units = (rate * chunk).floor();
    // `as` saturates: a piece beyond u64 is no piece a ring holds.
    (units as u64).max(1).saturating_mul(unit.max(1))
}

impl Pacer {
    /// Starts the count again from the next call (a new rate).
    pub(crate) fn restart(&mut self) {
        *self = Self::default();
    }

    /// Forgets the timer asked for (a new piece size): the next boundary
    /// is computed afresh.
    pub(crate) fn forget_target(&mut self) {
        self.target = None;
    }

    /// Items that may pass now at `rate` items per second in pieces of
    /// `piece` items: up to the last piece boundary that is due (the
    /// first call starts the clock).
    pub(crate) fn budget(&mut self, rate: f64, piece: u64) -> u64 {
        let now = Instant::now();
        let start = *self.start.get_or_insert(now);
        let piece = piece.max(1);
        // `as` saturates: at 10¹⁵ items/s a year's items exceed u64.
        let due = (now.saturating_duration_since(start).as_secs_f64() * rate) as u64;
        let mut allowed = due / piece * piece;
        if let Some((boundary, at)) = self.target
            && now >= at
        {
            allowed = allowed.max(boundary);
        }
        allowed.saturating_sub(self.passed)
    }

    /// Records `n` items released.
    pub(crate) fn pass(&mut self, n: u64) {
        self.passed = self.passed.saturating_add(n);
    }

    /// Asks the scheduler to call again when the next piece is due: the
    /// first piece boundary above what passed.
    pub(crate) fn wake_for_next_piece(&mut self, rate: f64, piece: u64, io: &mut WorkIo) {
        let start = *self.start.get_or_insert_with(Instant::now);
        let piece = piece.max(1);
        let boundary = (self.passed / piece)
            .saturating_add(1)
            .saturating_mul(piece);
        let at = match self.target {
            Some((b, at)) if b == boundary => at,
            _ => {
                // The rates' and pieces' ranges keep the wait within what
                // a timer holds; past that, look again in a second.
                let at = Duration::try_from_secs_f64(boundary as f64 / rate)
                    .ok()
                    .and_then(|d| start.checked_add(d))
                    .unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
                self.target = Some((boundary, at));
                at
            }
        };
        io.call_again_at(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_whole_units_and_never_empty() {
        assert_eq!(piece_items(32_000.0, 1e-3, 1), 32);
        assert_eq!(piece_items(32_000.0, 1e-3, 4), 128);
        assert_eq!(piece_items(1.0, 1e-3, 1), 1);
        assert_eq!(piece_items(1e-6, 1.0, 3), 3);
        assert_eq!(piece_items(1e15, 1.0, 1), 1_000_000_000_000_000);
        assert_eq!(piece_items(1e15, 1.0, 1 << 20), u64::MAX);
        assert_eq!(piece_items(32_000.0, 0.0, 1), 1);
    }

    #[test]
    fn nothing_passes_before_the_first_piece_is_due() {
        let mut p = Pacer::default();
        assert_eq!(p.budget(1.0, 1), 0);
        p.pass(0);
        assert_eq!(p.budget(1e-6, 1), 0);
    }

    #[test]
    fn a_fast_rate_releases_whole_pieces() {
        let mut p = Pacer::default();
        let _ = p.budget(1e12, 1000);
        std::thread::sleep(Duration::from_millis(2));
        let b = p.budget(1e12, 1000);
        assert!(b >= 1000 && b % 1000 == 0, "{b}");
        p.pass(b);
        let again = p.budget(1e12, 1000);
        assert_eq!(again % 1000, 0, "{again}");
    }
}
