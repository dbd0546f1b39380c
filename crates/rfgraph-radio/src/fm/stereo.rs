//! `StereoDemod`: recovers L−R from the MPX. Owns the pilot PLL, the
//! 38 kHz subcarrier made by doubling its phase, the lock decision and the
//! mono fallback, and how the lock state leaves the block (a stream tag
//! and a message). Filtering L−R to 15 kHz and matrixing are other blocks'
//! (see [`receiver`](super::receiver)).
//!
//! # The MPX
//!
//! `0.9·[(L+R)/2 + (L−R)/2 · sin(2θ)] + p·sin(θ) (+ RDS at 57 kHz)`, with
//! `θ` the 19 kHz pilot's phase (the subcarrier crosses zero rising with
//! the pilot, ITU-R BS.450) and `p` about 0.08–0.1. Locked, the PLL's
//! reference `sin θ` follows the pilot, and `2·mpx·sin(2θ)`, low-passed,
//! is `0.9·(L−R)/2`, the same scale as L+R in the MPX itself.

use super::error::FmError;
use super::lock::PilotLock;
use num_complex::Complex32;
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput,
    WorkIo,
};
use rfgraph_dsp::Pll;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The tag key carrying the stereo state (`Pmt::Bool`) on the first
/// sample it applies to.
pub const STEREO_TAG: &str = "rfgraph:stereo";

/// The pilot's nominal frequency, Hz.
pub const PILOT_HZ: f64 = 19_000.0;

/// The PLL's natural frequency, Hz: settles in about 0.1 s and keeps the
/// reference's jitter from audio near 19 kHz far below a milliradian.
const PLL_BANDWIDTH_HZ: f64 = 10.0;

/// How far the PLL may pull from 19 kHz, Hz: the standard allows ±2 Hz,
/// a receiver's clock adds about 2 Hz per 100 ppm.
const PLL_PULL_HZ: f64 = 50.0;

/// The lowest MPX rate the decoder takes: L−R ends at 53 kHz, and its
/// products with 38 kHz must not fold back below 15 kHz.
pub const MIN_MPX_RATE: f64 = 120_000.0;

/// The parameters of [`StereoDemod`] (`stereo_demod`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct StereoDemodParams {
    /// sample rate of the multiplex, at least 120 kS/s
    #[param(default = 240_000.0, unit = "Hz", min = MIN_MPX_RATE)]
    pub mpx_rate: f64,
}

/// A change of state, as decided.
struct Change {
    /// Offset in the call's output of the first sample it applies to.
    at: usize,
    /// Absolute MPX index of that sample.
    sample: u64,
    stereo: bool,
    level: f32,
    hz: f64,
}

