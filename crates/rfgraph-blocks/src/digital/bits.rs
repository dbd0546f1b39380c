//! Bit regrouping blocks, all one kernel ([`BitRepack`]): `repack_bits`
//! (GNU Radio `blocks_repack_bits_bb`), `unpack_k_bits`
//! (`blocks_unpack_k_bits_bb`), `pack_k_bits` (`blocks_pack_k_bits_bb`),
//! `packed_to_unpacked` and `unpacked_to_packed`
//! (`blocks_packed_to_unpacked_xx`, `blocks_unpacked_to_packed_xx`).

use super::params::{BitOrder, dsp_error};
use crate::DspBlock;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet};
use rfgraph_dsp::digital::{BitRepack, Endianness, Word};

/// The parameters of `repack_bits`, GNU Radio's `blocks_repack_bits_bb`.
/// `k` and `l` may change while it runs, as GNU Radio's `set_k_and_l`
/// allows.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct RepackBitsParams {
    /// data bits per input byte; after a change the bits already read
    /// still go out, and each next byte gives `k` new ones
    #[param(default = 8, min = 1, max = 8, settable)]
    pub k: u32,
    /// data bits per output byte
    #[param(default = 1, min = 1, max = 8, settable)]
    pub l: u32,
    /// which end of a byte is read and written first
    #[param(default = BitOrder::Msb)]
    pub endianness: BitOrder,
    /// tagged-stream mode: drop a packet's leftover bits that do not fill
    /// an output byte (else they make a last byte)
    #[param(default = false)]
    pub align_output: bool,
    /// the key of the length tags: when set, each packet is repacked on
    /// its own (GNU Radio's tagged-stream mode)
    #[param(default = "")]
    pub len_tag_key: String,
}

/// The block [`repack_bits`], [`unpack_k_bits`] and [`pack_k_bits`] build.
pub type RepackBlock<P> = DspBlock<BitRepack<u8, u8>, P>;

/// Regroups bits: the low `k` bits of each input byte, `l` to an output
/// byte (GNU Radio's `repack_bits_bb` in stream mode). `k` and `l` may
/// change while it runs.
///
/// # Parameters
/// [`RepackBitsParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, `k` data bits each
///
/// # Stream Outputs
/// - `out`: `u8`, `l` data bits each (`k/l` outputs per input)
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{RepackBitsParams, repack_bits};
/// let to_dibits = repack_bits(RepackBitsParams { k: 8, l: 2, ..Default::default() })?;
/// # let _ = to_dibits;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn repack_bits(params: RepackBitsParams) -> Result<RepackBlock<RepackBitsParams>, ParamError> {
    params.validate()?;
    let kernel = BitRepack::new(params.k, params.l, params.endianness.into())
        .map_err(dsp_error("repack_bits", "k", &[("l", "l")]))?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        Ok(kernel.set_k_and_l(p.k, p.l)?)
    }))
}

/// The parameters of `unpack_k_bits` and `pack_k_bits` (GNU Radio's
/// `blocks_unpack_k_bits_bb`, `blocks_pack_k_bits_bb`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct KBitsParams {
    /// bits per packed byte
    #[param(default = 8, min = 1, max = 8)]
    pub k: u32,
}

/// A repacker of fixed widths (most significant bit first) carrying
/// `params`.
fn fixed<P: ParamSet>(
    block: &'static str,
    k: u32,
    l: u32,
    params: P,
) -> Result<RepackBlock<P>, ParamError> {
    params.validate()?;
    let kernel = BitRepack::new(k, l, Endianness::MsbFirst).map_err(dsp_error(block, "k", &[]))?;
    Ok(DspBlock::tuned(kernel, params, |_, _, name| {
        Err(format!("`{name}` cannot change").into())
    }))
}

