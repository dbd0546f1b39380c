//! [`TakeSkipToPdu`]: PDUs of `take` items every `take + skip` items of a
//! stream (GNU Radio's `pdu_take_skip_to_pdu`), with its registry entry.

use super::pdu::{PduItem, pdu};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, StreamInput, TagPolicy,
    WorkIo,
};

/// The parameters of [`TakeSkipToPdu`] (`take_skip_to_pdu`). `take` and
/// `skip` may change while the block runs (GNU Radio's `set_take`,
/// `set_skip`): the PDU or gap under way keeps its length, the next ones
/// have the new one.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct TakeSkipToPduParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, U8))]
    pub item: ItemKind,
    /// items per PDU
    #[param(default = 1024, unit = "items", min = 1, max = limits::MAX_ELEMENTS, settable)]
    pub take: usize,
    /// items skipped between PDUs
    #[param(default = 4096, unit = "items", max = u32::MAX, settable)]
    pub skip: usize,
}

/// Posts the first `take` items of every `take + skip` as a PDU with
/// metadata `pdu_num` (0, 1, …); a last incomplete PDU is not posted.
///
/// # Parameters
/// [`TakeSkipToPduParams`]; `take` and `skip` have message inputs of
/// their names.
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `f32` or `Complex32`).
///
/// # Message Outputs
/// - `pdus`: the PDUs.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{TakeSkipToPdu, TakeSkipToPduParams};
/// let pdus = TakeSkipToPdu::<f32>::new(TakeSkipToPduParams {
///     take: 1024,
///     skip: 4096,
///     ..Default::default()
/// })?;
/// # let _ = pdus;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TakeSkipToPdu<T: PduItem> {
    input: StreamInput<T>,
    output: MessageOutput,
    params: TakeSkipToPduParams,
    /// Whether the items under way are taken (or skipped).
    taking: bool,
    /// Items left in the PDU or gap under way.
    left: usize,
    items: Vec<T>,
    count: u64,
}

impl<T: PduItem> TakeSkipToPdu<T> {
    /// PDUs of `params.take` items, `params.skip` items apart (the item
    /// type is `T`'s; `params.item` is what the registry builds from).
    ///
    /// Errors: a `take` of 0 or beyond [`limits::MAX_ELEMENTS`].
    pub fn new(params: TakeSkipToPduParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: MessageOutput::new("pdus"),
            taking: true,
            left: params.take,
            items: Vec::with_capacity(params.take.min(1 << 20)),
            params,
            count: 0,
        })
    }

    /// Posts the PDU gathered.
    fn post(&mut self) {
        let meta = [("pdu_num".to_string(), Pmt::U64(self.count))]
            .into_iter()
            .collect();
        let capacity = self.params.take.min(1 << 20);
        let items = std::mem::replace(&mut self.items, Vec::with_capacity(capacity));
        self.output.post(pdu(meta, T::to_data(items)));
        self.count += 1;
    }
}

impl<T: PduItem> Block for TakeSkipToPdu<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let len = self.input.slice().len();
        let mut k = 0;
        while k < len {
            let n = self.left.min(len - k);
            if self.taking {
                self.items.extend_from_slice(&self.input.slice()[k..k + n]);
            }
            self.left -= n;
            k += n;
            if self.left == 0 {
                // The next PDU or gap takes the parameters of now.
                if self.taking {
                    self.post();
                }
                let (take, skip) = (self.params.take, self.params.skip);
                (self.taking, self.left) = if self.taking && skip > 0 {
                    (false, skip)
                } else {
                    (true, take)
                };
            }
        }
        self.input.consume(k);
        Ok(())
    }
}

/// `take_skip_to_pdu`: GNU Radio's `pdu_take_skip_to_pdu`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<TakeSkipToPduParams>(
        "take_skip_to_pdu",
        "Packet Operators",
        "PDUs of `take` items every `take + skip` items of a stream.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => TakeSkipToPdu::<T>::new(p)?)
        },
    )
    .doc("Each PDU's metadata is `pdu_num`, counting from 0; a last incomplete PDU is dropped. `take` and `skip` may change while running (GNU Radio's `set_take`, `set_skip`): the PDU or gap under way keeps its length, the next ones have the new ones.")
    .input(PortSpec::new("in", PortItem::OfType))
    .message_output("pdus")
}
