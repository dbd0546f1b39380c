//! `pool`: N worker threads with work-stealing deques. A block is a task
//! that becomes runnable when its signal fires (input data, output space,
//! a message, a stop); it is never run by two workers at once; idle workers
//! park. Wake-ups from a worker go to that worker's own LIFO deque, so a
//! consumer tends to run right after its producer, on the same core, while
//! the data is still in cache.

use super::Scheduler;
use super::thread::{
    RealtimePriority, ThreadSettings, fail_worker_start, spawn_worker, start_blocking,
    workers_refused,
};
use super::timers::Timers;
use crate::runner::{BlockRunner, Step};
use crate::signal::Wake;
use crate::stats::ThreadUsage;
use crossbeam_deque::{Injector, Steal, Stealer, Worker};
use std::cell::{RefCell, UnsafeCell};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// The work-stealing pool scheduler.
#[derive(Clone, Debug, Default)]
pub struct Pool {
    workers: Option<usize>,
    pin: bool,
    realtime_priority: Option<RealtimePriority>,
    timer_slack: Option<std::time::Duration>,
}

impl Pool {
    /// One worker per core, unpinned.
    pub fn new() -> Self {
        Self::default()
    }

    /// Uses `n` workers.
    pub fn workers(mut self, n: usize) -> Self {
        self.workers = Some(n.max(1));
        self
    }

    /// Pins worker `i` to CPU `i % cores`.
    pub fn pinned(mut self) -> Self {
        self.pin = true;
        self
    }

    /// Runs workers with a real-time `priority` (an `i32` means SCHED_FIFO) (warns and goes on if refused).
    pub fn realtime_priority(mut self, priority: impl Into<RealtimePriority>) -> Self {
        self.realtime_priority = Some(priority.into());
        self
    }

    /// The timer slack of every worker thread (default
    /// [`DEFAULT_TIMER_SLACK`](super::thread::DEFAULT_TIMER_SLACK)).
    pub fn timer_slack(mut self, slack: std::time::Duration) -> Self {
        self.timer_slack = Some(slack);
        self
    }
}

const IDLE: u8 = 0;
const SCHEDULED: u8 = 1;
const RUNNING: u8 = 2;
const NOTIFIED: u8 = 3;
const DONE: u8 = 4;

/// Run a task at most this many times in a row before letting others run.
const BURST: usize = 32;

/// One pick in this many takes the oldest waiting task instead of the
/// newest (see `Shared::find_task`).
const FAIR_PICK: usize = 31;

struct Task {
    state: AtomicU8,
    runner: UnsafeCell<Option<BlockRunner>>,
}

// SAFETY: the runner is only touched by the worker that moved the task's
// state from SCHEDULED to RUNNING; the state machine makes that exclusive.
unsafe impl Sync for Task {}

struct Shared {
    tasks: Box<[Task]>,
    injector: Injector<usize>,
    stealers: Vec<Stealer<usize>>,
    idle: Mutex<Vec<Thread>>,
    idle_count: AtomicUsize,
    remaining: AtomicUsize,
    timers: Timers,
}

thread_local! {
    /// The pool and deque of the worker running on this thread, if any.
    static LOCAL: RefCell<Option<(*const Shared, Worker<usize>)>> = const { RefCell::new(None) };
}

impl Shared {
    fn push(&self, task: usize) {
        let pushed_locally = LOCAL.with(|local| match &*local.borrow() {
            Some((pool, worker)) if std::ptr::eq(*pool, self) => {
                worker.push(task);
                true
            }
            _ => false,
        });
        if !pushed_locally {
            self.injector.push(task);
        }
        self.wake_one();
    }

    fn wake_one(&self) {
        std::sync::atomic::fence(Ordering::SeqCst);
        if self.idle_count.load(Ordering::Relaxed) > 0 {
            let thread = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
            if let Some(t) = thread {
                self.idle_count.fetch_sub(1, Ordering::AcqRel);
                t.unpark();
            }
        }
    }

    fn wake_all(&self) {
        let threads = std::mem::take(&mut *self.idle.lock().unwrap_or_else(|e| e.into_inner()));
        self.idle_count.store(0, Ordering::Release);
        for t in threads {
            t.unpark();
        }
    }

