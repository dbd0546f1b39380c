//! Helpers of the FM receiver's integration tests: a small stereo FM test
//! signal with analytically known contents, the tone fit that measures
//! audio SNR, and running a receiver into vectors under a watchdog.
//!
//! The signal is exact, not simulated: each channel is one tone, so the
//! MPX is a finite sum of sinusoids and the FM phase is their closed-form
//! integral. Sampling it at any rate gives the samples of the continuous
//! signal (no integration error for the receiver to inherit).

#![allow(dead_code)]

use num_complex::Complex32;
use rfgraph::scheduler::{Chain, Pool, Single, Tpb};
use rfgraph::{Finished, Flowgraph, RunError, Running, Scheduler, Tag};
use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
use rfgraph_radio::fm::{FmConfig, Receiver};
use std::f64::consts::TAU;
use std::time::Duration;

/// The most any test flowgraph may take.
pub const WATCHDOG: Duration = Duration::from_secs(120);

/// Waits for `running`; a timeout stops the run and fails the test.
pub fn wait(running: Running) -> Finished {
    match running.wait_timeout(WATCHDOG) {
        Err(e @ RunError::Timeout { .. }) => panic!("{e}"),
        other => other.expect("the run failed"),
    }
}

/// A fresh scheduler by name.
pub fn scheduler(name: &str) -> Box<dyn Scheduler> {
    match name {
        "tpb" => Box::new(Tpb::new()),
        "single" => Box::new(Single::new()),
        "pool" => Box::new(Pool::new()),
        "chain" => Box::new(Chain::new()),
        other => panic!("no scheduler {other}"),
    }
}

/// One audio tone.
#[derive(Clone, Copy, Debug)]
pub struct Tone {
    /// Hz.
    pub freq: f64,
    /// Amplitude, full scale 1.0 (before pre-emphasis).
    pub amp: f64,
}

/// What to transmit.
#[derive(Clone, Debug)]
pub struct Station {
    pub left: Option<Tone>,
    pub right: Option<Tone>,
    /// Pilot level (of 75 kHz deviation), 0 for none.
    pub pilot: f64,
    /// Pre-emphasis time constant, seconds (0: none).
    pub tau: f64,
    /// Carrier to noise ratio in a 200 kHz channel, dB (`None`: no noise).
    pub cnr_db: Option<f64>,
    /// Carrier offset from the centre, Hz.
    pub offset: f64,
}

impl Default for Station {
    fn default() -> Self {
        Station {
            left: None,
            right: None,
            pilot: 0.09,
            tau: 50e-6,
            cnr_db: None,
            offset: 0.0,
        }
    }
}

/// `amp · sin(2π freq t + phase)`.
#[derive(Clone, Copy, Debug)]
struct Sinusoid {
    amp: f64,
    freq: f64,
    phase: f64,
}

impl Station {
    /// The MPX (75 kHz = 1.0) as a sum of sinusoids:
    /// `0.9·[(L+R)/2 + (L−R)/2·sin 2θ] + pilot·sin θ`, L and R
    /// pre-emphasised by `1 + jωτ`.
    fn mpx(&self) -> Vec<Sinusoid> {
        let mut parts = Vec::new();
        let pilot = TAU * 19_000.0;
        for (tone, sign) in [(self.left, 1.0), (self.right, -1.0)] {
            let Some(t) = tone else { continue };
            let w = TAU * t.freq;
            let gain = (1.0 + (w * self.tau).powi(2)).sqrt();
            let phase = (w * self.tau).atan();
            let a = 0.9 * t.amp * gain;
            // (L+R)/2 and ±(L−R)/2 · sin(2θ), the product as two sinusoids:
            // sin(x)·sin(y) = ½[cos(y − x) − cos(x + y)], cos u = sin(u + π/2).
            parts.push(Sinusoid {
                amp: a / 2.0,
                freq: t.freq,
                phase,
            });
            let b = sign * a / 4.0;
            parts.push(Sinusoid {
                amp: b,
                freq: 2.0 * 19_000.0 - t.freq,
                phase: -phase + TAU / 4.0,
            });
            parts.push(Sinusoid {
                amp: -b,
                freq: 2.0 * 19_000.0 + t.freq,
                phase: phase + TAU / 4.0,
            });
        }
        if self.pilot > 0.0 {
            parts.push(Sinusoid {
                amp: self.pilot,
                freq: pilot / TAU,
                phase: 0.0,
            });
        }
        parts
    }

