//! Conformance cases for message groups (message-driven blocks joined by
//! message edges) whose members hold work of their own: a group must not
//! end while a member waits for a timer, waits for work in flight outside
//! the runtime, posts from `work`, or still has stream output to write.

use crate::support::{AddU32, run};
use rfgraph::{
    Block, BoxError, Flowgraph, MessageOutput, Pmt, Ports, Scheduler, StreamOutput, WorkIo,
};
use rfgraph_blocks::{MessageBurst, MessageForward, MessageSink, VectorSink};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How an [`Echo`] sends on what it received.
#[derive(Clone, Copy)]
enum Delay {
    /// From `work` in the same call.
    None,
    /// From `work`, once a 2 ms timer fired.
    Timer,
    /// From `work`, once a thread outside the runtime handed it back 2 ms
    /// later and woke the block.
    Outside,
}

/// A message-driven block that forwards every message later, from `work`.
struct Echo {
    out: MessageOutput,
    delay: Delay,
    /// Messages waiting for their time (timer) or their thread (outside).
    waiting: Vec<(Instant, Pmt)>,
    outstanding: usize,
    /// Messages the outside threads handed back.
    back: Arc<Mutex<Vec<Pmt>>>,
    waker: Option<rfgraph::block::Waker>,
}

impl Echo {
    fn new(delay: Delay) -> Self {
        Self {
            out: MessageOutput::new("out"),
            delay,
            waiting: Vec::new(),
            outstanding: 0,
            back: Arc::default(),
            waker: None,
        }
    }
}

impl Block for Echo {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("in")
            .message_output(&mut self.out)
    }

    fn attach_waker(&mut self, waker: rfgraph::block::Waker) {
        self.waker = Some(waker);
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let later = Instant::now() + Duration::from_millis(2);
        match self.delay {
            Delay::None | Delay::Timer => self.waiting.push((later, msg)),
            Delay::Outside => {
                let (back, waker) = (self.back.clone(), self.waker.clone().expect("a waker"));
                self.outstanding += 1;
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(2));
                    back.lock().unwrap().push(msg);
                    waker.wake();
                });
            }
        }
        Ok(Pmt::Null)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let now = Instant::now();
        let due = |at: &Instant| matches!(self.delay, Delay::None) || *at <= now;
        let (ready, waiting): (Vec<_>, Vec<_>) =
            self.waiting.drain(..).partition(|(at, _)| due(at));
        self.waiting = waiting;
        for (_, msg) in ready {
            self.out.post(msg);
        }
        if let Some(next) = self.waiting.iter().map(|(at, _)| *at).min() {
            io.call_again_at(next);
        }
        let back: Vec<Pmt> = std::mem::take(&mut *self.back.lock().unwrap());
        self.outstanding -= back.len();
        for msg in back {
            self.out.post(msg);
        }
        if self.outstanding > 0 {
            io.in_flight();
        }
        Ok(())
    }
}

/// A burst of `count` messages through an [`Echo`] into a sink; returns
/// how many arrived.
fn echo_burst(s: impl Scheduler, delay: Delay, count: usize) -> u64 {
    let mut fg = Flowgraph::new();
    let burst = fg.add(MessageBurst::new(Pmt::U64(1), count));
    let echo = fg.add(Echo::new(delay));
    let sink = fg.add(MessageSink::new());
    fg.connect_message(burst, "out", echo, "in").unwrap();
    fg.connect_message(echo, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    done.block::<MessageSink>(sink).unwrap().received()
}

pub fn a_member_waiting_on_a_timer_keeps_its_group_alive(s: impl Scheduler) {
    assert_eq!(echo_burst(s, Delay::Timer, 20), 20);
}

pub fn a_member_with_work_in_flight_keeps_its_group_alive(s: impl Scheduler) {
    assert_eq!(echo_burst(s, Delay::Outside, 20), 20);
}

pub fn messages_posted_from_work_arrive(s: impl Scheduler + Clone) {
    // The race this guards against lost messages in about one run in 20
    // on two workers; every run must deliver all of them.
    for run in 0..20 {
        assert_eq!(echo_burst(s.clone(), Delay::None, 200), 200, "run {run}");
    }
}

/// A message-driven block that writes as many items as its messages ask
/// for (divided by `share`), as ring space allows.
struct Generator {
    out: StreamOutput<u32>,
    share: u64,
    remaining: u64,
    next: u32,
}

impl Generator {
    fn new(share: u64) -> Self {
        Self {
            out: StreamOutput::new("out"),
            share,
            remaining: 0,
            next: 0,
        }
    }
}

impl Block for Generator {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.out).message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.remaining += msg.as_u64().ok_or("expected a count")? / self.share;
        Ok(Pmt::Null)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.out.slice();
        let n = out.len().min(self.remaining as usize);
        for x in &mut out[..n] {
            *x = self.next;
            self.next += 1;
        }
        self.out.produce(n);
        self.remaining -= n as u64;
        Ok(())
    }
}

pub fn a_member_writes_all_the_items_its_messages_ask_for(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    // A 1024-item ring: each message asks for ten times that.
    fg.set_buffer_bytes(4096);
    let burst = fg.add(MessageBurst::new(Pmt::U64(10_000), 3));
    let generator = fg.add(Generator::new(1));
    let sink = fg.add(VectorSink::<u32>::new());
    fg.connect_message(burst, "out", generator, "in").unwrap();
    fg.connect(generator, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), 30_000);
    assert!(items.iter().enumerate().all(|(i, &x)| x == i as u32));
}

pub fn members_writing_into_one_block_do_not_wait_for_each_other(s: impl Scheduler) {
    // One message, forwarded to two generators of the same group: A writes
    // 30 000 items, B 15 000, and a block adds them item by item. Once B
    // is done, A's ring stays full; B must still end (it holds nothing),
    // so the adder ends, and A with it.
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let burst = fg.add(MessageBurst::new(Pmt::U64(30_000), 1));
    let forward = fg.add(MessageForward::new());
    let a = fg.add(Generator::new(1));
    let b = fg.add(Generator::new(2));
    let add = fg.add(AddU32::new());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.connect_message(burst, "out", forward, "in").unwrap();
    fg.connect_message(forward, "out", a, "in").unwrap();
    fg.connect_message(forward, "out", b, "in").unwrap();
    fg.connect(a, "out", add, "a").unwrap();
    fg.connect(b, "out", add, "b").unwrap();
    fg.connect(add, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), 15_000);
    assert!(items.iter().enumerate().all(|(i, &x)| x == 2 * i as u32));
}