/// Recovers L−R from the MPX: a PLL locks onto the 19 kHz pilot, and
/// `out = 2·in·sin(2θ)` demodulates the 38 kHz subcarrier, whose phase is
/// twice the pilot's. Low-passed to 15 kHz, `out` is `0.9·(L−R)/2`, to be
/// added to and taken from the low-passed MPX (`0.9·(L+R)/2`).
///
/// While the pilot is not locked (no pilot, too weak, out of phase; see
/// [`PilotLock`]) `out` is exactly zero, so the matrix gives mono with
/// both channels equal. The state starts unlocked; each change is tagged
/// [`STEREO_TAG`] (`Pmt::Bool`) on the first output sample it applies to
/// (and the initial `false` on sample 0), and posted on `stereo` as a map
/// `{stereo: Bool, sample: U64, pilot_level: F32, pilot_hz: F64}`
/// (`sample` is the MPX index, `pilot_level` the pilot's in-phase level of
/// 75 kHz deviation). Decisions fall on fixed sample counts, so the output
/// does not depend on how the stream is split into calls.
///
/// # Stream Inputs
/// - `in`: `f32`, the MPX at `mpx_rate`, 75 kHz deviation = 1.0.
///
/// # Stream Outputs
/// - `out`: `f32`, L−R on the 38 kHz subcarrier brought to base band
///   (not yet low-passed), at `mpx_rate`.
///
/// # Message Outputs
/// - `stereo`: a map per change of state (see above).
///
/// # Readings
/// - `stereo`: `Pmt::Bool`, locked to the pilot (decoding stereo) now.
/// - `pilot_level`: `Pmt::F64`, the pilot's in-phase level as the PLL
///   estimates it now, of 75 kHz deviation (0.09 is 6.75 kHz; lock needs
///   [`LOCK_LEVEL`](super::LOCK_LEVEL)).
/// - `pilot_hz`: `Pmt::F64`, the PLL's frequency now, Hz.
///
/// # Parameters
/// [`StereoDemodParams`]: the MPX rate, at least [`MIN_MPX_RATE`].
///
/// # Usage
/// ```
/// use rfgraph_radio::fm::StereoDemod;
/// let stereo = StereoDemod::new(240_000.0)?;
/// # let _ = stereo;
/// # Ok::<(), rfgraph_radio::fm::FmError>(())
/// ```
pub struct StereoDemod {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    stereo_out: MessageOutput,
    pll: Pll,
    /// The PLL's reference for one loop update's group of samples.
    reference: Vec<Complex32>,
    lock: PilotLock,
    params: StereoDemodParams,
    stereo: bool,
    /// The initial tag is written.
    started: bool,
    /// A change decided on the last sample of a call, tagged on the next
    /// call's first output sample.
    pending_tag: Option<bool>,
    state_counter: Arc<AtomicU64>,
    changes: Arc<AtomicU64>,
}

impl StereoDemod {
    /// A decoder for the MPX at `mpx_rate` samples per second.
    ///
    /// Errors: `mpx_rate` not finite or below [`MIN_MPX_RATE`].
    pub fn new(mpx_rate: f64) -> Result<Self, FmError> {
        Ok(Self::from_params(StereoDemodParams { mpx_rate })?)
    }

    /// The decoder `params` describe.
    ///
    /// Errors: a parameter outside its declaration.
    pub fn from_params(params: StereoDemodParams) -> Result<Self, ParamError> {
        params.validate()?;
        let mpx_rate = params.mpx_rate;
        let pll = Pll::new(
            PILOT_HZ / mpx_rate,
            PLL_BANDWIDTH_HZ / mpx_rate,
            PLL_PULL_HZ / mpx_rate,
        )
        .map_err(|e| ParamError::new("stereo_demod", "mpx_rate", e.to_string()))?;
        let lock = PilotLock::new(mpx_rate / pll.update_interval() as f64);
        Ok(StereoDemod {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            stereo_out: MessageOutput::new("stereo"),
            reference: vec![Complex32::new(0.0, 0.0); pll.update_interval()],
            pll,
            lock,
            params,
            stereo: false,
            started: false,
            pending_tag: None,
            state_counter: Arc::new(AtomicU64::new(0)),
            changes: Arc::new(AtomicU64::new(0)),
        })
    }

    /// Whether the decoder is in stereo now.
    pub fn is_stereo(&self) -> bool {
        self.stereo
    }

    /// The pilot PLL.
    pub fn pll(&self) -> &Pll {
        &self.pll
    }

    fn post_change(&self, change: &Change) {
        let mut map = BTreeMap::new();
        map.insert("stereo".to_string(), Pmt::Bool(change.stereo));
        map.insert("sample".to_string(), Pmt::U64(change.sample));
        map.insert("pilot_level".to_string(), Pmt::F32(change.level));
        map.insert("pilot_hz".to_string(), Pmt::F64(change.hz));
        self.stereo_out.post(Pmt::Map(map));
    }
}

