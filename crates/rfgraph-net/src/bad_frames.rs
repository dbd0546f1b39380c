//! [`BadFrames`]: what a network block does with a frame it cannot use.
//!
//! Frames from the network are untrusted. A block that receives one it
//! cannot decode drops it, counts it (the count is one of the block's
//! statistics counters) and says why on standard error: the first at
//! once, later ones at most once per [`LOG_INTERVAL`], summed, so that a
//! flood of garbage cannot flood the log or slow the host.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The least time between two log lines of one block.
pub const LOG_INTERVAL: Duration = Duration::from_secs(1);

/// The dropped-frame count and log of one block.
#[derive(Debug)]
pub struct BadFrames {
    label: String,
    count: Arc<AtomicU64>,
    last_line: Option<Instant>,
    unlogged: u64,
}

impl BadFrames {
    /// Counts and logs for the block `label` (`zeromq_pull_source(tcp://...)`).
    pub fn new(label: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            count: Arc::default(),
            last_line: None,
            unlogged: 0,
        }
    }

    /// Frames dropped so far.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The shared counter, for the block's statistics.
    pub fn counter(&self) -> Arc<AtomicU64> {
        self.count.clone()
    }

    /// Drops one frame for `why`, logging it if the last line is old
    /// enough.
    pub fn drop_frame(&mut self, why: &dyn std::fmt::Display) {
        self.drop_frame_at(Instant::now(), why);
    }

    /// [`drop_frame`](Self::drop_frame) at `now`; returns the line written,
    /// if any (for tests).
    pub fn drop_frame_at(&mut self, now: Instant, why: &dyn std::fmt::Display) -> Option<String> {
        let total = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        self.unlogged += 1;
        if self
            .last_line
            .is_some_and(|last| now.duration_since(last) < LOG_INTERVAL)
        {
            return None;
        }
        let line = if self.unlogged == 1 {
            format!("{}: dropped a frame: {why} ({total} so far)", self.label)
        } else {
            format!(
                "{}: dropped {} frames, the last: {why} ({total} so far)",
                self.label, self.unlogged
            )
        };
        eprintln!("{line}");
        self.last_line = Some(now);
        self.unlogged = 0;
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_frame_and_logs_at_most_once_per_interval() {
        let mut bad = BadFrames::new("test");
        let t0 = Instant::now();
        assert!(bad.drop_frame_at(t0, &"first").is_some());
        for i in 1..100 {
            let at = t0 + Duration::from_millis(i);
            assert!(bad.drop_frame_at(at, &"again").is_none());
        }
        let line = bad
            .drop_frame_at(t0 + LOG_INTERVAL + Duration::from_millis(1), &"late")
            .unwrap();
        assert!(line.contains("dropped 100 frames"), "{line}");
        assert!(line.contains("101 so far"), "{line}");
        assert_eq!(bad.count(), 101);
    }
}
