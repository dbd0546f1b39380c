//! The one asynchronous runtime the network blocks share.
//!
//! Each network block runs on a thread of its own (it is a *blocking*
//! block to the scheduler) and waits there, through [`block_on`], for
//! its socket with a timeout; the sockets' connection tasks (accepting
//! peers, reading and writing frames) run on this runtime's worker
//! thread in the background, so a socket keeps its peers while its
//! block is busy elsewhere. One worker serves every block of the
//! process: the work per frame is a copy, and the blocks' own threads
//! carry it.

use std::future::Future;
use std::sync::OnceLock;
use std::time::Duration;

static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();

/// The shared runtime, started on first use.
pub fn handle() -> tokio::runtime::Handle {
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("rfgraph-net")
                .enable_all()
                .build()
                .expect("the network runtime starts")
        })
        .handle()
        .clone()
}

/// Runs `future` to completion on the calling thread (which must not be
/// one of the runtime's own), with the runtime's I/O and timers.
pub fn block_on<F: Future>(future: F) -> F::Output {
    handle().block_on(future)
}

/// Runs `future` for at most `timeout`; `None` when it did not finish.
pub fn block_on_for<F: Future>(timeout: Duration, future: F) -> Option<F::Output> {
    let handle = handle();
    handle.block_on(async { tokio::time::timeout(timeout, future).await.ok() })
}
