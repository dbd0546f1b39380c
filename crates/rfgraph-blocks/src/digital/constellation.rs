//! `constellation_decoder` (GNU Radio `digital_constellation_decoder_cb`),
//! `constellation_modulator` (`digital_constellation_modulator`) and
//! `meas_evm` (`digital_meas_evm_cc`) for
//! GNU Radio's standard constellations, named by a `constellation`
//! parameter (`bpsk`, `qpsk`, `dqpsk`, `8psk`, `16qam`).

use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, FixedRateBlock, MapWith, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use rfgraph_dsp::digital::{BitRepack, Constellation, DiffEncoder, Endianness};
use rfgraph_dsp::filter::InterpolatingFirCcf;
use rfgraph_dsp::{DspError, Kernel};

type DecoderBlock =
    FixedRateBlock<MapWith<Constellation, Complex32, u8, fn(&mut Constellation, Complex32) -> u8>>;

/// Writes the index of the constellation point nearest each sample (GNU
/// Radio's `constellation_decoder_cb`).
///
/// # Stream Inputs
/// - `in`: `Complex32` symbols
///
/// # Stream Outputs
/// - `out`: `u8` point indices
///
/// # Parameters
/// - `constellation`: see [`Constellation::by_name`].
///
/// # Usage
/// ```
/// use rfgraph_dsp::digital::Constellation;
/// let dec = rfgraph_blocks::digital::constellation_decoder(Constellation::by_name("qpsk")?);
/// # let _ = dec;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn constellation_decoder(constellation: Constellation) -> DecoderBlock {
    MapWith::new(
        constellation,
        (|c: &mut Constellation, x: Complex32| c.decide(x))
            as fn(&mut Constellation, Complex32) -> u8,
    )
}

pub(crate) fn constellation_decoder_spec() -> BlockSpec {
    BlockSpec::new("constellation_decoder", "Digital", "Decides the nearest constellation point of each sample.", |p| {
        let c = Constellation::by_name(&p.string("constellation")?).map_err(|e| p.invalid("constellation", e.to_string()))?;
        Ok(Box::new(constellation_decoder(c)) as Box<dyn Block>)
    })
    .doc("GNU Radio's `digital_constellation_decoder_cb` for `digital.constellation_<name>()` objects: the output is the index of the nearest point, in GNU Radio's point order.")
    .param(constellation_param())
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)).doc("point indices"))
}

/// The measure [`meas_evm`] writes, and its reference.
pub struct Evm {
    constellation: Constellation,
    reference: f32,
    db: bool,
}

type EvmBlock = FixedRateBlock<MapWith<Evm, Complex32, f32, fn(&mut Evm, Complex32) -> f32>>;

fn evm(e: &mut Evm, x: Complex32) -> f32 {
    let ratio = e.constellation.error(x) / e.reference;
    if e.db {
        20.0 * ratio.log10()
    } else {
        100.0 * ratio
    }
}

/// Writes each sample's error vector magnitude: the distance to the
/// nearest constellation point over the points' RMS magnitude, in percent
/// or in dB (GNU Radio's `meas_evm_cc`).
///
/// # Stream Inputs
/// - `in`: `Complex32` symbols
///
/// # Stream Outputs
/// - `out`: `f32`, percent or dB
///
/// # Parameters
/// - `constellation`: see [`Constellation::by_name`].
/// - `db`: dB (`20·log10`) instead of percent.
///
/// # Usage
/// ```
/// use rfgraph_dsp::digital::Constellation;
/// let evm = rfgraph_blocks::digital::meas_evm(Constellation::by_name("qpsk")?, false);
/// # let _ = evm;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn meas_evm(constellation: Constellation, db: bool) -> EvmBlock {
    let reference = constellation.rms();
    MapWith::new(
        Evm {
            constellation,
            reference,
            db,
        },
        evm as fn(&mut Evm, Complex32) -> f32,
    )
}

