//! [`CpuTime`]: the CPU time the whole process used (every thread, user
//! and system), read with `getrusage(RUSAGE_SELF)`, so that an experiment
//! (a benchmark) can report what its run cost besides how long it took.

use std::time::Duration;

/// User and system CPU time of the process so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct CpuTime {
    /// Time spent running the process's code.
    pub user: Duration,
    /// Time the kernel spent on its behalf.
    pub system: Duration,
}

fn duration(tv: libc::timeval) -> Duration {
    Duration::from_secs(tv.tv_sec.max(0) as u64) + Duration::from_micros(tv.tv_usec.max(0) as u64)
}

impl CpuTime {
    /// The process's CPU time so far (zero if the call fails, which it
    /// does not for `RUSAGE_SELF`).
    pub fn now() -> Self {
        super::rusage::rusage(libc::RUSAGE_SELF).map_or_else(Self::default, |ru| Self {
            user: duration(ru.ru_utime),
            system: duration(ru.ru_stime),
        })
    }

    /// The CPU time used since `earlier`.
    pub fn since(self, earlier: Self) -> Self {
        Self {
            user: self.user.saturating_sub(earlier.user),
            system: self.system.saturating_sub(earlier.system),
        }
    }

    /// User plus system time.
    pub fn total(self) -> Duration {
        self.user + self.system
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_on_other_threads_counts() {
        let before = CpuTime::now();
        // Work until the clock (10 ms ticks at worst) has moved: a bound
        // on progress, not a measurement.
        let worker = std::thread::spawn(move || {
            let mut x = 0u64;
            while CpuTime::now().since(before).user.is_zero() {
                for i in 0..100_000u64 {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
                }
            }
            x
        });
        worker.join().unwrap();
        let used = CpuTime::now().since(before);
        assert!(used.user > Duration::ZERO);
        assert_eq!(used.total(), used.user + used.system);
        assert!(CpuTime::now() >= before);
    }
}
