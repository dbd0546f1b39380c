//! Conformance cases for blocks that consume items and write them out
//! later, after a timer, once work outside the runtime completes, or once
//! their output has room: their writer finishing must not end them while
//! they hold items (no item is lost at shutdown).

use crate::support::run;
use rfgraph::{Block, BoxError, Flowgraph, Ports, Scheduler, StreamInput, StreamOutput, WorkIo};
use rfgraph_blocks::{Throttle, VectorSink, VectorSource};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a [`Hold`] waits for before writing a chunk it consumed.
#[derive(Clone, Copy)]
enum Until {
    /// A 1 ms timer.
    Timer,
    /// A thread outside the runtime that hands the chunk back 1 ms later
    /// and wakes the block.
    Outside,
}

/// How a [`Hold`] with a released chunk that does not fit its output
/// waits for room.
#[derive(Clone, Copy)]
enum Room {
    /// It retries on a 100 µs timer.
    Retry,
    /// It reports work in flight, and its output declares the chunk as its
    /// `min_items`: the reader's consumption wakes it when room comes.
    InFlight,
}

/// Items a [`Hold`] takes at once.
const CHUNK: usize = 500;

/// Consumes up to [`CHUNK`] items, holds them, then writes them out once
/// they are released and the output has room. While it holds a chunk it
/// says so: a timer or work in flight until the release, then as `room`
/// says while the output lacks room.
struct Hold {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    until: Until,
    room: Room,
    /// The chunk held, and when a timer releases it.
    held: Option<(Vec<u32>, Instant)>,
    /// Set by the outside thread when it releases the chunk.
    released: Arc<Mutex<bool>>,
    waker: Option<rfgraph::Waker>,
}

impl Hold {
    fn new(until: Until, room: Room) -> Self {
        let output = StreamOutput::new("out");
        Self {
            input: StreamInput::new("in"),
            output: match room {
                Room::Retry => output,
                Room::InFlight => output.with_min_items(CHUNK),
            },
            until,
            room,
            held: None,
            released: Arc::default(),
            waker: None,
        }
    }

    /// True once the held chunk may be written.
    fn is_released(&self, at: Instant) -> bool {
        match self.until {
            Until::Timer => Instant::now() >= at,
            Until::Outside => *self.released.lock().unwrap(),
        }
    }
}

impl Block for Hold {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn attach_waker(&mut self, waker: rfgraph::Waker) {
        self.waker = Some(waker);
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some((chunk, at)) = &self.held
            && self.is_released(*at)
        {
            let out = self.output.slice();
            if out.len() >= chunk.len() {
                let n = chunk.len();
                out[..n].copy_from_slice(chunk);
                self.output.produce(n);
                self.held = None;
            }
        }
        if self.held.is_none() {
            let input = self.input.slice();
            let n = input.len().min(CHUNK);
            if n > 0 {
                self.held = Some((
                    input[..n].to_vec(),
                    Instant::now() + Duration::from_millis(1),
                ));
                self.input.consume(n);
                if let Until::Outside = self.until {
                    *self.released.lock().unwrap() = false;
                    let (released, waker) =
                        (self.released.clone(), self.waker.clone().expect("a waker"));
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(1));
                        *released.lock().unwrap() = true;
                        waker.wake();
                    });
                }
            }
        }
        // Holding: say so. A released chunk short of room retries soon, or
        // reports work in flight until the reader frees room.
        if let Some((_, at)) = &self.held {
            match (self.until, self.is_released(*at), self.room) {
                (_, true, Room::Retry) => {
                    io.call_again_at(Instant::now() + Duration::from_micros(100))
                }
                (_, true, Room::InFlight) => io.in_flight(),
                (Until::Timer, false, _) => io.call_again_at(*at),
                (Until::Outside, false, _) => io.in_flight(),
            }
        }
        Ok(())
    }
}

/// Source → [`Hold`] → sink, or with `slow_reader`, → a throttle → sink
/// on small rings, so that the hold's output is often full while it holds
/// a released chunk after the source finished (it then waits for room as
/// `room` says).
fn held_items_arrive(s: impl Scheduler, until: Until, slow_reader: bool, room: Room) {
    let n = 2_300u32;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..n).collect()));
    let hold = fg.add(Hold::new(until, room));
    let sink = fg.add(VectorSink::<u32>::new());
    if slow_reader {
        fg.set_buffer_bytes(4096);
        let throttle = fg.add(Throttle::<u32>::new(200_000.0).unwrap());
        fg.chain(&[src, hold, throttle, sink]).unwrap();
    } else {
        fg.chain(&[src, hold, sink]).unwrap();
    }
    let done = run(fg, s).unwrap();
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), n as usize);
    assert!(items.iter().enumerate().all(|(i, &x)| x == i as u32));
}

pub fn items_held_for_a_timer_arrive(s: impl Scheduler) {
    held_items_arrive(s, Until::Timer, false, Room::Retry);
}

pub fn items_held_in_flight_arrive(s: impl Scheduler) {
    held_items_arrive(s, Until::Outside, false, Room::Retry);
}

pub fn items_held_while_the_output_lacks_room_arrive(s: impl Scheduler) {
    held_items_arrive(s, Until::Timer, true, Room::Retry);
}

/// The hold waits for room without a timer, reporting work in flight:
/// the reader's consumption is what wakes it.
pub fn items_held_in_flight_until_the_output_has_room_arrive(s: impl Scheduler) {
    held_items_arrive(s, Until::Timer, true, Room::InFlight);
}