pub(crate) fn meas_evm_spec() -> BlockSpec {
    BlockSpec::new(
        "meas_evm",
        "Digital",
        "Error vector magnitude of each symbol, in percent or dB.",
        |p| {
            let c = Constellation::by_name(&p.string("constellation")?)
                .map_err(|e| p.invalid("constellation", e.to_string()))?;
            let mode = p.string("mode")?.to_ascii_lowercase();
            let db = if mode.contains("db") {
                true
            } else if mode.contains("percent") {
                false
            } else {
                return Err(p.invalid("mode", format!("`{mode}` is neither `percent` nor `db`")));
            };
            Ok(Box::new(meas_evm(c, db)) as Box<dyn Block>)
        },
    )
    .doc("GNU Radio's `digital_meas_evm_cc`: distance to the nearest point divided by the points' RMS magnitude, ×100 (`percent`) or 20·log10 (`db`).")
    .param(constellation_param())
    .param(
        ParamSpec::string("mode")
            .default("percent")
            .doc("`percent` or `db` (GNU Radio's EVM_PERCENT / EVM_DB accepted)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("EVM per symbol"))
}

fn constellation_param() -> ParamSpec {
    ParamSpec::string("constellation")
        .default("qpsk")
        .doc("bpsk, qpsk, dqpsk, 8psk or 16qam (GNU Radio's point order)")
}

/// Modulates packed bytes onto a constellation with root-raised-cosine
/// pulses (GNU Radio's `constellation_modulator` / `generic_mod`): bytes
/// are split MSB first into symbols of `bits_per_symbol` bits, Gray-mapped
/// and differentially coded where GNU Radio does, mapped to points, and
/// shaped by an interpolating RRC filter of `11·sps` taps with a gain of
/// `sps` (GNU Radio shapes with a 32-arm polyphase arbitrary resampler;
/// the symbols and the pulse agree, the samples do not exactly).
///
/// # Stream Inputs
/// - `in`: `u8`, packed bytes
///
/// # Stream Outputs
/// - `out`: `Complex32`, `sps` per symbol
///
/// # Parameters
/// - `constellation`: see [`Constellation::by_name`].
/// - `differential`: differential coding over the symbols.
/// - `sps`: samples per symbol, integer ≥ 2.
/// - `excess_bw`: RRC roll-off in `(0, 1]`.
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::constellation_modulator;
/// use rfgraph_dsp::digital::Constellation;
/// let m = constellation_modulator(Constellation::by_name("qpsk")?, true, 4, 0.35)?;
/// # let _ = m;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn constellation_modulator(
    constellation: Constellation,
    differential: bool,
    sps: usize,
    excess_bw: f64,
) -> Result<ConstellationModulator, DspError> {
    if sps < 2 {
        return Err(DspError::OutOfRange {
            name: "sps",
            value: sps as f64,
            expected: "must be >= 2",
        });
    }
    let taps =
        rfgraph_dsp::firdes::root_raised_cosine(sps as f64, sps as f64, 1.0, excess_bw, 11 * sps)?;
    let bps = constellation.bits_per_symbol().max(1);
    let mut map: Vec<u8> = (0..constellation.arity() as u32).map(|i| i as u8).collect();
    if constellation.differential() {
        map = constellation.pre_diff_code().to_vec();
    }
    Ok(ConstellationModulator {
        input: StreamInput::new("in"),
        output: StreamOutput::new("out").with_min_items(sps * (8usize.div_ceil(bps as usize) + 1)),
        repack: BitRepack::new(8, bps, Endianness::MsbFirst)?,
        map,
        diff: if differential {
            Some(DiffEncoder::new(constellation.arity() as u32)?)
        } else {
            None
        },
        fir: InterpolatingFirCcf::new(&taps, sps)?,
        symbols: Vec::with_capacity(1024),
        indices: vec![0u8; 1024],
        bps: bps as usize,
        sps,
        constellation,
    })
}

/// The block [`constellation_modulator`] builds.
pub struct ConstellationModulator {
    input: StreamInput<u8>,
    output: StreamOutput<Complex32>,
    repack: BitRepack<u8, u8>,
    map: Vec<u8>,
    diff: Option<DiffEncoder>,
    fir: InterpolatingFirCcf,
    symbols: Vec<Complex32>,
    indices: Vec<u8>,
    bps: usize,
    sps: usize,
    constellation: Constellation,
}

impl Block for ConstellationModulator {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let input = self.input.slice();
        let out = self.output.slice();
        // Bytes whose symbols surely fit: at most (bps − 1 + 8n)/bps
        // symbols of sps samples each, and at most 1024 symbols a pass.
        let room_symbols = out.len() / self.sps;
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
            interpolation: (8 * self.sps) as u64,
            decimation: self.bps as u64,
        }
    }
}

pub(crate) fn constellation_modulator_spec() -> BlockSpec {
    BlockSpec::new("constellation_modulator", "Digital", "Modulates packed bytes onto a constellation with RRC pulses.", |p| {
        let c = Constellation::by_name(&p.string("constellation")?).map_err(|e| p.invalid("constellation", e.to_string()))?;
        let sps = p.usize("sps")?;
        let m = constellation_modulator(c, p.bool("differential")?, sps, p.f64("excess_bw")?).map_err(|e| p.refused(e))?;
        Ok(Box::new(m) as Box<dyn Block>)
    })
    .doc("GNU Radio's `digital_constellation_modulator` (generic_mod) for integer samples per symbol: bytes → MSB-first symbols → pre-diff Gray code and differential coding (when `differential`) → points → interpolating RRC filter (11·sps taps, gain sps). GNU Radio shapes with a 32-arm polyphase arbitrary resampler, so samples differ slightly; the symbols are the same.")
    .param(constellation_param())
    .param(ParamSpec::bool("differential").default(true).doc("differential coding over the symbols"))
    .param(ParamSpec::uint("sps").default(2u64).doc("samples per symbol (integer >= 2)"))
    .param(ParamSpec::float("excess_bw").default(0.35).doc("RRC roll-off, (0, 1]"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)).doc("packed bytes"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
