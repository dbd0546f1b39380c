//! [`SymbolSync`]: GNU Radio 3.10's `symbol_sync_cc` / `symbol_sync_ff`
//! work loop: internal interpolation, detector-input and output clocks
//! (`lcm(TED inputs per symbol, osps)` interpolations per symbol), the
//! detector's look-ahead, one loop update per symbol, and the same
//! "not enough input: take this symbol back and wait" rule, so any
//! split of the input gives the same output. Besides the samples it can
//! give, per output, the error and the instantaneous and average clock
//! periods (GNU Radio's optional outputs). `time_est` / `clock_est`
//! tags are not looked at.

use super::clock_loop::ClockTrackingLoop;
use super::resampler::{InterpResampler, ResamplerKind};
use super::ted::{TedKind, TedState, TimingErrorDetector};
use crate::digital::constellation::Constellation;
use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;

/// A sample type the synchronizer runs on (`f32` or [`Complex32`]).
pub trait SyncSample: Copy + Default + Send + 'static {
    /// Whether detectors use their float (`_ff`) formulas.
    const FLOAT: bool;
    /// As a complex number (a float in the real part).
    fn to_complex(self) -> Complex32;
    /// `Σ h[k]·x[k]`.
    fn dot(h: &[f32], x: &[Self]) -> Self;
    /// `Σ h[k]·x[k]` of 8 taps, `h2` the taps twice over (`h0 h0 h1
    /// h1 ...`); the sum may be taken in another order than `dot`'s.
    #[inline(always)]
    fn dot8(h: &[f32; 8], h2: &[f32; 16], x: &[Self; 8]) -> Self {
        let _ = h2;
        Self::dot(h, x)
    }
}

impl SyncSample for f32 {
    const FLOAT: bool = true;
    #[inline]
    fn to_complex(self) -> Complex32 {
        Complex32::new(self, 0.0)
    }
    #[inline]
    fn dot(h: &[f32], x: &[f32]) -> f32 {
        h.iter().zip(x).map(|(a, b)| a * b).sum()
    }
}

impl SyncSample for Complex32 {
    const FLOAT: bool = false;
    #[inline]
    fn to_complex(self) -> Complex32 {
        self
    }
    #[inline]
    fn dot(h: &[f32], x: &[Complex32]) -> Complex32 {
        let (mut re, mut im) = (0.0f32, 0.0f32);
        for (a, b) in h.iter().zip(x) {
            re += a * b.re;
            im += a * b.im;
        }
        Complex32::new(re, im)
    }
    /// The products of the interleaved parts with `h2`, summed pairwise
    /// (a short dependency chain the compiler vectorises).
    #[inline(always)]
    fn dot8(_h: &[f32; 8], h2: &[f32; 16], x: &[Complex32; 8]) -> Complex32 {
        let x: &[f32; 16] = bytemuck::cast_ref(x);
        let p: [f32; 16] = std::array::from_fn(|i| x[i] * h2[i]);
        let q: [f32; 8] = std::array::from_fn(|i| p[i] + p[i + 8]);
        let r: [f32; 4] = std::array::from_fn(|i| q[i] + q[i + 4]);
        Complex32::new(r[0] + r[2], r[1] + r[3])
    }
}

/// The interpolator's position: the next interpolation's fractional
/// phase and the whole samples to step.
#[derive(Clone, Copy, Debug, Default)]
struct Phase {
    wrapped: f32,
    n: i64,
}

impl Phase {
    #[inline]
    fn next(self, increment: f32) -> Phase {
        // A runaway loop (a huge or non-finite error) could step backwards
        // or by more than any buffer: steps stay in [0, 1e9] samples.
        if !increment.is_finite() {
            return Phase { wrapped: 0.0, n: 1 };
        }
        let p = self.wrapped + increment.clamp(0.0, 1e9);
        // `p` is in [0, 1e9 + 1): truncating is flooring, without the
        // libm call x86-64's baseline makes of `floor`.
        let n = p as i64 as f32;
        Phase {
            wrapped: p - n,
            n: n as i64,
        }
    }
}

/// The state that a symbol taken back restores.
#[derive(Clone, Debug)]
struct State {
    ted: TimingErrorDetector,
    clock: ClockTrackingLoop,
    interp_clock: usize,
}