/// Unpacks the low `k` bits of each byte into `k` bytes of one bit each,
/// most significant first (GNU Radio's `unpack_k_bits_bb`).
///
/// # Parameters
/// [`KBitsParams`].
///
/// # Stream Inputs
/// - `in`: `u8`
///
/// # Stream Outputs
/// - `out`: `u8`, 0 or 1, `k` per input
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{KBitsParams, unpack_k_bits};
/// let unpack = unpack_k_bits(KBitsParams { k: 8 })?;
/// # let _ = unpack;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn unpack_k_bits(params: KBitsParams) -> Result<RepackBlock<KBitsParams>, ParamError> {
    fixed("unpack_k_bits", params.k, 1, params)
}

/// Packs the low bit of each of `k` bytes into one byte, first bit most
/// significant (GNU Radio's `pack_k_bits_bb`).
///
/// # Parameters
/// [`KBitsParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, bit 0 used
///
/// # Stream Outputs
/// - `out`: `u8`, one per `k` inputs
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{KBitsParams, pack_k_bits};
/// let pack = pack_k_bits(KBitsParams { k: 8 })?;
/// # let _ = pack;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn pack_k_bits(params: KBitsParams) -> Result<RepackBlock<KBitsParams>, ParamError> {
    fixed("pack_k_bits", 1, params.k, params)
}

/// The parameters of `packed_to_unpacked` and `unpacked_to_packed` (GNU
/// Radio's `blocks_packed_to_unpacked_xx`, `blocks_unpacked_to_packed_xx`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ChunkParams {
    /// bits per chunk, at most the item type's width
    #[param(default = 1, min = 1, max = 32)]
    pub bits_per_chunk: u32,
    /// which end of the whole word is read (or written) first; each chunk
    /// has its first bit most significant, as in GNU Radio
    #[param(default = BitOrder::Msb)]
    pub endianness: BitOrder,
    /// stream item type: the word
    #[param(name = "type", kinds(U8, I16, I32))]
    pub item: ItemKind,
}

impl ChunkParams {
    /// Bits in one word of the item type.
    fn word_bits(&self) -> u32 {
        match self.item {
            ItemKind::I16 => 16,
            ItemKind::I32 => 32,
            _ => 8,
        }
    }

    fn check(&self) -> Result<(), ParamError> {
        if self.bits_per_chunk > self.word_bits() {
            return Err(ParamError::new(
                "packed_to_unpacked",
                "bits_per_chunk",
                format!(
                    "{} is more than the {} bits of a `{}`",
                    self.bits_per_chunk,
                    self.word_bits(),
                    self.item
                ),
            ));
        }
        Ok(())
    }
}

/// The block [`packed_to_unpacked`] and [`unpacked_to_packed`] build.
pub type ChunkBlock<T> = DspBlock<BitRepack<T, T>, ChunkParams>;

/// Splits each whole input word (8, 16 or 32 bits) into
/// `bits_per_chunk`-bit chunks (GNU Radio's `packed_to_unpacked_xx`).
///
/// # Parameters
/// [`ChunkParams`]; `T` is the item type (`params.item` is what the
/// registry builds from).
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `i16`, `i32`)
///
/// # Stream Outputs
/// - `out`: `T`, one chunk each
///
/// # Usage
/// ```
/// use rfgraph::params::ItemKind;
/// use rfgraph_blocks::digital::{BitOrder, ChunkParams, packed_to_unpacked};
/// let block = packed_to_unpacked::<i16>(ChunkParams {
///     bits_per_chunk: 4,
///     endianness: BitOrder::Lsb,
///     item: ItemKind::I16,
/// })?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn packed_to_unpacked<T: Word + rfgraph::Item>(
    params: ChunkParams,
) -> Result<ChunkBlock<T>, ParamError> {
    params.validate()?;
    // GNU Radio reads LSB first in LSB mode but still writes each chunk's
    // first bit as its most significant.
    let kernel = BitRepack::with_orders(
        T::BITS,
        params.bits_per_chunk,
        params.endianness.into(),
        Endianness::MsbFirst,
    )
    .map_err(dsp_error("packed_to_unpacked", "bits_per_chunk", &[]))?;
    Ok(DspBlock::tuned(kernel, params, |_, _, name| {
        Err(format!("`{name}` cannot change").into())
    }))
}

