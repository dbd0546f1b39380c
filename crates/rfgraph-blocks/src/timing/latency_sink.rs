//! `LatencySink`: checks that the numbered items of a [`PacedSource`]
//! arrive complete and in order, and records when the first and the last
//! item of every burst arrived.
//!
//! [`PacedSource`]: super::PacedSource

use rfgraph::{Block, BoxError, Ports, StreamInput, WorkIo};
use std::time::Instant;

/// An item that was not the next in sequence: one was lost, repeated or
/// reordered. The sink fails the run with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceError {
    /// The position in the stream.
    pub index: u64,
    /// The value expected there (`index mod 2³²`).
    pub expected: u32,
    /// The value that arrived.
    pub got: u32,
}

impl std::fmt::Display for SequenceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "item {} holds {}, expected {}: an item was lost, repeated or reordered",
            self.index, self.got, self.expected
        )
    }
}

impl std::error::Error for SequenceError {}

/// Consumes numbered `u32` items in bursts of `burst`; for each burst
/// keeps the instant of the call that received its first item and of the
/// call that received its last one. Any item out of sequence fails the run
/// with a [`SequenceError`].
pub struct LatencySink {
    input: StreamInput<u32>,
    burst: u64,
    received: u64,
    first: Vec<Instant>,
    last: Vec<Instant>,
    largest_batch: usize,
}

impl LatencySink {
    /// A sink for bursts of `burst` items, with room for `bursts` of them
    /// (more are recorded too, at the cost of growing).
    pub fn new(burst: usize, bursts: usize) -> Self {
        Self {
            input: StreamInput::new("in"),
            burst: burst.max(1) as u64,
            received: 0,
            first: Vec::with_capacity(bursts),
            last: Vec::with_capacity(bursts),
            largest_batch: 0,
        }
    }

    /// Items received, all in sequence.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// When each burst's first item arrived, burst 0 first.
    pub fn first_arrivals(&self) -> &[Instant] {
        &self.first
    }

    /// The most items one call saw at once: the batch the runtime hands
    /// this sink (a latency budget caps it).
    pub fn largest_batch(&self) -> usize {
        self.largest_batch
    }

    /// When each complete burst's last item arrived, burst 0 first.
    pub fn last_arrivals(&self) -> &[Instant] {
        &self.last
    }
}

impl Block for LatencySink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn idle_when_drained(&self) -> bool {
        true
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let now = Instant::now();
        let i = self.input.slice();
        let n = i.len() as u64;
        if n == 0 {
            return Ok(());
        }
        self.largest_batch = self.largest_batch.max(i.len());
        let base = self.received;
        if let Some((j, &got)) = i
            .iter()
            .enumerate()
            .find(|&(j, &v)| v != (base + j as u64) as u32)
        {
            let index = base + j as u64;
            return Err(Box::new(SequenceError {
                index,
                expected: index as u32,
                got,
            }));
        }
        // Bursts whose first item (k·B) or last item (k·B + B − 1) is in
        // [base, base + n).
        for _ in base.div_ceil(self.burst)..(base + n).div_ceil(self.burst) {
            self.first.push(now);
        }
        for _ in (base + 1).div_ceil(self.burst)..(base + n + 1).div_ceil(self.burst) {
            self.last.push(now);
        }
        self.input.consume(n as usize);
        self.received = base + n;
        Ok(())
    }
}