impl Block for StereoDemod {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .message_output(&mut self.stereo_out)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("stereo", self.state_counter.clone()),
            ("stereo_changes", self.changes.clone()),
        ]
    }

    fn readings(&self) -> &'static [&'static str] {
        &["stereo", "pilot_level", "pilot_hz"]
    }

    fn reading(&mut self, name: &str) -> Option<Pmt> {
        match name {
            "stereo" => Some(Pmt::Bool(self.stereo)),
            "pilot_level" => Some(Pmt::F64(f64::from(self.pll.amplitude()))),
            "pilot_hz" => Some(Pmt::F64(self.pll.frequency() * self.params.mpx_rate)),
            _ => None,
        }
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        let input = self.input.slice();
        let output = self.output.slice();
        let n = input.len().min(output.len());
        if n == 0 {
            return Ok(());
        }
        let mut changes: Vec<Change> = Vec::new();
        let mut i = 0;
        while i < n {
            let k = (n - i).min(self.pll.samples_to_update());
            let (x, y) = (&input[i..i + k], &mut output[i..i + k]);
            let refs = &mut self.reference[..k];
            self.pll.track_slice(x, refs);
            if self.stereo {
                for ((y, &x), r) in y.iter_mut().zip(x).zip(refs.iter()) {
                    // 2·x·sin(2θ) = 4·x·sin θ·cos θ
                    *y = 4.0 * x * r.im * r.re;
                }
            } else {
                y.fill(0.0);
            }
            i += k;
            if self.pll.samples_to_update() == self.pll.update_interval() {
                let locked = self
                    .lock
                    .update(self.pll.amplitude(), self.pll.phase_error());
                if locked != self.stereo {
                    self.stereo = locked;
                    changes.push(Change {
                        at: i,
                        sample: start + i as u64,
                        stereo: locked,
                        level: self.pll.amplitude(),
                        hz: self.pll.frequency() * self.params.mpx_rate,
                    });
                }
            }
        }
        if !self.started {
            self.output.add_tag(0, STEREO_TAG, false);
            self.started = true;
        }
        if let Some(state) = self.pending_tag.take() {
            self.output.add_tag(0, STEREO_TAG, state);
        }
        for change in &changes {
            if change.at < n {
                self.output.add_tag(change.at, STEREO_TAG, change.stereo);
            } else {
                self.pending_tag = Some(change.stereo);
            }
            self.changes.fetch_add(1, Ordering::Relaxed);
            self.state_counter
                .store(change.stereo as u64, Ordering::Relaxed);
            self.post_change(change);
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// The registry entry: `stereo_demod`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<StereoDemodParams>(
        "stereo_demod",
        "Receivers",
        "FM stereo decoder: multiplex in, L−R out, locked to the 19 kHz pilot.",
        |p| Ok(Box::new(StereoDemod::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Tracks the 19 kHz pilot of an FM multiplex with a PLL, demodulates the 38 kHz \
         L−R subcarrier with the doubled pilot phase, and writes L−R at the multiplex \
         rate (zero, i.e. mono, while the pilot is not locked). Lock changes are tagged \
         on the output and posted on `stereo`. `stereo_matrix` makes left and right. \
         Readings: `stereo` (locked now), `pilot_level` (of the deviation), `pilot_hz`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).doc("FM multiplex"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("L−R"))
    .message_output("stereo")
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::TAU;
    use rfgraph::Flowgraph;
    use rfgraph::scheduler::Single;
    use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
    use std::time::Duration;

    const FS: f64 = 240_000.0;

    /// An MPX with `pilot`, and `diff` Hz at amplitude 0.2 as L−R only:
    /// `0.9·(L−R)/2·sin 2θ` with L−R = 0.4·sin(2π·diff·t).
    fn mpx(seconds: f64, pilot: f64, diff: f64) -> Vec<f32> {
        (0..(FS * seconds) as usize)
            .map(|k| {
                let t = k as f64 / FS;
                let th = TAU * 19_000.0 * t;
                let lr = 0.4 * (TAU * diff * t).sin();
                (0.9 * lr / 2.0 * (2.0 * th).sin() + pilot * th.sin()) as f32
            })
            .collect()
    }

    fn amplitude(x: &[f32], freq: f64) -> f64 {
        let (mut s, mut c) = (0.0, 0.0);
        for (k, &v) in x.iter().enumerate() {
            let a = TAU * freq * k as f64 / FS;
            s += v as f64 * a.sin();
            c += v as f64 * a.cos();
        }
        2.0 * (s * s + c * c).sqrt() / x.len() as f64
    }

    fn run(input: Vec<f32>) -> (Vec<f32>, Vec<rfgraph::Tag>, Vec<Pmt>) {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input));
        let demod = fg.add(StereoDemod::new(FS).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        let msgs = fg.add(MessageSink::new());
        fg.chain(&[src, demod, sink]).unwrap();
        fg.connect_message(demod, "stereo", msgs, "in").unwrap();
        let done = fg
            .start(Single::new())
            .unwrap()
            .wait_timeout(Duration::from_secs(60))
            .unwrap();
        let s = done.block::<VectorSink<f32>>(sink).unwrap();
        let m = done.block::<MessageSink>(msgs).unwrap();
        (s.items().to_vec(), s.tags().to_vec(), m.messages().to_vec())
    }

    #[test]
    fn demodulates_l_minus_r_once_locked_and_says_so() {
        let (out, tags, msgs) = run(mpx(0.5, 0.09, 1_000.0));
        let stereo: Vec<(u64, Pmt)> = tags
            .iter()
            .filter(|t| t.key == STEREO_TAG)
            .map(|t| (t.index, t.value.clone()))
            .collect();
        assert_eq!(stereo.len(), 2, "{stereo:?}");
        assert_eq!(stereo[0], (0, Pmt::Bool(false)));
        let on = stereo[1].0 as usize;
        assert_eq!(stereo[1].1, Pmt::Bool(true));
        // The PLL settles and the detector holds for 0.1 s.
        assert!((24_000..60_000).contains(&on), "locked at {on}");
        assert!(out[..on].iter().all(|&x| x == 0.0));
        // Base band L−R: 0.9 · 0.4 / 2 = 0.18.
        let a = amplitude(&out[on + 12_000..on + 36_000], 1_000.0);
        assert!((a - 0.18).abs() < 0.002, "L−R amplitude {a}");
        let [Pmt::Map(m)] = &msgs[..] else {
            panic!("{msgs:?}")
        };
        assert_eq!(m["stereo"], Pmt::Bool(true));
        assert_eq!(m["sample"], Pmt::U64(on as u64));
        assert!(matches!(m["pilot_level"], Pmt::F32(l) if (l - 0.09).abs() < 0.01));
        assert!(matches!(m["pilot_hz"], Pmt::F64(f) if (f - 19_000.0).abs() < 1.0));
    }

    #[test]
    fn stays_mono_without_a_pilot_and_falls_back_when_it_goes() {
        let (out, tags, msgs) = run(mpx(0.3, 0.0, 1_000.0));
        assert!(out.iter().all(|&x| x == 0.0));
        assert_eq!(tags.iter().filter(|t| t.key == STEREO_TAG).count(), 1);
        assert!(msgs.is_empty());
        // A weak pilot (1 kHz of deviation) is not trusted either.
        let (out, _, msgs) = run(mpx(0.3, 0.013, 1_000.0));
        assert!(out.iter().all(|&x| x == 0.0) && msgs.is_empty());
        // The pilot stops after 0.4 s: back to mono within 0.1 s.
        let mut x = mpx(0.4, 0.09, 1_000.0);
        x.extend(mpx(0.3, 0.0, 1_000.0));
        let (out, tags, msgs) = run(x);
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        let off = tags
            .iter()
            .filter(|t| t.key == STEREO_TAG)
            .find(|t| t.value == Pmt::Bool(false) && t.index > 0)
            .expect("an unlock tag")
            .index as usize;
        assert!((96_000..120_000).contains(&off), "unlocked at {off}");
        assert!(out[off..].iter().all(|&x| x == 0.0));
    }

    #[test]
    fn rejects_a_low_mpx_rate() {
        assert!(StereoDemod::new(100e3).is_err());
        assert!(StereoDemod::new(f64::NAN).is_err());
    }
}
