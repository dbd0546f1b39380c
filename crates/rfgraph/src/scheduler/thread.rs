//! Running one block on a dedicated OS thread, and the thread settings
//! (CPU affinity, real-time priority, timer slack) every scheduler
//! applies.
//!
//! Used by `tpb` for every block and by the other schedulers for blocks
//! marked blocking. When the OS refuses a setting, one warning is printed
//! per process and the run goes on.

use crate::runner::{BlockRunner, Step};
use crate::signal::Wake;
use crate::stats::ThreadUsage;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

/// Wakes a parked thread. `unpark` makes no system call unless the thread
/// is actually parked.
pub struct ThreadWaker(pub Thread);

impl Wake for ThreadWaker {
    #[inline]
    fn wake(&self) {
        self.0.unpark();
    }
}

/// A real-time scheduling policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtPolicy {
    /// `SCHED_FIFO`: runs until it blocks or yields.
    Fifo,
    /// `SCHED_RR`: like FIFO, with time slices among equal priorities.
    RoundRobin,
}

/// A real-time policy and priority (1..=99). `From<i32>` gives FIFO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RealtimePriority {
    /// The policy.
    pub policy: RtPolicy,
    /// The priority, 1 (lowest) to 99.
    pub priority: i32,
}

impl From<i32> for RealtimePriority {
    fn from(priority: i32) -> Self {
        Self {
            policy: RtPolicy::Fifo,
            priority,
        }
    }
}

/// Settings for a thread that runs blocks.
#[derive(Clone, Debug, Default)]
pub struct ThreadSettings {
    /// CPUs the thread may run on (empty: any).
    pub cpus: Vec<usize>,
    /// Real-time policy and priority, if wanted.
    pub realtime_priority: Option<RealtimePriority>,
    /// How late the OS may end the thread's timed waits to merge
    /// wake-ups; `None`: [`DEFAULT_TIMER_SLACK`].
    pub timer_slack: Option<Duration>,
}

/// The timer slack of every thread that runs blocks, unless a scheduler
/// is given another. Linux ends a timed wait up to the thread's slack
/// late so that it can merge wake-ups, 50 µs by default: a paced source
/// (a throttle, a radio handing over a burst every millisecond) would pay
/// that on every wake-up, and every block behind it would inherit the
/// delay. A microsecond keeps timed waits as precise as the timer allows;
/// the wake-ups themselves stay as many.
pub const DEFAULT_TIMER_SLACK: Duration = Duration::from_micros(1);

static PRIORITY_WARNED: AtomicBool = AtomicBool::new(false);
static AFFINITY_WARNED: AtomicBool = AtomicBool::new(false);
static SLACK_WARNED: AtomicBool = AtomicBool::new(false);

fn warn_once(flag: &AtomicBool, message: String) {
    if !flag.swap(true, Ordering::Relaxed) {
        eprintln!("rfgraph warning: {message}");
    }
}

impl ThreadSettings {
    /// Applies the settings to the calling thread; failures warn once.
    pub fn apply(&self) {
        let slack = self.timer_slack.unwrap_or(DEFAULT_TIMER_SLACK);
        if let Err(e) = set_timer_slack(slack) {
            warn_once(
                &SLACK_WARNED,
                format!("cannot set a timer slack of {slack:?} ({e}); timed waits may end late"),
            );
        }
        if !self.cpus.is_empty()
            && let Err(e) = set_affinity(&self.cpus)
        {
            warn_once(
                &AFFINITY_WARNED,
                format!(
                    "cannot pin a thread to CPUs {:?} ({e}); running unpinned",
                    self.cpus
                ),
            );
        }
        if let Some(rt) = self.realtime_priority
            && let Err(e) = set_realtime_priority(rt)
        {
            warn_once(
                &PRIORITY_WARNED,
                format!(
                    "the OS refused real-time priority {} ({:?}) ({e}); running with normal priority \
                     (grant CAP_SYS_NICE or raise RLIMIT_RTPRIO to allow it)",
                    rt.priority, rt.policy
                ),
            );
        }
    }
}