/// Gathers the low `bits_per_chunk` bits of input words into whole output
/// words (GNU Radio's `unpacked_to_packed_xx`).
///
/// # Parameters
/// [`ChunkParams`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `i16`, `i32`), one chunk each
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{ChunkParams, unpacked_to_packed};
/// let block = unpacked_to_packed::<u8>(ChunkParams::default())?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn unpacked_to_packed<T: Word + rfgraph::Item>(
    params: ChunkParams,
) -> Result<ChunkBlock<T>, ParamError> {
    params.validate()?;
    // GNU Radio reads each chunk most significant bit first in both modes;
    // the endianness orders the bits in the output word.
    let kernel = BitRepack::with_orders(
        params.bits_per_chunk,
        T::BITS,
        Endianness::MsbFirst,
        params.endianness.into(),
    )
    .map_err(dsp_error("unpacked_to_packed", "bits_per_chunk", &[]))?;
    Ok(DspBlock::tuned(kernel, params, |_, _, name| {
        Err(format!("`{name}` cannot change").into())
    }))
}

/// A boxed block, for the registry.
fn boxed<B: Block>(block: Result<B, ParamError>) -> Result<Box<dyn Block>, BoxError> {
    Ok(Box::new(block?))
}

pub(crate) fn repack_bits_spec() -> BlockSpec {
    BlockSpec::of::<RepackBitsParams>(
        "repack_bits",
        "Digital",
        "Regroups k bits per input byte into l bits per output byte.",
        |p| {
            if p.len_tag_key.is_empty() {
                boxed(repack_bits(p))
            } else {
                boxed(super::TaggedRepack::new(p))
            }
        },
    )
    .doc(
        "GNU Radio's `blocks_repack_bits_bb`. In stream mode (no `len_tag_key`) bits are \
         carried over between bytes; the last bits that do not fill an output byte are \
         dropped. `k` and `l` may change while it runs (GNU Radio's `set_k_and_l`): the bits \
         already read go out `l` at a time, and every next byte gives `k`. In tagged-stream \
         mode (`len_tag_key` set) each packet is repacked on its own: `n` bytes give \
         `n * k / l` bytes plus one for leftover bits (zero-filled) unless `align_output` \
         drops them, with a length tag saying so; other tags move to `index * k / l`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

pub(crate) fn unpack_k_bits_spec() -> BlockSpec {
    BlockSpec::of::<KBitsParams>(
        "unpack_k_bits",
        "Digital",
        "Unpacks the low k bits of each byte, MSB first, one bit per byte.",
        |p| boxed(unpack_k_bits(p)),
    )
    .doc("GNU Radio's `blocks_unpack_k_bits_bb`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)).doc("bits, k per input"))
}

pub(crate) fn pack_k_bits_spec() -> BlockSpec {
    BlockSpec::of::<KBitsParams>(
        "pack_k_bits",
        "Digital",
        "Packs the low bit of k bytes into one byte, first bit MSB.",
        |p| boxed(pack_k_bits(p)),
    )
    .doc("GNU Radio's `blocks_pack_k_bits_bb`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)).doc("bits"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

pub(crate) fn packed_to_unpacked_spec() -> BlockSpec {
    BlockSpec::of::<ChunkParams>(
        "packed_to_unpacked",
        "Digital",
        "Splits whole words into chunks of bits_per_chunk bits.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, I16 => i16, I32 => i32 } as T
                => packed_to_unpacked::<T>(p)?)
        },
    )
    .doc("GNU Radio's `blocks_packed_to_unpacked_bb/ss/ii`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

pub(crate) fn unpacked_to_packed_spec() -> BlockSpec {
    BlockSpec::of::<ChunkParams>(
        "unpacked_to_packed",
        "Digital",
        "Gathers chunks of bits_per_chunk bits into whole words.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, I16 => i16, I32 => i32 } as T
                => unpacked_to_packed::<T>(p)?)
        },
    )
    .doc("GNU Radio's `blocks_unpacked_to_packed_bb/ss/ii`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
