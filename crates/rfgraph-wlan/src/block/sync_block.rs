//! [`WlanSync`]: the receiver's first stage as a block. It sees every
//! sample, finds frames ([`Synchronizer`]) and writes each frame's burst
//! (from its long training field on, frequency-corrected) to one of its
//! `lanes` outputs, tagged with [`BurstMeta`]; the other samples go
//! nowhere. A burst goes whole to the lane with the most room, so
//! decoders on other cores share the frames; `seq` lets the merge put
//! them back in order.

use super::burst_tag::{BURST_TAG, BurstMeta};
use crate::burst::{Burst, Dropped};
use crate::sync::Synchronizer;
use num_complex::Complex32;
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The most lanes.
pub const MAX_LANES: usize = 8;
const LANE_NAMES: [&str; MAX_LANES] = [
    "out0", "out1", "out2", "out3", "out4", "out5", "out6", "out7",
];
/// Samples searched per call: bounds the bursts a call can cut.
const CHUNK: usize = 1 << 15;
/// Bursts cut but not yet written before the search pauses.
const HELD: usize = 4;

/// The parameters of [`WlanSync`] (`wlan_sync`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct WlanSyncParams {
    /// outputs the bursts are shared between (one decoder each)
    #[param(default = 1, min = 1)]
    pub lanes: usize,
}

impl WlanSyncParams {
    fn check(&self) -> Result<(), ParamError> {
        if !(1..=MAX_LANES).contains(&self.lanes) {
            return Err(ParamError::new(
                "wlan_sync",
                "lanes",
                format!("is 1 to {MAX_LANES}"),
            ));
        }
        Ok(())
    }
}

/// Finds 802.11a/g frames in 20 MS/s complex samples and writes their
/// bursts.
///
/// # Stream Inputs
/// - `in`: complex baseband at 20 MS/s (`c32`).
///
/// # Stream Outputs
/// - `out0` … `out{lanes-1}`: bursts, each tagged `wlan_burst`
///   ([`BurstMeta`]) on its first sample.
///
/// # Parameters
/// [`WlanSyncParams`].
///
/// # Statistics
/// `bursts`, and one counter per drop reason: `dropped_signal`
/// (parity, rate, length or reserved bits of SIGNAL),
/// `dropped_truncated`, `dropped_no_ltf`.
pub struct WlanSync {
    input: StreamInput<Complex32>,
    outputs: Vec<StreamOutput<Complex32>>,
    params: WlanSyncParams,
    sync: Synchronizer,
    /// Cut, not yet (wholly) written: the front one to `lane`, `written`
    /// samples of it so far.
    held: Vec<Burst>,
    lane: Option<usize>,
    written: usize,
    /// The lane the last burst went to.
    last: usize,
    flushed: bool,
    counts: SyncCounts,
}

/// The counters of [`WlanSync`], shared with the statistics.
#[derive(Clone, Debug, Default)]
pub struct SyncCounts {
    pub bursts: Arc<AtomicU64>,
    pub dropped_signal: Arc<AtomicU64>,
    pub dropped_truncated: Arc<AtomicU64>,
    pub dropped_no_ltf: Arc<AtomicU64>,
}

impl WlanSync {
    /// A synchroniser writing to `lanes` outputs.
    pub fn new(lanes: usize) -> Result<Self, ParamError> {
        Self::from_params(WlanSyncParams { lanes })
    }

    /// A synchroniser of `params`.
    pub fn from_params(params: WlanSyncParams) -> Result<Self, ParamError> {
        params.check()?;
        let lanes = params.lanes;
        Ok(Self {
            input: StreamInput::new("in"),
            outputs: LANE_NAMES[..lanes]
                .iter()
                .map(|n| StreamOutput::new(n))
                .collect(),
            params,
            sync: Synchronizer::new(),
            held: Vec::new(),
            lane: None,
            written: 0,
            last: lanes - 1,
            flushed: false,
            counts: SyncCounts::default(),
        })
    }

    /// The counters.
    pub fn counts(&self) -> &SyncCounts {
        &self.counts
    }

