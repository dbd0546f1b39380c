//! `repack_bits` in tagged-stream mode (GNU Radio's `blocks_repack_bits_bb`
//! with a length tag key): [`TaggedRepack`] regroups the bits of each
//! packet on its own, and gives it a length tag of what it wrote.

use super::bits::RepackBitsParams;
use super::params::BitOrder;
use crate::message::PacketIo;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, Tag, TagPolicy, WorkIo};

/// The bit positions carried from one packet to the next, as GNU Radio
/// keeps them: the output position is reset after every packet, the input
/// one is not (an aligned packet may stop within an input byte, and the
/// next packet then starts reading there).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RepackState {
    in_index: u32,
}

/// The output of one packet of `items`: `k` bits read from each item, `l`
/// written to each output byte in `order`. The packet gives
/// `len * k / l` bytes, one more for leftover bits unless `align_output`
/// (which drops them); a last byte short of bits is written as it is.
pub(crate) fn repack_packet(
    state: &mut RepackState,
    k: u32,
    l: u32,
    order: BitOrder,
    align_output: bool,
    items: &[u8],
) -> Vec<u8> {
    let bits = items.len() as u64 * u64::from(k);
    let mut to_write = (bits / u64::from(l)) as usize;
    if !align_output && !bits.is_multiple_of(u64::from(l)) {
        to_write += 1;
    }
    let mut out = Vec::with_capacity(to_write);
    let mut out_index = 0u32;
    let mut read = 0usize;
    // Whole output bytes; `out` also holds the one being filled.
    let mut written = 0usize;
    // A set_k_and_l may leave the input position past the new width.
    if state.in_index >= k {
        state.in_index = 0;
    }
    while written < to_write && read < items.len() {
        if out_index == 0 {
            out.push(0u8);
        }
        let (bit_in, bit_out) = match order {
            BitOrder::Lsb => (state.in_index, out_index),
            BitOrder::Msb => (k - 1 - state.in_index, l - 1 - out_index),
        };
        let bit = (items[read] >> bit_in) & 1;
        if let Some(last) = out.last_mut() {
            *last |= bit << bit_out;
        }
        state.in_index = (state.in_index + 1) % k;
        out_index = (out_index + 1) % l;
        if state.in_index == 0 {
            read += 1;
        }
        if out_index == 0 {
            written += 1;
        }
    }
    out
}

/// Where a tag on packet item `index` goes in a packet repacked from `k`
/// to `l` bits, `len` bytes long: scaled by `k / l`, rounded down, kept
/// within the packet.
fn tag_index(index: u64, k: u32, l: u32, len: usize) -> u64 {
    (index * u64::from(k) / u64::from(l)).min(len.saturating_sub(1) as u64)
}

/// Regroups bits packet by packet: each packet of a tagged byte stream
/// (length tags of key `len_tag_key`) has the low `k` bits of its bytes
/// regrouped `l` to an output byte, as GNU Radio's `repack_bits_bb` in
/// tagged-stream mode. A packet of `n` bytes gives `n * k / l` bytes, plus
/// one for the leftover bits unless `align_output` drops them; its length
/// tag says how many. Other tags are moved to `index * k / l`.
///
/// # Parameters
/// [`RepackBitsParams`] (`len_tag_key` set).
///
/// # Stream Inputs
/// - `in`: `u8`, a tagged stream, `k` data bits per byte
///
/// # Stream Outputs
/// - `out`: `u8`, a tagged stream, `l` data bits per byte
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{RepackBitsParams, TaggedRepack};
/// let to_dibits = TaggedRepack::new(RepackBitsParams {
///     k: 8,
///     l: 2,
///     len_tag_key: "packet_len".into(),
///     ..Default::default()
/// })?;
/// # let _ = to_dibits;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TaggedRepack {
    io: PacketIo<u8>,
    params: RepackBitsParams,
    state: RepackState,
}

impl TaggedRepack {
    /// A packet repacker as `params` say.
    pub fn new(params: RepackBitsParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            io: PacketIo::new(),
            params,
            state: RepackState::default(),
        })
    }
}

impl Block for TaggedRepack {
    fn ports(&mut self) -> Ports<'_> {
        self.io.ports()
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let p = &self.params;
        let state = &mut self.state;
        let (k, l) = (p.k.clamp(1, 8), p.l.clamp(1, 8));
        self.io.work(&p.len_tag_key, |items, tags| {
            let out = repack_packet(state, k, l, p.endianness, p.align_output, &items);
            if out.is_empty() {
                return None;
            }
            let len = out.len();
            let tags = tags
                .into_iter()
                .map(|t| Tag {
                    index: tag_index(t.index, k, l, len),
                    ..t
                })
                .collect::<Vec<Tag>>();
            Some((out, tags))
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_to_dibits_lsb_first() {
        let mut s = RepackState::default();
        let out = repack_packet(&mut s, 8, 2, BitOrder::Lsb, false, &[0b1110_0100]);
        assert_eq!(out, [0, 1, 2, 3]);
    }

    #[test]
    fn leftover_bits_make_a_last_byte_unless_aligned() {
        let mut s = RepackState::default();
        let bits = [1u8, 0, 1];
        assert_eq!(
            repack_packet(&mut s, 1, 2, BitOrder::Msb, false, &bits),
            [2, 2]
        );
        assert_eq!(repack_packet(&mut s, 1, 2, BitOrder::Msb, true, &bits), [2]);
    }
}
