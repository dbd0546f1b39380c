//! Which `work` calls get timed: every early call, then random samples
//! spaced by the block's cost ([`TimingSampler`]).
//!
//! An untimed call must cost the sampler a decrement and a branch and
//! nothing else: it never reads the clock; a timed call runs out of line.

use super::WorkTally;

/// `work` calls timed before sampling starts.
pub const ALWAYS_TIMED_CALLS: u64 = 64;
/// Shortest mean distance between timed `work` calls after the first
/// [`ALWAYS_TIMED_CALLS`]. A clock read costs tens of nanoseconds in this
/// VM; with one timed call in 16, the reads alone were 3–5 % of a block
/// call's runtime overhead (saxpy, 512-item chunks), and a run of
/// thousands of calls still yields hundreds of samples at 64.
pub const TIMING_PERIOD: u32 = 64;

/// Longest mean distance between timed `work` calls (see
/// `TIMING_BUDGET_TICKS`).
pub const MAX_TIMING_PERIOD: u32 = 1024;

/// Mean distance × mean length of a call (in [`cycles`](crate::cycles)
/// ticks) that sampling aims at: a timed call costs about 100 ticks here
/// (two clock reads and the bookkeeping), so timing stays near 1/160 of a
/// block's own time. Calls of a few hundred ticks or more are timed one
/// in [`TIMING_PERIOD`]; the cheapest (a source that only counts, ten
/// nanoseconds a call) one in several hundred, which an 8 ms refinement
/// window of theirs still samples dozens of times.
const TIMING_BUDGET_TICKS: u64 = 1 << 14;

/// Decides which `work` calls of one block get timed: all of the first
/// [`ALWAYS_TIMED_CALLS`], then one at random every 1 to 2 × P - 1 calls,
/// so periodic patterns in call lengths cannot bias the estimate. The
/// mean distance P is set once, from the early calls' mean length (see
/// [`TIMING_BUDGET_TICKS`]), so every later call has the same chance.
/// Owned by the thread running the block.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct TimingSampler {
    /// Calls until the next timed one; the untimed calls in between cost
    /// a decrement and a branch.
    countdown: u16,
    /// Early calls still to time.
    early_left: u16,
    /// The mean distance between random samples.
    period: u16,
    state: u32,
    /// Ticks of the early calls timed so far (saturating: calls of a
    /// second make the period the shortest anyway). Small fields keep the
    /// sampler to 16 bytes, so that the runner's steady fields fit two
    /// cache lines.
    early_ticks: u32,
}

impl TimingSampler {
    pub(crate) fn new(seed: usize) -> Self {
        Self {
            countdown: 1,
            early_left: ALWAYS_TIMED_CALLS as u16,
            state: (seed as u32).wrapping_mul(0x9E37_79B9) | 1,
            period: TIMING_PERIOD as u16,
            early_ticks: 0,
        }
    }

    /// Whether the next `work` call is timed: a decrement and a branch.
    /// When it says so, [`take`](Self::take) tells how.
    #[inline(always)]
    pub(crate) fn due(&mut self) -> bool {
        self.countdown -= 1;
        self.countdown == 0
    }

    /// Runs `call`, timing it when the sampler says so (see
    /// [`due`](Self::due)); a timed call's time waits in `tally` for
    /// [`WorkTally::count`] to count the call, so the untimed case carries
    /// nothing about time. The timed case runs out of line.
    #[inline(always)]
    pub(crate) fn run<R>(&mut self, tally: &mut WorkTally, call: impl FnOnce() -> R) -> R {
        if self.due() {
            self.run_due(tally, call)
        } else {
            call()
        }
    }

    /// Runs and times `call`, the call that [`due`](Self::due) just
    /// announced (see [`run`](Self::run)); out of line.
    #[inline(never)]
    #[cold]
    pub(crate) fn run_due<R>(&mut self, tally: &mut WorkTally, call: impl FnOnce() -> R) -> R {
        let sample = self.take();
        let start = crate::cycles::now();
        let result = call();
        let ticks = crate::cycles::now().wrapping_sub(start);
        if sample == Sample::Early {
            self.note_early(ticks);
        }
        // A random sample stands for the calls its distance was drawn
        // over: `period` on average (it changes only before the first).
        tally.record_time(sample, ticks, u64::from(self.period));
        result
    }

    /// Adds an early call's time; after the last one, sets the distance
    /// between random samples from their mean (see
    /// [`TIMING_BUDGET_TICKS`]) and draws the first: the call after the
    /// early ones is no likelier to be timed than any other.
    fn note_early(&mut self, ticks: u64) {
        let ticks = u32::try_from(ticks).unwrap_or(u32::MAX);
        self.early_ticks = self.early_ticks.saturating_add(ticks);
        if self.early_left == 0 {
            let mean = (u64::from(self.early_ticks) / ALWAYS_TIMED_CALLS).max(1);
            self.period = (TIMING_BUDGET_TICKS / mean)
                .clamp(u64::from(TIMING_PERIOD), u64::from(MAX_TIMING_PERIOD))
                as u16;
            self.countdown = self.draw_distance();
        }
    }

    /// Whether (and why) the next `work` call should be timed.
    #[cfg(test)]
    fn time_next(&mut self) -> Option<Sample> {
        self.due().then(|| self.take())
    }

