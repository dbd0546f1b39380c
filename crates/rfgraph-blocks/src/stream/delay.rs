//! [`Delay`]: delays a stream by a settable number of items (GNU Radio's
//! `blocks_delay`), with its registry entry.

use super::tags::forward;
use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The parameters of [`Delay`] (`delay`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct DelayParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// the delay, in GNU Radio vectors (items when `vlen` is 1)
    #[param(
        default = 0,
        unit = "vectors",
        max = limits::MAX_BUFFER_ITEMS,
        settable
    )]
    pub delay: u64,
    /// GNU Radio vector length
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

impl DelayParams {
    /// The delay in items.
    fn items(&self) -> u64 {
        self.delay * self.vlen as u64
    }
}

/// Delays its input by `delay` items: writes that many zeros first, then
/// the input. A larger new delay inserts the difference in zeros at the
/// current point; a smaller one drops the difference from the input, as
/// GNU Radio's `delay` does. Tags move with their items.
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`.
///
/// # Parameters
/// [`DelayParams`]; `delay` may change while the block runs.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{Delay, VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1i16, 2]));
/// let delay = fg.add(Delay::<i16>::new(2));
/// let sink = fg.add(VectorSink::<i16>::new());
/// fg.connect(src, "out", delay, "in")?;
/// fg.connect(delay, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<i16>>(sink).unwrap().items(), &[0, 0, 1, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Delay<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: DelayParams,
    /// The delay in items now.
    delay: u64,
    /// Zeros still to write before the next input item.
    zeros: u64,
    /// Input items still to drop.
    drop: u64,
}

impl<T: Item> Delay<T> {
    /// A delay of `delay` items.
    pub fn new(delay: u64) -> Self {
        Self::with(DelayParams {
            item: ItemKind::F32,
            delay,
            vlen: 1,
        })
    }

    /// The delay `params` describe (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range.
    pub fn from_params(params: DelayParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(mut params: DelayParams) -> Self {
        params.item = kind_of::<T>().unwrap_or(params.item);
        let delay = params.items();
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            delay,
            zeros: delay,
            drop: 0,
        }
    }

    /// Changes the delay (in items) from here on.
    pub fn set_delay(&mut self, delay: u64) {
        // Pending zeros and drops net out against the change.
        let pending = self.zeros as i128 - self.drop as i128 + delay as i128 - self.delay as i128;
        self.zeros = pending.max(0) as u64;
        self.drop = (-pending).max(0) as u64;
        self.delay = delay;
    }

    /// The delay now, in items.
    pub fn delay(&self) -> u64 {
        self.delay
    }
}

impl<T: Item> Block for Delay<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        self.set_delay(self.params.items());
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        let available = self.input.available();
        // Dropped items go without their tags.
        let dropped = (self.drop.min(available as u64)) as usize;
        self.drop -= dropped as u64;
        let o = self.output.slice();
        let zeros = (self.zeros.min(o.len() as u64)) as usize;
        o[..zeros].fill(T::zeroed());
        self.zeros -= zeros as u64;
        let mut copied = 0;
        if self.zeros == 0 {
            let i = &self.input.slice()[dropped..];
            copied = i.len().min(o.len() - zeros);
            rfgraph::copy_items(&mut o[zeros..zeros + copied], &i[..copied]);
        }
        let first = start + dropped as u64;
        forward(
            &self.input,
            first..first + copied as u64,
            &self.output,
            |i| Some(zeros + (i - first) as usize),
        );
        self.input.consume(dropped + copied);
        self.output.produce(zeros + copied);
        Ok(())
    }
}

/// `delay`: GNU Radio's `blocks_delay`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<DelayParams>(
        "delay",
        "Stream Operators",
        "Delays a stream by a settable number of items (zeros first).",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => Delay::<T>::from_params(p)?),
    )
    .doc("Writes `delay` zeros (GNU Radio vectors of `vlen` items), then the input. A larger new delay inserts the difference in zeros; a smaller one drops the difference from the input, as GNU Radio's `set_dly` does. Tags move with their items.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_of_the_delay_net_out_into_zeros_or_drops() {
        let mut d = Delay::<f32>::new(5);
        assert_eq!((d.zeros, d.drop), (5, 0));
        d.zeros = 0; // the five zeros went out
        d.set_delay(8);
        assert_eq!((d.zeros, d.drop), (3, 0));
        d.set_delay(2);
        assert_eq!((d.zeros, d.drop), (0, 3));
        d.set_delay(4);
        assert_eq!((d.zeros, d.drop), (0, 1));
        rfgraph::params::apply(&mut d, "delay", rfgraph::Pmt::U64(6)).unwrap();
        assert_eq!((d.delay(), d.zeros, d.drop), (6, 1, 0));
        assert!(rfgraph::params::apply(&mut d, "delay", rfgraph::Pmt::I64(-1)).is_err());
        let e = rfgraph::params::apply(&mut d, "delay", rfgraph::Pmt::F64(1e12)).unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
        assert_eq!(d.delay(), 6);
    }
}
