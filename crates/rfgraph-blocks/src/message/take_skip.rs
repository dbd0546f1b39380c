//! [`TakeSkipToPdu`]: PDUs of `take` items every `take + skip` items of a
//! stream (GNU Radio's `pdu_take_skip_to_pdu`), with its registry entry.

use super::pdu::{PduItem, pdu};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, StreamInput, TagPolicy, WorkIo};

/// Posts the first `take` items of every `take + skip` as a PDU with
/// metadata `pdu_num` (0, 1, …); a last incomplete PDU is not posted.
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `f32` or `Complex32`).
///
/// # Message Outputs
/// - `pdus`: the PDUs.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::TakeSkipToPdu;
/// let pdus = TakeSkipToPdu::<f32>::new(1024, 4096)?;
/// # let _ = pdus;
/// # Ok::<(), String>(())
/// ```
pub struct TakeSkipToPdu<T: PduItem> {
    input: StreamInput<T>,
    output: MessageOutput,
    take: usize,
    skip: usize,
    /// Position in the current period of `take + skip` items.
    phase: usize,
    items: Vec<T>,
    count: u64,
}

impl<T: PduItem> TakeSkipToPdu<T> {
    /// PDUs of `take` items, `skip` items apart.
    ///
    /// Errors: a `take` of 0.
    pub fn new(take: usize, skip: usize) -> Result<Self, String> {
        if take == 0 {
            return Err("take must be at least 1".into());
        }
        Ok(Self {
            input: StreamInput::new("in"),
            output: MessageOutput::new("pdus"),
            take,
            skip,
            phase: 0,
            items: Vec::with_capacity(take.min(1 << 20)),
            count: 0,
        })
    }
}

impl<T: PduItem> Block for TakeSkipToPdu<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.output)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let mut k = 0;
        while k < i.len() {
            if self.phase < self.take {
                let n = (self.take - self.phase).min(i.len() - k);
                self.items.extend_from_slice(&i[k..k + n]);
                self.phase += n;
                k += n;
                if self.phase == self.take {
                    let meta = [("pdu_num".to_string(), Pmt::U64(self.count))]
                        .into_iter()
                        .collect();
                    let items = std::mem::replace(
                        &mut self.items,
                        Vec::with_capacity(self.take.min(1 << 20)),
                    );
                    self.output.post(pdu(meta, T::to_data(items)));
                    self.count += 1;
                }
            } else {
                let n = (self.take + self.skip - self.phase).min(i.len() - k);
                self.phase += n;
                k += n;
            }
            if self.phase == self.take + self.skip {
                self.phase = 0;
            }
        }
        self.input.consume(k);
        Ok(())
    }
}

/// `take_skip_to_pdu`: GNU Radio's `pdu_take_skip_to_pdu`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "take_skip_to_pdu",
        "Packet Operators",
        "PDUs of `take` items every `take + skip` items of a stream.",
        |p: &Params| {
            let (take, skip) = (p.usize("take")?, p.usize("skip")?);
            rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => TakeSkipToPdu::<T>::new(take, skip).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Each PDU's metadata is `pdu_num`, counting from 0; a last incomplete PDU is dropped.")
    .param(ParamSpec::item_type(&[ItemKind::C32, ItemKind::F32, ItemKind::U8]))
    .param(ParamSpec::uint("take").default(1024u64).unit("items").doc("items per PDU"))
    .param(ParamSpec::uint("skip").default(4096u64).unit("items").doc("items skipped between PDUs"))
    .input(PortSpec::new("in", PortItem::OfType))
    .message_output("pdus")
}
