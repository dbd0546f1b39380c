//! One `chain` worker: a thread, pinned to its core unless asked not to,
//! that polls each job of blocks it is sent (see
//! [`poll_until_done`]) and hands the runners back, until the run drops its
//! job channel. A refinement pause ends a job early; the next job is the
//! refined partition's share.

use super::Job;
use crate::runner::BlockRunner;
use crate::scheduler::poll::{LOCAL_POLL_INTERVAL, Poll, poll_until_done};
use crate::scheduler::thread::{ThreadSettings, spawn_worker};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Sender, channel};
use std::thread::{Scope, Thread};

/// What a worker thread needs.
pub(super) struct Worker<'run> {
    /// Its position among the run's workers.
    pub(super) index: usize,
    pub(super) settings: ThreadSettings,
    /// Set by the run to pause every worker between two rounds.
    pub(super) pause: &'run AtomicBool,
    /// Where each job's runners go back.
    pub(super) done: Sender<Vec<BlockRunner>>,
}

impl<'run> Worker<'run> {
    /// Starts the thread in `scope`; returns where to send its jobs and the
    /// thread (to wake it), or why the thread did not start (`refused`:
    /// see [`spawn_worker`]).
    pub(super) fn spawn<'scope>(
        self,
        scope: &'scope Scope<'scope, 'run>,
        refused: bool,
    ) -> std::io::Result<(Sender<Job>, Thread)> {
        let (job_tx, job_rx) = channel::<Job>();
        let name = format!("rfgraph-chain-{}", self.index);
        let handle = spawn_worker(scope, name, refused, move || {
            self.settings.apply();
            let place = format!("`chain` worker {}", self.index);
            while let Ok(groups) = job_rx.recv() {
                let poll = Poll {
                    max_sleep: Some(LOCAL_POLL_INTERVAL),
                    pause: Some(self.pause),
                    install_waker: false,
                    place: &place,
                };
                // Also after a panic in the runtime, which fails the
                // run: the run waits for every worker's report.
                let _ = self.done.send(poll_until_done(groups, poll));
            }
        })?;
        Ok((job_tx, handle.thread().clone()))
    }
}
