//! [`XrunLog`]: logs overflows and underflows on standard error, at most
//! one line per interval, never dropping one from the count.
//!
//! A device that overflows does so thousands of times a second when the
//! host cannot keep up; a line per event would itself slow the host down.
//! So the first event is logged at once, later ones are summed and logged
//! as one line once [`INTERVAL`] has passed since the last line, and
//! whatever is left unlogged when the block ends is logged then. The
//! counts themselves live in [`StreamCounters`](crate::StreamCounters);
//! this module only decides when to write and what. It takes the clock
//! as an argument so its tests need no sleeping.

use std::time::{Duration, Instant};

/// The least time between two lines of one block.
pub const INTERVAL: Duration = Duration::from_secs(1);

/// The rate limiter of one block's overflow or underflow lines.
#[derive(Debug)]
pub(crate) struct XrunLog {
    /// Who is speaking: `SdrSource(driver=rtlsdr) RX channel 0`.
    label: String,
    /// `"overflow"` or `"underflow"`.
    what: &'static str,
    last_line: Option<Instant>,
    /// Events since the last line.
    unlogged: u64,
}

impl XrunLog {
    pub(crate) fn new(label: String, what: &'static str) -> Self {
        Self {
            label,
            what,
            last_line: None,
            unlogged: 0,
        }
    }

    /// Notes one event at `now` (`total` counted so far); returns the line
    /// to write, if one is due.
    pub(crate) fn note(&mut self, now: Instant, total: u64) -> Option<String> {
        self.unlogged += 1;
        match self.last_line {
            Some(last) if now.duration_since(last) < INTERVAL => None,
            _ => {
                self.last_line = Some(now);
                Some(self.line(total))
            }
        }
    }

    /// The line for events not logged yet, if any (the block is ending).
    pub(crate) fn flush(&mut self, total: u64) -> Option<String> {
        (self.unlogged > 0).then(|| self.line(total))
    }

    fn line(&mut self, total: u64) -> String {
        let n = std::mem::take(&mut self.unlogged);
        let what = self.what;
        if n == 1 {
            format!("rfgraph-hw: {}: {what} ({total} so far)", self.label)
        } else {
            format!("rfgraph-hw: {}: {n} {what}s ({total} so far)", self.label)
        }
    }

    /// Writes `line` to standard error (where the runtime's own warnings go).
    pub(crate) fn emit(line: Option<String>) {
        if let Some(line) = line {
            eprintln!("{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_event_is_logged_and_a_burst_becomes_one_line() {
        let mut log = XrunLog::new("src".into(), "overflow");
        let t0 = Instant::now();
        assert_eq!(
            log.note(t0, 1).as_deref(),
            Some("rfgraph-hw: src: overflow (1 so far)")
        );
        for total in 2..=5 {
            assert_eq!(log.note(t0 + Duration::from_millis(10), total), None);
        }
        // One interval after the last line: the four held back plus this one.
        assert_eq!(
            log.note(t0 + INTERVAL, 6).as_deref(),
            Some("rfgraph-hw: src: 5 overflows (6 so far)")
        );
        assert_eq!(log.flush(6), None, "everything was logged");
    }

    #[test]
    fn events_held_back_are_logged_when_the_block_ends() {
        let mut log = XrunLog::new("sink".into(), "underflow");
        let t0 = Instant::now();
        log.note(t0, 1);
        log.note(t0, 2);
        log.note(t0, 3);
        assert_eq!(
            log.flush(3).as_deref(),
            Some("rfgraph-hw: sink: 2 underflows (3 so far)")
        );
        assert_eq!(log.flush(3), None);
    }
}
