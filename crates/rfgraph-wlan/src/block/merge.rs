//! [`WlanFrames`]: puts the frames of several `wlan_decoder`s back in
//! stream order (their bursts' `seq`) and posts them on; it can keep
//! them, or count them by rate, for tools.

use super::frame_pdu;
use crate::burst::Decoded;
use rfgraph::{Block, BoxError, MessageOutput, ParamSet, Pmt, Ports, WorkIo};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Frames held while an earlier one is awaited; beyond this many the
/// awaited one is given up (one synchroniser numbers its bursts without
/// gaps, so only another source of frames can make one).
pub const MAX_EARLY: usize = 4096;

/// The parameters of [`WlanFrames`] (`wlan_frames`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct WlanFramesParams {
    /// post frames whose FCS failed too
    #[param(default = false)]
    pub with_bad_fcs: bool,
}

/// Frames from any number of decoders in, the same frames in burst order
/// out.
///
/// # Message Inputs
/// - `in`: frame PDUs from `wlan_decoder`s (each decoder's in order).
///
/// # Message Outputs
/// - `out`: the frames in the order of their bursts; those with a
///   failed FCS only with `with_bad_fcs`.
///
/// # Statistics
/// `frames` (FCS good), `fcs_failed`.
pub struct WlanFrames {
    output: MessageOutput,
    params: WlanFramesParams,
    /// The next `seq` to post.
    next: u64,
    /// Frames that came before their turn.
    early: BTreeMap<u64, Decoded>,
    keep: bool,
    kept: Vec<Decoded>,
    good: Arc<AtomicU64>,
    bad: Arc<AtomicU64>,
}

impl WlanFrames {
    pub fn from_params(params: WlanFramesParams) -> Self {
        Self {
            output: MessageOutput::new("out"),
            params,
            next: 0,
            early: BTreeMap::new(),
            keep: false,
            kept: Vec::new(),
            good: Arc::default(),
            bad: Arc::default(),
        }
    }

    /// Keeps every frame (good or not) for [`frames`](Self::frames).
    pub fn keeping(mut self) -> Self {
        self.keep = true;
        self
    }

    /// The frames kept, in order.
    pub fn frames(&self) -> &[Decoded] {
        &self.kept
    }

    /// Frames whose FCS failed (posted on only `with_bad_fcs`).
    pub fn fcs_failed(&self) -> u64 {
        self.bad.load(Ordering::Relaxed)
    }

    fn emit(&mut self, d: Decoded) {
        let counter = if d.fcs_ok { &self.good } else { &self.bad };
        counter.fetch_add(1, Ordering::Relaxed);
        if d.fcs_ok || self.params.with_bad_fcs {
            self.output.post(frame_pdu::to_pdu(&d));
        }
        if self.keep {
            self.kept.push(d);
        }
    }
}

impl Block for WlanFrames {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("in")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let frame = frame_pdu::from_pdu(&msg).ok_or("not a wlan_decoder frame")?;
        if frame.seq < self.next {
            // Its turn has passed (a second synchroniser's numbering, or
            // a gap given up below): on at once rather than held forever.
            self.emit(frame);
            return Ok(Pmt::Null);
        }
        self.early.insert(frame.seq, frame);
        if self.early.len() > MAX_EARLY {
            // The frame awaited is not coming: go on from the earliest
            // one held.
            self.next = *self.early.keys().next().expect("not empty");
        }
        while let Some(d) = self.early.remove(&self.next) {
            self.next += 1;
            self.emit(d);
        }
        Ok(Pmt::Null)
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("frames", self.good.clone()),
            ("fcs_failed", self.bad.clone()),
        ]
    }
}

/// The registry entry: `wlan_frames`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::BlockSpec;
    BlockSpec::of::<WlanFramesParams>(
        "wlan_frames",
        "Receivers",
        "IEEE 802.11a/g frames from several decoders, back in stream order.",
        |p| Ok(Box::new(WlanFrames::from_params(p)) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Takes the frame PDUs of one or more `wlan_decoder`s and posts them in the order \
         their bursts were found (frames with a failed FCS only with `with_bad_fcs`).",
    )
    .message_input("in")
    .message_output("out")
}
