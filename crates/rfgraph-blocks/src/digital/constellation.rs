//! `constellation_decoder` (GNU Radio `digital_constellation_decoder_cb`),
//! `constellation_modulator` (`digital_constellation_modulator`) and
//! `meas_evm` (`digital_meas_evm_cc`) for GNU Radio's standard
//! constellations, named by a `constellation` parameter (`bpsk`, `qpsk`,
//! `dqpsk`, `8psk`, `16qam`), or custom points
//! ([`ConstellationParams`]).

use super::constellation_params::ConstellationParams;
use super::params::{ItemStep, ParamMap, dsp_error};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, FixedRateBlock, ParamError, ParamSet, Ports, StreamInput, StreamOutput,
    TagPolicy, WorkIo,
};
use rfgraph_dsp::Kernel;
use rfgraph_dsp::digital::{BitRepack, Constellation, DiffEncoder, Endianness};
use rfgraph_dsp::filter::InterpolatingFirCcf;

/// The parameters of `constellation_decoder`, GNU Radio's
/// `digital_constellation_decoder_cb`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct ConstellationDecoderParams {
    /// the constellation, in GNU Radio's point order
    #[param(flatten)]
    pub constellation: ConstellationParams,
}

/// The decision of [`constellation_decoder`]: the index of the nearest
/// point.
pub struct Decide(Constellation);

impl ItemStep for Decide {
    type In = Complex32;
    type Out = u8;
    #[inline]
    fn step(&mut self, x: Complex32) -> u8 {
        self.0.decide(x)
    }
}

/// The block [`constellation_decoder`] builds.
pub type DecoderBlock = FixedRateBlock<ParamMap<ConstellationDecoderParams, Decide>>;

