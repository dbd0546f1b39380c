//! The poll engine shared by `single` and each core of `chain`: one
//! thread runs groups of tasks round by round until every task is done,
//! parking when none can progress ([`poll_until_done`]).
//!
//! This module owns the thread's loop (a group's quantum of rounds,
//! sweeps of blocks polled locally, spinning and parking, containing a
//! panic of the runtime's own code) and the rounds themselves: one pass
//! over a group's due tasks in topological order, booking each step (due
//! flags, timers, peers made due), and whole rounds in a row that look at
//! nothing but each call's step while every task streams ([`stream`]).
//! The loop and the rounds stay in one module: apart, `run_rounds` was no
//! longer inlined into the loop and `stream` compiled to a slightly
//! different, longer steady round.
//!
//! It must never decide which thread a block belongs to (the schedulers
//! do), a round must never wait, and the loop must never park for longer
//! than its `max_sleep` when one is set.

use super::contain_panic;
use super::task::Task;
use super::thread::ThreadWaker;
use crate::runner::{BlockRunner, Step};
use crate::stats::ThreadUsage;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One task of a group and what the poll loop keeps about it. The task
/// comes first (`repr(C)`): streaming rounds (see [`stream`]) touch
/// nothing else, and what a steady block call touches sits at the front
/// of its runner, so a slot costs such a round two cache lines (a chunk
/// sweeping through L1 between two rounds evicts what a round touches
/// only once, so every line counts; each slot starts a line). The flags
/// after it are for rounds that check them.
#[repr(C, align(64))]
struct Slot {
    task: Task,
    /// The task finished (read here, not through the task).
    done: bool,
    /// Made progress last time, or a stream peer on this thread did: run
    /// again without waiting for a signal.
    again: bool,
    /// Where this task's stream peers on this thread are listed in
    /// [`Group::peers`] (start, end). Edges to them send no signals (see
    /// `mark_same_thread_peers`): when this block moves, they are due.
    peers: (u32, u32),
    timer: Option<Instant>,
}

/// The tasks of one connected component, polled round by round.
struct Group {
    slots: Vec<Slot>,
    /// Positions in `slots` of each slot's local stream peers, slot after
    /// slot (one small list for the group rather than one per slot).
    peers: Vec<u32>,
    /// Slots neither done nor `again`. While there are none, every live
    /// slot runs next round anyway, so a block that moved has no peer to
    /// wake: in a chain streaming through one core, that is every round.
    waiting: usize,
    /// Slots done.
    done: usize,
}

/// Longest sleep of a thread polling blocks whose stream peers all run on
/// it: such blocks skip their fence (see [`Signal::set_polled_locally`]),
/// so a message or stop from another thread may be seen this late (each
/// such block runs again at least this often, whether the thread parks or
/// stays busy).
///
/// [`Signal::set_polled_locally`]: crate::signal::Signal::set_polled_locally
pub(crate) const LOCAL_POLL_INTERVAL: Duration = Duration::from_millis(2);

/// Rounds a group may run in a row while it progresses, before the next
/// group gets the thread. Long enough to amortise refilling the cache with
/// a group's buffers, short enough (well under a millisecond of copying)
/// to keep latency low.
const QUANTUM_ROUNDS: usize = 64;

/// Runs `groups` of runners on the calling thread until all are done,
/// parking when none can progress. A *round* runs every due block of a
/// group once, in the given (topological) order, so consumers run right
/// after their producers; a group keeps the thread for up to
/// [`QUANTUM_ROUNDS`] rounds so its buffers stay in cache. Shared by
/// `single` and each core of `chain`. Records the thread's context switches
/// on every runner.
///
/// Returns every runner: all done, or as they are when `options.pause`
/// was seen set (between rounds). A panic in the runtime's own code (see
/// [`contain_panic`]) fails the run, finishes every block it held and
/// returns them for `deinit`.
pub(crate) fn poll_until_done(groups: Vec<Vec<Task>>, options: Poll<'_>) -> Vec<BlockRunner> {
    let before = ThreadUsage::current();
    let mut groups = into_groups(groups, options.install_waker);
    let place = options.place;
    if let Err(panic) = contain_panic(|| poll(&mut groups, options)) {
        let control = slots(&groups).next().map(|s| s.task.control().clone());
        panic.fail_run(control.as_deref(), place);
        for slot in groups.iter_mut().flat_map(|g| g.slots.iter_mut()) {
            // Best effort: the block's state may be inconsistent.
            let _ = contain_panic(|| slot.task.finish());
        }
    }
    let usage = ThreadUsage::current().since(before);
    let all: Vec<Slot> = groups.into_iter().flat_map(|g| g.slots).collect();
    let sharing = all.len();
    all.into_iter()
        .filter_map(|s| {
            s.task.record_thread_usage(usage, sharing);
            s.task.into_runner()
        })
        .collect()
}