    /// Makes task `i` runnable (the Wake protocol).
    fn schedule(&self, i: usize) {
        let state = &self.tasks[i].state;
        let mut current = state.load(Ordering::Acquire);
        loop {
            let next = match current {
                IDLE => SCHEDULED,
                RUNNING => NOTIFIED,
                _ => return,
            };
            match state.compare_exchange_weak(current, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    if next == SCHEDULED {
                        self.push(i);
                    }
                    return;
                }
                Err(now) => current = now,
            }
        }
    }

    /// The next task for worker `me`: usually the newest of its own deque
    /// (a consumer right after its producer, data in cache), but every
    /// [`FAIR_PICK`]th pick (`tick`) the oldest waiting anywhere first: a
    /// pair that keeps waking each other would otherwise keep the deque
    /// full for ever, and tasks woken from outside the pool (a message or
    /// call from the handle, a blocking block's thread) or stolen in a
    /// batch would never run.
    fn find_task(&self, local: &Worker<usize>, me: usize, tick: usize) -> Option<usize> {
        if tick.is_multiple_of(FAIR_PICK)
            && let Steal::Success(task) =
                self.injector.steal().or_else(|| self.stealers[me].steal())
        {
            return Some(task);
        }
        local.pop().or_else(|| {
            std::iter::repeat_with(|| {
                self.injector
                    .steal_batch_and_pop(local)
                    .or_else(|| self.stealers.iter().map(|s| s.steal()).collect())
            })
            .find(|s| !s.is_retry())
            .and_then(Steal::success)
        })
    }

    /// Schedules tasks whose timers expired; returns the next deadline.
    fn fire_timers(&self) -> Option<Instant> {
        let mut due = Vec::new();
        let next = self.timers.take_due(&mut due);
        for i in due {
            self.schedule(i);
        }
        next
    }

    /// Runs task `i` (state SCHEDULED) for a burst.
    fn run_task(&self, i: usize) {
        let task = &self.tasks[i];
        task.state.store(RUNNING, Ordering::Release);
        // SAFETY: we moved the state from SCHEDULED to RUNNING; no other
        // worker touches the runner until we leave RUNNING/NOTIFIED.
        let runner = unsafe { &mut *task.runner.get() };
        let Some(runner) = runner.as_mut() else {
            return;
        };
        let burst = || {
            let mut step = Step::Progress;
            for _ in 0..BURST {
                step = runner.run_once();
                if step != Step::Progress {
                    break;
                }
            }
            step
        };
        // A panic in the runtime fails the run; the block counts as done
        // so the other workers do not wait for it.
        let step = super::contain_panic(burst).unwrap_or_else(|panic| {
            let place = format!("a `pool` worker running block `{}`", runner.name());
            panic.fail_block(runner, &place);
            Step::Done
        });
        match step {
            Step::Done => {
                task.state.store(DONE, Ordering::Release);
                if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
                    self.wake_all();
                }
            }
            Step::Progress => {
                // Burst used up: go to the back of the line.
                task.state.store(SCHEDULED, Ordering::Release);
                self.injector.push(i);
                self.wake_one();
            }
            Step::Idle { until } => {
                // No one to wake: this worker checks the timers after the
                // task, and before it parks sleeps until the earliest.
                if let Some(at) = until {
                    self.timers.add(at, i);
                }
                if task
                    .state
                    .compare_exchange(RUNNING, IDLE, Ordering::AcqRel, Ordering::Acquire)
                    .is_err()
                {
                    // Notified while running: run again.
                    task.state.store(SCHEDULED, Ordering::Release);
                    self.push(i);
                }
            }
        }
    }

    fn worker_loop(&self, me: usize, local: Worker<usize>) {
        LOCAL.with(|l| *l.borrow_mut() = Some((self as *const Shared, local)));
        let mut tick = 0usize;
        loop {
            tick = tick.wrapping_add(1);
            if self.remaining.load(Ordering::Acquire) == 0 {
                break;
            }
            let task = LOCAL.with(|l| {
                let l = l.borrow();
                let (_, local) = l.as_ref().expect("worker deque installed above");
                self.find_task(local, me, tick)
            });
            if let Some(i) = task {
                self.run_task(i);
                // Busy workers fire timers too (see `Timers`).
                if self.timers.any_due() {
                    self.fire_timers();
                }
                continue;
            }
            let next_timer = self.fire_timers();
            // Park: announce, re-check, sleep.
            self.idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(std::thread::current());
            self.idle_count.fetch_add(1, Ordering::AcqRel);
            std::sync::atomic::fence(Ordering::SeqCst);
            let work_appeared = !self.injector.is_empty()
                || self.stealers.iter().any(|s| !s.is_empty())
                || self.remaining.load(Ordering::Acquire) == 0;
            if !work_appeared {
                let timeout = next_timer
                    .map(|t| t.saturating_duration_since(Instant::now()))
                    .unwrap_or(Duration::from_millis(100));
                std::thread::park_timeout(timeout);
            }
            let me = std::thread::current().id();
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(pos) = idle.iter().position(|t| t.id() == me) {
                idle.swap_remove(pos);
                self.idle_count.fetch_sub(1, Ordering::AcqRel);
            }
        }
        LOCAL.with(|l| *l.borrow_mut() = None);
    }
}

