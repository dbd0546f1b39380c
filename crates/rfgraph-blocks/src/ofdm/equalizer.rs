//! The OFDM equalizer objects of GNU Radio (`ofdm_equalizer_simpledfe`,
//! `ofdm_equalizer_static`, both `ofdm_equalizer_1d_pilots`): their
//! parameters as one [`ParamSet`](rfgraph::ParamSet) that a frame
//! equalizer flattens into its own, with a choice of kind, and the
//! equalization of a frame of symbols.

use super::carriers::{CarrierSets, SymbolSets};
use crate::digital::ConstellationParams;
use num_complex::Complex32;
use rfgraph::ParamError;
use rfgraph::params::limits;
use rfgraph_dsp::digital::Constellation;

/// Which of GNU Radio's equalizer objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum EqualizerKind {
    /// `digital.ofdm_equalizer_simpledfe`: decision feedback, the channel
    /// state averaged with `alpha` on every carrier.
    #[choice(
        alias = "ofdm_equalizer_simpledfe",
        alias = "digital.ofdm_equalizer_simpledfe"
    )]
    Simpledfe,
    /// `digital.ofdm_equalizer_static`: the channel state changes on the
    /// pilot carriers only.
    #[choice(
        alias = "ofdm_equalizer_static",
        alias = "digital.ofdm_equalizer_static"
    )]
    Static,
}

/// The parameters of an OFDM equalizer object (GNU Radio's
/// `ofdm_equalizer_simpledfe(fft_len, constellation, occupied_carriers,
/// pilot_carriers, pilot_symbols, symbols_skipped, alpha,
/// input_is_shifted, enable_soft_output)` and `ofdm_equalizer_static(fft_len,
/// occupied_carriers, pilot_carriers, pilot_symbols, symbols_skipped,
/// input_is_shifted)`); the defaults are `ofdm_txrx.py`'s.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct OfdmEqualizerParams {
    /// the equalizer: `simpledfe` or `static`
    #[param(default = EqualizerKind::Simpledfe)]
    pub equalizer: EqualizerKind,
    /// FFT length: items per OFDM symbol
    #[param(default = 64, min = 1, max = limits::MAX_FFT)]
    pub fft_len: usize,
    /// the constellation of the data carriers (`simpledfe` decides on
    /// it): a standard one by name, or custom points
    #[param(flatten)]
    pub constellation: ConstellationParams,
    /// the carriers equalized, one list per symbol (all lists count
    /// together: `ofdm_txrx.py` lists its data carriers only, so its
    /// pilots pass untouched); an empty list of lists: every carrier
    #[param(default = CarrierSets::txrx_occupied())]
    pub occupied_carriers: CarrierSets,
    /// the pilot carriers, one list per OFDM symbol used in turn
    #[param(default = CarrierSets::txrx_pilots())]
    pub pilot_carriers: CarrierSets,
    /// the pilot symbols: list `i` for the carriers of list `i` of
    /// `pilot_carriers`
    #[param(default = SymbolSets::txrx_pilot_symbols())]
    pub pilot_symbols: SymbolSets,
    /// the list of pilot carriers a frame's first symbol uses (symbols
    /// removed before)
    #[param(default = 0, max = limits::MAX_ELEMENTS)]
    pub symbols_skipped: usize,
    /// `simpledfe`: weight of the old channel state in each update
    #[param(default = 0.1)]
    pub alpha: f32,
    /// DC in the middle of each symbol (after an FFT that shifts)
    #[param(default = true)]
    pub input_is_shifted: bool,
    /// `simpledfe`: write the equalized symbols, not the decided points
    #[param(default = false)]
    pub enable_soft_output: bool,
}

impl OfdmEqualizerParams {
    /// GNU Radio's rules.
    fn check(&self) -> Result<(), ParamError> {
        Equalizer::new(self, "ofdm_frame_equalizer").map(drop)
    }
}

/// An equalizer as GNU Radio's `ofdm_equalizer_1d_pilots` sets it up.
pub(crate) struct Equalizer {
    kind: EqualizerKind,
    fft_len: usize,
    occupied: Vec<bool>,
    /// Per list: which carriers are pilots, and their symbols.
    pilots: Vec<Vec<bool>>,
    pilot_symbols: Vec<Vec<Complex32>>,
    skipped: usize,
    set: usize,
    alpha: f32,
    soft: bool,
    points: Vec<Complex32>,
    decide: Constellation,
    state: Vec<Complex32>,
}

