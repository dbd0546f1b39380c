//! [`TimingErrorDetector`]: GNU Radio 3.10's timing error detectors
//! (`timing_error_detector.cc`): Mueller & Müller, modified M&M, zero
//! crossing, Gardner, early-late, D'Andrea & Mengali generalized MSK,
//! Mengali & D'Andrea GMSK, and the two maximum-likelihood slope
//! detectors; each with GNU Radio's inputs per symbol, history depth,
//! look-ahead and derivative needs, and its float (`_ff`) variant.

use super::super::constellation::Constellation;
use crate::error::DspError;
use num_complex::Complex32;

/// A timing error detector, by GNU Radio's `ted_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TedKind {
    /// `TED_MUELLER_AND_MULLER` (decision directed).
    MuellerAndMuller,
    /// `TED_MOD_MUELLER_AND_MULLER` (decision directed).
    ModMuellerAndMuller,
    /// `TED_ZERO_CROSSING` (decision directed).
    ZeroCrossing,
    /// `TED_GARDNER`.
    Gardner,
    /// `TED_EARLY_LATE`.
    EarlyLate,
    /// `TED_DANDREA_AND_MENGALI_GEN_MSK`.
    DandreaAndMengaliGenMsk,
    /// `TED_SIGNAL_TIMES_SLOPE_ML`.
    SignalTimesSlopeMl,
    /// `TED_SIGNUM_TIMES_SLOPE_ML`.
    SignumTimesSlopeMl,
    /// `TED_MENGALI_AND_DANDREA_GMSK`.
    MengaliAndDandreaGmsk,
}

impl TedKind {
    /// `(inputs per symbol, error computation depth, needs look-ahead,
    /// needs derivative, decision directed)`.
    fn shape(self) -> (usize, usize, bool, bool, bool) {
        use TedKind::*;
        match self {
            MuellerAndMuller => (1, 2, false, false, true),
            ModMuellerAndMuller => (1, 3, false, false, true),
            ZeroCrossing => (2, 3, false, false, true),
            Gardner => (2, 3, false, false, false),
            EarlyLate => (2, 2, true, false, false),
            DandreaAndMengaliGenMsk | MengaliAndDandreaGmsk => (2, 4, false, false, false),
            SignalTimesSlopeMl | SignumTimesSlopeMl => (1, 1, false, true, false),
        }
    }
}

/// Most history any detector keeps, plus the look-ahead sample.
const DEPTH: usize = 5;

/// A detector's state: its recent inputs (newest first), their decisions
/// and derivatives, its input clock and its latest error.
#[derive(Clone, Debug)]
pub struct TimingErrorDetector {
    kind: TedKind,
    float: bool,
    slicer: Option<Constellation>,
    inputs_per_symbol: usize,
    lookahead: bool,
    derivative: bool,
    input: [Complex32; DEPTH],
    decision: [Complex32; DEPTH],
    input_derivative: [Complex32; DEPTH],
    input_clock: usize,
    error: f32,
    prev_error: f32,
}

/// What a detector's inputs change: restoring it takes a symbol back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TedState {
    input: [Complex32; DEPTH],
    decision: [Complex32; DEPTH],
    input_derivative: [Complex32; DEPTH],
    input_clock: usize,
    error: f32,
    prev_error: f32,
}

#[inline]
fn clip(x: f32, c: f32) -> f32 {
    // GNU Radio's branchless_clip.
    0.5 * ((x + c).abs() - (x - c).abs())
}

#[inline]
fn push(a: &mut [Complex32; DEPTH], x: Complex32) {
    a.copy_within(0..DEPTH - 1, 1);
    a[0] = x;
}

impl TimingErrorDetector {
    /// A detector of `kind` for float (`float`) or complex samples; the
    /// decision-directed ones slice with `slicer`.
    ///
    /// Errors: a decision-directed detector without a slicer.
    pub fn new(
        kind: TedKind,
        float: bool,
        slicer: Option<Constellation>,
    ) -> Result<Self, DspError> {
        // GNU Radio's history depth (the arrays here keep the most any
        // detector reads; older entries are never read).
        let (ips, _depth, lookahead, derivative, directed) = kind.shape();
        if directed && slicer.is_none() {
            return Err(DspError::OutOfRange {
                name: "constellation",
                value: 0.0,
                expected: "a decision-directed detector needs a slicer constellation",
            });
        }
        let mut t = Self {
            kind,
            float,
            slicer: if directed { slicer } else { None },
            inputs_per_symbol: ips,
            lookahead,
            derivative,
            input: [Complex32::default(); DEPTH],
            decision: [Complex32::default(); DEPTH],
            input_derivative: [Complex32::default(); DEPTH],
            input_clock: 0,
            error: 0.0,
            prev_error: 0.0,
        };
        t.sync_reset();
        Ok(t)
    }

    /// The state its inputs change (a copy, without the slicer).
    #[inline]
    pub(crate) fn state(&self) -> TedState {
        TedState {
            input: self.input,
            decision: self.decision,
            input_derivative: self.input_derivative,
            input_clock: self.input_clock,
            error: self.error,
            prev_error: self.prev_error,
        }
    }

    /// Goes back to a [`state`](Self::state).
    #[inline]
    pub(crate) fn restore(&mut self, s: TedState) {
        self.input = s.input;
        self.decision = s.decision;
        self.input_derivative = s.input_derivative;
        self.input_clock = s.input_clock;
        self.error = s.error;
        self.prev_error = s.prev_error;
    }

    /// Detector inputs per symbol (1 or 2).
    pub fn inputs_per_symbol(&self) -> usize {
        self.inputs_per_symbol
    }

