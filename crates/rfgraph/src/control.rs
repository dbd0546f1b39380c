//! Run-wide state shared by all block runners of one run: the stop flag,
//! the first error, and the counters that end message-only groups that no
//! block feeds. Owns nothing per block.

use crate::error::RunError;
use crate::message::MessageGroup;
use crate::signal::Signal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Shared state of one run.
pub struct RunControl {
    stop: AtomicBool,
    error: Mutex<Option<RunError>>,
    signals: Vec<Arc<Signal>>,
    /// Blocks that are not message-driven and not yet finished.
    feeders_alive: AtomicUsize,
    /// Message groups nothing feeds: they end when all feeders are gone.
    rootless_groups: Vec<Arc<MessageGroup>>,
}

impl RunControl {
    pub(crate) fn new(
        signals: Vec<Arc<Signal>>,
        feeders: usize,
        rootless_groups: Vec<Arc<MessageGroup>>,
    ) -> Arc<Self> {
        Arc::new(Self {
            stop: AtomicBool::new(false),
            error: Mutex::new(None),
            signals,
            feeders_alive: AtomicUsize::new(feeders),
            rootless_groups,
        })
    }

    /// Asks every block to finish now and wakes them all.
    pub fn request_stop(&self) {
        if !self.stop.swap(true, Ordering::AcqRel) {
            for s in &self.signals {
                s.notify();
            }
        }
    }

    /// True once a stop was requested (by a failure or a handle).
    #[inline]
    pub fn is_stopping(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Records a failure (the first one wins) and stops the run.
    pub(crate) fn fail(&self, error: RunError) {
        {
            let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                *slot = Some(error);
            }
        }
        self.request_stop();
    }

    /// The first failure, if any.
    pub(crate) fn take_error(&self) -> Option<RunError> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    pub(crate) fn block_finished(&self, message_driven: bool) {
        if !message_driven && self.feeders_alive.fetch_sub(1, Ordering::AcqRel) == 1 {
            for g in &self.rootless_groups {
                g.root_finished();
            }
        }
    }
}