/// The slots of each group of `groups`, with their local peers linked;
/// installs a waker for this thread on every task if `install_waker`.
fn into_groups(groups: Vec<Vec<Task>>, install_waker: bool) -> Vec<Group> {
    let waker = Arc::new(ThreadWaker(std::thread::current()));
    groups
        .into_iter()
        .map(|g| {
            let slots: Vec<Slot> = g
                .into_iter()
                .map(|task| {
                    if install_waker {
                        task.signal().set_waker(waker.clone());
                    }
                    Slot {
                        done: task.is_done(),
                        again: true,
                        peers: (0, 0),
                        timer: None,
                        task,
                    }
                })
                .collect();
            let mut group = Group {
                done: slots.iter().filter(|s| s.done).count(),
                slots,
                peers: Vec::new(),
                waiting: 0,
            };
            link_local_peers(&mut group);
            group
        })
        .collect()
}

/// [`poll_until_done`]'s loop.
fn poll(groups: &mut [Group], options: Poll<'_>) {
    let Poll {
        max_sleep, pause, ..
    } = options;
    let paused = || pause.is_some_and(|p| p.load(Ordering::Acquire));
    let mut live: usize = slots(groups).filter(|s| !s.done).count();
    // Peers on other threads usually answer within microseconds; only then
    // is spinning before a park worth it.
    let remote_peers = slots(groups).any(|s| !s.task.signal().is_polled_locally());
    // Spin before the next park? Only while peers answer about as fast as
    // a spin lasts; a graph waiting on a timer or a slow source stops
    // spinning after one long park.
    let mut spin = remote_peers;
    // Blocks polled locally look without a fence, so a wake-up from
    // another thread (a message, a stop, a device completion) can be lost:
    // each runs again at least every `max_sleep`, busy thread or not.
    let sweep_every =
        max_sleep.filter(|_| slots(groups).any(|s| s.task.signal().is_polled_locally()));
    let mut last_sweep = Instant::now();
    while live > 0 && !paused() {
        let mut progressed = false;
        let mut next_timer: Option<Instant> = None;
        for group in groups.iter_mut() {
            let mut left = QUANTUM_ROUNDS;
            while left > 0 {
                let ran = run_rounds(group, left);
                left -= ran.rounds;
                live -= ran.finished;
                if let Some(t) = ran.next_timer {
                    next_timer = Some(next_timer.map_or(t, |n: Instant| n.min(t)));
                }
                if !ran.moved {
                    break;
                }
                progressed = true;
            }
        }
        if let Some(every) = sweep_every
            && last_sweep.elapsed() >= every
        {
            make_locally_polled_due(groups);
            last_sweep = Instant::now();
        }
        if !progressed && live > 0 {
            let pending = || slots(groups).any(|s| !s.done && s.task.signal().is_pending());
            let woken = pending() || paused() || (spin && spin_until(SPIN_BEFORE_PARK, pending));
            if !woken {
                let parked_at = Instant::now();
                let until_timer = next_timer.map(|t| t.saturating_duration_since(parked_at));
                match (until_timer, max_sleep) {
                    (Some(a), Some(b)) => std::thread::park_timeout(a.min(b)),
                    (Some(d), None) | (None, Some(d)) => std::thread::park_timeout(d),
                    (None, None) => std::thread::park(),
                }
                spin = remote_peers && parked_at.elapsed() < 2 * SPIN_BEFORE_PARK;
                // After a park (at most `max_sleep`), at once.
                if sweep_every.is_some() {
                    make_locally_polled_due(groups);
                    last_sweep = Instant::now();
                }
            }
        }
    }
}

