//! Wake-up signals between blocks and their scheduler.
//!
//! Every block owns one [`Signal`]. Edges and message queues call
//! [`Signal::notify`] on the *peer* block after they publish new data or free
//! space. The first notification after the block last looked sets a flag and
//! calls the scheduler's [`Wake`] hook; every further notification costs one
//! atomic load. This module owns that protocol and must never block or
//! allocate.

use std::sync::atomic::{AtomicU8, Ordering, fence};
use std::sync::{Arc, OnceLock};

/// A scheduler's way of making a block runnable again (unpark its thread,
/// push it onto a run queue, ...). Called at most once per block per "look".
pub trait Wake: Send + Sync {
    /// Makes the block runnable. Must not block.
    fn wake(&self);
}

/// [`Signal::state`]: a notification arrived since the last look.
const PENDING: u8 = 1;
/// [`Signal::state`]: the block is polled on the thread of all its stream
/// peers (see [`Signal::set_polled_locally`]).
const LOCAL: u8 = 2;

/// What a block was last seen doing, as its runner reports it: read by the
/// run's stall watch (see `flowgraph::stall`), never by schedulers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Activity {
    /// Not seen idle since it last looked at its signal (or not run yet).
    Running = 0,
    /// Its last call moved nothing, and it asked for no timer and reported
    /// no work in flight: only a peer, a message or a stop can move it.
    Waiting = 1,
    /// Idle until a timer it asked for.
    Timer = 2,
    /// Idle with work in flight outside the flowgraph (device, I/O).
    InFlight = 3,
    /// Finished.
    Done = 4,
}

impl Activity {
    fn from_u8(v: u8) -> Self {
        match v {
            1 => Activity::Waiting,
            2 => Activity::Timer,
            3 => Activity::InFlight,
            4 => Activity::Done,
            _ => Activity::Running,
        }
    }
}

/// The wake-up flag of one block.
#[derive(Default)]
pub struct Signal {
    /// [`PENDING`] and [`LOCAL`], in one word so that a runner tells
    /// whether a block polled locally heard nothing with one load
    /// ([`is_quiet_local`](Self::is_quiet_local)).
    state: AtomicU8,
    /// An [`Activity`], written by the block's runner on its cold paths
    /// (idling, looking, finishing) only.
    activity: AtomicU8,
    waker: OnceLock<Arc<dyn Wake>>,
}

impl std::fmt::Debug for Signal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signal")
            .field("pending", &self.is_pending())
            .finish()
    }
}

impl Signal {
    /// A new signal with no pending notification and no waker.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Installs the scheduler's wake hook. Only the first call has effect: a
    /// flowgraph runs once.
    pub fn set_waker(&self, waker: Arc<dyn Wake>) {
        let _ = self.waker.set(waker);
    }

    /// Tells the block that something changed. The caller must have
    /// published its change (a position store) before calling.
    #[inline]
    pub fn notify(&self) {
        // Order the caller's position store before our read of `pending`:
        // pairs with the fence in `begin_look` (store-load, Dekker style).
        fence(Ordering::SeqCst);
        self.notify_after_fence();
    }

    /// [`notify`](Self::notify) for callers that have just issued a
    /// `SeqCst` fence after publishing their change.
    #[inline]
    pub(crate) fn notify_after_fence(&self) {
        if self.state.load(Ordering::Relaxed) & PENDING == 0
            && self.state.fetch_or(PENDING, Ordering::AcqRel) & PENDING == 0
            && let Some(waker) = self.waker.get()
        {
            waker.wake();
        }
    }

    /// Declares that every stream peer of this block, and every reader
    /// that frees its memory in place, runs on the thread that polls it,
    /// and that this thread never sleeps longer than a few milliseconds and
    /// runs the block again after each sleep. [`begin_look`](Self::begin_look)
    /// then skips its fence: after a block moved a chunk, that fence waits
    /// for the whole chunk's stores to drain, a large share of a small
    /// chunk's cost. Peers' notifications stay exact (program order on one
    /// thread); a message or stop from another thread is seen after the
    /// next sleep at the latest.
    pub fn set_polled_locally(&self, on: bool) {
        if on {
            self.state.fetch_or(LOCAL, Ordering::Relaxed);
        } else {
            self.state.fetch_and(!LOCAL, Ordering::Relaxed);
        }
    }

    /// True when [`set_polled_locally`](Self::set_polled_locally) is on.
    pub fn is_polled_locally(&self) -> bool {
        self.state.load(Ordering::Relaxed) & LOCAL != 0
    }

    /// True when the block is polled locally and heard nothing since its
    /// last look: [`begin_look`](Self::begin_look) would then return false
    /// and change nothing, so a runner may skip it. One load.
    #[inline(always)]
    pub fn is_quiet_local(&self) -> bool {
        self.state.load(Ordering::Relaxed) == LOCAL
    }

