//! `Handover`: the bounded queue between a sink's `work` and a device
//! that drains it on a thread of its own (the sound card's callback).
//!
//! A sink whose queue is full must not wait inside `work`, and must not
//! return and hope to be called again: with its input ring full nothing
//! else wakes it, and the stall watch cannot see what it waits for. So
//! `offer` takes what fits; when it cannot take everything it reports
//! work in flight (the device draining) and the device side, once the
//! queue is down to half, wakes the block through its `Waker`.

use rfgraph::{Waker, WorkIo};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The queue of interleaved samples, and who to wake when it has room.
pub(crate) struct Handover {
    queue: Mutex<Queue>,
    changed: Condvar,
    waker: Mutex<Option<Waker>>,
    /// The sink found the queue full and waits for room.
    waiting: AtomicBool,
    capacity: usize,
}

struct Queue {
    samples: VecDeque<f32>,
    /// No more samples will come: the device may stop once it is empty.
    done: bool,
}

impl Handover {
    /// A queue of at most `capacity` interleaved samples.
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            queue: Mutex::new(Queue {
                samples: VecDeque::with_capacity(capacity),
                done: false,
            }),
            changed: Condvar::new(),
            waker: Mutex::new(None),
            waiting: AtomicBool::new(false),
            capacity: capacity.max(2),
        }
    }

    /// The waker of the sink that offers samples.
    pub(crate) fn attach(&self, waker: Waker) {
        *self.waker.lock().unwrap_or_else(|p| p.into_inner()) = Some(waker);
    }

    /// Queues as many frames of `left` and `right` as fit; returns how
    /// many. When some did not fit, tells `io` that the sink waits on the
    /// device, which wakes it once the queue is half empty.
    pub(crate) fn offer(&self, left: &[f32], right: &[f32], io: &mut WorkIo) -> usize {
        let frames = left.len().min(right.len());
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        let room = self.capacity.saturating_sub(q.samples.len()) / 2;
        let n = frames.min(room);
        for (&a, &b) in left[..n].iter().zip(&right[..n]) {
            q.samples.push_back(a);
            q.samples.push_back(b);
        }
        if n < frames {
            // Set before the lock is released: the device sees it the
            // next time it takes samples.
            self.waiting.store(true, Ordering::Release);
            io.in_flight();
        }
        drop(q);
        self.changed.notify_all();
        n
    }

    /// Fills `out` with queued samples (silence for what is missing) and
    /// wakes the sink when it waits and the queue is down to half.
    pub(crate) fn take(&self, out: &mut [f32]) {
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        for o in out.iter_mut() {
            *o = q.samples.pop_front().unwrap_or(0.0);
        }
        let low = q.samples.len() <= self.capacity / 2;
        drop(q);
        self.changed.notify_all();
        if low
            && self.waiting.swap(false, Ordering::AcqRel)
            && let Some(w) = self
                .waker
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .as_ref()
        {
            w.wake();
        }
    }

    /// Says that no more samples will come.
    pub(crate) fn close(&self) {
        self.queue.lock().unwrap_or_else(|p| p.into_inner()).done = true;
        self.changed.notify_all();
    }

    /// Waits up to `timeout` for the queue to be closed and played out;
    /// true when it was.
    pub(crate) fn wait_drained(&self, timeout: Duration) -> bool {
        let q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        let (q, _) = self
            .changed
            .wait_timeout_while(q, timeout, |q| !(q.done && q.samples.is_empty()))
            .unwrap_or_else(|p| p.into_inner());
        q.done && q.samples.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::Handover;
    use rfgraph::scheduler::{Chain, Pool, Single, Tpb};
    use rfgraph::{Block, BoxError, Flowgraph, Ports, Scheduler, StreamInput, Waker, WorkIo};
    use rfgraph_blocks::VectorSource;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// A sink like the sound card's, with the handover in front of a
    /// thread that plays slowly.
    struct SlowDevice {
        left: StreamInput<f32>,
        right: StreamInput<f32>,
        handover: Arc<Handover>,
    }

    impl Block for SlowDevice {
        fn ports(&mut self) -> Ports<'_> {
            Ports::new().input(&mut self.left).input(&mut self.right)
        }
        fn attach_waker(&mut self, waker: Waker) {
            self.handover.attach(waker);
        }
        fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
            let n = self
                .handover
                .offer(self.left.slice(), self.right.slice(), io);
            self.left.consume(n);
            self.right.consume(n);
            Ok(())
        }
    }

    /// Every sample reaches a device that drains a queue far smaller than
    /// the stream, on every scheduler: the sink wakes itself when the
    /// device makes room (before, it returned without consuming and was
    /// never called again once its input ring filled).
    #[test]
    fn a_full_queue_wakes_its_sink_when_the_device_makes_room() {
        let schedulers: Vec<Box<dyn Scheduler>> = vec![
            Box::new(Tpb::new()),
            Box::new(Single::new()),
            Box::new(Pool::new()),
            Box::new(Chain::new()),
        ];
        let frames = 40_000usize;
        for s in schedulers {
            let handover = Arc::new(Handover::new(256));
            let mut fg = Flowgraph::new();
            fg.set_buffer_bytes(4096);
            // No sample is 0: the device thread tells silence apart.
            let left: Vec<f32> = (1..=frames).map(|i| i as f32).collect();
            let right: Vec<f32> = left.iter().map(|x| -x).collect();
            let l = fg.add(VectorSource::new(left));
            let r = fg.add(VectorSource::new(right));
            let sink = fg.add(SlowDevice {
                left: StreamInput::new("in0"),
                right: StreamInput::new("in1"),
                handover: handover.clone(),
            });
            fg.connect(l, "out", sink, "in0").unwrap();
            fg.connect(r, "out", sink, "in1").unwrap();
            let stop = Arc::new(AtomicBool::new(false));
            let device = {
                let (h, stop) = (handover.clone(), stop.clone());
                std::thread::spawn(move || {
                    let mut played = Vec::new();
                    let mut buf = [0.0f32; 64];
                    // Plays until everything arrived, or the test gave up.
                    while played.len() < 2 * frames && !stop.load(Ordering::Relaxed) {
                        h.take(&mut buf);
                        played.extend(buf.iter().copied().filter(|&x| x != 0.0));
                        std::thread::sleep(Duration::from_micros(200));
                    }
                    played
                })
            };
            let result = fg.start(s).unwrap().wait_timeout(Duration::from_secs(60));
            if result.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            let played = device.join().unwrap();
            result.unwrap();
            let expected: Vec<f32> = (1..=frames).flat_map(|i| [i as f32, -(i as f32)]).collect();
            assert!(
                played == expected,
                "{} of {} samples played in order",
                played.len(),
                expected.len()
            );
        }
    }
}