    /// Whether it needs the next input to compute a symbol's error.
    #[inline]
    pub fn needs_lookahead(&self) -> bool {
        self.lookahead
    }

    /// Whether it needs the signal's derivative.
    #[inline]
    pub fn needs_derivative(&self) -> bool {
        self.derivative
    }

    /// The latest error.
    #[inline]
    pub fn error(&self) -> f32 {
        self.error
    }

    /// Clears the history and restarts the input clock.
    pub fn sync_reset(&mut self) {
        self.error = 0.0;
        self.prev_error = 0.0;
        self.input = [Complex32::default(); DEPTH];
        self.decision = [Complex32::default(); DEPTH];
        self.input_derivative = [Complex32::default(); DEPTH];
        self.input_clock = self.inputs_per_symbol - 1;
    }

    #[inline]
    fn slice(&self, x: Complex32) -> Complex32 {
        match &self.slicer {
            Some(c) => c
                .points()
                .get(c.decide(x) as usize)
                .copied()
                .unwrap_or_default(),
            None => Complex32::default(),
        }
    }

    #[inline]
    fn push_input(&mut self, x: Complex32, dx: Complex32) {
        push(&mut self.input, x);
        if self.slicer.is_some() {
            let d = self.slice(x);
            push(&mut self.decision, d);
        }
        if self.derivative {
            push(&mut self.input_derivative, dx);
        }
    }

    /// A new input sample `x` (real in `re` for float streams) and its
    /// derivative `dx`; on a symbol's input, computes the error (unless
    /// the detector needs look-ahead).
    #[inline]
    pub fn input(&mut self, x: Complex32, dx: Complex32) {
        self.push_input(x, dx);
        self.input_clock += 1;
        if self.input_clock >= self.inputs_per_symbol {
            self.input_clock = 0;
        }
        if self.input_clock == 0 && !self.lookahead {
            self.prev_error = self.error;
            self.error = self.compute(&self.input, &self.decision, &self.input_derivative);
        }
    }

    /// The look-ahead sample for the symbol just input: computes its
    /// error without keeping the sample.
    #[inline]
    pub fn input_lookahead(&mut self, x: Complex32, dx: Complex32) {
        if self.input_clock != 0 || !self.lookahead {
            return;
        }
        let (mut i, mut d, mut dd) = (self.input, self.decision, self.input_derivative);
        push(&mut i, x);
        if self.slicer.is_some() {
            push(&mut d, self.slice(x));
        }
        if self.derivative {
            push(&mut dd, dx);
        }
        self.prev_error = self.error;
        self.error = self.compute(&i, &d, &dd);
    }

    #[inline(always)]
    fn compute(
        &self,
        x: &[Complex32; DEPTH],
        d: &[Complex32; DEPTH],
        dx: &[Complex32; DEPTH],
    ) -> f32 {
        use TedKind::*;
        if self.float {
            let (x0, x1, x2, x3) = (x[0].re, x[1].re, x[2].re, x[3].re);
            let (d0, d1, d2) = (d[0].re, d[1].re, d[2].re);
            match self.kind {
                MuellerAndMuller => d1 * x0 - d0 * x1,
                ModMuellerAndMuller => clip(((x0 - x2) * d1 - (d0 - d2) * x1) / 2.0, 1.0),
                ZeroCrossing => (d2 - d0) * x1,
                Gardner => (x2 - x0) * x1,
                EarlyLate => (x0 - x2) * x1,
                DandreaAndMengaliGenMsk => clip(x0 * x0 * x2 * x2 - x1 * x1 * x3 * x3, 3.0),
                MengaliAndDandreaGmsk => clip(-(x0 * x0 * x2 * x2) + x1 * x1 * x3 * x3, 3.0),
                SignalTimesSlopeMl => x0 * dx[0].re,
                SignumTimesSlopeMl => {
                    if x0 < 0.0 {
                        -dx[0].re
                    } else {
                        dx[0].re
                    }
                }
            }
        } else {
            match self.kind {
                MuellerAndMuller => {
                    (d[1].re * x[0].re - d[0].re * x[1].re)
                        + (d[1].im * x[0].im - d[0].im * x[1].im)
                }
                ModMuellerAndMuller => {
                    let u = (x[0] - x[2]) * d[1].conj() - (d[0] - d[2]) * x[1].conj();
                    clip(u.re, 1.0)
                }
                ZeroCrossing => (d[2].re - d[0].re) * x[1].re + (d[2].im - d[0].im) * x[1].im,
                Gardner => (x[2].re - x[0].re) * x[1].re + (x[2].im - x[0].im) * x[1].im,
                EarlyLate => (x[0].re - x[2].re) * x[1].re + (x[0].im - x[2].im) * x[1].im,
                DandreaAndMengaliGenMsk => {
                    let u = x[0] * x[0] * (x[2] * x[2]).conj() - x[1] * x[1] * (x[3] * x[3]).conj();
                    clip(u.re, 3.0)
                }
                MengaliAndDandreaGmsk => {
                    let u =
                        -(x[0] * x[0] * (x[2] * x[2]).conj()) + x[1] * x[1] * (x[3] * x[3]).conj();
                    clip(u.re, 3.0)
                }
                SignalTimesSlopeMl => (x[0].re * dx[0].re + x[0].im * dx[0].im) / 2.0,
                SignumTimesSlopeMl => {
                    let r = if x[0].re < 0.0 { -dx[0].re } else { dx[0].re };
                    let i = if x[0].im < 0.0 { -dx[0].im } else { dx[0].im };
                    (r + i) / 2.0
                }
            }
        }
    }
}
