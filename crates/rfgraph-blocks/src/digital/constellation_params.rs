//! [`ConstellationParams`]: the constellation parameters shared by the
//! constellation blocks (`constellation_decoder`,
//! `constellation_modulator`, `meas_evm`): one of GNU Radio's standard
//! constellations by name, or custom points as GNU Radio's
//! `digital.constellation_calcdist(...)` / `constellation_rect(...)`
//! make them. An expression object `digital.constellation_*(...)` sets
//! them all at once.

use num_complex::Complex32;
use rfgraph::ParamError;
use rfgraph::params::ParamChoice;
use rfgraph_dsp::digital::{Constellation, Normalization};

/// One of GNU Radio's standard constellations, by the name of its
/// `digital.constellation_<name>()` (which parses too), or `custom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum ConstellationName {
    /// `digital.constellation_bpsk()`: −1, 1.
    #[choice(
        alias = "constellation_bpsk",
        alias = "constellation_bpsk()",
        alias = "digital.constellation_bpsk()"
    )]
    Bpsk,
    /// `digital.constellation_qpsk()`: Gray-coded QPSK.
    #[choice(
        alias = "constellation_qpsk",
        alias = "constellation_qpsk()",
        alias = "digital.constellation_qpsk()"
    )]
    Qpsk,
    /// `digital.constellation_dqpsk()`: QPSK for differential coding.
    #[choice(
        alias = "constellation_dqpsk",
        alias = "constellation_dqpsk()",
        alias = "digital.constellation_dqpsk()"
    )]
    Dqpsk,
    /// `digital.constellation_8psk()`.
    #[choice(
        name = "8psk",
        alias = "constellation_8psk",
        alias = "constellation_8psk()",
        alias = "digital.constellation_8psk()"
    )]
    Psk8,
    /// `digital.constellation_16qam()`.
    #[choice(
        name = "16qam",
        alias = "constellation_16qam",
        alias = "constellation_16qam()",
        alias = "digital.constellation_16qam()"
    )]
    Qam16,
    /// The `points` and `symbol_map` given (GNU Radio's
    /// `constellation_calcdist`, or `constellation_rect` with sectors).
    #[choice(alias = "calcdist", alias = "rect")]
    Custom,
}

/// How custom points are scaled (GNU Radio's
/// `digital.constellation.*_NORMALIZATION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum ConstellationNormalization {
    /// Points as given.
    #[choice(
        alias = "no_normalization",
        alias = "digital.constellation.NO_NORMALIZATION"
    )]
    None,
    /// Mean magnitude 1 (GNU Radio's default).
    #[choice(
        alias = "amplitude_normalization",
        alias = "digital.constellation.AMPLITUDE_NORMALIZATION"
    )]
    Amplitude,
    /// Mean power 1.
    #[choice(
        alias = "power_normalization",
        alias = "digital.constellation.POWER_NORMALIZATION"
    )]
    Power,
}

