//! `diff_encoder` / `diff_decoder`: differential coding modulo M (GNU
//! Radio `digital_diff_encoder_bb`, `digital_diff_decoder_bb`).

use super::params::{ItemStep, ParamMap, dsp_error};
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, ParamError, ParamSet};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::{DiffDecoder, DiffEncoder};

/// The coding of [`diff_encoder`] and [`diff_decoder`]. GNU Radio's
/// `digital.DIFF_DIFFERENTIAL` and `digital.DIFF_NRZI` parse too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum DiffCoding {
    /// Sums (encoder) or differences (decoder) modulo `modulus`.
    #[choice(alias = "diff_differential", alias = "digital.diff_differential")]
    Differential,
    /// NRZI over bits: a 0 toggles the line, a 1 keeps it.
    #[choice(alias = "diff_nrzi", alias = "digital.diff_nrzi")]
    Nrzi,
}

/// The parameters of `diff_encoder` and `diff_decoder` (GNU Radio's
/// `digital_diff_encoder_bb`, `digital_diff_decoder_bb`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct DiffCoderParams {
    /// `differential` (modulo `modulus`) or `nrzi` (bits: 0 toggles, 1
    /// keeps)
    #[param(default = DiffCoding::Differential)]
    pub coding: DiffCoding,
    /// symbol alphabet size (differential coding only)
    #[param(default = 2, min = 2, max = 256)]
    pub modulus: u32,
}

impl ItemStep for DiffEncoder {
    type In = u8;
    type Out = u8;
    const IN_PLACE: bool = true;
    #[inline]
    fn step(&mut self, x: u8) -> u8 {
        DiffEncoder::step(self, x)
    }
    fn step_in_place(&mut self, data: &mut [u8]) {
        for x in data {
            *x = DiffEncoder::step(self, *x);
        }
    }
}

impl ItemStep for DiffDecoder {
    type In = u8;
    type Out = u8;
    const IN_PLACE: bool = true;
    #[inline]
    fn step(&mut self, x: u8) -> u8 {
        DiffDecoder::step(self, x)
    }
    fn step_in_place(&mut self, data: &mut [u8]) {
        for x in data {
            *x = DiffDecoder::step(self, *x);
        }
    }
}

/// The block [`diff_encoder`] builds.
pub type DiffEncoderBlock = FixedRateBlock<ParamMap<DiffCoderParams, DiffEncoder>>;
/// The block [`diff_decoder`] builds.
pub type DiffDecoderBlock = FixedRateBlock<ParamMap<DiffCoderParams, DiffDecoder>>;

/// `out = (in + previous out) mod modulus`, or NRZI (GNU Radio's
/// `diff_encoder_bb`).
///
/// # Parameters
/// [`DiffCoderParams`].
///
/// # Stream Inputs
/// - `in`: `u8` symbols
///
/// # Stream Outputs
/// - `out`: `u8` symbols
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{DiffCoderParams, diff_encoder};
/// let enc = diff_encoder(DiffCoderParams { modulus: 4, ..Default::default() })?;
/// # let _ = enc;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn diff_encoder(params: DiffCoderParams) -> Result<DiffEncoderBlock, ParamError> {
    params.validate()?;
    let coder = match params.coding {
        DiffCoding::Nrzi => DiffEncoder::nrzi(),
        DiffCoding::Differential => {
            DiffEncoder::new(params.modulus).map_err(refused("diff_encoder"))?
        }
    };
    ParamMap::block(params, coder)
}

/// `out = (in − previous in) mod modulus`, or NRZI (GNU Radio's
/// `diff_decoder_bb`).
///
/// # Parameters
/// [`DiffCoderParams`].
///
/// # Stream Inputs
/// - `in`: `u8` symbols
///
/// # Stream Outputs
/// - `out`: `u8` symbols
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{DiffCoderParams, diff_decoder};
/// let dec = diff_decoder(DiffCoderParams::default())?;
/// # let _ = dec;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn diff_decoder(params: DiffCoderParams) -> Result<DiffDecoderBlock, ParamError> {
    params.validate()?;
    let coder = match params.coding {
        DiffCoding::Nrzi => DiffDecoder::nrzi(),
        DiffCoding::Differential => {
            DiffDecoder::new(params.modulus).map_err(refused("diff_decoder"))?
        }
    };
    ParamMap::block(params, coder)
}

fn refused(block: &'static str) -> impl Fn(DspError) -> ParamError {
    dsp_error(block, "modulus", &[])
}

/// The registry entry of a differential coder.
fn coder_spec(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    build: fn(DiffCoderParams) -> Result<Box<dyn rfgraph::Block>, ParamError>,
) -> BlockSpec {
    BlockSpec::of::<DiffCoderParams>(name, "Digital", summary, move |p| Ok(build(p)?))
        .doc(doc)
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

pub(crate) fn diff_encoder_spec() -> BlockSpec {
    coder_spec(
        "diff_encoder",
        "Differential encoder: out = (in + last out) mod modulus.",
        "GNU Radio's `digital_diff_encoder_bb`: differential coding modulo `modulus`, or NRZI \
         over bits (`coding`).",
        |p| Ok(Box::new(diff_encoder(p)?)),
    )
}

pub(crate) fn diff_decoder_spec() -> BlockSpec {
    coder_spec(
        "diff_decoder",
        "Differential decoder: out = (in - last in) mod modulus.",
        "GNU Radio's `digital_diff_decoder_bb`: differential coding modulo `modulus`, or NRZI \
         over bits (`coding`).",
        |p| Ok(Box::new(diff_decoder(p)?)),
    )
}
