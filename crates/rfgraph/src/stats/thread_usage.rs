//! [`ThreadUsage`]: the context switches of one thread, read with
//! `getrusage(RUSAGE_THREAD)`.
//!
//! A system call: schedulers read it when a thread starts running blocks
//! and when it stops, never per block call.

/// Context-switch counts of one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadUsage {
    /// Voluntary switches (the thread slept).
    pub voluntary: u64,
    /// Involuntary switches (the thread was preempted).
    pub involuntary: u64,
}

impl ThreadUsage {
    /// The calling thread's counts so far (`getrusage(RUSAGE_THREAD)`).
    pub fn current() -> Self {
        super::rusage::rusage(libc::RUSAGE_THREAD).map_or_else(Self::default, |ru| Self {
            voluntary: ru.ru_nvcsw as u64,
            involuntary: ru.ru_nivcsw as u64,
        })
    }

    /// Counts since `earlier`.
    pub fn since(self, earlier: Self) -> Self {
        Self {
            voluntary: self.voluntary.saturating_sub(earlier.voluntary),
            involuntary: self.involuntary.saturating_sub(earlier.involuntary),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_usage_counts_sleeps() {
        let before = ThreadUsage::current();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let after = ThreadUsage::current().since(before);
        assert!(after.voluntary >= 1);
    }
}
