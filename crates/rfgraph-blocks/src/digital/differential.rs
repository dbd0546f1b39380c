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
    Ok(encoder_block(DiffEncoder::new(modulus)?))
}

fn encoder_block(k: DiffEncoder) -> EncBlock {
    MapWith::new(k, DiffEncoder::step as fn(&mut DiffEncoder, u8) -> u8)
}

fn decoder_block(k: DiffDecoder) -> DecBlock {
    MapWith::new(k, DiffDecoder::step as fn(&mut DiffDecoder, u8) -> u8)
}

/// `coding`: `differential` (or GNU Radio's `digital.DIFF_DIFFERENTIAL`)
/// or `nrzi` (`digital.DIFF_NRZI`); true for NRZI.
fn nrzi(p: &rfgraph::registry::Params) -> Result<bool, rfgraph::registry::BuildError> {
    let c = p.string("coding")?.to_ascii_lowercase();
    if c.contains("nrzi") {
        Ok(true)
    } else if c.contains("differential") {
        Ok(false)
    } else {
        Err(p.invalid(
            "coding",
            format!("`{c}` is neither `differential` nor `nrzi`"),
        ))
    }
}

fn coding_param() -> ParamSpec {
    ParamSpec::string("coding")
        .default("differential")
        .doc("`differential` (mod modulus) or `nrzi` (bits: 0 toggles, 1 keeps)")
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
    Ok(decoder_block(DiffDecoder::new(modulus)?))
}

/// The registry entry of a differential coder: `nrzi_block` for NRZI
/// `coding`, else `modulo_block` of the `modulus` parameter.
fn coder_spec<B: rfgraph::Block>(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    nrzi_block: fn() -> B,
    modulo_block: fn(u32) -> Result<B, DspError>,
) -> BlockSpec {
    BlockSpec::new(name, "Digital", summary, move |p| {
        let block = if nrzi(p)? {
            nrzi_block()
        } else {
            modulo_block(u32_in(p, "modulus", 2, 256)?).map_err(|e| p.refused(e))?
        };
        Ok(Box::new(block) as Box<dyn rfgraph::Block>)
    })
    .doc(doc)
    .param(coding_param())
    .param(
        ParamSpec::uint("modulus")
            .default(2u64)
            .doc("symbol alphabet size (2..256)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

pub(crate) fn diff_encoder_spec() -> BlockSpec {
    coder_spec(
        "diff_encoder",
        "Differential encoder: out = (in + last out) mod modulus.",
        "GNU Radio's `digital_diff_encoder_bb`: differential coding modulo `modulus`, or NRZI over bits (`coding`).",
        || encoder_block(DiffEncoder::nrzi()),
        diff_encoder,
    )
}

pub(crate) fn diff_decoder_spec() -> BlockSpec {
    coder_spec(
        "diff_decoder",
        "Differential decoder: out = (in - last in) mod modulus.",
        "GNU Radio's `digital_diff_decoder_bb`: differential coding modulo `modulus`, or NRZI over bits (`coding`).",
        || decoder_block(DiffDecoder::nrzi()),
        diff_decoder,
    )
}
