//! GNU Radio's successive cancellation list decoder
//! (`polar_decoder_sc_list` and its `polar::scl_list`), path for path:
//! `2L` path records share `L` buffers as GNU Radio's pointers share
//! them (a branched path points at its parent's buffer until it steals
//! a discarded one), the records are ordered by GNU Radio's `std::sort`,
//! and the list carries over from block to block as there. Equal
//! metrics, buffer sharing and all, the same soft input decodes to the
//! same bits.

use super::code::PolarCode;
use super::graph::Graph;
use super::sort::std_sort;

/// One of GNU Radio's `path` records.
#[derive(Clone, Copy, Debug)]
struct Slot {
    metric: f32,
    owns: bool,
    /// The buffer it points at (none before it ever pointed at one).
    buf: Option<usize>,
}

/// A successive cancellation list decoder.
#[derive(Clone, Debug)]
pub(crate) struct ListDecoder {
    code: PolarCode,
    size: usize,
    slots: Vec<Slot>,
    bufs: Vec<Graph>,
    active: usize,
}

/// GNU Radio's `update_path_metric` (`ui` compared as a float).
#[inline]
fn metric(last: f32, llr: f32, ui: u8) -> f32 {
    if (ui == 0 && llr > 0.0) || (ui == 1 && llr < 0.0) {
        last
    } else {
        last + llr.abs()
    }
}

impl ListDecoder {
    /// A decoder keeping up to `size` paths (a power of two).
    pub(crate) fn new(code: PolarCode, size: usize) -> Self {
        let slots = (0..2 * size)
            .map(|i| Slot {
                metric: 0.0,
                owns: i < size,
                buf: (i < size).then_some(i),
            })
            .collect();
        let bufs = (0..size).map(|_| Graph::new(code.n)).collect();
        Self {
            code,
            size,
            slots,
            bufs,
            active: 1,
        }
    }

    fn buf(&self, slot: usize) -> usize {
        self.slots[slot]
            .buf
            .expect("an active path points at a buffer")
    }

    /// Copies buffer `from` into buffer `to` (GNU Radio's `memcpy`).
    fn copy(&mut self, from: usize, to: usize) {
        if from != to {
            let (a, b) = if from < to {
                let (l, r) = self.bufs.split_at_mut(to);
                (&l[from], &mut r[0])
            } else {
                let (l, r) = self.bufs.split_at_mut(from);
                (&r[0], &mut l[to])
            };
            b.llr.copy_from_slice(&a.llr);
            b.sums.copy_from_slice(&a.sums);
        }
    }

    /// Decodes `N` soft values (positive for a 1) into `K` bits.
    pub(crate) fn decode(&mut self, input: &[f32], output: &mut [u8]) {
        let n = self.code.n;
        let first = self.buf(0);
        self.bufs[first].load(&input[..n]);
        let mut f = 0;
        for bit in 0..n {
            for s in 0..self.active {
                let b = self.buf(s);
                self.bufs[b].bit_llr(bit);
            }
            if self.code.is_frozen[bit] {
                let v = self.code.values[f];
                f += 1;
                for s in 0..self.active {
                    let b = self.buf(s);
                    self.bufs[b].set_bit(bit, v);
                    let llr = self.bufs[b].llr[bit];
                    self.slots[s].metric = metric(self.slots[s].metric, llr, v);
                }
            } else {
                self.set_info_bit(bit);
            }
            for s in 0..self.active {
                let b = self.buf(s);
                self.bufs[b].propagate(bit);
            }
        }
        // `optimal_path`: the first of the smallest metric.
        let mut best = 0;
        for s in 1..self.active {
            if self.slots[s].metric < self.slots[best].metric {
                best = s;
            }
        }
        let b = self.buf(best);
        for (o, &i) in output.iter_mut().zip(&self.code.info) {
            *o = self.bufs[b].bit(i);
        }
        // `reset`.
        for s in &mut self.slots {
            s.metric = 0.0;
        }
        self.active = 1;
    }

    fn set_info_bit(&mut self, bit: usize) {
        if self.active < self.size {
            let offset = self.active;
            for i in 0..offset {
                let (from, to) = (self.buf(i), self.buf(i + offset));
                self.copy(from, to);
                let llr = self.bufs[from].llr[bit];
                let pm = self.slots[i].metric;
                self.slots[i].metric = metric(pm, llr, 0);
                self.slots[i + offset].metric = metric(pm, llr, 1);
                self.bufs[from].set_bit(bit, 0);
                self.bufs[to].set_bit(bit, 1);
            }
            self.active += offset;
            return;
        }
        let l = self.size;
        for i in 0..l {
            let b = self.buf(i);
            let llr = self.bufs[b].llr[bit];
            let pm = self.slots[i].metric;
            self.slots[i + l].metric = metric(pm, llr, 1);
            self.slots[i].metric = metric(pm, llr, 0);
            self.slots[i + l].buf = Some(b);
        }
        std_sort(&mut self.slots, &|a: &Slot, b: &Slot| a.metric < b.metric);
        for i in 0..l {
            if self.slots[i].owns {
                let b = self.buf(i);
                self.bufs[b].set_bit(bit, 0);
            } else {
                let mut t = l;
                while !self.slots[t].owns {
                    t += 1;
                }
                // `steal_vector_ownership`: the discarded owner's buffer
                // receives this path's data, whatever else points at it.
                let (from, to) = (self.buf(i), self.buf(t));
                self.copy(from, to);
                self.slots[i].buf = Some(to);
                self.slots[i].owns = true;
                self.slots[t].owns = false;
                self.bufs[to].set_bit(bit, 1);
            }
        }
    }
}