/// Writes the index of the constellation point nearest each sample (GNU
/// Radio's `constellation_decoder_cb`).
///
/// # Parameters
/// [`ConstellationDecoderParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32` symbols
///
/// # Stream Outputs
/// - `out`: `u8` point indices
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{
///     ConstellationDecoderParams, ConstellationName, ConstellationParams, constellation_decoder,
/// };
/// use num_complex::Complex32;
/// let qpsk = constellation_decoder(ConstellationDecoderParams {
///     constellation: ConstellationParams::named(ConstellationName::Qpsk),
/// })?;
/// let custom = constellation_decoder(ConstellationDecoderParams {
///     constellation: ConstellationParams::custom(vec![
///         Complex32::new(-1.0, 0.0),
///         Complex32::new(0.0, 1.0),
///         Complex32::new(1.0, 0.0),
///     ]),
/// })?;
/// # let _ = (qpsk, custom);
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn constellation_decoder(
    params: ConstellationDecoderParams,
) -> Result<DecoderBlock, ParamError> {
    params.validate()?;
    let c = params.constellation.build()?;
    ParamMap::block(params, Decide(c))
}

pub(crate) fn constellation_decoder_spec() -> BlockSpec {
    BlockSpec::of::<ConstellationDecoderParams>(
        "constellation_decoder",
        "Digital",
        "Decides the nearest constellation point of each sample.",
        |p| Ok(Box::new(constellation_decoder(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_constellation_decoder_cb` for `digital.constellation_<name>()` \
         objects or custom points (`constellation_calcdist`: the index of the nearest point; \
         `constellation_rect`: the point nearest the centre of the sample's sector), in GNU \
         Radio's point order.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)).doc("point indices"))
}

/// What [`meas_evm`] writes: percent or dB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum EvmMode {
    /// `100 · error / reference` (GNU Radio's `EVM_PERCENT`).
    #[choice(
        alias = "evm_percent",
        alias = "digital.evm_measurement_t.evm_percent",
        alias = "digital.evm_measurement_t_evm_percent"
    )]
    Percent,
    /// `20 · log10(error / reference)` (GNU Radio's `EVM_DB`).
    #[choice(
        alias = "evm_db",
        alias = "digital.evm_measurement_t.evm_db",
        alias = "digital.evm_measurement_t_evm_db"
    )]
    Db,
}

/// The parameters of `meas_evm`, GNU Radio's `digital_meas_evm_cc`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MeasEvmParams {
    /// the reference constellation
    #[param(flatten)]
    pub constellation: ConstellationParams,
    /// the measure written: `percent` or `db`
    #[param(default = EvmMode::Percent, alias = "meas_type")]
    pub mode: EvmMode,
}

/// The measure [`meas_evm`] writes, and its reference.
pub struct Evm {
    constellation: Constellation,
    reference: f32,
    db: bool,
}

impl ItemStep for Evm {
    type In = Complex32;
    type Out = f32;
    #[inline]
    fn step(&mut self, x: Complex32) -> f32 {
        let ratio = self.constellation.error(x) / self.reference;
        if self.db {
            20.0 * ratio.log10()
        } else {
            100.0 * ratio
        }
    }
}

/// The block [`meas_evm`] builds.
pub type EvmBlock = FixedRateBlock<ParamMap<MeasEvmParams, Evm>>;

/// Writes each sample's error vector magnitude: the distance to the
/// nearest constellation point over the points' RMS magnitude, in percent
/// or in dB (GNU Radio's `meas_evm_cc`).
///
/// # Parameters
/// [`MeasEvmParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32` symbols
///
/// # Stream Outputs
/// - `out`: `f32`, percent or dB
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{MeasEvmParams, meas_evm};
/// let evm = meas_evm(MeasEvmParams::default())?;
/// # let _ = evm;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn meas_evm(params: MeasEvmParams) -> Result<EvmBlock, ParamError> {
    params.validate()?;
    let constellation = params.constellation.build()?;
    let evm = Evm {
        reference: constellation.rms(),
        constellation,
        db: params.mode == EvmMode::Db,
    };
    ParamMap::block(params, evm)
}

pub(crate) fn meas_evm_spec() -> BlockSpec {
    BlockSpec::of::<MeasEvmParams>(
        "meas_evm",
        "Digital",
        "Error vector magnitude of each symbol, in percent or dB.",
        |p| Ok(Box::new(meas_evm(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_meas_evm_cc`: distance to the nearest point divided by the \
         points' RMS magnitude, ×100 (`percent`) or 20·log10 (`db`).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("EVM per symbol"))
}

/// The parameters of `constellation_modulator`, GNU Radio's
/// `digital_constellation_modulator` for integer samples per symbol.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ConstellationModulatorParams {
    /// the constellation, in GNU Radio's point order
    #[param(flatten)]
    pub constellation: ConstellationParams,
    /// differential coding over the symbols
    #[param(default = true)]
    pub differential: bool,
    /// samples per symbol; the pulse is `11·sps` taps long
    #[param(
        default = 2,
        min = 2,
        max = limits::MAX_FACTOR,
        alias = "samples_per_symbol"
    )]
    pub sps: usize,
    /// roll-off of the root-raised-cosine pulse
    #[param(default = 0.35, above = 0.0, max = 1.0)]
    pub excess_bw: f64,
}

impl ConstellationModulatorParams {
    /// The pulse: an RRC of `11·sps` taps with a gain of `sps`.
    fn taps(&self) -> Result<Vec<f32>, ParamError> {
        let sps = self.sps as f64;
        rfgraph_dsp::firdes::root_raised_cosine(sps, sps, 1.0, self.excess_bw, 11 * self.sps)
            .map_err(dsp_error("constellation_modulator", "excess_bw", &[]))
    }

    /// The pulse designs.
    fn check(&self) -> Result<(), ParamError> {
        self.taps().map(drop)
    }
}

/// Modulates packed bytes onto a constellation with root-raised-cosine
/// pulses (GNU Radio's `constellation_modulator` / `generic_mod`): bytes
/// are split MSB first into symbols of `bits_per_symbol` bits, Gray-mapped
/// and differentially coded where GNU Radio does, mapped to points, and
/// shaped by an interpolating RRC filter of `11·sps` taps with a gain of
/// `sps` (GNU Radio shapes with a 32-arm polyphase arbitrary resampler;
/// the symbols and the pulse agree, the samples do not exactly).
///
/// # Parameters
/// [`ConstellationModulatorParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, packed bytes
///
/// # Stream Outputs
/// - `out`: `Complex32`, `sps` per symbol
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{ConstellationModulator, ConstellationModulatorParams};
/// let m = ConstellationModulator::new(ConstellationModulatorParams {
///     sps: 4,
///     ..Default::default()
/// })?;
/// # let _ = m;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct ConstellationModulator {
    input: StreamInput<u8>,
    output: StreamOutput<Complex32>,
    params: ConstellationModulatorParams,
    repack: BitRepack<u8, u8>,
    map: Vec<u8>,
    diff: Option<DiffEncoder>,
    fir: InterpolatingFirCcf,
    symbols: Vec<Complex32>,
    indices: Vec<u8>,
    bps: usize,
    constellation: Constellation,
}

impl ConstellationModulator {
    /// A modulator with `params`.
    ///
    /// Errors: a parameter out of its range, a pulse that cannot be
    /// designed.
    pub fn new(params: ConstellationModulatorParams) -> Result<Self, ParamError> {
        params.validate()?;
        let constellation = params.constellation.build()?;
        let sps = params.sps;
        let taps = params.taps()?;
        let refused = dsp_error("constellation_modulator", "constellation", &[]);
        let bps = constellation.bits_per_symbol().max(1);
        let mut map: Vec<u8> = (0..constellation.arity() as u32).map(|i| i as u8).collect();
        if constellation.differential() {
            map = constellation.pre_diff_code().to_vec();
        }
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out")
                .with_min_items(sps * (8usize.div_ceil(bps as usize) + 1)),
            repack: BitRepack::new(8, bps, Endianness::MsbFirst).map_err(&refused)?,
            map,
            diff: if params.differential {
                Some(DiffEncoder::new(constellation.arity() as u32).map_err(&refused)?)
            } else {
                None
            },
            fir: InterpolatingFirCcf::new(&taps, sps).map_err(dsp_error(
                "constellation_modulator",
                "sps",
                &[],
            ))?,
            symbols: Vec::with_capacity(1024),
            indices: vec![0u8; 1024],
            bps: bps as usize,
            constellation,
            params,
        })
    }
}

