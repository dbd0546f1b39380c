//! Conformance cases for blocks that consume items and write them out
//! later, after a timer, once work outside the runtime completes, or once
//! their output has room: their writer finishing must not end them while
//! they hold items (DESIGN §2: no item is lost at shutdown).

use crate::support::run;
use rfgraph::{
    Block, BoxError, Flowgraph, Ports, Scheduler, StatelessMap, StreamInput, StreamOutput, WorkIo,
};
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
    /// Its output declares the chunk as its `min_items`: the runtime
    /// knows it waits for room, and runs it again when room comes.
    MinItems,
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
                Room::MinItems => output.with_min_items(CHUNK),
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
        // leaves it to the output's `min_items`.
        if let Some((_, at)) = &self.held {
            match (self.until, self.is_released(*at), self.room) {
                (_, true, Room::Retry) => {
                    io.call_again_at(Instant::now() + Duration::from_micros(100))
                }
                (_, true, Room::MinItems) => {}
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
        let throttle = fg.add(Throttle::<u32>::new(200_000.0));
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

/// The hold waits for room without a timer: its output's `min_items`
/// says what it needs, and the writer-done rule waits for that room.
pub fn items_held_until_the_output_has_room_arrive(s: impl Scheduler) {
    held_items_arrive(s, Until::Timer, true, Room::MinItems);
}

/// Fills its whole ring in its first call and finishes 10 ms later: the
/// maps downstream have moved every item by then, and see their writer
/// done while the ring is still full.
struct FillOnce {
    out: StreamOutput<u32>,
    finish_at: Option<Instant>,
}

impl Block for FillOnce {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.out)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(at) = self.finish_at {
            if Instant::now() >= at {
                io.finish();
            } else {
                io.call_again_at(at);
            }
            return Ok(());
        }
        loop {
            let base = self.out.position() as u32;
            let out = self.out.slice();
            let n = out.len();
            if n == 0 {
                break;
            }
            for (i, x) in out.iter_mut().enumerate() {
                *x = base + i as u32;
            }
            self.out.produce(n);
        }
        let at = Instant::now() + Duration::from_millis(10);
        self.finish_at = Some(at);
        io.call_again_at(at);
        Ok(())
    }
}

/// Reads nothing for its first 50 ms, then everything: the maps upstream
/// make their last decision while the ring is still full.
struct LateSink {
    input: StreamInput<u32>,
    start: Option<Instant>,
    got: Arc<Mutex<u64>>,
}

impl Block for LateSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let start = *self.start.get_or_insert_with(Instant::now);
        if start.elapsed() < Duration::from_millis(50) {
            io.call_again_at(start + Duration::from_millis(50));
            return Ok(());
        }
        let n = self.input.available();
        self.input.consume(n);
        *self.got.lock().unwrap() += n as u64;
        Ok(())
    }
}

/// A map in the middle of an in-place run whose writer finished ends
/// while the shared ring is still full: its output is a view of its
/// input, so it never waits for room there (no one would wake it when
/// the run's last reader frees some; the room guard of the writer-done
/// rule once hung such runs).
pub fn a_map_inside_an_in_place_run_ends_while_the_ring_is_full(s: impl Scheduler) {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(FillOnce {
        out: StreamOutput::new("out"),
        finish_at: None,
    });
    let a = fg.add(StatelessMap::new(|x: u32| x.wrapping_add(1)));
    let b = fg.add(StatelessMap::new(|x: u32| x.wrapping_mul(3)));
    let c = fg.add(StatelessMap::new(|x: u32| x ^ 5));
    let got = Arc::new(Mutex::new(0));
    let sink = fg.add(LateSink {
        input: StreamInput::new("in"),
        start: None,
        got: got.clone(),
    });
    fg.chain(&[src, a, b, c, sink]).unwrap();
    let done = run(fg, s).unwrap();
    let written = done.stats()[src.0].items_produced;
    assert!(written > 0);
    assert_eq!(*got.lock().unwrap(), written, "every item written arrives");
}
