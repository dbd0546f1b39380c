//! Bit regrouping blocks, all one kernel ([`BitRepack`]): `repack_bits`
//! (GNU Radio `blocks_repack_bits_bb`), `unpack_k_bits`
//! (`blocks_unpack_k_bits_bb`), `pack_k_bits` (`blocks_pack_k_bits_bb`),
//! `packed_to_unpacked` and `unpacked_to_packed`
//! (`blocks_packed_to_unpacked_xx`, `blocks_unpacked_to_packed_xx`).

use super::params::{endianness, u32_in};
use crate::DspBlock;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::{BitRepack, Endianness, Word};

/// Regroups bits: the low `k` bits of each input byte, `l` to an output
/// byte (GNU Radio's `repack_bits_bb` in stream mode).
///
/// # Stream Inputs
/// - `in`: `u8`, `k` data bits each
///
/// # Stream Outputs
/// - `out`: `u8`, `l` data bits each (`k/l` outputs per input)
///
/// # Parameters
/// - `k`, `l`: bits per input and output byte, 1 to 8.
/// - `endianness`: [`Endianness::MsbFirst`] reads and writes the most
///   significant used bit first.
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::repack_bits;
/// use rfgraph_dsp::digital::Endianness;
/// let to_dibits = repack_bits(8, 2, Endianness::MsbFirst)?;
/// # let _ = to_dibits;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn repack_bits(
    k: u32,
    l: u32,
    endianness: Endianness,
) -> Result<DspBlock<BitRepack<u8, u8>>, DspError> {
    Ok(DspBlock::new(BitRepack::new(k, l, endianness)?))
}

/// Unpacks the low `k` bits of each byte into `k` bytes of one bit each,
/// most significant first (GNU Radio's `unpack_k_bits_bb`).
///
/// # Stream Inputs
/// - `in`: `u8`
///
/// # Stream Outputs
/// - `out`: `u8`, 0 or 1, `k` per input
///
/// # Parameters
/// - `k`: bits per byte, 1 to 8.
///
/// # Usage
/// ```
/// let unpack = rfgraph_blocks::digital::unpack_k_bits(8)?;
/// # let _ = unpack;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn unpack_k_bits(k: u32) -> Result<DspBlock<BitRepack<u8, u8>>, DspError> {
    repack_bits(k, 1, Endianness::MsbFirst)
}

/// Packs the low bit of each of `k` bytes into one byte, first bit most
/// significant (GNU Radio's `pack_k_bits_bb`).
///
/// # Stream Inputs
/// - `in`: `u8`, bit 0 used
///
/// # Stream Outputs
/// - `out`: `u8`, one per `k` inputs
///
/// # Parameters
/// - `k`: bits per byte, 1 to 8.
///
/// # Usage
/// ```
/// let pack = rfgraph_blocks::digital::pack_k_bits(8)?;
/// # let _ = pack;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn pack_k_bits(k: u32) -> Result<DspBlock<BitRepack<u8, u8>>, DspError> {
    repack_bits(1, k, Endianness::MsbFirst)
}

/// Splits each whole input word (8, 16 or 32 bits) into
/// `bits_per_chunk`-bit chunks (GNU Radio's `packed_to_unpacked_xx`).
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `i16`, `i32`)
///
/// # Stream Outputs
/// - `out`: `T`, one chunk each
///
/// # Parameters
/// - `bits_per_chunk`: 1 to the word width.
/// - `endianness`: which end of the input word is read first (each
///   chunk is written with its first bit most significant, as GNU Radio
///   does in both modes).
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::packed_to_unpacked;
/// use rfgraph_dsp::digital::Endianness;
/// let block = packed_to_unpacked::<i16>(4, Endianness::LsbFirst)?;
/// # let _ = block;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn packed_to_unpacked<T: Word + rfgraph::Item>(
    bits_per_chunk: u32,
    endianness: Endianness,
) -> Result<DspBlock<BitRepack<T, T>>, DspError> {
    // GNU Radio reads LSB first in LSB mode but still writes each chunk's
    // first bit as its most significant.
    Ok(DspBlock::new(BitRepack::with_orders(
        T::BITS,
        bits_per_chunk,
        endianness,
        Endianness::MsbFirst,
    )?))
}

/// Gathers the low `bits_per_chunk` bits of input words into whole output
/// words (GNU Radio's `unpacked_to_packed_xx`).
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `i16`, `i32`), one chunk each
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Parameters
/// - `bits_per_chunk`: 1 to the word width.
/// - `endianness`: which end of the output word is written first (each
///   chunk is read most significant bit first, as GNU Radio does).
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::unpacked_to_packed;
/// use rfgraph_dsp::digital::Endianness;
/// let block = unpacked_to_packed::<u8>(1, Endianness::MsbFirst)?;
/// # let _ = block;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn unpacked_to_packed<T: Word + rfgraph::Item>(
    bits_per_chunk: u32,
    endianness: Endianness,
) -> Result<DspBlock<BitRepack<T, T>>, DspError> {
    // GNU Radio reads each chunk most significant bit first in both modes;
    // the endianness orders the bits in the output word.
    Ok(DspBlock::new(BitRepack::with_orders(
        bits_per_chunk,
        T::BITS,
        Endianness::MsbFirst,
        endianness,
    )?))
}

