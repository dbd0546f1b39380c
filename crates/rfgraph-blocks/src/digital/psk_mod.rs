//! `psk_mod`: GNU Radio's `digital.psk.psk_mod` (GRC `digital_psk_mod`),
//! the hierarchical `generic_mod` over an M-PSK constellation, run as one
//! block owning its stages: bytes → MSB-first symbols → Gray map (before
//! differential coding) → differential coding → points (Gray-ordered when
//! not differential) → GNU Radio's 32-arm polyphase RRC resampler.

use super::gr_arb_resampler::GrArbResampler;
use super::params::dsp_error;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use rfgraph_dsp::Kernel;
use rfgraph_dsp::digital::{BitRepack, DiffEncoder, Endianness};

/// The symbol coding of [`PskMod`] (GNU Radio's `mod_codes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum PskCode {
    /// Gray coding (`mod_codes.GRAY_CODE`).
    #[choice(
        alias = "\"gray\"",
        alias = "'gray'",
        alias = "digital.mod_codes.GRAY_CODE"
    )]
    Gray,
    /// No coding (`mod_codes.NO_CODE`).
    #[choice(
        alias = "\"none\"",
        alias = "'none'",
        alias = "digital.mod_codes.NO_CODE"
    )]
    None,
}

/// The parameters of `psk_mod`, GNU Radio's `digital.psk.psk_mod`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PskModParams {
    /// number of constellation points: a power of two
    #[param(default = 8, min = 2, max = 256)]
    pub constellation_points: usize,
    /// symbol coding: `gray` or `none`
    #[param(default = PskCode::Gray)]
    pub mod_code: PskCode,
    /// differential coding over the symbols
    #[param(default = true)]
    pub differential: bool,
    /// samples per symbol; the pulse has `32·11·⌊sps⌋` taps
    #[param(default = 2.0, min = 2.0, max = limits::MAX_FACTOR as f64, alias = "sps")]
    pub samples_per_symbol: f64,
    /// roll-off of the root-raised-cosine pulse
    #[param(default = 0.35, above = 0.0, max = 1.0)]
    pub excess_bw: f64,
    /// GNU Radio prints its settings; ignored
    #[param(default = false)]
    pub verbose: bool,
    /// GNU Radio logs its stages to files; ignored
    #[param(default = false)]
    pub log: bool,
}

/// The arms of GNU Radio's resampler.
const NFILTS: usize = 32;

impl PskModParams {
    /// generic_mod's pulse: an RRC at 32× the symbol rate, gain 32,
    /// `32·11·⌊sps⌋` taps.
    fn taps(&self) -> Result<Vec<f32>, ParamError> {
        let n = NFILTS as f64;
        rfgraph_dsp::firdes::root_raised_cosine(
            n,
            n,
            1.0,
            self.excess_bw,
            NFILTS * 11 * self.samples_per_symbol as usize,
        )
        .map_err(dsp_error("psk_mod", "excess_bw", &[]))
    }

    fn check(&self) -> Result<(), ParamError> {
        if !self.constellation_points.is_power_of_two() {
            return Err(ParamError::new(
                "psk_mod",
                "constellation_points",
                "must be a power of two",
            ));
        }
        self.taps().map(drop)
    }

    /// `(pre-differential map, points)` as `psk_constellation` makes them.
    fn coding(&self) -> (Option<Vec<u8>>, Vec<Complex32>) {
        let m = self.constellation_points;
        let gray = |i: usize| i ^ (i >> 1);
        let point = |i: usize| {
            let a = 2.0 * std::f64::consts::PI * i as f64 / m as f64;
            Complex32::new(a.cos() as f32, a.sin() as f32)
        };
        let plain: Vec<Complex32> = (0..m).map(point).collect();
        match (self.mod_code, self.differential) {
            (PskCode::Gray, true) => (Some((0..m).map(|i| gray(i) as u8).collect()), plain),
            (PskCode::Gray, false) => {
                // points[x] = plain[inverse_gray[x]]: gray(i) lands on plain[i].
                let mut points = plain.clone();
                for (i, p) in plain.iter().enumerate() {
                    points[gray(i)] = *p;
                }
                (None, points)
            }
            (PskCode::None, _) => (None, plain),
        }
    }
}

