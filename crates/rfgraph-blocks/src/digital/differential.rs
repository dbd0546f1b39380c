//! `diff_encoder` / `diff_decoder`: differential coding modulo M (GNU
//! Radio `digital_diff_encoder_bb`, `digital_diff_decoder_bb`).

use super::params::u32_in;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, MapWith};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::{DiffDecoder, DiffEncoder};

type EncBlock = FixedRateBlock<MapWith<DiffEncoder, u8, u8, fn(&mut DiffEncoder, u8) -> u8>>;
type DecBlock = FixedRateBlock<MapWith<DiffDecoder, u8, u8, fn(&mut DiffDecoder, u8) -> u8>>;

/// `out = (in + previous out) mod modulus` (GNU Radio's
/// `diff_encoder_bb`, differential mode).
///
/// # Stream Inputs
/// - `in`: `u8` symbols
///
/// # Stream Outputs
/// - `out`: `u8` symbols
///
/// # Parameters
/// - `modulus`: 2 to 256.
///
/// # Usage
/// ```
/// let enc = rfgraph_blocks::digital::diff_encoder(4)?;
/// # let _ = enc;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn diff_encoder(modulus: u32) -> Result<EncBlock, DspError> {
    Ok(MapWith::new(
        DiffEncoder::new(modulus)?,
        DiffEncoder::step as fn(&mut DiffEncoder, u8) -> u8,
    ))
}

/// `out = (in − previous in) mod modulus` (GNU Radio's
/// `diff_decoder_bb`, differential mode).
///
/// # Stream Inputs
/// - `in`: `u8` symbols
///
/// # Stream Outputs
/// - `out`: `u8` symbols
///
/// # Parameters
/// - `modulus`: 2 to 256.
///
/// # Usage
/// ```
/// let dec = rfgraph_blocks::digital::diff_decoder(2)?;
/// # let _ = dec;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn diff_decoder(modulus: u32) -> Result<DecBlock, DspError> {
    Ok(MapWith::new(
        DiffDecoder::new(modulus)?,
        DiffDecoder::step as fn(&mut DiffDecoder, u8) -> u8,
    ))
}

pub(crate) fn diff_encoder_spec() -> BlockSpec {
    BlockSpec::new(
        "diff_encoder",
        "Digital",
        "Differential encoder: out = (in + last out) mod modulus.",
        |p| {
            let m = u32_in(p, "modulus", 2, 256)?;
            Ok(Box::new(diff_encoder(m).map_err(|e| p.refused(e))?) as Box<dyn rfgraph::Block>)
        },
    )
    .doc("GNU Radio's `digital_diff_encoder_bb` (differential coding; NRZI mode not implemented).")
    .param(
        ParamSpec::uint("modulus")
            .default(2u64)
            .doc("symbol alphabet size (2..256)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

pub(crate) fn diff_decoder_spec() -> BlockSpec {
    BlockSpec::new(
        "diff_decoder",
        "Digital",
        "Differential decoder: out = (in - last in) mod modulus.",
        |p| {
            let m = u32_in(p, "modulus", 2, 256)?;
            Ok(Box::new(diff_decoder(m).map_err(|e| p.refused(e))?) as Box<dyn rfgraph::Block>)
        },
    )
    .doc("GNU Radio's `digital_diff_decoder_bb` (differential coding; NRZI mode not implemented).")
    .param(
        ParamSpec::uint("modulus")
            .default(2u64)
            .doc("symbol alphabet size (2..256)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