struct TaskWaker {
    shared: Arc<Shared>,
    index: usize,
}

impl Wake for TaskWaker {
    fn wake(&self) {
        self.shared.schedule(self.index);
    }
}

impl Scheduler for Pool {
    fn name(&self) -> &str {
        "pool"
    }

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let (pooled, own_threads) = start_blocking(runners);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let n_workers = self.workers.unwrap_or(cores).max(1);
        let deques: Vec<Worker<usize>> = (0..n_workers).map(|_| Worker::new_lifo()).collect();
        let control = pooled.first().map(|r| r.control.clone());
        let refused = workers_refused(pooled.iter().map(|r| r.name()));
        let shared = Arc::new(Shared {
            remaining: AtomicUsize::new(pooled.len()),
            tasks: pooled
                .into_iter()
                .map(|r| Task {
                    state: AtomicU8::new(SCHEDULED),
                    runner: UnsafeCell::new(Some(r)),
                })
                .collect(),
            injector: Injector::new(),
            stealers: deques.iter().map(Worker::stealer).collect(),
            idle: Mutex::new(Vec::new()),
            idle_count: AtomicUsize::new(0),
            timers: Timers::new(),
        });
        for i in 0..shared.tasks.len() {
            // SAFETY: no worker runs yet; we are the only accessor.
            if let Some(r) = unsafe { &*shared.tasks[i].runner.get() } {
                r.signal().set_waker(Arc::new(TaskWaker {
                    shared: shared.clone(),
                    index: i,
                }));
            }
            shared.injector.push(i);
        }
        let usages: Vec<ThreadUsage> = std::thread::scope(|scope| {
            let handles: Vec<_> = deques
                .into_iter()
                .enumerate()
                .filter_map(|(w, deque)| {
                    let shared = &shared;
                    let settings = ThreadSettings {
                        cpus: if self.pin {
                            vec![w % cores]
                        } else {
                            Vec::new()
                        },
                        realtime_priority: self.realtime_priority,
                        timer_slack: self.timer_slack,
                    };
                    let name = format!("rfgraph-pool-{w}");
                    let started = spawn_worker(scope, name.clone(), refused, move || {
                        settings.apply();
                        let before = ThreadUsage::current();
                        shared.worker_loop(w, deque);
                        ThreadUsage::current().since(before)
                    });
                    // Workers that started run every block until it stops;
                    // if none did, the blocks are finished below.
                    started
                        .map_err(|e| fail_worker_start(control.as_deref(), &name, &e))
                        .ok()
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("pool workers catch block panics"))
                .collect()
        });
        let total = usages
            .iter()
            .fold(ThreadUsage::default(), |a, u| ThreadUsage {
                voluntary: a.voluntary + u.voluntary,
                involuntary: a.involuntary + u.involuntary,
            });
        // The signals' wakers keep `shared` alive, so take the runners out
        // of their tasks rather than unwrapping the Arc.
        let mut out: Vec<BlockRunner> = shared
            .tasks
            .iter()
            // SAFETY: every worker has been joined; nothing else touches
            // the runners any more.
            .filter_map(|t| unsafe { (*t.runner.get()).take() })
            .collect();
        let sharing = out.len();
        for r in &mut out {
            r.record_thread_usage(total, sharing);
            // Only when no worker started (see above); a no-op otherwise.
            r.finish();
        }
        out.extend(own_threads.join());
        out
    }
}
