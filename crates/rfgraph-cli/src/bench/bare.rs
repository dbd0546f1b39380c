//! The bare-runtime floor of `saxpy` (`rfgraph bench saxpy --bare`): the
//! same flowgraph, source → M in-place steps → sink, as `dyn` blocks that
//! one thread calls round robin over one ring with atomic positions, and
//! nothing else: no statistics, signals, tags, messages, finish logic or
//! port bookkeeping. It measures what calling blocks at all costs on this
//! machine, so that a scheduler's gap to the fused loop splits into what
//! any block runtime pays and what rfgraph's per-call duties add.
//!
//! Like qsdr's source, the source writes nothing, and the sink reads
//! nothing; every step transforms its items where they lie.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

/// One ring of `f32` shared in place by the whole chain, and each stage's
/// position: `positions[0]` is the source's write position, `positions[k]`
/// for k ≥ 1 the read (= write) position of stage k (the last is the
/// sink's).
struct Ring {
    /// The items lie at `memory[start..start + capacity]`, aligned to a
    /// cache line like the runtime's page-aligned rings: a `Vec` is only
    /// 16-byte aligned, and AVX stores that straddle lines ran this loop
    /// at half speed (measured on `--fused`'s loop: 1.2e10 items/s at 16
    /// bytes past a line, 1.9e10 on one).
    memory: Vec<f32>,
    start: usize,
    capacity: usize,
    positions: Vec<AtomicU64>,
}

/// Items per cache line.
const LINE_ITEMS: usize = 64 / std::mem::size_of::<f32>();

impl Ring {
    fn new(capacity: usize, stages: usize) -> Self {
        let memory = vec![0.0f32; capacity + LINE_ITEMS];
        let misalignment = memory.as_ptr().align_offset(64);
        Self {
            start: misalignment.min(LINE_ITEMS),
            memory,
            capacity,
            positions: (0..stages).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn capacity(&self) -> u64 {
        self.capacity as u64
    }

    fn items(&self) -> &[f32] {
        &self.memory[self.start..self.start + self.capacity]
    }

    /// Items stage `k` may take now: what stage `k - 1` released, or for
    /// the source (k = 0), the space the sink released.
    fn available(&self, k: usize) -> u64 {
        let mine = self.positions[k].load(Ordering::Relaxed);
        if k == 0 {
            let last = self.positions.last().expect("a ring has stages");
            self.capacity() - (mine - last.load(Ordering::Acquire))
        } else {
            self.positions[k - 1].load(Ordering::Acquire) - mine
        }
    }

    /// Stage `k` is done with `n` more items.
    fn release(&self, k: usize, n: u64) {
        let p = &self.positions[k];
        p.store(p.load(Ordering::Relaxed) + n, Ordering::Release);
    }
}

/// A block of the bare runtime: it moves up to what its stage may take.
trait BareBlock {
    /// One call; returns the items it moved.
    fn work(&mut self, ring: &Ring, stage: usize) -> u64;
}

struct Source {
    left: u64,
}

impl BareBlock for Source {
    #[inline(never)]
    fn work(&mut self, ring: &Ring, stage: usize) -> u64 {
        let n = ring.available(stage).min(self.left);
        self.left -= n;
        ring.release(stage, n);
        n
    }
}

struct Step {
    a: f32,
    b: f32,
    /// Where the ring's items start (the ring never moves).
    items: *mut f32,
}

impl BareBlock for Step {
    #[inline(never)]
    fn work(&mut self, ring: &Ring, stage: usize) -> u64 {
        let start = ring.positions[stage].load(Ordering::Relaxed) % ring.capacity();
        // Rounds move whole laps or less: stop at the ring's end.
        let n = ring.available(stage).min(ring.capacity() - start);
        // SAFETY: `start + n` ≤ capacity, so the range lies inside the
        // ring's items (`memory[ring.start..][..capacity]`); stage k alone owns the items between stage k - 1's
        // position and its own (each stage only ever advances its own
        // position, and one thread runs every stage), so no other
        // reference to them exists during the call.
        let chunk =
            unsafe { std::slice::from_raw_parts_mut(self.items.add(start as usize), n as usize) };
        let (a, b) = (self.a, self.b);
        // The same code generation as a `Map` block's loop.
        rfgraph::block::vectorize::vectorized(|| {
            for x in chunk.iter_mut() {
                *x = a * *x + b;
            }
        });
        ring.release(stage, n);
        n
    }
}

struct Sink;

impl BareBlock for Sink {
    #[inline(never)]
    fn work(&mut self, ring: &Ring, stage: usize) -> u64 {
        let n = ring.available(stage);
        ring.release(stage, n);
        n
    }
}

/// Runs `items` items through a source, `steps` saxpy steps `(a, b)` and a
/// sink on a ring of `ring_items` items; returns the checksum of the ring
/// (so the work cannot be optimised away; tests compare it).
pub fn saxpy_chain(items: u64, steps: usize, ring_items: usize, (a, b): (f32, f32)) -> f32 {
    let mut ring = Ring::new(ring_items.max(1), steps + 2);
    let start = ring.start;
    let base = ring.memory[start..].as_mut_ptr();
    let mut blocks: Vec<Box<dyn BareBlock>> = vec![Box::new(Source { left: items })];
    for _ in 0..steps {
        blocks.push(Box::new(Step { a, b, items: base }));
    }
    blocks.push(Box::new(Sink));
    let sink = blocks.len() - 1;
    let mut consumed = 0;
    while consumed < items {
        for (stage, block) in blocks.iter_mut().enumerate() {
            let n = black_box(&mut **block).work(&ring, stage);
            if stage == sink {
                consumed += n;
            }
        }
    }
    ring.items().iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_gets_every_step_once() {
        // 10 laps of a 64-item ring plus a partial one; each item starts
        // at 0 and goes through 3 steps of x + 1 per lap it is in.
        let (ring, laps, steps) = (64usize, 10u64, 3usize);
        let items = ring as u64 * laps + 5;
        let sum = saxpy_chain(items, steps, ring, (1.0, 1.0));
        // Slots 0..5 saw 11 laps, the others 10.
        let expected = (5 * 11 + (ring - 5) * 10) as f32 * steps as f32;
        assert_eq!(sum, expected);
    }

    #[test]
    fn ring_items_start_on_a_cache_line() {
        for capacity in [1, 7, 1000, 7168] {
            let ring = Ring::new(capacity, 3);
            assert_eq!(ring.items().as_ptr() as usize % 64, 0);
            assert_eq!(ring.items().len(), capacity);
        }
    }

    #[test]
    fn fewer_items_than_the_ring_holds() {
        // Ten items, two steps of x + 1: ten slots at 2.
        assert_eq!(saxpy_chain(10, 2, 64, (1.0, 1.0)), 20.0);
    }
}
