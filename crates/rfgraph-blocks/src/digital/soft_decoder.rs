//! `constellation_soft_decoder` (GNU Radio `digital_constellation_soft_decoder_cf`):
//! each sample's soft bits from its constellation's soft-decision LUT
//! (or GNU Radio's `calc_soft_dec` when it has none). Also owns the
//! choice of LUT a constellation carries ([`SoftDecLut`]) and how
//! [`ConstellationParams`] build their [`SoftDecider`].

use super::constellation_params::ConstellationParams;
use super::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use rfgraph_dsp::digital::{SoftDecider, SoftGenerator};

/// The soft-decision LUT of a constellation, as GNU Radio's
/// `variable_constellation` sets it (`soft_dec_lut`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum SoftDecLut {
    /// No LUT: soft decisions by `calc_soft_dec` at noise power 1.
    #[choice(alias = "None", alias = "\"none\"")]
    None,
    /// `gen_soft_dec_lut(precision)`.
    #[choice(alias = "'auto'", alias = "\"auto\"")]
    Auto,
    /// `soft_dec_table_generator(digital.sd_psk_2, ...)`.
    #[choice(name = "sd_psk_2", alias = "digital.sd_psk_2", alias = "sd_psk_2_0x0")]
    SdPsk2,
    /// `soft_dec_table_generator(digital.sd_psk_4, ...)`.
    #[choice(
        name = "sd_psk_4",
        alias = "digital.sd_psk_4",
        alias = "sd_psk_4_0x0_0_1"
    )]
    SdPsk4,
    /// `soft_dec_table_generator(digital.sd_qam_16, ...)`.
    #[choice(
        name = "sd_qam_16",
        alias = "digital.sd_qam_16",
        alias = "sd_qam_16_0x0_0_1_2_3"
    )]
    SdQam16,
}

impl ConstellationParams {
    /// The soft decider of the constellation, with its LUT.
    ///
    /// Errors: the constellation does not build, a table precision
    /// out of range.
    pub fn soft_decider(&self) -> Result<SoftDecider, ParamError> {
        let c = self.build()?;
        let mut d = SoftDecider::new(&c);
        let err = dsp_error("constellation", "soft_dec_lut", &[]);
        let generator = match self.soft_dec_lut {
            SoftDecLut::None => return Ok(d),
            SoftDecLut::Auto => {
                d.gen_lut(self.precision).map_err(err)?;
                return Ok(d);
            }
            SoftDecLut::SdPsk2 => SoftGenerator::Psk2,
            SoftDecLut::SdPsk4 => SoftGenerator::Psk4,
            SoftDecLut::SdQam16 => SoftGenerator::Qam16,
        };
        let table = generator
            .table(self.soft_dec_table_precision, self.soft_dec_es)
            .map_err(&err)?;
        d.set_lut(table, self.precision).map_err(err)?;
        Ok(d)
    }
}

/// The parameters of `constellation_soft_decoder`, GNU Radio's
/// `digital_constellation_soft_decoder_cf`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SoftDecoderParams {
    /// the constellation and its soft-decision LUT
    #[param(flatten)]
    pub constellation: ConstellationParams,
}

impl SoftDecoderParams {
    fn check(&self) -> Result<(), ParamError> {
        if self.constellation.build()?.bits_per_symbol() == 0 {
            return Err(ParamError::new(
                "constellation_soft_decoder",
                "constellation",
                "a constellation of one point carries no bits",
            ));
        }
        Ok(())
    }
}

/// Writes `bits_per_symbol` soft bits per sample, most significant
/// first: the entry of the constellation's soft-decision LUT for the
/// sample's cell, or without a LUT GNU Radio's `calc_soft_dec` (log
/// ratio of the summed `exp(−distance)` of the points with the bit set
/// to those with it clear). GNU Radio's
/// `constellation_soft_decoder_cf`.
///
/// # Parameters
/// [`SoftDecoderParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32` samples
///
/// # Stream Outputs
/// - `out`: `f32`, `bits_per_symbol` per sample
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{
///     ConstellationName, ConstellationParams, SoftDecLut, SoftDecoder, SoftDecoderParams,
/// };
/// let d = SoftDecoder::new(SoftDecoderParams {
///     constellation: ConstellationParams {
///         soft_dec_lut: SoftDecLut::Auto,
///         ..ConstellationParams::named(ConstellationName::Qpsk)
///     },
/// })?;
/// # let _ = d;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct SoftDecoder {
    input: StreamInput<Complex32>,
    output: StreamOutput<f32>,
    params: SoftDecoderParams,
    decider: SoftDecider,
}

impl SoftDecoder {
    /// A decoder with `params`.
    ///
    /// Errors: a constellation that does not build, or of one point.
    pub fn new(params: SoftDecoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        let decider = params.constellation.soft_decider()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out").with_min_items(decider.bits()),
            params,
            decider,
        })
    }
}

impl Block for SoftDecoder {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let k = self.decider.bits();
        let input = self.input.slice();
        let out = self.output.slice();
        let n = input.len().min(out.len() / k);
        for (x, o) in input[..n].iter().zip(out.chunks_exact_mut(k)) {
            self.decider.decide(*x, o);
        }
        self.input.consume(n);
        self.output.produce(n * k);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: self.decider.bits() as u64,
            decimation: 1,
        }
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SoftDecoderParams>(
        "constellation_soft_decoder",
        "Digital",
        "Soft bits of each sample from its constellation's soft-decision LUT.",
        |p| Ok(Box::new(SoftDecoder::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_constellation_soft_decoder_cf`: bits_per_symbol floats per \
         sample, most significant first, from the constellation's LUT (`soft_dec_lut`: \
         `auto` is gen_soft_dec_lut(precision); `sd_psk_2`/`sd_psk_4`/`sd_qam_16` are \
         soft_dec_table_generator's tables) or calc_soft_dec at noise power 1.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("soft bits"))
}
