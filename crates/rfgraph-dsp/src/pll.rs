//! Phase-locked loop for a real tone (an FM stereo pilot, a carrier
//! remnant). Owns the loop: the oscillator's phase word, the mixer, the
//! arm and lock-detector filters and the proportional-integral loop filter.
//! It only tracks; what a receiver does with the reference (doubling it for
//! 38 kHz, declaring stereo) is the caller's business.
//!
//! The loop runs on whole groups of [`DEFAULT_UPDATE_INTERVAL`] samples:
//! the phase detector averages `x·sin θ` and `x·cos θ` over a group, a
//! one-pole "arm" filter smooths them, and the phase error `atan2(q, i)`
//! (independent of the tone's amplitude) drives a second-order loop whose
//! new frequency applies from the next sample on. Every decision depends
//! only on sample counts, so the reference is bit-identical whatever way the
//! input is split into calls.

use crate::error::DspError;
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::nco::{freq_of, phase_step};
use crate::simd::{self, Simd, poly};
use core::f64::consts::TAU;
use num_complex::Complex32;

/// Samples per loop update by default.
pub const DEFAULT_UPDATE_INTERVAL: usize = 16;

/// Damping of the second-order loop (critically damped enough to settle
/// without ringing, fast to acquire).
const DAMPING: f64 = 0.707;

/// The arm filters' corner, as a multiple of the loop bandwidth.
const ARM_CORNER_PER_BANDWIDTH: f64 = 30.0;

/// The lock detector's corner, as a fraction of the loop bandwidth.
const LOCK_CORNER_PER_BANDWIDTH: f64 = 0.5;

/// The oscillator of one sample: its phase word (one turn = 2^32) and its
/// cosine and sine. Locked onto `A·sin(θp)`, `sin` is in phase with the
/// tone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    /// Phase word of the sample.
    pub phase: u32,
    /// `cos θ`.
    pub cos: f32,
    /// `sin θ`.
    pub sin: f32,
}

/// A phase-locked loop tracking the real tone `A·sin(2π f n + φ)` near a
/// nominal frequency.
///
/// Locked, [`Reference::sin`] follows the tone's phase,
/// [`amplitude`](Self::amplitude) estimates `A` and
/// [`phase_error`](Self::phase_error) is near zero; a steady frequency
/// offset leaves no phase error (the loop is of type 2).
///
/// ```
/// use rfgraph_dsp::pll::Pll;
/// // A 19 kHz tone at 240 kS/s, 2 Hz off its nominal frequency.
/// let fs = 240_000.0;
/// let mut pll = Pll::new(19_000.0 / fs, 20.0 / fs, 100.0 / fs).unwrap();
/// for n in 0..240_000 {
///     let x = 0.1 * (std::f64::consts::TAU * 19_002.0 * n as f64 / fs).sin() as f32;
///     pll.track(x);
/// }
/// assert!((pll.frequency() * fs - 19_002.0).abs() < 0.1);
/// assert!(pll.phase_error().abs() < 0.01);
/// assert!((pll.amplitude() - 0.1).abs() < 0.005);
/// ```
#[derive(Clone, Debug)]
pub struct Pll {
    center: f64,
    /// Largest |integrator|, radians per update.
    max_integral: f64,
    kp: f64,
    ki: f64,
    interval: usize,
    bandwidth: f64,
    phase: u32,
    step: u32,
    /// Frequency offset, radians per update.
    integral: f64,
    count: usize,
    acc_i: f32,
    acc_q: f32,
    arm_alpha: f32,
    arm_i: f32,
    arm_q: f32,
    lock_alpha: f32,
    lock_i: f32,
    lock_q: f32,
    simd: Simd,
}

impl Pll {
    /// A loop around `frequency` with natural frequency `bandwidth`,
    /// allowed to pull `max_offset` away from `frequency` (all in cycles
    /// per sample: Hz divided by the sample rate), updating every
    /// [`DEFAULT_UPDATE_INTERVAL`] samples.
    ///
    /// Errors: `frequency` not in `(0, 0.5)`, `bandwidth` not positive or
    /// too wide for the update interval (`bandwidth · interval ≥ 0.02`),
    /// `max_offset` negative or reaching past 0 or 0.5.
    pub fn new(frequency: f64, bandwidth: f64, max_offset: f64) -> Result<Self, DspError> {
        Self::with_update_interval(frequency, bandwidth, max_offset, DEFAULT_UPDATE_INTERVAL)
    }