impl Equalizer {
    /// The equalizer `p` describes; errors name `block`'s parameter.
    pub fn new(p: &OfdmEqualizerParams, block: &'static str) -> Result<Self, ParamError> {
        let n = p.fft_len;
        let shift = if p.input_is_shifted { n / 2 } else { 0 };
        let index = |param: &'static str, c: i64| {
            let w = if c < 0 { c + n as i64 } else { c };
            if (0..n as i64).contains(&w) {
                Ok((w as usize + shift) % n)
            } else {
                Err(ParamError::new(
                    block,
                    param,
                    format!("carrier {c} lies outside the FFT length {n}"),
                ))
            }
        };
        let mut occupied = vec![p.occupied_carriers.0.is_empty(); n];
        for &c in p.occupied_carriers.0.iter().flatten() {
            occupied[index("occupied_carriers", c)?] = true;
        }
        let (pc, ps) = (&p.pilot_carriers.0, &p.pilot_symbols.0);
        if ps.len() < pc.len() {
            return Err(ParamError::new(
                block,
                "pilot_symbols",
                format!(
                    "has {} lists for {} lists of pilot carriers",
                    ps.len(),
                    pc.len()
                ),
            ));
        }
        if pc.len().saturating_mul(n) > limits::MAX_ELEMENTS {
            return Err(ParamError::new(
                block,
                "pilot_carriers",
                format!(
                    "{} lists of {n} carriers are more than {} carriers",
                    pc.len(),
                    limits::MAX_ELEMENTS
                ),
            ));
        }
        let zero = Complex32::new(0.0, 0.0);
        let mut pilots = vec![vec![false; n]; pc.len()];
        let mut pilot_symbols = vec![vec![zero; n]; pc.len()];
        for (i, carriers) in pc.iter().enumerate() {
            if carriers.len() != ps[i].len() {
                return Err(ParamError::new(
                    block,
                    "pilot_symbols",
                    format!("list {i} does not match its pilot carriers"),
                ));
            }
            for (&c, &s) in carriers.iter().zip(&ps[i]) {
                let k = index("pilot_carriers", c)?;
                pilots[i][k] = true;
                pilot_symbols[i][k] = s;
            }
        }
        let decide = p.constellation.build()?;
        let skipped = p.symbols_skipped;
        Ok(Self {
            kind: p.equalizer,
            fft_len: n,
            occupied,
            set: if pilots.is_empty() {
                0
            } else {
                skipped % pilots.len()
            },
            pilots,
            pilot_symbols,
            skipped,
            alpha: p.alpha,
            soft: p.enable_soft_output,
            points: decide.points().to_vec(),
            decide,
            state: vec![Complex32::new(1.0, 0.0); n],
        })
    }

    /// Back to the frame's start: channel state 1, the first list of
    /// pilots (GNU Radio's `reset`).
    pub fn reset(&mut self) {
        self.state.fill(Complex32::new(1.0, 0.0));
        self.set = if self.pilots.is_empty() {
            0
        } else {
            self.skipped % self.pilots.len()
        };
    }

    /// The channel state after the last symbol.
    pub fn channel_state(&self) -> &[Complex32] {
        &self.state
    }

    /// Equalizes `frame` (whole symbols) in place, starting from the
    /// channel state `taps` (`fft_len` of them).
    pub fn equalize(&mut self, frame: &mut [Complex32], taps: &[Complex32]) {
        self.state.copy_from_slice(taps);
        let n = self.fft_len;
        for symbol in frame.chunks_exact_mut(n) {
            for (k, x) in symbol.iter_mut().enumerate() {
                if !self.occupied[k] {
                    continue;
                }
                if self.pilots.get(self.set).is_some_and(|p| p[k]) {
                    let pilot = self.pilot_symbols[self.set][k];
                    self.state[k] = match self.kind {
                        EqualizerKind::Simpledfe => {
                            self.state[k] * self.alpha + *x * (1.0 - self.alpha) / pilot
                        }
                        EqualizerKind::Static => *x / pilot,
                    };
                    *x = pilot;
                } else {
                    match self.kind {
                        EqualizerKind::Simpledfe => {
                            let eq = *x / self.state[k];
                            let est = self.points[self.decide.decide(eq) as usize];
                            self.state[k] =
                                self.state[k] * self.alpha + *x * (1.0 - self.alpha) / est;
                            *x = if self.soft { eq } else { est };
                        }
                        EqualizerKind::Static => *x /= self.state[k],
                    }
                }
            }
            if !self.pilots.is_empty() {
                self.set = (self.set + 1) % self.pilots.len();
            }
        }
    }
}