    /// Called by the block's runner right before it inspects its edges.
    /// Any notification after this point will set the flag again.
    ///
    /// Returns false when no stream peer can have changed anything the
    /// runner would not see anyway: the block is polled locally (so every
    /// peer runs on this thread, in order with it) and no notification
    /// arrived since the last look. A writer that finished, for one,
    /// notifies its readers; a runner can skip looking for that otherwise.
    #[inline]
    pub fn begin_look(&self) -> bool {
        self.look_after(self.state.load(Ordering::Relaxed))
    }

    /// [`begin_look`](Self::begin_look) after its load of the state saw
    /// `state`, which may already be stale (see the non-local case).
    #[inline(always)]
    fn look_after(&self, state: u8) -> bool {
        if state & LOCAL != 0 {
            // Stream peers notify from this thread, before this load: no
            // race. Notifications from other threads (messages, stop,
            // wakers) may be seen late here; the poller re-runs such
            // blocks after every park (see `set_polled_locally`). The flag
            // is cleared only when it was seen set: a block that keeps
            // moving then writes nothing here, and a notification landing
            // between the load and a clear of a flag seen clear cannot be
            // wiped out.
            let notified = state & PENDING != 0;
            if notified {
                self.state.fetch_and(!PENDING, Ordering::Relaxed);
                // A notifier that finds the flag still set (before this
                // clear is visible) does not set it again, so what it
                // published before notifying must be visible to the reads
                // after this look: the stop flag above all, which the
                // runner reads only after a notification. The fence pairs
                // with the one in `notify` (store-load, Dekker style): the
                // notifier sees the flag cleared and sets it again, or
                // this thread sees its change. Paid only after a
                // notification, never by a block that keeps moving.
                fence(Ordering::SeqCst);
            }
            notified
        } else {
            // Cleared whether or not the load above saw it set: that load
            // may run before this thread's own earlier stores are visible
            // (a pool worker marking its task running), so a notifier may
            // have set the flag, found the task not yet running and woken
            // no one. Left set, the flag would make every later notifier
            // skip its wake-up, and the block would never run again. The
            // fence then makes whatever that notifier published visible to
            // this look.
            self.state.fetch_and(!PENDING, Ordering::Relaxed);
            fence(Ordering::SeqCst);
            true
        }
    }

    /// True when a notification arrived since the last [`begin_look`](Self::begin_look).
    #[inline]
    pub fn is_pending(&self) -> bool {
        self.state.load(Ordering::Acquire) & PENDING != 0
    }

    /// Records what the block is doing; stores only on a change, so a
    /// block that keeps running writes nothing. Release: what the block
    /// published before idling is visible to whoever sees the new state.
    #[inline]
    pub(crate) fn set_activity(&self, activity: Activity) {
        if self.activity.load(Ordering::Relaxed) != activity as u8 {
            self.activity.store(activity as u8, Ordering::Release);
        }
    }

    /// What the block's runner last reported (see [`Activity`]).
    pub fn activity(&self) -> Activity {
        Activity::from_u8(self.activity.load(Ordering::Acquire))
    }
}

/// A cloneable handle that makes one block runnable from any thread (see
/// [`Block::attach_waker`](crate::Block::attach_waker)).
#[derive(Clone, Debug)]
pub struct Waker(Arc<Signal>);

impl Waker {
    /// A waker for the block that owns `signal`.
    pub fn new(signal: Arc<Signal>) -> Self {
        Self(signal)
    }

