//! [`Slots`]: values Python hands over for a block the registry builds
//! later (a numpy array's bytes, a Python block object), kept under a
//! number that travels as the block's `slot` parameter, since a
//! flowgraph document holds only plain values.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Values by slot number, behind a mutex (a `static` of each kind).
pub struct Slots<T> {
    inner: Mutex<(u64, BTreeMap<u64, T>)>,
}

impl<T> Slots<T> {
    /// No values.
    pub const fn new() -> Self {
        Self {
            inner: Mutex::new((0, BTreeMap::new())),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (u64, BTreeMap<u64, T>)> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `value`; its new slot number.
    pub fn insert(&self, value: T) -> u64 {
        let mut s = self.lock();
        let slot = s.0;
        s.0 += 1;
        s.1.insert(slot, value);
        slot
    }

    /// Drops the value in `slot`, if any (outside the lock).
    pub fn remove(&self, slot: u64) {
        let freed = self.lock().1.remove(&slot);
        drop(freed);
    }

    /// What `f` makes of the value in `slot` (`None`: no such slot).
    pub fn with<R>(&self, slot: u64, f: impl FnOnce(&T) -> R) -> Option<R> {
        self.lock().1.get(&slot).map(f)
    }
}