/// Modulates packed bytes onto M-PSK exactly as GNU Radio's `psk_mod`
/// (`generic_mod`): bytes are split MSB first into `log2(M)`-bit symbols,
/// Gray-mapped before differential coding (or Gray-ordered points without
/// it), mapped to `e^{2πj·k/M}` and shaped by GNU Radio's 32-arm polyphase
/// arbitrary resampler at `samples_per_symbol` with an RRC of
/// `32·11·⌊sps⌋` taps.
///
/// # Parameters
/// [`PskModParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, packed bytes
///
/// # Stream Outputs
/// - `out`: `Complex32`, `samples_per_symbol` per symbol
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{PskMod, PskModParams};
/// let m = PskMod::new(PskModParams {
///     constellation_points: 4,
///     ..Default::default()
/// })?;
/// # let _ = m;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PskMod {
    input: StreamInput<u8>,
    output: StreamOutput<Complex32>,
    params: PskModParams,
    repack: BitRepack<u8, u8>,
    map: Option<Vec<u8>>,
    diff: Option<DiffEncoder>,
    points: Vec<Complex32>,
    resampler: GrArbResampler,
    bps: usize,
    per_byte: usize,
    indices: Vec<u8>,
    symbols: Vec<Complex32>,
    samples: Vec<Complex32>,
}

impl PskMod {
    /// A modulator with `params`.
    ///
    /// Errors: a parameter out of its range, a pulse that cannot be
    /// designed.
    pub fn new(params: PskModParams) -> Result<Self, ParamError> {
        params.validate()?;
        let taps = params.taps()?;
        let (map, points) = params.coding();
        let m = params.constellation_points;
        let bps = m.trailing_zeros() as usize;
        let refused = dsp_error("psk_mod", "constellation_points", &[]);
        let resampler = GrArbResampler::new(params.samples_per_symbol as f32, &taps, NFILTS);
        // Samples one byte can give, at most.
        let per_byte = 8usize.div_ceil(bps).saturating_add(1) * resampler.max_per_input();
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out").with_min_items(per_byte),
            repack: BitRepack::new(8, bps as u32, Endianness::MsbFirst).map_err(&refused)?,
            map,
            diff: if params.differential {
                Some(DiffEncoder::new(m as u32).map_err(&refused)?)
            } else {
                None
            },
            points,
            resampler,
            bps,
            per_byte,
            indices: Vec::new(),
            symbols: Vec::new(),
            samples: Vec::new(),
            params,
        })
    }
}

impl Block for PskMod {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let input = self.input.slice();
        let out = self.output.slice();
        let n = input.len().min(out.len() / self.per_byte).min(4096);
        if n == 0 {
            return Ok(());
        }
        self.indices.resize((8 * n).div_ceil(self.bps) + 1, 0);
        let (used, k) = self.repack.process(&input[..n], &mut self.indices);
        debug_assert_eq!(used, n);
        self.symbols.clear();
        for &i in &self.indices[..k] {
            let mut s = match &self.map {
                Some(map) => map.get(i as usize).copied().unwrap_or(i),
                None => i,
            };
            if let Some(d) = &mut self.diff {
                s = d.step(s);
            }
            self.symbols
                .push(self.points.get(s as usize).copied().unwrap_or_default());
        }
        self.samples.clear();
        self.resampler.process(&self.symbols, &mut self.samples);
        let produced = self.samples.len();
        out[..produced].copy_from_slice(&self.samples);
        self.input.consume(n);
        self.output.produce(produced);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: (8.0 * self.params.samples_per_symbol).round() as u64,
            decimation: self.bps as u64,
        }
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PskModParams>(
        "psk_mod",
        "Digital",
        "Modulates packed bytes onto M-PSK with RRC pulses, as GNU Radio's psk_mod.",
        |p| Ok(Box::new(PskMod::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital.psk.psk_mod` (generic_mod): bytes → MSB-first symbols → Gray \
         map and differential coding → M-PSK points → GNU Radio's 32-arm polyphase RRC \
         resampler, sample for sample. `verbose` and `log` are accepted and ignored.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)).doc("packed bytes"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
