//! [`WlanDecoder`]: the receiver's second stage as a block. It reads the
//! bursts one [`WlanSync`](super::WlanSync) lane writes, decodes each
//! ([`Decoder`]) and posts the frame as a PDU
//! ([`frame_pdu`](super::frame_pdu)). It sees only frames, so several
//! can run on other cores than the synchroniser.

use super::burst_tag::{BURST_TAG, BurstMeta};
use super::frame_pdu;
use crate::burst::Burst;
use crate::decoder::Decoder;
use num_complex::Complex32;
use rfgraph::{Block, BoxError, MessageOutput, ParamSet, Ports, StreamInput, TagPolicy, WorkIo};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The parameters of [`WlanDecoder`] (`wlan_decoder`): none.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct WlanDecoderParams {}

/// Decodes the bursts of one `wlan_sync` lane into frames.
///
/// # Stream Inputs
/// - `in`: bursts from a `wlan_sync` output, each tagged `wlan_burst`.
///
/// # Message Outputs
/// - `frames`: one PDU per burst, in the lane's order: metadata `seq`,
///   `sample`, `encoding`, `rate_mbps`, `length`, `snr_db`, `cfo_hz`,
///   `fcs_ok`; data the MPDU without its FCS.
///
/// # Statistics
/// `frames`, `fcs_failed`, `skipped` (samples without a burst tag).
pub struct WlanDecoder {
    input: StreamInput<Complex32>,
    frames: MessageOutput,
    params: WlanDecoderParams,
    decoder: Decoder,
    /// The burst being gathered: its description and samples so far.
    current: Option<Burst>,
    count: Arc<AtomicU64>,
    fcs_failed: Arc<AtomicU64>,
    skipped: Arc<AtomicU64>,
}

impl Default for WlanDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl WlanDecoder {
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            frames: MessageOutput::new("frames"),
            params: WlanDecoderParams::default(),
            decoder: Decoder::new(),
            current: None,
            count: Arc::default(),
            fcs_failed: Arc::default(),
            skipped: Arc::default(),
        }
    }

    /// Starts the burst whose tag is on the next sample; otherwise skips
    /// to the next tagged sample (or the whole window). True when a
    /// burst started.
    fn start_burst(&mut self) -> bool {
        let here = self.input.position();
        let tags = self.input.tags();
        let mut next = None;
        for t in tags.iter().filter(|t| t.key == BURST_TAG) {
            if t.index == here {
                if let Some(meta) = BurstMeta::from_pmt(&t.value) {
                    let len = Burst::len_for(&meta.header.signal);
                    self.current = Some(Burst {
                        seq: meta.seq,
                        start: meta.start,
                        cfo: meta.cfo,
                        samples: Vec::with_capacity(len),
                        header: meta.header,
                    });
                    return true;
                }
            } else if t.index > here {
                next = Some(next.map_or(t.index, |n: u64| n.min(t.index)));
            }
        }
        let available = self.input.available() as u64;
        let skip = next.map_or(available, |n| (n - here).min(available)) as usize;
        self.input.consume(skip);
        self.skipped.fetch_add(skip as u64, Ordering::Relaxed);
        false
    }
}

impl Block for WlanDecoder {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.frames)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        loop {
            if self.input.available() == 0 {
                return Ok(());
            }
            if self.current.is_none() && !self.start_burst() {
                continue;
            }
            let burst = self.current.as_mut().expect("started");
            let want = Burst::len_for(&burst.header.signal) - burst.samples.len();
            let i = self.input.slice();
            let n = want.min(i.len());
            burst.samples.extend_from_slice(&i[..n]);
            self.input.consume(n);
            if n < want {
                return Ok(());
            }
            let burst = self.current.take().expect("started");
            let frame = self.decoder.decode(&burst);
            self.count.fetch_add(1, Ordering::Relaxed);
            if !frame.fcs_ok {
                self.fcs_failed.fetch_add(1, Ordering::Relaxed);
            }
            self.frames.post(frame_pdu::to_pdu(&frame));
        }
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        vec![
            ("frames", self.count.clone()),
            ("fcs_failed", self.fcs_failed.clone()),
            ("skipped", self.skipped.clone()),
        ]
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }
}

/// The registry entry: `wlan_decoder`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::params::ItemKind;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<WlanDecoderParams>(
        "wlan_decoder",
        "Receivers",
        "IEEE 802.11a/g frame decoder: bursts in, frames (PDUs) out.",
        |_| Ok(Box::new(WlanDecoder::new()) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Decodes the bursts of one `wlan_sync` output: FFT, least-squares channel \
         estimate, equalisation with pilot phase tracking, soft demapping, \
         deinterleaving, depuncturing, K = 7 Viterbi decoding, descrambling and the FCS \
         check. Posts one PDU per burst on `frames` (`fcs_ok` false when the FCS failed).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)).doc("bursts"))
    .message_output("frames")
}