/// How [`poll_until_done`] runs.
pub(crate) struct Poll<'a> {
    /// Caps every park (schedulers whose blocks skip fences need it).
    pub(crate) max_sleep: Option<Duration>,
    /// Once set, return at the next round boundary, with the runners that
    /// are not done yet; whoever sets it unparks the thread.
    pub(crate) pause: Option<&'a AtomicBool>,
    /// Install a waker for the calling thread on every runner's signal;
    /// false when the caller installed wakers that follow blocks between
    /// threads (see `chain`'s refinement).
    pub(crate) install_waker: bool,
    /// The thread, for the error of a panic in the runtime.
    pub(crate) place: &'a str,
}

/// How long an idle thread with peers on other threads spins before it
/// parks. A futex wake-up costs both sides tens of microseconds here, more
/// than a peer on another core takes to move a cache-sized chunk; a bounded
/// spin keeps cross-core edges streaming, and an idle graph still parks.
const SPIN_BEFORE_PARK: Duration = Duration::from_micros(30);

/// Polls `ready` with spin-loop hints until it holds (true) or `limit`
/// passes (false).
fn spin_until(limit: Duration, ready: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if ready() {
                return true;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() >= limit {
            return false;
        }
    }
}

/// Makes every block polled locally due (see `sweep_every` in
/// [`poll_until_done`]).
fn make_locally_polled_due(groups: &mut [Group]) {
    for group in groups.iter_mut() {
        for i in 0..group.slots.len() {
            if group.slots[i].task.signal().is_polled_locally() {
                group.make_due(i);
            }
        }
    }
}

/// Every slot of `groups`.
fn slots(groups: &[Group]) -> impl Iterator<Item = &Slot> {
    groups.iter().flat_map(|g| g.slots.iter())
}

/// Lists every slot's stream peers that were marked as running on this
/// thread (they all sit in the same group: a stream edge joins one
/// connected component).
fn link_local_peers(group: &mut Group) {
    let position: std::collections::HashMap<usize, u32> = group
        .slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((s.task.index()?, i as u32)))
        .collect();
    for slot in group.slots.iter_mut() {
        let start = group.peers.len() as u32;
        group.peers.extend(
            slot.task
                .local_peers()
                .iter()
                .filter_map(|b| position.get(b).copied()),
        );
        slot.peers = (start, group.peers.len() as u32);
    }
}

/// Runs rounds of `group`, at most `max` (at least 1): while every slot
/// is live and due (a chain streaming through one core), whole rounds in
/// a row that look at nothing but each block's step (see [`stream`]);
/// then, or else, one round that checks each slot's flags (see
/// [`run_round`]).
fn run_rounds(group: &mut Group, max: usize) -> Ran {
    let mut round = Round::default();
    let mut first = 0;
    let mut streamed = 0;
    if group.waiting == 0 && group.done == 0 {
        let (rounds, stopped) = stream(&mut group.slots, max);
        let Some((i, step)) = stopped else {
            return Ran {
                rounds,
                moved: !group.slots.is_empty(),
                finished: 0,
                next_timer: None,
            };
        };
        // The round that stopped at slot `i` is finished below, checking
        // flags.
        streamed = rounds;
        round.moved = rounds > 0 || i > 0;
        round.after(group, i, step);
        first = i + 1;
    }
    run_round(group, first, &mut round);
    Ran {
        rounds: streamed + 1,
        moved: round.moved,
        finished: round.finished,
        next_timer: round.next_timer,
    }
}

/// What [`run_rounds`] did.
struct Ran {
    /// Rounds run (a round stopped and finished counts once).
    rounds: usize,
    /// Something moved.
    moved: bool,
    /// Blocks that finished.
    finished: usize,
    /// The earliest timer asked for.
    next_timer: Option<Instant>,
}

