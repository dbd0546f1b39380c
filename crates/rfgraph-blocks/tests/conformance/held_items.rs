//! Conformance cases for blocks that consume items and write them out
//! later, after a timer or once work outside the runtime completes: their
//! writer finishing must not end them while they hold items (DESIGN §2: no
//! item is lost at shutdown).

use crate::support::run;
use rfgraph::{Block, BoxError, Flowgraph, Ports, Scheduler, StreamInput, StreamOutput, WorkIo};
use rfgraph_blocks::{VectorSink, VectorSource};
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

/// Consumes up to 500 items, holds them, then writes them out.
struct Hold {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    until: Until,
    /// The chunk held, and when it is due (timer).
    held: Option<(Vec<u32>, Instant)>,
    /// Where the outside thread hands the chunk back.
    back: Arc<Mutex<Option<Vec<u32>>>>,
    waker: Option<rfgraph::Waker>,
}

impl Hold {
    fn new(until: Until) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            until,
            held: None,
            back: Arc::default(),
            waker: None,
        }
    }

    /// The held chunk once it may be written, if any.
    fn ready(&mut self) -> Option<Vec<u32>> {
        match self.until {
            Until::Timer => match &self.held {
                Some((_, at)) if Instant::now() >= *at => self.held.take().map(|(c, _)| c),
                _ => None,
            },
            Until::Outside => {
                let back = self.back.lock().unwrap().take();
                if back.is_some() {
                    self.held = None;
                }
                back
            }
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
        if let Some(chunk) = self.ready() {
            // The ring holds more than a chunk, and nothing else writes.
            let out = self.output.slice();
            out[..chunk.len()].copy_from_slice(&chunk);
            self.output.produce(chunk.len());
        }
        if self.held.is_none() {
            let input = self.input.slice();
            let n = input.len().min(500);
            if n > 0 {
                let chunk = input[..n].to_vec();
                self.input.consume(n);
                let at = Instant::now() + Duration::from_millis(1);
                if let Until::Outside = self.until {
                    let (back, waker) = (self.back.clone(), self.waker.clone().expect("a waker"));
                    let chunk = chunk.clone();
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(1));
                        *back.lock().unwrap() = Some(chunk);
                        waker.wake();
                    });
                }
                self.held = Some((chunk, at));
            }
        }
        match (&self.held, self.until) {
            (Some((_, at)), Until::Timer) => io.call_again_at(*at),
            (Some(_), Until::Outside) => io.in_flight(),
            (None, _) => {}
        }
        Ok(())
    }
}

fn held_items_arrive(s: impl Scheduler, until: Until) {
    let n = 2_300u32;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..n).collect()));
    let hold = fg.add(Hold::new(until));
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, hold, sink]).unwrap();
    let done = run(fg, s).unwrap();
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), n as usize);
    assert!(items.iter().enumerate().all(|(i, &x)| x == i as u32));
}

pub fn items_held_for_a_timer_arrive(s: impl Scheduler) {
    held_items_arrive(s, Until::Timer);
}

pub fn items_held_in_flight_arrive(s: impl Scheduler) {
    held_items_arrive(s, Until::Outside);
}
