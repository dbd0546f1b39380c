//! The "scheduler emulation" rooflines of the GRCon'19 paper: the work of a
//! flowgraph done by plain loops over cache-sized chunks, with no runtime.
//! `chain --fused` copies through S real intermediate buffers; `saxpy
//! --fused` applies the M `y = a·x + b` steps in place. Both take a sink
//! callback so tests can check that output equals the reference.

use std::hint::black_box;

/// Items per chunk so that two chunk buffers of `f32` fit in L1.
pub fn l1_chunk_items() -> usize {
    (rfgraph::scheduler::cache::l1_data_bytes() / 2 / std::mem::size_of::<f32>()).max(256)
}

/// Pushes `items` items from `source` through `stages` copies between
/// `stages + 1` real buffers, chunk by chunk, handing each final chunk to
/// `sink`. `source` fills a chunk given the index of its first item.
pub fn copy_chain(
    items: u64,
    stages: usize,
    chunk: usize,
    mut source: impl FnMut(u64, &mut [f32]),
    mut sink: impl FnMut(&[f32]),
) {
    let chunk = chunk.max(1);
    // One allocation, buffers 64 bytes further apart than their length:
    // equal offsets modulo 4 KiB would make every copy stall on 4K aliasing
    // (loads falsely dependent on earlier stores), a 30x slowdown here.
    let stride = chunk + 16;
    let mut memory = vec![0f32; stride * (stages + 1)];
    let mut done = 0u64;
    while done < items {
        let n = ((items - done) as usize).min(chunk);
        source(done, &mut memory[..n]);
        for s in 0..stages {
            let (from, to) = memory.split_at_mut((s + 1) * stride);
            // `memmove`, not `rfgraph::copy_items`: in this layout it
            // measured faster (2.4e10 against 2.0e10 block-items/s for 4 x
            // 20), and the roofline takes the fastest plain loop.
            to[..n].copy_from_slice(&from[s * stride..s * stride + n]);
            // Keep the copy real: the optimiser may not merge the stages.
            black_box(&mut to[..n]);
        }
        sink(&memory[stages * stride..stages * stride + n]);
        done += n as u64;
    }
}

/// Applies `blocks` steps of `y = a·x + b` to `items` items chunk by chunk.
pub fn saxpy_chain(
    items: u64,
    blocks: usize,
    chunk: usize,
    (a, b): (f32, f32),
    mut source: impl FnMut(u64, &mut [f32]),
    mut sink: impl FnMut(&[f32]),
) {
    let chunk = chunk.max(1);
    let mut buf = vec![0f32; chunk];
    let mut done = 0u64;
    while done < items {
        let n = ((items - done) as usize).min(chunk);
        source(done, &mut buf[..n]);
        for _ in 0..blocks {
            // The same code generation as a `Map` block's loop.
            rfgraph::block::vectorize::vectorized(|| {
                for x in &mut buf[..n] {
                    *x = a * *x + b;
                }
            });
            black_box(&mut buf);
        }
        sink(&buf[..n]);
        done += n as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(first: u64, out: &mut [f32]) {
        for (i, x) in out.iter_mut().enumerate() {
            *x = (first + i as u64) as f32;
        }
    }

    #[test]
    fn copy_chain_output_equals_input() {
        for (items, stages, chunk) in [(10_000u64, 5, 333), (7, 0, 4), (4096, 20, 4096)] {
            let mut out = Vec::new();
            copy_chain(items, stages, chunk, ramp, |c| out.extend_from_slice(c));
            let expected: Vec<f32> = (0..items).map(|i| i as f32).collect();
            assert_eq!(out, expected);
        }
    }

    #[test]
    fn saxpy_chain_matches_reference() {
        let (a, b) = (0.5f32, 1.0f32);
        let mut out = Vec::new();
        saxpy_chain(1000, 3, 64, (a, b), ramp, |c| out.extend_from_slice(c));
        for (i, y) in out.iter().enumerate() {
            let mut x = i as f32;
            for _ in 0..3 {
                x = a * x + b;
            }
            assert_eq!(*y, x);
        }
        assert_eq!(out.len(), 1000);
    }

    #[test]
    fn l1_chunk_is_sane() {
        let c = l1_chunk_items();
        assert!((256..=1 << 20).contains(&c));
    }
}