    /// Makes the block run again soon. Never blocks; cheap when the block
    /// is already due to run. The caller must have made visible whatever
    /// the block should observe (a completed device command) before.
    pub fn wake(&self) {
        self.0.notify();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    struct Counter(AtomicUsize);
    impl Wake for Counter {
        fn wake(&self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn locally_polled_signal_still_records_notifications() {
        let s = Signal::new();
        s.set_polled_locally(true);
        s.begin_look();
        assert!(!s.is_pending());
        s.notify();
        assert!(s.is_pending());
    }

    /// A look tells a locally polled block whether a peer notified it
    /// since the last look; a block polled from elsewhere must always
    /// assume so (a notification may race with the look).
    #[test]
    fn a_look_reports_notifications_only_where_it_can_be_sure() {
        let s = Signal::new();
        s.set_polled_locally(true);
        assert!(!s.begin_look());
        s.notify();
        assert!(s.begin_look(), "the notification before the look");
        assert!(!s.begin_look(), "consumed by the previous look");
        s.set_polled_locally(false);
        assert!(s.begin_look());
        assert!(s.begin_look());
    }

    /// A quiet local signal is exactly one whose look would report
    /// nothing and change nothing, so the runner may skip that look.
    #[test]
    fn a_signal_is_quiet_only_when_polled_locally_with_nothing_pending() {
        let s = Signal::new();
        assert!(!s.is_quiet_local(), "not polled locally");
        s.set_polled_locally(true);
        assert!(s.is_quiet_local());
        s.notify();
        assert!(!s.is_quiet_local(), "a notification is pending");
        assert!(s.is_polled_locally());
        assert!(s.begin_look());
        assert!(s.is_quiet_local());
        assert!(!s.begin_look());
        s.set_polled_locally(false);
        assert!(!s.is_quiet_local());
        assert!(!s.is_pending());
        s.notify();
        s.set_polled_locally(true);
        assert!(s.is_pending(), "switching modes keeps a notification");
        assert!(!s.is_quiet_local());
    }

    /// A look from another thread than the peers' must clear a
    /// notification that its load missed. A pool worker marks its task
    /// running, then looks; the load may run before that store is
    /// visible, so a notifier can set the flag, find the task not yet
    /// running and leave the wake-up to the look. A look that cleared
    /// only what its load saw left the flag set, every later notify
    /// skipped its wake-up, and the block never ran again.
    #[test]
    fn a_look_clears_a_notification_its_load_missed() {
        let s = Signal::new();
        let c = Arc::new(Counter(AtomicUsize::new(0)));
        s.set_waker(c.clone());
        let seen = s.state.load(Ordering::Relaxed);
        s.notify();
        assert!(s.look_after(seen), "a non-local look always reports");
        assert!(!s.is_pending(), "the look covers what it missed");
        s.notify();
        assert_eq!(c.0.load(Ordering::SeqCst), 2, "the next notify wakes again");
    }

    #[test]
    fn wakes_once_per_look() {
        let s = Signal::new();
        let c = Arc::new(Counter(AtomicUsize::new(0)));
        s.set_waker(c.clone());
        s.notify();
        s.notify();
        assert!(s.is_pending());
        assert_eq!(c.0.load(Ordering::SeqCst), 1);
        s.begin_look();
        assert!(!s.is_pending());
        s.notify();
        assert_eq!(c.0.load(Ordering::SeqCst), 2);
    }
}

/// The runner reads the stop flag only after a look that heard something
/// (`BlockRunner::run_once`), so a stop racing with the clear of an older
/// notification must still be seen: either by that look, or because the
/// stop's own notification sets the flag again for the next one. Without
/// the fence in `begin_look`, this test lost 3 to 5 of its stops in every
/// debug run on a 2-core VM.
#[cfg(test)]
mod stop_race {
    use super::*;
    use crate::control::RunControl;
    use std::sync::atomic::AtomicU64;

    /// Trials; each is a few microseconds of two threads meeting.
    const TRIALS: u64 = 300_000;

    #[test]
    fn a_stop_racing_with_a_pending_notification_is_seen() {
        // Trial `t` moves `step` from 4t to 4t + 4: the block thread arms
        // it (+1), the stopper takes the run's control (+2), the block
        // thread releases both at once (+3), the stopper has stopped (+4).
        let step = Arc::new(AtomicU64::new(0));
        let current: Arc<std::sync::Mutex<Option<Arc<RunControl>>>> = Default::default();
        let wait = |step: &AtomicU64, value: u64| {
            while step.load(Ordering::Acquire) != value {
                std::hint::spin_loop();
            }
        };
        let stopper = {
            let (step, current) = (step.clone(), current.clone());
            std::thread::spawn(move || {
                for t in 0..TRIALS {
                    wait(&step, 4 * t + 1);
                    let control = current.lock().unwrap().clone().unwrap();
                    step.store(4 * t + 2, Ordering::Release);
                    wait(&step, 4 * t + 3);
                    control.request_stop();
                    step.store(4 * t + 4, Ordering::Release);
                }
            })
        };
        let mut lost = 0;
        for t in 0..TRIALS {
            let signal = Signal::new();
            signal.set_polled_locally(true);
            let control = RunControl::new(vec![signal.clone()], 1, Vec::new());
            // A notification from elsewhere (a message, a waker) is
            // pending when the stop comes.
            signal.notify();
            *current.lock().unwrap() = Some(control.clone());
            step.store(4 * t + 1, Ordering::Release);
            wait(&step, 4 * t + 2);
            step.store(4 * t + 3, Ordering::Release);
            // Let the look land at varying points around the stop.
            for _ in 0..t % 16 {
                std::hint::spin_loop();
            }
            let look = |signal: &Signal| signal.begin_look() && control.is_stopping();
            let mut stopped = look(&signal);
            wait(&step, 4 * t + 4);
            // The next look of a block that keeps moving and hears
            // nothing else.
            stopped = stopped || look(&signal);
            lost += u64::from(!stopped);
        }
        stopper.join().unwrap();
        assert_eq!(lost, 0, "stops lost in {TRIALS} trials");
    }
}