    /// As [`new`](Self::new), updating every `interval` samples.
    ///
    /// Errors: as [`new`](Self::new), and `interval` not in `1..=2^20`.
    pub fn with_update_interval(
        frequency: f64,
        bandwidth: f64,
        max_offset: f64,
        interval: usize,
    ) -> Result<Self, DspError> {
        DspError::positive("frequency", frequency)?;
        DspError::positive("bandwidth", bandwidth)?;
        DspError::factor("interval", interval)?;
        DspError::finite("max_offset", max_offset)?;
        if frequency >= 0.5 {
            return Err(DspError::OutOfRange {
                name: "frequency",
                value: frequency,
                expected: "must be below 0.5 cycles per sample",
            });
        }
        let per_update = bandwidth * interval as f64;
        if per_update >= 0.02 {
            return Err(DspError::OutOfRange {
                name: "bandwidth",
                value: bandwidth,
                expected: "times the update interval must be below 0.02",
            });
        }
        if max_offset < 0.0 || max_offset >= frequency || frequency + max_offset >= 0.5 {
            return Err(DspError::OutOfRange {
                name: "max_offset",
                value: max_offset,
                expected: "must be >= 0 and keep the frequency inside (0, 0.5)",
            });
        }
        let wn = TAU * per_update;
        let one_pole = |corner_per_update: f64| -> f32 {
            (1.0 - (-TAU * corner_per_update.min(0.2)).exp()) as f32
        };
        Ok(Pll {
            center: frequency,
            max_integral: TAU * max_offset * interval as f64,
            kp: 2.0 * DAMPING * wn,
            ki: wn * wn,
            interval,
            bandwidth,
            phase: 0,
            step: phase_step(frequency)?,
            integral: 0.0,
            count: 0,
            acc_i: 0.0,
            acc_q: 0.0,
            arm_alpha: one_pole(ARM_CORNER_PER_BANDWIDTH * per_update),
            arm_i: 0.0,
            arm_q: 0.0,
            lock_alpha: one_pole(LOCK_CORNER_PER_BANDWIDTH * per_update),
            lock_i: 0.0,
            lock_q: 0.0,
            simd: Simd::new(Isa::detect()),
        })
    }

    /// The reference for input sample `x`, then advances the oscillator
    /// (and the loop, every [`update_interval`](Self::update_interval)
    /// samples).
    #[inline]
    pub fn track(&mut self, x: f32) -> Reference {
        let phase = self.phase;
        let (cos, sin) = poly::sincos(phase);
        self.acc_i += x * sin;
        self.acc_q += x * cos;
        self.phase = phase.wrapping_add(self.step);
        self.count += 1;
        if self.count == self.interval {
            self.update();
        }
        Reference { phase, cos, sin }
    }

    /// [`track`](Self::track) for a run of samples at once: writes each
    /// sample's reference `cos θ + j·sin θ` into `reference` and returns
    /// how many samples it took (`min` of the two lengths). The oscillator
    /// is generated a loop update's group at a time with the NCO's
    /// vectorised kernel; the results equal `track`'s, sample for sample,
    /// however the input is split.
    pub fn track_slice(&mut self, input: &[f32], reference: &mut [Complex32]) -> usize {
        let n = input.len().min(reference.len());
        let mut i = 0;
        while i < n {
            let k = (n - i).min(self.interval - self.count);
            let refs = &mut reference[i..i + k];
            self.phase = simd::nco(self.simd, refs, self.phase, self.step);
            // In sample order, as `track` sums: the split cannot change it.
            for (&x, r) in input[i..i + k].iter().zip(refs.iter()) {
                self.acc_i += x * r.im;
                self.acc_q += x * r.re;
            }
            self.count += k;
            i += k;
            if self.count == self.interval {
                self.update();
            }
        }
        n
    }

    /// One loop update from the group just averaged.
    fn update(&mut self) {
        let scale = 2.0 / self.interval as f32;
        let (i, q) = (self.acc_i * scale, self.acc_q * scale);
        self.acc_i = 0.0;
        self.acc_q = 0.0;
        self.count = 0;
        if !(i.is_finite() && q.is_finite()) {
            // A non-finite sample: forget the group rather than carrying
            // NaN through every later update.
            return;
        }
        self.arm_i += self.arm_alpha * (i - self.arm_i);
        self.arm_q += self.arm_alpha * (q - self.arm_q);
        self.lock_i += self.lock_alpha * (self.arm_i - self.lock_i);
        self.lock_q += self.lock_alpha * (self.arm_q - self.lock_q);
        let err = poly::atan2(self.arm_q, self.arm_i) as f64;
        self.integral =
            (self.integral + self.ki * err).clamp(-self.max_integral, self.max_integral);
        let per_update =
            (self.integral + self.kp * err).clamp(-self.max_integral, self.max_integral);
        // Finite by construction: every term is clamped or bounded.
        self.step =
            phase_step(self.center + self.cycles_per_sample(per_update)).unwrap_or(self.step);
    }

