//! `PacedSource`: writes burst `k` of `B` numbered items at `start + k·T`,
//! waiting on the scheduler's timer in between (never spinning or
//! sleeping on the scheduler's thread), and records its own lateness per
//! burst: the floor under any latency measured downstream.

use rfgraph::{Block, BoxError, Ports, StreamOutput, WorkIo};
use std::time::{Duration, Instant};

/// The schedule of a [`PacedSource`]: `bursts` bursts of `burst` items,
/// one every `period`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pacing {
    /// Items per burst (`B`, at least 1).
    pub burst: usize,
    /// Time between the due times of two bursts (`T`).
    pub period: Duration,
    /// Bursts in all (`K`).
    pub bursts: usize,
}

impl Pacing {
    /// The bursts of `period` at `rate` items per second (`B = rate · T`,
    /// rounded, at least 1) that fill `bursts` periods.
    pub fn at_rate(rate: f64, period: Duration, bursts: usize) -> Self {
        let burst = (rate * period.as_secs_f64()).round().max(1.0) as usize;
        Self {
            burst,
            period,
            bursts,
        }
    }

    /// Items in all.
    pub fn items(&self) -> u64 {
        self.burst as u64 * self.bursts as u64
    }

    /// The offset of burst `k`'s due time from the start: `k · T`.
    pub fn offset(&self, k: usize) -> Duration {
        let nanos = self.period.as_nanos() * k as u128;
        let secs = u64::try_from(nanos / 1_000_000_000).unwrap_or(u64::MAX);
        Duration::new(secs, (nanos % 1_000_000_000) as u32)
    }
}

/// Releases [`Pacing::bursts`] bursts of numbered `u32` items (item `i`
/// holds `i mod 2³²`), burst `k` due at `start + k·T`, where `start` is the
/// first call of `work`. Between bursts it asks the scheduler to call it
/// again at the next due time ([`WorkIo::call_again_at`]). When the
/// output ring lacks room it writes what fits and goes on once room
/// appears: no item is ever dropped, a late burst is only late. A burst
/// that fell due while an earlier one was still waiting for room follows
/// it at once.
///
/// Lateness of burst `k` ([`lateness`](Self::lateness)): the instant of
/// the call that wrote its first item minus its due time.
pub struct PacedSource {
    output: StreamOutput<u32>,
    pacing: Pacing,
    start: Option<Instant>,
    written: u64,
    lateness: Vec<Duration>,
    largest_room: usize,
}

impl PacedSource {
    /// A source on `pacing`.
    pub fn new(pacing: Pacing) -> Self {
        Self {
            output: StreamOutput::new("out"),
            pacing: Pacing {
                burst: pacing.burst.max(1),
                ..pacing
            },
            start: None,
            written: 0,
            lateness: Vec::with_capacity(pacing.bursts),
            largest_room: 0,
        }
    }

    /// The most free items one call saw on the output: how far the
    /// runtime lets the source run ahead of its reader (a latency budget
    /// caps it below the ring).
    pub fn largest_room(&self) -> usize {
        self.largest_room
    }

    /// The schedule.
    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// When the run started (the first call of `work`), once it has.
    pub fn start(&self) -> Option<Instant> {
        self.start
    }

    /// The due time of burst `k`, once the run has started.
    pub fn due(&self, k: usize) -> Option<Instant> {
        self.start.map(|s| s + self.pacing.offset(k))
    }

    /// How late each burst written so far was: the instant of the call
    /// that wrote its first item minus its due time.
    pub fn lateness(&self) -> &[Duration] {
        &self.lateness
    }

    /// Items written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Items due by `now`: every burst whose due time has passed.
    fn due_items(&self, start: Instant, now: Instant) -> u64 {
        let elapsed = now.saturating_duration_since(start);
        let period = self.pacing.period.as_nanos().max(1);
        let bursts = (elapsed.as_nanos() / period + 1).min(self.pacing.bursts as u128);
        bursts as u64 * self.pacing.burst as u64
    }
}

impl Block for PacedSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn paced_rate(&self) -> Option<f64> {
        Some(self.pacing.burst as f64 / self.pacing.period.as_secs_f64().max(1e-9))
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let now = Instant::now();
        let start = *self.start.get_or_insert(now);
        let total = self.pacing.items();
        let burst = self.pacing.burst as u64;
        let due_items = self.due_items(start, now);
        let o = self.output.slice();
        self.largest_room = self.largest_room.max(o.len());
        let n = (due_items.saturating_sub(self.written)).min(o.len() as u64) as usize;
        for (j, slot) in o[..n].iter_mut().enumerate() {
            *slot = (self.written + j as u64) as u32;
        }
        // Bursts whose first item this call writes.
        let first = self.written.div_ceil(burst);
        let end = (self.written + n as u64).div_ceil(burst);
        for k in first..end {
            let due = start + self.pacing.offset(k as usize);
            self.lateness.push(now.saturating_duration_since(due));
        }
        self.output.produce(n);
        self.written += n as u64;
        if self.written >= total {
            io.finish();
        } else if self.written >= due_items {
            // Caught up: wait for the next burst's due time. Otherwise
            // the ring is full, and room appearing wakes the block.
            let next = (self.written / burst) as usize;
            io.call_again_at(start + self.pacing.offset(next));
        }
        Ok(())
    }
}