    /// The timed call that [`due`](Self::due) announced: early, or a
    /// random sample that also draws the distance to the next one.
    #[inline(never)]
    fn take(&mut self) -> Sample {
        if self.early_left > 0 {
            self.early_left -= 1;
            self.countdown = 1;
            return Sample::Early;
        }
        self.countdown = self.draw_distance();
        Sample::Random
    }

    /// Calls to the next random sample: 1 to 2 × `period` - 1.
    fn draw_distance(&mut self) -> u16 {
        // xorshift32: cheap, and good enough to scatter sample points.
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.state = x;
        1 + (x % (2 * u32::from(self.period) - 1)) as u16
    }
}

/// How a `work` call is timed (see [`TimingSampler`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sample {
    /// One of the first [`ALWAYS_TIMED_CALLS`]: these stand for themselves
    /// only. They often differ from the rest (ring pages faulted in, cold
    /// caches); scaling them up with the random samples would inflate the
    /// estimate.
    Early,
    /// A random sample standing for every later call, weighted by the
    /// calls between samples (see [`WorkTally::record_time`]).
    Random,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::StatsCell;

    #[test]
    fn sampler_times_every_early_call_then_about_one_in_period() {
        let mut sampler = TimingSampler::new(7);
        let early = (0..ALWAYS_TIMED_CALLS)
            .filter(|_| sampler.time_next() == Some(Sample::Early))
            .count();
        assert_eq!(early as u64, ALWAYS_TIMED_CALLS);
        let later = 160_000;
        let timed = (0..later)
            .filter(|_| sampler.time_next() == Some(Sample::Random))
            .count();
        let expected = later / TIMING_PERIOD as usize;
        assert!(
            timed > expected * 8 / 10 && timed < expected * 12 / 10,
            "{timed} timed, expected about {expected}"
        );
        // Never two untimed stretches longer than the sampler allows.
        let mut gap = 0;
        for _ in 0..10_000 {
            if sampler.time_next().is_some() {
                gap = 0;
            } else {
                gap += 1;
                assert!(gap < 2 * TIMING_PERIOD as usize);
            }
        }
    }

    /// After the early calls, the mean distance between samples follows
    /// their mean length: cheap calls are timed less often, down to one
    /// in `MAX_TIMING_PERIOD`, long ones one in `TIMING_PERIOD`.
    #[test]
    fn cheap_calls_are_sampled_less_often() {
        for (ticks, period) in [(25, 655), (10_000, TIMING_PERIOD), (1, MAX_TIMING_PERIOD)] {
            let mut sampler = TimingSampler::new(3);
            for _ in 0..ALWAYS_TIMED_CALLS {
                assert_eq!(sampler.time_next(), Some(Sample::Early));
                sampler.note_early(ticks);
            }
            assert_eq!(u32::from(sampler.period), period, "calls of {ticks} ticks");
            let later = 400 * period as usize;
            let timed = (0..later)
                .filter(|_| sampler.time_next() == Some(Sample::Random))
                .count();
            assert!(
                (320..480).contains(&timed),
                "{timed} samples in {later} calls"
            );
        }
    }

    /// Samplers that space their samples differently and share one cell
    /// (a segment's lanes: a starved lane makes cheap calls) still
    /// estimate the cell's time: each sample stands for the calls its
    /// sampler skips. Unweighted, the lane sampling 16 times as often
    /// counted 16 times as much, and this estimate was 1.9 times the
    /// truth.
    #[test]
    fn lanes_sampling_at_different_rates_share_an_unbiased_estimate() {
        let cell = StatsCell::new("b".into(), "T".into(), false);
        let lanes = [(2000u64, TIMING_PERIOD), (10, MAX_TIMING_PERIOD)];
        let mut truth = 0u64;
        for (seed, &(ticks, period)) in lanes.iter().enumerate() {
            let mut sampler = TimingSampler::new(seed + 1);
            let mut tally = WorkTally::default();
            for _ in 0..ALWAYS_TIMED_CALLS {
                assert_eq!(sampler.time_next(), Some(Sample::Early));
                sampler.note_early(ticks);
                tally.record_time(Sample::Early, ticks, 1);
                tally.count(&cell, 1, 1);
            }
            assert_eq!(u32::from(sampler.period), period);
            for _ in 0..1_000_000 {
                if let Some(sample) = sampler.time_next() {
                    tally.record_time(sample, ticks, u64::from(sampler.period));
                }
                tally.count(&cell, 1, 1);
            }
            cell.add_tally(&mut tally);
            truth += (ALWAYS_TIMED_CALLS + 1_000_000) * ticks;
        }
        let ratio = cell.work_ticks() as f64 / truth as f64;
        assert!((0.95..1.05).contains(&ratio), "estimate / truth = {ratio}");
    }

    /// The first random sample after the early calls lands anywhere in
    /// its first distance, not always on the next call.
    #[test]
    fn the_first_random_sample_is_drawn_too() {
        let firsts: Vec<usize> = (0..50)
            .map(|seed| {
                let mut sampler = TimingSampler::new(seed);
                for _ in 0..ALWAYS_TIMED_CALLS {
                    sampler.time_next();
                    sampler.note_early(25);
                }
                (1..).find(|_| sampler.time_next().is_some()).unwrap()
            })
            .collect();
        assert!(firsts.iter().all(|&n| n < 2 * 655), "{firsts:?}");
        assert!(firsts.iter().filter(|&&n| n == 1).count() < 5, "{firsts:?}");
    }
}
