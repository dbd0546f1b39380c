//! [`FramePool`]: the buffers a sink's outgoing frames are built in,
//! reused, and the count of frames the socket still holds.
//!
//! A frame is handed to the socket as [`Bytes`] and dropped on the
//! network runtime's thread once the socket has copied it onto the
//! connection. Allocated afresh, every frame of half a megabyte is a new
//! mapping the kernel faults in page by page; from the pool, the same few
//! buffers go round, already mapped.
//!
//! The count is also the sink's high-water mark: the pure-Rust socket
//! queues up to 100,000 frames per peer by itself (gigabytes of items)
//! and has no option to queue fewer, so the sink waits
//! ([`FramePool::wait_below`]) until fewer than its limit are held before
//! it sends another. That is what pushes back on the flowgraph when the
//! peer or the network is slower than the stream.

use bytes::Bytes;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

#[derive(Default)]
struct State {
    free: Vec<Vec<u8>>,
    /// Frames sealed and not yet dropped.
    lent: usize,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    returned: Condvar,
}

/// A sink's frame buffers. Clones share the pool.
#[derive(Clone, Default)]
pub struct FramePool {
    shared: Arc<Shared>,
}

impl FramePool {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.shared.state.lock().expect("frame pool lock")
    }

    /// An empty buffer with room for `capacity` bytes.
    pub fn take(&self, capacity: usize) -> Vec<u8> {
        let mut buf = self.state().free.pop().unwrap_or_default();
        buf.clear();
        buf.reserve(capacity);
        buf
    }

    /// `buf` as a frame that goes back to the pool when dropped.
    pub fn seal(&self, buf: Vec<u8>) -> Bytes {
        self.state().lent += 1;
        Bytes::from_owner(Pooled {
            buf,
            pool: self.clone(),
        })
    }

    /// Frames sealed and still held (by the socket, or anyone).
    pub fn lent(&self) -> usize {
        self.state().lent
    }

    /// Waits at most `wait` until fewer than `limit` frames are held;
    /// true when they are.
    pub fn wait_below(&self, limit: usize, wait: Duration) -> bool {
        let state = self.state();
        let (state, _) = self
            .shared
            .returned
            .wait_timeout_while(state, wait, |s| s.lent >= limit)
            .expect("frame pool lock");
        state.lent < limit
    }

    /// Buffers waiting to be reused.
    pub fn kept(&self) -> usize {
        self.state().free.len()
    }
}

/// A frame's buffer on loan from its pool.
struct Pooled {
    buf: Vec<u8>,
    pool: FramePool,
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.buf
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        let mut state = self.pool.state();
        state.lent -= 1;
        // Keep as many buffers as may be lent at once, no more.
        if state.free.len() <= state.lent {
            state.free.push(std::mem::take(&mut self.buf));
        }
        drop(state);
        self.pool.shared.returned.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_go_round_and_the_count_follows_them() {
        let pool = FramePool::default();
        let mut buf = pool.take(1000);
        buf.extend_from_slice(&[1, 2, 3]);
        let frame = pool.seal(buf);
        assert_eq!(&frame[..], &[1, 2, 3]);
        assert_eq!((pool.lent(), pool.kept()), (1, 0));
        assert!(!pool.wait_below(1, Duration::from_millis(1)));
        let copy = frame.clone();
        drop(frame);
        assert_eq!(pool.lent(), 1, "a clone still holds it");
        let waiter = {
            let pool = pool.clone();
            std::thread::spawn(move || pool.wait_below(1, Duration::from_secs(60)))
        };
        drop(copy);
        assert!(waiter.join().unwrap());
        assert_eq!((pool.lent(), pool.kept()), (0, 1));
        let again = pool.take(10);
        assert!(again.is_empty() && again.capacity() >= 1000);
        assert_eq!(pool.kept(), 0);
    }
}