/// The constellation of a constellation block: a standard one by name,
/// or (`constellation = custom`) the points, symbol map and
/// normalization of GNU Radio's `constellation_calcdist` (and the sectors
/// of `constellation_rect` when `real_sectors` is not 0).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ConstellationParams {
    /// the constellation: a standard one, or `custom` (the points below)
    #[param(default = ConstellationName::Qpsk)]
    pub constellation: ConstellationName,
    /// custom points, in symbol order (`constellation = custom`)
    #[param(default = Vec::new(), max_len = 256, alias = "const_points")]
    pub points: Vec<Complex32>,
    /// custom pre-differential symbol map, one entry per point (empty:
    /// none); the modulator maps each chunk of bits through it, as GNU
    /// Radio's `generic_mod` does with a constellation's pre-diff code
    #[param(default = Vec::new(), max_len = 256, alias = "sym_map")]
    pub symbol_map: Vec<u8>,
    /// rotations of the custom points that look the same (GNU Radio
    /// keeps it for receivers; the blocks here do not use it)
    #[param(default = 4, min = 1, max = 256, alias = "rot_sym")]
    pub rotational_symmetry: u32,
    /// dimensions per symbol of the custom points (only 1 is supported)
    #[param(default = 1, min = 1, max = 1, alias = "dims")]
    pub dimensionality: u32,
    /// scaling of the custom points
    #[param(default = ConstellationNormalization::Amplitude)]
    pub normalization: ConstellationNormalization,
    /// sectors along the real axis of a rectangular custom constellation
    /// (GNU Radio's `constellation_rect`; 0: nearest-point decisions)
    #[param(default = 0, max = 65536, alias = "real_sect")]
    pub real_sectors: u32,
    /// sectors along the imaginary axis (with `real_sectors`)
    #[param(default = 0, max = 65536, alias = "imag_sect")]
    pub imag_sectors: u32,
    /// width of a real sector, before normalization
    #[param(default = 1.0, alias = "w_real_sect")]
    pub real_sector_width: f64,
    /// width of an imaginary sector, before normalization
    #[param(default = 1.0, alias = "w_imag_sect")]
    pub imag_sector_width: f64,
    /// the soft-decision LUT (GNU Radio's `soft_dec_lut`): none, `auto`
    /// (`gen_soft_dec_lut`) or one of GNU Radio's table generators
    #[param(default = super::soft_decoder::SoftDecLut::None)]
    pub soft_dec_lut: super::soft_decoder::SoftDecLut,
    /// bits of LUT precision per axis (GNU Radio's `precision`)
    #[param(default = 8, max = 12)]
    pub precision: u32,
    /// precision of a generated table (`soft_dec_table_generator`'s
    /// `prec`)
    #[param(default = 8, max = 12)]
    pub soft_dec_table_precision: u32,
    /// maximum symbol energy of a generated table
    /// (`soft_dec_table_generator`'s `Es`)
    #[param(default = 1.0)]
    pub soft_dec_es: f64,
}

impl ConstellationParams {
    /// The standard constellation `name`, other parameters at their
    /// defaults.
    pub fn named(name: ConstellationName) -> Self {
        Self {
            constellation: name,
            ..Default::default()
        }
    }

    /// Custom `points` (`constellation_calcdist(points, [], 4, 1,
    /// AMPLITUDE_NORMALIZATION)`).
    pub fn custom(points: Vec<Complex32>) -> Self {
        Self {
            constellation: ConstellationName::Custom,
            points,
            ..Default::default()
        }
    }

    /// The constellation builds.
    fn check(&self) -> Result<(), ParamError> {
        self.build().map(drop)
    }

    /// The constellation these parameters name.
    ///
    /// Errors: an unknown name, custom points GNU Radio refuses (see
    /// [`Constellation::custom`]), bad sectors.
    pub fn build(&self) -> Result<Constellation, ParamError> {
        let err = |param: &str, e: rfgraph_dsp::error::DspError| {
            ParamError::new("constellation", param, e.to_string())
        };
        if self.constellation != ConstellationName::Custom {
            return Constellation::by_name(self.constellation.choice_name())
                .map_err(|e| err("constellation", e));
        }
        if self.points.is_empty() {
            return Err(ParamError::new(
                "constellation",
                "constellation",
                "a `custom` constellation needs `points`",
            ));
        }
        let normalization = match self.normalization {
            ConstellationNormalization::None => Normalization::None,
            ConstellationNormalization::Amplitude => Normalization::Amplitude,
            ConstellationNormalization::Power => Normalization::Power,
        };
        let c = Constellation::custom(&self.points, &self.symbol_map, normalization)
            .map_err(|e| err("points", e))?;
        if self.real_sectors == 0 && self.imag_sectors == 0 {
            return Ok(c);
        }
        let scale = Constellation::scale_factor(&self.points, normalization);
        c.with_sectors(
            self.real_sectors as usize,
            self.imag_sectors as usize,
            self.real_sector_width as f32 * scale,
            self.imag_sector_width as f32 * scale,
        )
        .map_err(|e| err("real_sectors", e))
    }
}