/// A copy of a [`State`]'s changing parts (no slicer to clone).
#[derive(Clone, Copy, Debug)]
struct Saved {
    ted: TedState,
    clock: ClockTrackingLoop,
    interp_clock: usize,
}

impl State {
    #[inline]
    fn save(&self) -> Saved {
        Saved {
            ted: self.ted.state(),
            clock: self.clock,
            interp_clock: self.interp_clock,
        }
    }

    #[inline]
    fn restore(&mut self, s: Saved) {
        self.ted.restore(s.ted);
        self.clock = s.clock;
        self.interp_clock = s.interp_clock;
    }
}

/// Symbol timing recovery writing `osps` samples per symbol.
#[derive(Clone, Debug)]
pub struct SymbolSync<T: SyncSample> {
    interp: InterpResampler,
    st: State,
    initial: State,
    phase: Phase,
    sps: f32,
    osps: usize,
    interps_per_symbol: usize,
    interps_per_ted_input: usize,
    /// Per interpolation clock value: bit 0 a detector input, bit 1 an
    /// output (the clock's residues, looked up instead of divided).
    clock_flags: Vec<u8>,
    inst_clock_period: f32,
    avg_clock_period: f32,
    inst_interp_period: f32,
    _t: std::marker::PhantomData<fn(T)>,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl<T: SyncSample> SymbolSync<T> {
    /// GNU Radio's `symbol_sync_xx(detector, sps, loop_bw, damping,
    /// ted_gain, max_deviation, osps, slicer, interp_type, ...)`.
    ///
    /// Errors: `sps` ≤ 1, `osps` < 1, a bad loop setting, a decision
    /// detector without a slicer, a bad resampler.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ted: TedKind,
        sps: f32,
        loop_bw: f32,
        damping: f32,
        ted_gain: f32,
        max_deviation: f32,
        osps: usize,
        slicer: Option<Constellation>,
        resampler: &ResamplerKind,
    ) -> Result<Self, DspError> {
        if !(sps.is_finite() && sps > 1.0 && sps < (1u32 << 20) as f32) {
            return Err(DspError::OutOfRange {
                name: "sps",
                value: sps as f64,
                expected: "nominal samples per symbol must be > 1",
            });
        }
        if !(1..=1024).contains(&osps) {
            return Err(DspError::OutOfRange {
                name: "osps",
                value: osps as f64,
                expected: "output samples per symbol must be in 1..=1024",
            });
        }
        if !(max_deviation.is_finite() && max_deviation >= 0.0) {
            return Err(DspError::OutOfRange {
                name: "max_deviation",
                value: max_deviation as f64,
                expected: "must be finite and >= 0",
            });
        }
        let ted = TimingErrorDetector::new(ted, T::FLOAT, slicer)?;
        let clock = ClockTrackingLoop::new(
            loop_bw,
            sps + max_deviation,
            sps - max_deviation,
            sps,
            damping,
            ted_gain,
        )?;
        let interp = InterpResampler::new(resampler, ted.needs_derivative())?;
        let ips = ted.inputs_per_symbol();
        let n = ips / gcd(ips, osps) * osps;
        let st = State {
            ted,
            clock,
            interp_clock: n - 1,
        };
        Ok(Self {
            interp,
            initial: st.clone(),
            st,
            phase: Phase::default().next(sps),
            sps,
            osps,
            interps_per_symbol: n,
            interps_per_ted_input: n / ips,
            clock_flags: (0..n)
                .map(|c| c.is_multiple_of(n / ips) as u8 | (c.is_multiple_of(n / osps) as u8) << 1)
                .collect(),
            inst_clock_period: sps,
            avg_clock_period: sps,
            inst_interp_period: sps / n as f32,
            _t: std::marker::PhantomData,
        })
    }

    /// The loop, for its setters.
    pub fn clock_mut(&mut self) -> &mut ClockTrackingLoop {
        &mut self.st.clock
    }

