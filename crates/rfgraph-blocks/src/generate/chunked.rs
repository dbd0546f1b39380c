//! `Chunked`: a seeded generator that makes samples in fixed blocks and
//! hands them out in whatever pieces a caller asks for, so a seed gives
//! one stream whatever the scheduler and the sizes of the output slices.
//! Owns the block buffer and the generator; what a block holds is the
//! caller's closure.

use super::distributions::BLOCK;
use super::rng::Xoshiro256PlusPlus;

/// Samples made `BLOCK` at a time; leftovers wait for the next call.
pub(crate) struct Chunked<T> {
    rng: Xoshiro256PlusPlus,
    buf: [T; BLOCK],
    /// The first unused sample of `buf` (`BLOCK`: none left).
    next: usize,
}

impl<T: Copy + Default> Chunked<T> {
    /// A stream for `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        Self {
            rng: Xoshiro256PlusPlus::from_seed(seed),
            buf: [T::default(); BLOCK],
            next: BLOCK,
        }
    }

    /// Fills `out` with the next samples of the stream, calling `make` to
    /// generate each new block (directly into `out` where a whole block
    /// fits, into the buffer otherwise).
    pub(crate) fn fill(
        &mut self,
        out: &mut [T],
        mut make: impl FnMut(&mut Xoshiro256PlusPlus, &mut [T; BLOCK]),
    ) {
        let left = (BLOCK - self.next).min(out.len());
        out[..left].copy_from_slice(&self.buf[self.next..self.next + left]);
        self.next += left;
        let (blocks, rest) = out[left..].as_chunks_mut::<BLOCK>();
        for block in blocks {
            make(&mut self.rng, block);
        }
        if !rest.is_empty() {
            make(&mut self.rng, &mut self.buf);
            rest.copy_from_slice(&self.buf[..rest.len()]);
            self.next = rest.len();
        }
    }

    /// Drops the samples left from the last block (the next call starts a
    /// new one), for a change of distribution that must apply at once.
    pub(crate) fn discard(&mut self) {
        self.next = BLOCK;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter(rng: &mut Xoshiro256PlusPlus, block: &mut [u64; BLOCK]) {
        rng.fill(block);
    }

    /// Any split of the output gives the same stream.
    #[test]
    fn the_stream_does_not_depend_on_how_it_is_split() {
        let mut whole = vec![0u64; 5 * BLOCK + 17];
        Chunked::new(9).fill(&mut whole, counter);
        let mut rng = Xoshiro256PlusPlus::from_seed(9);
        let direct: Vec<u64> = (0..whole.len()).map(|_| rng.next_u64()).collect();
        assert_eq!(whole, direct);
        for sizes in [
            &[1usize, 255, 256, 257, 3][..],
            &[0, 1000, 0, 300],
            &[7; 200],
        ] {
            let mut c = Chunked::new(9);
            let mut parts = vec![0u64; whole.len()];
            let mut pos = 0;
            for &n in sizes.iter().cycle() {
                if pos == parts.len() {
                    break;
                }
                let n = n.min(parts.len() - pos).max(1);
                c.fill(&mut parts[pos..pos + n], counter);
                pos += n;
            }
            assert_eq!(parts, whole, "sizes {sizes:?}");
        }
    }

    #[test]
    fn discard_starts_a_new_block() {
        let mut c = Chunked::new(3);
        let mut a = [0u64; 10];
        c.fill(&mut a, counter);
        c.discard();
        let mut b = [0u64; 1];
        c.fill(&mut b, counter);
        let mut rng = Xoshiro256PlusPlus::from_seed(3);
        let direct: Vec<u64> = (0..BLOCK + 1).map(|_| rng.next_u64()).collect();
        assert_eq!(b[0], direct[BLOCK]);
    }
}
