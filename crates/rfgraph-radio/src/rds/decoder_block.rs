//! [`RdsDecoder`]: block synchronisation, error correction and group
//! decoding as a block, from soft bits to field messages.

use super::groups::GroupDecoder;
use super::state::RdsState;
use super::sync::{BlockEvent, BlockSync};
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, StreamInput, TagPolicy,
    WorkIo,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The longest error burst [`RdsDecoder`] corrects at most.
pub const MAX_BURST: usize = 10;

/// The parameters of [`RdsDecoder`] (`rds_decoder`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct RdsDecoderParams {
    /// longest error burst corrected, in bits (0: detect only)
    #[param(default = RdsDecoder::DEFAULT_MAX_BURST, max = MAX_BURST, unit = "bits")]
    pub max_burst: usize,
}

/// The counters [`RdsDecoder`] reports with its statistics.
#[derive(Clone, Debug, Default)]
struct Counters {
    bits: Arc<AtomicU64>,
    blocks_ok: Arc<AtomicU64>,
    blocks_corrected: Arc<AtomicU64>,
    blocks_failed: Arc<AtomicU64>,
    groups: Arc<AtomicU64>,
    syncs: Arc<AtomicU64>,
    sync_losses: Arc<AtomicU64>,
    messages: Arc<AtomicU64>,
}

/// Decodes RDS groups from soft bits: differential decoding, block
/// synchronisation with the offset words, burst-error correction, group
/// assembly, and the PI, PS (0A/0B), RadioText (2A/2B), PTY, TP, TA, MS
/// and DI fields (see `rds::sync` and `rds::groups`).
///
/// # Stream Inputs
/// - `in`: `f32`, soft bits from [`RdsDemod`](super::RdsDemod) (only the
///   signs are used: a sign change is a 1).
///
/// # Message Outputs
/// - `out`: one `Pmt::Map` per change of a confirmed field, always with
///   `"pi"` (`"0x1234"`) and the fields that changed: `"ps"` (8
///   characters), `"rt"` with `"rt_ab"` (`"A"`/`"B"`), `"pty"` (`U64`)
///   with `"tp"`, `"ta"` with `"ms"`, or `"di"` (a map of `stereo`,
///   `artificial_head`, `compressed`, `dynamic_pty`). A map alone with
///   `"pi"` announces a new station. [`json_line`](super::json_line)
///   prints one as a JSON line.
///
/// # Readings
/// - `rds`: the station as decoded so far, a `Pmt::Map` (see
///   [`RdsState::reading`]): the fields of every message merged (`pi`,
///   `ps`, `rt`, `rt_ab`, `pty` with `pty_name`, `tp`, `ta`, `ms`, `di`;
///   each absent until decoded, all forgotten when the PI changes), and
///   `groups`, `errors`, `bler`, `synced`.
///
/// # Counters
/// `rds_bits`, `rds_blocks_ok` (checked as received),
/// `rds_blocks_corrected`, `rds_blocks_failed` (rejected in sync),
/// `rds_groups` (all four blocks good), `rds_syncs`, `rds_sync_losses`,
/// `rds_messages`.
///
/// # Parameters
/// [`RdsDecoderParams`]: the longest error burst corrected, in bits (0:
/// detect only; [`RdsDecoder::new`] uses 2).
///
/// # Usage
/// ```
/// use rfgraph_radio::rds::RdsDecoder;
/// let decoder = RdsDecoder::new();
/// let cautious = RdsDecoder::with_max_burst(1);
/// # let _ = (decoder, cautious);
/// ```
pub struct RdsDecoder {
    input: StreamInput<f32>,
    output: MessageOutput,
    params: RdsDecoderParams,
    sync: BlockSync,
    groups: GroupDecoder,
    events: Vec<BlockEvent>,
    messages: Vec<Pmt>,
    counters: Counters,
    state: RdsState,
}

impl Default for RdsDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl RdsDecoder {
    /// The burst length [`new`](Self::new) corrects.
    pub const DEFAULT_MAX_BURST: usize = 2;