    /// Radians per update as cycles per sample.
    fn cycles_per_sample(&self, per_update: f64) -> f64 {
        per_update / (TAU * self.interval as f64)
    }

    /// Samples until the next loop update: after that many more calls of
    /// [`track`](Self::track), the frequency and the lock estimates change.
    pub fn samples_to_update(&self) -> usize {
        self.interval - self.count
    }

    /// Samples per loop update.
    pub fn update_interval(&self) -> usize {
        self.interval
    }

    /// The loop's natural frequency, cycles per sample.
    pub fn bandwidth(&self) -> f64 {
        self.bandwidth
    }

    /// The nominal frequency, cycles per sample.
    pub fn center(&self) -> f64 {
        self.center
    }

    /// The tracked frequency, cycles per sample: the nominal one plus the
    /// loop's integrator (the oscillator also carries a proportional
    /// correction that settles to zero).
    pub fn frequency(&self) -> f64 {
        self.center + self.cycles_per_sample(self.integral)
    }

    /// The oscillator's frequency for the next sample, cycles per sample
    /// (as quantised to the phase word), proportional correction included.
    pub fn oscillator_frequency(&self) -> f64 {
        freq_of(self.step)
    }

    /// The tone's amplitude as the lock detector sees it: the in-phase
    /// part, smoothed over about twice the loop's time constant. Near `A`
    /// when locked, near zero (noise) when there is no tone or the loop
    /// slips.
    pub fn amplitude(&self) -> f32 {
        self.lock_i
    }

    /// The smoothed phase error, radians (`atan2` of the lock detector's
    /// quadrature and in-phase parts): near zero when locked.
    pub fn phase_error(&self) -> f32 {
        poly::atan2(self.lock_q, self.lock_i)
    }

    /// Returns to the just-constructed state.
    pub fn reset(&mut self) {
        self.phase = 0;
        self.step = phase_step(self.center).unwrap_or(self.step);
        self.integral = 0.0;
        self.count = 0;
        self.acc_i = 0.0;
        self.acc_q = 0.0;
        self.arm_i = 0.0;
        self.arm_q = 0.0;
        self.lock_i = 0.0;
        self.lock_q = 0.0;
    }
}

/// As a kernel, the loop writes its reference `sin θ` (unit amplitude, in
/// phase with the tracked tone), as GNU Radio's `pll_refout` does.
impl Kernel for Pll {
    type Input = f32;
    type Output = f32;