impl Block for ConstellationModulator {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let sps = self.params.sps;
        let input = self.input.slice();
        let out = self.output.slice();
        // Bytes whose symbols surely fit: at most (bps − 1 + 8n)/bps
        // symbols of sps samples each, and at most 1024 symbols a pass.
        let room_symbols = out.len() / sps;
        let by_room = (room_symbols * self.bps).saturating_sub(self.bps - 1) / 8;
        let n = input
            .len()
            .min(by_room)
            .min(self.indices.len() * self.bps / 8);
        if n == 0 {
            return Ok(());
        }
        let (used, k) = self.repack.process(&input[..n], &mut self.indices);
        debug_assert_eq!(used, n);
        self.symbols.clear();
        for &i in &self.indices[..k] {
            let mut s = self.map.get(i as usize).copied().unwrap_or(i);
            if let Some(d) = &mut self.diff {
                s = d.step(s);
            }
            self.symbols.push(
                self.constellation
                    .points()
                    .get(s as usize)
                    .copied()
                    .unwrap_or_default(),
            );
        }
        let (_, produced) = self.fir.process(&self.symbols, out);
        self.input.consume(n);
        self.output.produce(produced);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: (8 * self.params.sps) as u64,
            decimation: self.bps as u64,
        }
    }
}

pub(crate) fn constellation_modulator_spec() -> BlockSpec {
    BlockSpec::of::<ConstellationModulatorParams>(
        "constellation_modulator",
        "Digital",
        "Modulates packed bytes onto a constellation with RRC pulses.",
        |p| Ok(Box::new(ConstellationModulator::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_constellation_modulator` (generic_mod) for integer samples \
         per symbol: bytes → MSB-first symbols → pre-diff Gray code and differential coding \
         (when `differential`) → points → interpolating RRC filter (11·sps taps, gain sps). \
         GNU Radio shapes with a 32-arm polyphase arbitrary resampler, so samples differ \
         slightly; the symbols are the same.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)).doc("packed bytes"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