    /// A decoder correcting bursts of up to 2 bits.
    pub fn new() -> Self {
        Self::with_max_burst(Self::DEFAULT_MAX_BURST)
    }

    /// A decoder correcting bursts of up to `max_burst` bits (0 turns
    /// correction off; more than [`MAX_BURST`] corrects [`MAX_BURST`]).
    pub fn with_max_burst(max_burst: usize) -> Self {
        Self::build(RdsDecoderParams {
            max_burst: max_burst.min(MAX_BURST),
        })
    }

    /// The decoder `params` describe.
    ///
    /// Errors: a parameter outside its declaration.
    pub fn from_params(params: RdsDecoderParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::build(params))
    }

    /// The station as decoded so far (the reading `rds` without the
    /// reception's quality).
    pub fn state(&self) -> &RdsState {
        &self.state
    }

    fn build(params: RdsDecoderParams) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: MessageOutput::new("out"),
            sync: BlockSync::new(params.max_burst),
            params,
            groups: GroupDecoder::new(),
            events: Vec::new(),
            messages: Vec::new(),
            counters: Counters::default(),
            state: RdsState::new(),
        }
    }
}

impl Block for RdsDecoder {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let input = self.input.slice();
        let n = input.len();
        for &soft in input {
            self.sync.push_soft(soft, &mut self.events);
            for event in self.events.drain(..) {
                self.groups.push(event, &mut self.messages);
            }
        }
        self.input.consume(n);
        let c = self.sync.counts();
        let k = &self.counters;
        k.bits.store(c.bits, Ordering::Relaxed);
        k.blocks_ok.store(c.blocks_ok, Ordering::Relaxed);
        k.blocks_corrected
            .store(c.blocks_corrected, Ordering::Relaxed);
        k.blocks_failed.store(c.blocks_failed, Ordering::Relaxed);
        k.syncs.store(c.syncs, Ordering::Relaxed);
        k.sync_losses.store(c.sync_losses, Ordering::Relaxed);
        k.groups.store(self.groups.groups(), Ordering::Relaxed);
        k.messages
            .fetch_add(self.messages.len() as u64, Ordering::Relaxed);
        for m in self.messages.drain(..) {
            self.state.absorb(&m);
            self.output.post(m);
        }
        Ok(())
    }

    fn readings(&self) -> &'static [&'static str] {
        &["rds"]
    }

    fn reading(&mut self, name: &str) -> Option<Pmt> {
        (name == "rds").then(|| {
            self.state.reading(
                &self.sync.counts(),
                self.groups.groups(),
                self.sync.is_synced(),
            )
        })
    }

    fn counters(&self) -> Vec<(&'static str, Arc<AtomicU64>)> {
        let k = &self.counters;
        vec![
            ("rds_bits", k.bits.clone()),
            ("rds_blocks_ok", k.blocks_ok.clone()),
            ("rds_blocks_corrected", k.blocks_corrected.clone()),
            ("rds_blocks_failed", k.blocks_failed.clone()),
            ("rds_groups", k.groups.clone()),
            ("rds_syncs", k.syncs.clone()),
            ("rds_sync_losses", k.sync_losses.clone()),
            ("rds_messages", k.messages.clone()),
        ]
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }
}

/// The registry entry: `rds_decoder`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<RdsDecoderParams>(
        "rds_decoder",
        "Receivers",
        "RDS decoder: soft bits in, station data (PI, PS, RadioText, ...) as messages.",
        |p| Ok(Box::new(RdsDecoder::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Synchronises on RDS blocks in `rds_demod`'s soft bits, corrects error bursts of \
         up to `max_burst` bits, and posts on `out` a map of the fields that changed \
         (always with `pi`): programme service name, RadioText, programme type, \
         traffic flags, music/speech, decoder identification. Reading `rds`: the \
         station as decoded so far, with the group count and block error rate.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).doc("soft bits"))
    .message_output("out")
}
