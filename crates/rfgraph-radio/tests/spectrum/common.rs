//! Signals with known contents, and running graphs with a watchdog.

use num_complex::Complex32;
use rfgraph::scheduler::{Chain, Pool, Single, Tpb};
use rfgraph::{Finished, Flowgraph, Scheduler};
use std::f64::consts::PI;
use std::time::Duration;

/// The most any test graph may take.
pub const WATCHDOG: Duration = Duration::from_secs(60);

/// Runs `fg` to the end on `scheduler`, failing the test on a hang.
pub fn run(fg: Flowgraph, scheduler: impl Scheduler) -> Finished {
    fg.start(scheduler)
        .expect("the graph starts")
        .wait_timeout(WATCHDOG)
        .expect("the graph runs to its end")
}

/// One fresh instance of every scheduler.
pub fn every_scheduler() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(Tpb::new()),
        Box::new(Single::new()),
        Box::new(Pool::new()),
        Box::new(Chain::new()),
    ]
}

/// A seeded xorshift64* generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let r = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
        (r as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * PI * v).cos()
    }
}

/// `n` samples of complex white Gaussian noise of total power `power`
/// (full scale = 1).
pub fn noise(n: usize, power: f64, seed: u64) -> Vec<Complex32> {
    let mut rng = Rng::new(seed);
    let sigma = (power / 2.0).sqrt();
    (0..n)
        .map(|_| Complex32::new((sigma * rng.normal()) as f32, (sigma * rng.normal()) as f32))
        .collect()
}

/// `n` samples of `amplitude · e^{j2π·offset·n/rate}`.
pub fn tone(n: usize, amplitude: f64, offset_hz: f64, rate: f64) -> Vec<Complex32> {
    (0..n)
        .map(|i| {
            let ph = 2.0 * PI * offset_hz * i as f64 / rate;
            Complex32::new((amplitude * ph.cos()) as f32, (amplitude * ph.sin()) as f32)
        })
        .collect()
}

/// Mean of `x`.
pub fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Population variance of `x`.
pub fn variance(x: &[f64]) -> f64 {
    let m = mean(x);
    x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / x.len() as f64
}