    /// `seconds` of complex baseband at `rate`, the station at `offset`.
    pub fn samples(&self, rate: f64, seconds: f64) -> Vec<Complex32> {
        let parts = self.mpx();
        let n = (rate * seconds).round() as usize;
        let dev = TAU * 75_000.0;
        let noise_sd = self
            .cnr_db
            .map(|cnr| (10f64.powf(-cnr / 10.0) * rate / 200e3 / 2.0).sqrt());
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut uniform = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            ((rng >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        };
        (0..n)
            .map(|k| {
                let t = k as f64 / rate;
                // ∫ a·sin(ωt + φ) = a·(cos φ − cos(ωt + φ))/ω
                let phi: f64 = parts
                    .iter()
                    .map(|p| {
                        let w = TAU * p.freq;
                        p.amp * (p.phase.cos() - (w * t + p.phase).cos()) / w
                    })
                    .sum::<f64>()
                    * dev
                    + TAU * self.offset * t;
                let mut z = Complex32::from_polar(1.0, phi.rem_euclid(TAU) as f32);
                if let Some(sd) = noise_sd {
                    let r = (-2.0 * uniform().ln()).sqrt() * sd;
                    let a = TAU * uniform();
                    z += Complex32::new((r * a.cos()) as f32, (r * a.sin()) as f32);
                }
                z
            })
            .collect()
    }
}

/// Least-squares fit of `a·sin + b·cos + c` at `freq` over `x` (rate
/// `rate`): the tone's amplitude and the SNR in dB, the tone's power over
/// the residual's (everything that is not the tone or DC: noise,
/// distortion, other tones, crosstalk).
pub fn tone_snr(x: &[f32], rate: f64, freq: f64) -> (f64, f64) {
    let n = x.len();
    let basis = |k: usize| {
        let a = TAU * freq * k as f64 / rate;
        [a.sin(), a.cos(), 1.0]
    };
    let mut m = [[0.0f64; 3]; 3];
    let mut v = [0.0f64; 3];
    for (k, &y) in x.iter().enumerate() {
        let b = basis(k);
        for i in 0..3 {
            v[i] += b[i] * y as f64;
            for j in 0..3 {
                m[i][j] += b[i] * b[j];
            }
        }
    }
    let c = solve3(m, v);
    let mut residual = 0.0;
    for (k, &y) in x.iter().enumerate() {
        let b = basis(k);
        let fit = c[0] * b[0] + c[1] * b[1] + c[2] * b[2];
        residual += (y as f64 - fit).powi(2);
    }
    let amp = (c[0] * c[0] + c[1] * c[1]).sqrt();
    let snr = 10.0 * ((amp * amp / 2.0) / (residual / n as f64)).log10();
    (amp, snr)
}

/// Gaussian elimination with partial pivoting (indices read clearest here).
#[allow(clippy::needless_range_loop)]
fn solve3(mut m: [[f64; 3]; 3], mut v: [f64; 3]) -> [f64; 3] {
    for col in 0..3 {
        let pivot = (col..3)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap();
        m.swap(col, pivot);
        v.swap(col, pivot);
        for row in col + 1..3 {
            let f = m[row][col] / m[col][col];
            for j in col..3 {
                m[row][j] -= f * m[col][j];
            }
            v[row] -= f * v[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..3).rev() {
        let s: f64 = (row + 1..3).map(|j| m[row][j] * x[j]).sum();
        x[row] = (v[row] - s) / m[row][row];
    }
    x
}

/// What a receiver run gave.
pub struct Received {
    pub left: Vec<f32>,
    pub right: Vec<f32>,
    pub left_tags: Vec<Tag>,
    pub stereo_messages: Vec<rfgraph::Pmt>,
}

/// Runs `config`'s receiver over `input` on `scheduler` into vectors.
pub fn receive(config: FmConfig, input: Vec<Complex32>, scheduler_name: &str) -> Received {
    let rx = Receiver::new(config).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input));
    let ports = rx.build(&mut fg, src, "out").unwrap();
    let left = fg.add(VectorSink::<f32>::new());
    fg.connect(ports.left.block, ports.left.port, left, "in")
        .unwrap();
    let right = fg.add(VectorSink::<f32>::new());
    fg.connect(ports.right.block, ports.right.port, right, "in")
        .unwrap();
    let messages = ports.stereo.map(|p| {
        let sink = fg.add(MessageSink::new());
        fg.connect_message(p.block, p.port, sink, "in").unwrap();
        sink
    });
    let done = wait(fg.start(scheduler(scheduler_name)).unwrap());
    let l = done.block::<VectorSink<f32>>(left).unwrap();
    let r = done.block::<VectorSink<f32>>(right).unwrap();
    Received {
        left: l.items().to_vec(),
        right: r.items().to_vec(),
        left_tags: l.tags().to_vec(),
        stereo_messages: messages
            .map(|m| done.block::<MessageSink>(m).unwrap().messages().to_vec())
            .unwrap_or_default(),
    }
}