    /// Runs over `input`, writing samples to `out` and, when given,
    /// each output's `[error, instantaneous period, average period]` (GNU
    /// Radio's optional outputs) to `diag` (as long as `out`); returns
    /// `(consumed, produced)`.
    pub fn run(
        &mut self,
        input: &[T],
        out: &mut [T],
        mut diag: Option<&mut [[f32; 3]]>,
    ) -> (usize, usize) {
        let ntaps = self.interp.ntaps();
        if input.len() <= ntaps {
            return (0, 0);
        }
        let ni = (input.len() - ntaps) as i64;
        let n_sym = self.interps_per_symbol;
        let mut ii: i64 = 0;
        let mut oo = 0usize;
        let zero = T::default();
        while oo < out.len() {
            let next_clock = if self.st.interp_clock + 1 >= n_sym {
                0
            } else {
                self.st.interp_clock + 1
            };
            let symbol = next_clock == 0;
            let saved = if symbol { Some(self.st.save()) } else { None };
            self.st.interp_clock = next_clock;
            let flags = self.clock_flags[next_clock];
            let ted_clock = flags & 1 != 0;
            let out_clock = flags & 2 != 0;
            if ii < 0 || ii + ntaps as i64 > input.len() as i64 {
                // Only a runaway loop gets here: wait for more input.
                if let Some(s) = saved {
                    self.st.restore(s);
                } else {
                    self.st.interp_clock = (next_clock + n_sym - 1) % n_sym;
                }
                ii = ii.max(0);
                break;
            }
            let x = &input[ii as usize..];
            let y = self.interp.interpolate(x, self.phase.wrapped);
            if out_clock {
                out[oo] = y;
            }
            let deriv = self.st.ted.needs_derivative();
            if ted_clock {
                let dy = if deriv {
                    self.interp.differentiate(x, self.phase.wrapped)
                } else {
                    zero
                };
                self.st.ted.input(y.to_complex(), dy.to_complex());
            }
            if symbol && self.st.ted.needs_lookahead() {
                let la = self.phase.next(
                    self.interps_per_ted_input as f32
                        * (self.st.clock.inst_period().max(1.0) / n_sym as f32),
                );
                if ii + la.n >= ni || ii + la.n < 0 {
                    if let Some(s) = saved {
                        self.st.restore(s);
                    }
                    break;
                }
                let xl = &input[(ii + la.n) as usize..];
                let yl = self.interp.interpolate(xl, la.wrapped);
                let dl = if deriv {
                    self.interp.differentiate(xl, la.wrapped)
                } else {
                    zero
                };
                self.st
                    .ted
                    .input_lookahead(yl.to_complex(), dl.to_complex());
            }
            let mut error = self.st.ted.error();
            if !error.is_finite() {
                error = 0.0;
            }
            if symbol {
                self.st.clock.advance(error);
                let inst = self.st.clock.inst_period();
                let avg = self.st.clock.avg_period();
                self.st.clock.wrap_and_limit();
                // A symbol spans at least one sample: a runaway loop (a huge
                // error) neither stands still nor steps backwards.
                let inst = inst.max(1.0);
                let step = self.phase.next(inst);
                if ii + step.n >= ni {
                    if let Some(s) = saved {
                        self.st.restore(s);
                    }
                    break;
                }
                self.inst_clock_period = inst;
                self.avg_clock_period = avg;
                self.inst_interp_period = inst / n_sym as f32;
            }
            self.phase = self.phase.next(self.inst_interp_period);
            if out_clock {
                if let Some(d) = diag.as_deref_mut()
                    && let Some(slot) = d.get_mut(oo)
                {
                    *slot = [error, self.inst_clock_period, self.avg_clock_period];
                }
                oo += 1;
            }
            ii += self.phase.n;
        }
        (ii.max(0) as usize, oo)
    }
}

impl<T: SyncSample> Kernel for SymbolSync<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        self.run(input, output, None)
    }

    fn min_input(&self) -> usize {
        let max = self.st.clock.max_avg_period().max(self.sps);
        ((3.0 * max / self.osps as f32).ceil() as usize).saturating_add(self.interp.ntaps() + 2)
    }

    fn min_output(&self) -> usize {
        self.osps
    }

    fn ratio(&self) -> Ratio {
        Ratio::approximate(self.osps as f64 / self.sps as f64)
    }

    fn reset(&mut self) {
        self.st = self.initial.clone();
        self.phase = Phase::default().next(self.sps);
        self.inst_clock_period = self.sps;
        self.avg_clock_period = self.sps;
        self.inst_interp_period = self.sps / self.interps_per_symbol as f32;
    }
}