/// Pins the calling thread to `cpus`.
pub fn set_affinity(cpus: &[usize]) -> std::io::Result<()> {
    // SAFETY: cpu_set_t is plain data; CPU_ZERO/CPU_SET only write into it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &cpu in cpus {
        if cpu >= libc::CPU_SETSIZE as usize {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("CPU {cpu} out of range"),
            ));
        }
        // SAFETY: cpu < CPU_SETSIZE, checked above.
        unsafe { libc::CPU_SET(cpu, &mut set) };
    }
    // SAFETY: pid 0 = calling thread; set is a valid cpu_set_t.
    let rc = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Sets the calling thread's timer slack (see [`DEFAULT_TIMER_SLACK`]);
/// at least a nanosecond (zero would mean the process default). Only
/// Linux has one; elsewhere this does nothing.
pub fn set_timer_slack(slack: Duration) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let ns = slack.as_nanos().clamp(1, libc::c_ulong::MAX as u128) as libc::c_ulong;
        // SAFETY: PR_SET_TIMERSLACK takes an unsigned long by value and
        // touches no memory of ours; the unused arguments are zero.
        let rc = unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, ns, 0, 0, 0) };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slack;
    Ok(())
}

/// The calling thread's timer slack (Linux; `None` elsewhere).
pub fn timer_slack() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: PR_GET_TIMERSLACK takes no pointer; it returns the slack.
        let ns = unsafe { libc::prctl(libc::PR_GET_TIMERSLACK, 0, 0, 0, 0) };
        u64::try_from(ns).ok().map(Duration::from_nanos)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Gives the calling thread a real-time policy and priority.
pub fn set_realtime_priority(rt: RealtimePriority) -> std::io::Result<()> {
    let param = libc::sched_param {
        sched_priority: rt.priority,
    };
    let policy = match rt.policy {
        RtPolicy::Fifo => libc::SCHED_FIFO,
        RtPolicy::RoundRobin => libc::SCHED_RR,
    };
    // SAFETY: pthread_self is always valid; param is a valid sched_param.
    let rc = unsafe { libc::pthread_setschedparam(libc::pthread_self(), policy, &param) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::from_raw_os_error(rc))
    }
}

/// Runs `runner` on the calling thread until it is done, parking whenever
/// it is idle, and right after a call that left it drained (see
/// [`BlockRunner::drained`]): one wake-up and one call per item hop.
pub fn run_until_done(runner: &mut BlockRunner) {
    runner
        .signal()
        .set_waker(Arc::new(ThreadWaker(std::thread::current())));
    runner.rest_when_drained();
    loop {
        match runner.run_once() {
            Step::Progress => {
                if runner.drained() && !runner.signal().is_pending() {
                    std::thread::park();
                }
            }
            Step::Done => break,
            Step::Idle { until } => {
                if runner.signal().is_pending() {
                    continue;
                }
                match until {
                    Some(t) => {
                        let now = Instant::now();
                        if t > now {
                            std::thread::park_timeout(t - now);
                        }
                    }
                    None => std::thread::park(),
                }
            }
        }
    }
}

/// Spawns a thread that applies `settings`, runs `runner` to completion and
/// returns it with its thread's context switches recorded.
pub fn spawn_block_thread(
    mut runner: BlockRunner,
    settings: ThreadSettings,
) -> std::io::Result<JoinHandle<BlockRunner>> {
    let name: String = runner.name().chars().take(15).collect();
    std::thread::Builder::new()
        .name(name)
        .stack_size(512 * 1024)
        .spawn(move || {
            settings.apply();
            let before = ThreadUsage::current();
            // A panic in the runtime fails the run; the block is finished
            // (best effort: its state may be inconsistent) and goes back
            // for `deinit`.
            if let Err(panic) = super::contain_panic(|| run_until_done(&mut runner)) {
                let place = format!("the thread of block `{}`", runner.name());
                panic.fail_block(&mut runner, &place);
            }
            runner.record_thread_usage(ThreadUsage::current().since(before), 1);
            runner
        })
}

