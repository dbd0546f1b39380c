//! `PilotLock`: when the stereo decoder trusts its pilot. Owns the
//! hysteresis: thresholds on the pilot PLL's amplitude and phase-error
//! estimates, and how long each condition must hold before the state flips.
//! It decides on loop updates only, so the decision falls on the same
//! sample whatever way the stream was split into calls.

/// The pilot level (of 75 kHz deviation) from which a pilot counts as
/// present: 3 kHz of deviation. Stations send 6 to 7.5 kHz (8–10 %).
pub const LOCK_LEVEL: f32 = 0.04;

/// The pilot level under which a locked decoder gives up (1.5 kHz).
pub const UNLOCK_LEVEL: f32 = 0.02;

/// Largest smoothed phase error to declare lock, radians.
const LOCK_PHASE: f32 = 0.35;

/// Phase error beyond which a locked decoder gives up, radians.
const UNLOCK_PHASE: f32 = 0.7;

/// How long the lock condition must hold before stereo, seconds.
pub const LOCK_HOLD_S: f64 = 0.1;

/// How long the unlock condition must hold before mono, seconds.
pub const UNLOCK_HOLD_S: f64 = 0.02;

/// Hysteresis on the pilot PLL's estimates: locked once the pilot was
/// strong and in phase for [`LOCK_HOLD_S`], unlocked once it was weak or
/// out of phase for [`UNLOCK_HOLD_S`].
#[derive(Clone, Debug)]
pub struct PilotLock {
    locked: bool,
    /// Consecutive updates for which the condition to flip held.
    run: u64,
    lock_updates: u64,
    unlock_updates: u64,
}

impl PilotLock {
    /// A detector fed `updates_per_second` times a second, starting
    /// unlocked.
    pub fn new(updates_per_second: f64) -> Self {
        let updates = |s: f64| (s * updates_per_second).ceil().max(1.0) as u64;
        PilotLock {
            locked: false,
            run: 0,
            lock_updates: updates(LOCK_HOLD_S),
            unlock_updates: updates(UNLOCK_HOLD_S),
        }
    }

    /// Feeds one estimate: the pilot's in-phase `amplitude` (of 75 kHz
    /// deviation) and the smoothed `phase_error` in radians. Returns the
    /// state from now on.
    pub fn update(&mut self, amplitude: f32, phase_error: f32) -> bool {
        let flip = if self.locked {
            !(amplitude >= UNLOCK_LEVEL && phase_error.abs() <= UNLOCK_PHASE)
        } else {
            amplitude >= LOCK_LEVEL && phase_error.abs() <= LOCK_PHASE
        };
        self.run = if flip { self.run + 1 } else { 0 };
        let hold = if self.locked {
            self.unlock_updates
        } else {
            self.lock_updates
        };
        if self.run >= hold {
            self.locked = !self.locked;
            self.run = 0;
        }
        self.locked
    }

    /// Whether the pilot is locked.
    pub fn is_locked(&self) -> bool {
        self.locked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_after_the_hold_and_unlocks_faster() {
        let mut lock = PilotLock::new(1000.0);
        for _ in 0..99 {
            assert!(!lock.update(0.09, 0.0));
        }
        assert!(lock.update(0.09, 0.0));
        // Between the thresholds it stays locked.
        for _ in 0..1000 {
            assert!(lock.update(0.03, 0.5));
        }
        for _ in 0..19 {
            assert!(lock.update(0.01, 0.0));
        }
        assert!(!lock.update(0.01, 0.0));
        // Between the thresholds it stays unlocked.
        for _ in 0..1000 {
            assert!(!lock.update(0.03, 0.0));
        }
    }

    #[test]
    fn an_interruption_restarts_the_count_and_nan_never_locks() {
        let mut lock = PilotLock::new(1000.0);
        for _ in 0..60 {
            lock.update(0.09, 0.0);
        }
        lock.update(0.09, 1.0);
        for _ in 0..99 {
            assert!(!lock.update(0.09, 0.0));
        }
        assert!(lock.update(0.09, 0.0));
        let mut never = PilotLock::new(1000.0);
        for _ in 0..1000 {
            assert!(!never.update(f32::NAN, 0.0));
            assert!(!never.update(0.09, f32::NAN));
        }
        assert!(lock.is_locked());
        for _ in 0..20 {
            lock.update(f32::NAN, f32::NAN);
        }
        assert!(!lock.is_locked());
    }
}
