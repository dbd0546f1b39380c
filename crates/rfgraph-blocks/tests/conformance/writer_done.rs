//! Conformance cases for the writer-done rule where a block's output stays
//! full: such a block must still end once its writer is done and it holds
//! nothing, or the blocks after it wait for ever. Both graphs hung under a
//! rule that kept a block alive while its output lacked the room its
//! `min_items` declare (3aac506, withdrawn): the runtime cannot tell a
//! block that holds items from one that holds nothing, and the room it
//! would wait for may never come.

use crate::support::{AddU32, Decimate, Repeat, run};
use rfgraph::{
    Block, BoxError, FixedRateBlock, Flowgraph, Ports, Scheduler, StatelessMap, StreamInput,
    StreamOutput, WorkIo,
};
use rfgraph_blocks::{Copy, VectorSink};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Writes `0..n` as room allows, then finishes 5 ms after its last item:
/// the blocks downstream have moved what they can by then, and see their
/// writer end while their outputs are full.
struct LateEnd {
    out: StreamOutput<u32>,
    next: u32,
    n: u32,
    end_at: Option<Instant>,
}

impl Block for LateEnd {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.out)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if self.next < self.n {
            let out = self.out.slice();
            let k = out.len().min((self.n - self.next) as usize);
            for (i, x) in out[..k].iter_mut().enumerate() {
                *x = self.next + i as u32;
            }
            self.out.produce(k);
            self.next += k as u32;
        }
        if self.next == self.n {
            let at = *self
                .end_at
                .get_or_insert_with(|| Instant::now() + Duration::from_millis(5));
            if Instant::now() >= at {
                io.finish();
            } else {
                io.call_again_at(at);
            }
        }
        Ok(())
    }
}

/// src → ×4 → {copy → add.a, ÷2 → add.b} → sink on 1024-item rings
/// (found by a review). The adder takes only half of the copy's branch,
/// so the copy's output fills, then the interpolator's: with 1023 source
/// items the interpolator has written everything while its output has
/// less room than its `min_items` (4) when the source ends. The decimator
/// sees its writer done only once the interpolator ends, and the adder
/// waits for the decimator's end; the interpolator's room would come only
/// after that.
pub fn a_rate_mismatched_diamond_ends(s: impl Scheduler) {
    let n = 1023;
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(LateEnd {
        out: StreamOutput::new("out"),
        next: 0,
        n,
        end_at: None,
    });
    let repeat = fg.add(FixedRateBlock::new(Repeat(4)).unwrap());
    let copy = fg.add(Copy::<u32>::new());
    let decimate = fg.add(FixedRateBlock::new(Decimate(2)).unwrap());
    let add = fg.add(AddU32::new());
    let sink = fg.add(VectorSink::<u32>::new());
    fg.chain(&[src, repeat, copy]).unwrap();
    fg.chain(&[repeat, decimate]).unwrap();
    fg.connect(copy, "out", add, "a").unwrap();
    fg.connect(decimate, "out", add, "b").unwrap();
    fg.connect(add, "out", sink, "in").unwrap();
    let done = run(fg, s).unwrap();
    // Copy item k is k/4 (each source item four times), decimated item k
    // is 2k/4: the adder pairs as many as the decimator wrote, 2n.
    let items = done.block::<VectorSink<u32>>(sink).unwrap().items();
    assert_eq!(items.len(), 2 * n as usize);
    assert!(
        items
            .iter()
            .enumerate()
            .all(|(k, &x)| x == (k / 4 + k / 2) as u32)
    );
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
/// input, and the run's last reader frees room by waking only the ring's
/// first writer and its own edge's writer, never the maps between.
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