/// Runs `slots`, all live and due, in turn, for up to `max` whole rounds
/// while each call makes progress; a block call then costs the loop a
/// step test and nothing else. Returns the whole rounds run and the
/// first slot that did not progress, with its step (its round is left
/// unfinished). Out of line, so that its loop has the registers to
/// itself.
#[inline(never)]
fn stream(slots: &mut [Slot], max: usize) -> (usize, Option<(usize, Step)>) {
    // The slot's index is worked out from its address when it stops,
    // rather than counted on every call.
    let first = slots.as_ptr() as usize;
    for rounds in 0..max {
        for slot in slots.iter_mut() {
            let step = slot.task.run_once();
            if !matches!(step, Step::Progress) {
                let i = (slot as *const Slot as usize - first) / std::mem::size_of::<Slot>();
                return (rounds, Some((i, step)));
            }
        }
    }
    (max, None)
}

/// Runs every due block of `group` from slot `first` on once, into
/// `round`. Everything but a progressing block is out of line.
fn run_round(group: &mut Group, first: usize, round: &mut Round) {
    for i in first..group.slots.len() {
        let slot = &mut group.slots[i];
        if slot.done || !(slot.again || round.due_anyway(slot)) {
            continue;
        }
        match slot.task.run_once() {
            Step::Progress if group.waiting == 0 => round.moved = true,
            step => round.after(group, i, step),
        }
    }
    debug_assert_eq!(
        group.waiting,
        group.slots.iter().filter(|s| !s.done && !s.again).count(),
        "`Group::waiting` out of step"
    );
    debug_assert_eq!(
        group.done,
        group.slots.iter().filter(|s| s.done).count(),
        "`Group::done` out of step"
    );
}

/// What [`run_round`] learns in one round.
#[derive(Default)]
struct Round {
    moved: bool,
    finished: usize,
    next_timer: Option<Instant>,
    /// The clock, read once, only if some block waits on a timer.
    now: Option<Instant>,
}

impl Round {
    /// Whether a slot not marked `again` is due: its signal fired or its
    /// timer passed. Notes the timer of one that is not.
    #[inline(never)]
    fn due_anyway(&mut self, slot: &Slot) -> bool {
        if slot.task.signal().is_pending() {
            return true;
        }
        let Some(t) = slot.timer else { return false };
        if t <= *self.now.get_or_insert_with(Instant::now) {
            return true;
        }
        // Only an idle block waits on a timer (a block that moves is run
        // again without one).
        self.next_timer = Some(self.next_timer.map_or(t, |n| n.min(t)));
        false
    }

    /// Books the `step` of `group.slots[i]`.
    #[inline(never)]
    fn after(&mut self, group: &mut Group, i: usize, step: Step) {
        match step {
            Step::Progress => {
                self.moved = true;
                group.make_due(i);
                group.wake_peers(i);
            }
            Step::Idle { until } => {
                let slot = &mut group.slots[i];
                slot.timer = until;
                if slot.again {
                    slot.again = false;
                    group.waiting += 1;
                }
                if let Some(t) = until {
                    self.next_timer = Some(self.next_timer.map_or(t, |n| n.min(t)));
                }
            }
            Step::Done => {
                // A done slot does not wait (see `Group::waiting`).
                group.make_due(i);
                group.slots[i].done = true;
                group.done += 1;
                self.finished += 1;
                self.moved = true;
                group.wake_peers(i);
            }
        }
    }
}

impl Group {
    /// Makes `slots[i]` due next round (a done slot stays done).
    #[inline]
    fn make_due(&mut self, i: usize) {
        let slot = &mut self.slots[i];
        if !slot.again && !slot.done {
            slot.again = true;
            self.waiting -= 1;
        }
    }

    /// Makes the local stream peers of `slots[i]` due.
    fn wake_peers(&mut self, i: usize) {
        if self.waiting == 0 {
            return;
        }
        let (start, end) = self.slots[i].peers;
        for k in start..end {
            let peer = self.peers[k as usize] as usize;
            self.make_due(peer);
        }
    }
}