fn endianness_param() -> ParamSpec {
    ParamSpec::string("endianness")
        .default("msb")
        .doc("`msb` or `lsb`: which end of a word is read/written first")
}

const WORDS: [ItemKind; 3] = [ItemKind::U8, ItemKind::I16, ItemKind::I32];

pub(crate) fn repack_bits_spec() -> BlockSpec {
    BlockSpec::new("repack_bits", "Digital", "Regroups k bits per input byte into l bits per output byte.", |p| {
        let k = u32_in(p, "k", 1, 8)?;
        let l = u32_in(p, "l", 1, 8)?;
        let e = endianness(p, "endianness")?;
        Ok(Box::new(repack_bits(k, l, e).map_err(|e| p.refused(e))?) as Box<dyn rfgraph::Block>)
    })
    .doc("GNU Radio's `blocks_repack_bits_bb` in stream mode: bits carried over between bytes; the last bits that do not fill an output byte are dropped. Tagged-stream mode (`len_tag_key`) is not implemented: the parameters are accepted and the stream is repacked as one.")
    .param(ParamSpec::uint("k").default(8u64).doc("data bits per input byte (1..8)"))
    .param(ParamSpec::uint("l").default(1u64).doc("data bits per output byte (1..8)"))
    .param(endianness_param())
    .param(ParamSpec::bool("align_output").default(false).doc("tagged-stream mode only; ignored"))
    .param(ParamSpec::string("len_tag_key").default("").doc("tagged-stream mode only; ignored"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

pub(crate) fn unpack_k_bits_spec() -> BlockSpec {
    BlockSpec::new(
        "unpack_k_bits",
        "Digital",
        "Unpacks the low k bits of each byte, MSB first, one bit per byte.",
        |p| {
            let k = u32_in(p, "k", 1, 8)?;
            Ok(Box::new(unpack_k_bits(k).map_err(|e| p.refused(e))?) as Box<dyn rfgraph::Block>)
        },
    )
    .doc("GNU Radio's `blocks_unpack_k_bits_bb`.")
    .param(
        ParamSpec::uint("k")
            .default(8u64)
            .doc("bits per byte (1..8)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)).doc("bits, k per input"))
}

pub(crate) fn pack_k_bits_spec() -> BlockSpec {
    BlockSpec::new(
        "pack_k_bits",
        "Digital",
        "Packs the low bit of k bytes into one byte, first bit MSB.",
        |p| {
            let k = u32_in(p, "k", 1, 8)?;
            Ok(Box::new(pack_k_bits(k).map_err(|e| p.refused(e))?) as Box<dyn rfgraph::Block>)
        },
    )
    .doc("GNU Radio's `blocks_pack_k_bits_bb`.")
    .param(
        ParamSpec::uint("k")
            .default(8u64)
            .doc("bits per byte (1..8)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)).doc("bits"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

fn word_bits(kind: ItemKind) -> u32 {
    match kind {
        ItemKind::I16 => 16,
        ItemKind::I32 => 32,
        _ => 8,
    }
}

pub(crate) fn packed_to_unpacked_spec() -> BlockSpec {
    BlockSpec::new(
        "packed_to_unpacked",
        "Digital",
        "Splits whole words into chunks of bits_per_chunk bits.",
        |p| {
            let kind = p.item_type()?;
            let n = u32_in(p, "bits_per_chunk", 1, word_bits(kind))?;
            let e = endianness(p, "endianness")?;
            rfgraph::for_item_kinds!(p, kind, { U8 => u8, I16 => i16, I32 => i32 } as T
            => packed_to_unpacked::<T>(n, e).map_err(|e| p.refused(e))?)
        },
    )
    .doc("GNU Radio's `blocks_packed_to_unpacked_bb/ss/ii`.")
    .param(
        ParamSpec::uint("bits_per_chunk")
            .default(1u64)
            .doc("bits per output item"),
    )
    .param(endianness_param())
    .param(ParamSpec::item_type(&WORDS))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

pub(crate) fn unpacked_to_packed_spec() -> BlockSpec {
    BlockSpec::new(
        "unpacked_to_packed",
        "Digital",
        "Gathers chunks of bits_per_chunk bits into whole words.",
        |p| {
            let kind = p.item_type()?;
            let n = u32_in(p, "bits_per_chunk", 1, word_bits(kind))?;
            let e = endianness(p, "endianness")?;
            rfgraph::for_item_kinds!(p, kind, { U8 => u8, I16 => i16, I32 => i32 } as T
            => unpacked_to_packed::<T>(n, e).map_err(|e| p.refused(e))?)
        },
    )
    .doc("GNU Radio's `blocks_unpacked_to_packed_bb/ss/ii`.")
    .param(
        ParamSpec::uint("bits_per_chunk")
            .default(1u64)
            .doc("data bits per input item"),
    )
    .param(endianness_param())
    .param(ParamSpec::item_type(&WORDS))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