    fn process(&mut self, input: &[f32], output: &mut [f32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(input) {
            *o = self.track(x).sin;
        }
        (n, n)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        Pll::reset(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: f64 = 240_000.0;

    fn tone(n: usize, freq: f64, amp: f32, phase: f64) -> Vec<f32> {
        (0..n)
            .map(|k| amp * (TAU * freq * k as f64 / FS + phase).sin() as f32)
            .collect()
    }

    fn pilot_pll() -> Pll {
        Pll::new(19_000.0 / FS, 20.0 / FS, 100.0 / FS).unwrap()
    }

    #[test]
    fn locks_in_phase_with_an_offset_tone() {
        for (offset, phase) in [(0.0, 0.0), (5.0, 2.0), (-30.0, -2.5)] {
            let mut pll = pilot_pll();
            let x = tone(240_000, 19_000.0 + offset, 0.09, phase);
            let mut worst = 0.0f64;
            for (k, &s) in x.iter().enumerate() {
                let r = pll.track(s);
                if k > 120_000 {
                    // The reference's sine against the tone's phase.
                    let want = TAU * (19_000.0 + offset) * k as f64 / FS + phase;
                    let got = r.phase as f64 / 4_294_967_296.0 * TAU;
                    let d = (want - got + TAU / 2.0).rem_euclid(TAU) - TAU / 2.0;
                    worst = worst.max(d.abs());
                }
            }
            assert!(worst < 0.01, "offset {offset}: phase error {worst}");
            let f = pll.frequency() * FS - 19_000.0 - offset;
            assert!(f.abs() < 0.05, "offset {offset}: frequency off by {f} Hz");
            assert!((pll.amplitude() - 0.09).abs() < 0.002);
        }
    }

    #[test]
    fn noise_and_silence_give_no_amplitude() {
        let mut pll = pilot_pll();
        let mut state = 1u32;
        for _ in 0..240_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            pll.track(state as f32 / u32::MAX as f32 - 0.5);
        }
        assert!(pll.amplitude().abs() < 0.01, "{}", pll.amplitude());
        // The frequency stays within its allowed pull.
        assert!((pll.frequency() * FS - 19_000.0).abs() <= 100.5);
        let mut quiet = pilot_pll();
        for _ in 0..10_000 {
            quiet.track(0.0);
        }
        assert_eq!(quiet.amplitude(), 0.0);
    }

    #[test]
    fn the_split_of_the_input_does_not_change_the_reference() {
        let x = tone(50_000, 19_003.0, 0.1, 1.0);
        let mut whole = pilot_pll();
        let mut a = vec![0.0; x.len()];
        assert_eq!(whole.process(&x, &mut a), (x.len(), x.len()));
        let mut split = pilot_pll();
        let mut b = vec![0.0; x.len()];
        let mut at = 0;
        for len in [1usize, 7, 15, 16, 17, 1000, 3].iter().cycle() {
            if at == x.len() {
                break;
            }
            let end = (at + len).min(x.len());
            split.process(&x[at..end], &mut b[at..end]);
            at = end;
        }
        assert_eq!(a, b);
    }

    #[test]
    fn tracking_a_slice_equals_tracking_each_sample() {
        let x = tone(20_000, 19_004.0, 0.09, 0.5);
        let mut one = pilot_pll();
        let each: Vec<Complex32> = x
            .iter()
            .map(|&s| {
                let r = one.track(s);
                Complex32::new(r.cos, r.sin)
            })
            .collect();
        let mut many = pilot_pll();
        let mut refs = vec![Complex32::new(0.0, 0.0); x.len()];
        let mut at = 0;
        for len in [5usize, 16, 1, 100, 33].iter().cycle() {
            if at == x.len() {
                break;
            }
            let end = (at + len).min(x.len());
            assert_eq!(many.track_slice(&x[at..end], &mut refs[at..end]), end - at);
            at = end;
        }
        // The vectorised oscillator may round differently from the scalar
        // one, never by more than its accuracy.
        for (a, b) in each.iter().zip(&refs) {
            assert!((a - b).norm() < 1e-6, "{a} vs {b}");
        }
        assert!((one.frequency() - many.frequency()).abs() < 1e-9);
    }

    #[test]
    fn non_finite_samples_do_not_poison_the_loop() {
        let mut pll = pilot_pll();
        let mut x = tone(240_000, 19_000.0, 0.1, 0.0);
        x[1000] = f32::NAN;
        x[5000] = f32::INFINITY;
        for &s in &x {
            pll.track(s);
        }
        assert!(pll.frequency().is_finite());
        assert!((pll.amplitude() - 0.1).abs() < 0.005);
        assert!(pll.phase_error().abs() < 0.01);
    }

    #[test]
    fn rejects_bad_parameters_and_resets() {
        assert!(Pll::new(0.0, 1e-4, 0.0).is_err());
        assert!(Pll::new(0.6, 1e-4, 0.0).is_err());
        assert!(Pll::new(0.1, 0.0, 0.0).is_err());
        assert!(Pll::new(0.1, 0.01, 0.0).is_err());
        assert!(Pll::new(0.1, 1e-4, -1e-3).is_err());
        assert!(Pll::new(0.1, 1e-4, 0.2).is_err());
        assert!(Pll::new(0.1, f64::NAN, 0.0).is_err());
        assert!(Pll::with_update_interval(0.1, 1e-4, 0.0, 0).is_err());
        let mut pll = pilot_pll();
        let fresh = pll.clone();
        for &s in &tone(10_000, 19_010.0, 0.1, 0.0) {
            pll.track(s);
        }
        Kernel::reset(&mut pll);
        assert_eq!(pll.frequency(), fresh.frequency());
        assert_eq!(pll.samples_to_update(), pll.update_interval());
        assert_eq!(pll.amplitude(), 0.0);
    }
}