/// Spawns a block thread. If the OS refuses a thread the run is failed
/// (every other block then stops) instead of hanging; the refused block is
/// lost, which is fine because a failed run returns no blocks.
pub(crate) fn spawn_or_fail(
    runner: BlockRunner,
    settings: ThreadSettings,
) -> Option<std::thread::JoinHandle<BlockRunner>> {
    let name = runner.name().to_string();
    let control = runner.control.clone();
    match spawn_block_thread(runner, settings) {
        Ok(handle) => Some(handle),
        Err(e) => {
            control.fail(crate::error::RunError::Scheduler(format!(
                "cannot start a thread for block `{name}`: {e}"
            )));
            None
        }
    }
}

/// Starts a scheduler's worker thread `name` in `scope`. `refused`
/// (test builds, see [`workers_refused`]) fails it as if the OS had
/// refused the thread.
pub(crate) fn spawn_worker<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    name: String,
    refused: bool,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    if refused {
        return Err(std::io::Error::other("refused for a test"));
    }
    std::thread::Builder::new()
        .name(name)
        .spawn_scoped(scope, f)
}

/// Fails the run because worker thread `name` could not start: the
/// blocks it would have run would wait for ever, so every block stops
/// instead (the scheduler finishes those that never ran).
pub(crate) fn fail_worker_start(
    control: Option<&crate::control::RunControl>,
    name: &str,
    cause: &std::io::Error,
) {
    if let Some(control) = control {
        control.fail(crate::error::RunError::Scheduler(format!(
            "cannot start the worker thread `{name}`: {cause}"
        )));
    }
}

/// Blocks whose instance name starts with this make the schedulers' worker
/// threads fail to start (test builds only; see [`workers_refused`]).
#[cfg(test)]
pub(crate) const REFUSE_WORKERS: &str = "refuse-workers";

/// Whether worker threads for these blocks must fail to start: never,
/// except in test builds for a block named `REFUSE_WORKERS`….
pub(crate) fn workers_refused<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    #[cfg(test)]
    {
        names.into_iter().any(|n| n.starts_with(REFUSE_WORKERS))
    }
    #[cfg(not(test))]
    {
        let _ = names;
        false
    }
}

/// Joins threads that ran one block each.
pub(crate) fn join_all(
    threads: impl IntoIterator<Item = JoinHandle<BlockRunner>>,
) -> impl Iterator<Item = BlockRunner> {
    threads.into_iter().map(|t| {
        t.join()
            .expect("block threads catch panics; a join failure is an rfgraph bug")
    })
}

/// Blocks marked blocking, each running on a thread of its own.
pub(crate) struct OwnThreads {
    threads: Vec<JoinHandle<BlockRunner>>,
    /// First writers of memory these blocks read in place, whose space
    /// they free (see `BlockRunner::space_roots`).
    frees_space_of: Vec<usize>,
}

impl OwnThreads {
    /// The blocks whose ring space these threads free: every wake-up that
    /// tells such a block its space grew comes from another thread, so a
    /// poller must not let it skip its fence (see `mark_local_polling`).
    pub(crate) fn frees_space_of(&self) -> &[usize] {
        &self.frees_space_of
    }

    /// Waits for them and hands the runners back.
    pub(crate) fn join(self) -> impl Iterator<Item = BlockRunner> {
        join_all(self.threads)
    }
}