    /// Writes held bursts as far as their lanes have room; true when
    /// none is left.
    fn write_held(&mut self) -> bool {
        while let Some(burst) = self.held.first() {
            let lane = match self.lane {
                Some(l) => l,
                None => {
                    // A burst goes whole to the lane with the most room;
                    // among equals, the next after the last one used.
                    let n = self.outputs.len();
                    let mut l = (self.last + 1) % n;
                    for k in 1..n {
                        let c = (self.last + 1 + k) % n;
                        if self.outputs[c].free() > self.outputs[l].free() {
                            l = c;
                        }
                    }
                    if self.outputs[l].free() == 0 {
                        return false;
                    }
                    let meta = BurstMeta {
                        seq: burst.seq,
                        start: burst.start,
                        cfo: burst.cfo,
                        header: burst.header.clone(),
                    };
                    self.outputs[l].add_tag(0, BURST_TAG, meta.to_pmt());
                    self.lane = Some(l);
                    self.last = l;
                    self.written = 0;
                    l
                }
            };
            let out = self.outputs[lane].slice();
            let rest = &burst.samples[self.written..];
            let n = out.len().min(rest.len());
            out[..n].copy_from_slice(&rest[..n]);
            self.outputs[lane].produce(n);
            self.written += n;
            if self.written < burst.samples.len() {
                return false;
            }
            self.held.remove(0);
            self.lane = None;
        }
        true
    }

    fn count(&self) {
        let reasons = self.sync.dropped();
        let get = |r: Dropped| reasons.count(r);
        self.counts.dropped_signal.store(
            get(Dropped::SignalParity)
                + get(Dropped::SignalRate)
                + get(Dropped::SignalLength)
                + get(Dropped::SignalReserved),
            Ordering::Relaxed,
        );
        self.counts
            .dropped_truncated
            .store(get(Dropped::Truncated), Ordering::Relaxed);
        self.counts
            .dropped_no_ltf
            .store(get(Dropped::NoLongPreamble), Ordering::Relaxed);
    }
}

impl Block for WlanSync {
    fn ports(&mut self) -> Ports<'_> {
        self.outputs
            .iter_mut()
            .fold(Ports::new().input(&mut self.input), |p, o| p.output(o))
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if self.write_held() && self.held.len() < HELD {
            let before = self.held.len();
            let i = self.input.slice();
            let n = i.len().min(CHUNK);
            self.sync.push(&i[..n], &mut self.held);
            self.input.consume(n);
            if !self.flushed && self.input.is_finished() && self.input.available() == 0 {
                self.flushed = true;
                self.sync.finish(&mut self.held);
            }
            let cut = (self.held.len() - before) as u64;
            self.counts.bursts.fetch_add(cut, Ordering::Relaxed);
            self.count();
            self.write_held();
        }
        if !self.held.is_empty() {
            // Bursts wait for room: only this block knows it holds them.
            io.call_again_at(Instant::now() + Duration::from_millis(1));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("bursts", self.counts.bursts.clone()),
            ("dropped_signal", self.counts.dropped_signal.clone()),
            ("dropped_truncated", self.counts.dropped_truncated.clone()),
            ("dropped_no_ltf", self.counts.dropped_no_ltf.clone()),
        ]
    }

    fn tag_policy(&self) -> TagPolicy {
        // Bursts are not the input's samples: its tags do not map onto them.
        TagPolicy::Manual
    }
}

/// The registry entry: `wlan_sync`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::params::ItemKind;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<WlanSyncParams>(
        "wlan_sync",
        "Receivers",
        "IEEE 802.11a/g frame detection and synchronisation: samples in, frame bursts out.",
        |p| Ok(Box::new(WlanSync::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Finds 802.11a/g OFDM frames in 20 MS/s complex samples (short-preamble \
         autocorrelation with a plateau test), estimates their carrier offset (short and \
         long preamble) and timing (long-preamble cross-correlation), reads the SIGNAL \
         field, and writes each frame from its long training field on, corrected, to the \
         output with the most room, tagged `wlan_burst`. Connect each output to a \
         `wlan_decoder` and the decoders' `frames` to one `wlan_frames`.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).repeated("lanes"))
}