/// Starts every blocking runner on its own thread (the rule for all
/// schedulers) and returns the others for the scheduler to run.
pub(crate) fn start_blocking(runners: Vec<BlockRunner>) -> (Vec<BlockRunner>, OwnThreads) {
    let (blocking, rest): (Vec<_>, Vec<_>) = runners.into_iter().partition(|r| r.is_blocking());
    let frees_space_of = blocking.iter().flat_map(|r| r.space_roots()).collect();
    let threads = blocking
        .into_iter()
        .filter_map(|r| spawn_or_fail(r, ThreadSettings::default()))
        .collect();
    (
        rest,
        OwnThreads {
            threads,
            frees_space_of,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::{REFUSE_WORKERS, ThreadSettings, timer_slack};
    use crate::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
    use crate::test_blocks::{Sink, Source};
    use crate::{Block, BoxError, Flowgraph, Ports, RunError, StreamInput, WorkIo};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc::channel;
    use std::time::Duration;

    /// Source → sink (blocking if `blocking_sink`), whose source makes the
    /// workers fail to start: the run fails naming the cause, ends, and
    /// every block gets its `deinit`.
    fn refused_run(scheduler: impl Scheduler, blocking_sink: bool) -> RunError {
        let mut fg = Flowgraph::new();
        let src = fg.add_named(format!("{REFUSE_WORKERS}-source"), Source::new(1 << 30));
        let sink = Sink::new(blocking_sink);
        let deinits = sink.deinits.clone();
        let sink = fg.add(sink);
        fg.connect(src, "out", sink, "in").unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(fg.run(scheduler).map(|_| ()));
        });
        // A bound on liveness, not on speed.
        let result = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the run hung without its workers");
        assert_eq!(deinits.load(Ordering::Relaxed), 1, "the sink's deinit");
        result.expect_err("the run succeeded without workers")
    }

    #[test]
    fn a_worker_that_cannot_start_fails_the_run() {
        for blocking_sink in [false, true] {
            for err in [
                refused_run(Pool::new().workers(2), blocking_sink),
                refused_run(Chain::new().workers(2), blocking_sink),
                refused_run(Chain::new().workers(1), blocking_sink),
            ] {
                assert!(
                    matches!(&err, RunError::Scheduler(m) if m.contains("cannot start the worker thread")),
                    "{err:?}"
                );
            }
        }
    }

    #[test]
    fn a_thread_gets_the_timer_slack_it_is_given_or_the_default() {
        for (asked, want) in [
            (None, super::DEFAULT_TIMER_SLACK),
            (Some(Duration::from_micros(7)), Duration::from_micros(7)),
            (Some(Duration::ZERO), Duration::from_nanos(1)),
        ] {
            let seen = std::thread::spawn(move || {
                ThreadSettings {
                    timer_slack: asked,
                    ..ThreadSettings::default()
                }
                .apply();
                timer_slack()
            })
            .join()
            .unwrap();
            assert_eq!(seen, Some(want), "asked for {asked:?}");
        }
    }

    /// A sink that notes its thread's timer slack, in nanoseconds.
    struct SlackProbe(StreamInput<f32>, Arc<AtomicU64>);

    impl Block for SlackProbe {
        fn ports(&mut self) -> Ports<'_> {
            Ports::new().input(&mut self.0)
        }
        fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
            let n = self.0.slice().len();
            self.0.consume(n);
            let ns = timer_slack().map_or(0, |d| d.as_nanos() as u64);
            self.1.store(ns, Ordering::Relaxed);
            Ok(())
        }
    }

    #[test]
    fn every_scheduler_runs_its_blocks_with_the_timer_slack_it_was_given() {
        let slack = Duration::from_micros(3);
        let schedulers: [Box<dyn Scheduler>; 4] = [
            Box::new(Tpb::new().timer_slack(slack)),
            Box::new(Single::new().timer_slack(slack)),
            Box::new(Pool::new().workers(2).timer_slack(slack)),
            Box::new(Chain::new().workers(2).timer_slack(slack)),
        ];
        for scheduler in schedulers {
            let name = scheduler.name().to_string();
            let seen = Arc::new(AtomicU64::new(0));
            let mut fg = Flowgraph::new();
            let src = fg.add(Source::new(100_000));
            let probe = fg.add(SlackProbe(StreamInput::new("in"), seen.clone()));
            fg.connect(src, "out", probe, "in").unwrap();
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(fg.run(scheduler).map(|_| ()));
            });
            // A bound on liveness, not on speed.
            rx.recv_timeout(Duration::from_secs(120))
                .expect("the run hung")
                .unwrap();
            let want = if cfg!(target_os = "linux") { 3_000 } else { 0 };
            assert_eq!(seen.load(Ordering::Relaxed), want, "{name}");
        }
    }
}
