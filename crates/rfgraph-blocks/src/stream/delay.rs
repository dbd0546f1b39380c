//! [`Delay`]: delays a stream by a settable number of items (GNU Radio's
//! `blocks_delay`), with its registry entry.

use super::tags::forward;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, Pmt, Ports, Setting, Settings, StreamInput, StreamOutput, TagPolicy,
    WorkIo,
};

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
/// # Message Inputs
/// - `delay`: the new delay, in items.
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
    /// Items per GNU Radio vector: the setting counts vectors.
    vlen: u64,
    delay: u64,
    /// Zeros still to write before the next input item.
    zeros: u64,
    /// Input items still to drop.
    drop: u64,
    settings: Settings<Self>,
}

impl<T: Item> Delay<T> {
    /// A delay of `delay` items.
    pub fn new(delay: u64) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            vlen: 1,
            delay,
            zeros: delay,
            drop: 0,
            settings: Settings::new().with(
                Setting::try_new("delay", |s: &mut Self, d: u64| {
                    let items = d.checked_mul(s.vlen).ok_or("too long a delay")?;
                    s.set_delay(items);
                    Ok::<(), String>(())
                })
                .doc("the delay in GNU Radio vectors (items when `vlen` is 1)"),
            ),
        }
    }

    /// Counts the `delay` setting in vectors of `vlen` items (GNU Radio's
    /// vector streams); the delay given to [`new`](Self::new) is in items.
    pub fn vlen(mut self, vlen: u64) -> Self {
        self.vlen = vlen.max(1);
        self
    }

    /// Changes the delay from here on.
    pub fn set_delay(&mut self, delay: u64) {
        // Pending zeros and drops net out against the change.
        let pending = self.zeros as i128 - self.drop as i128 + delay as i128 - self.delay as i128;
        self.zeros = pending.max(0) as u64;
        self.drop = (-pending).max(0) as u64;
        self.delay = delay;
    }

    /// The delay now.
    pub fn delay(&self) -> u64 {
        self.delay
    }
}

impl<T: Item> Block for Delay<T> {
    fn ports(&mut self) -> Ports<'_> {
        self.settings
            .message_inputs(Ports::new().input(&mut self.input).output(&mut self.output))
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Settings::dispatch(self, |b| &mut b.settings, port, msg)
    }

    fn settings(&self) -> Vec<rfgraph::ParamInfo> {
        self.settings.infos()
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
    BlockSpec::new(
        "delay",
        "Stream Operators",
        "Delays a stream by a settable number of items (zeros first).",
        |p: &Params| {
            let (d, vlen) = (p.u64("delay")?, p.u64("vlen")?);
            let items = d
                .checked_mul(vlen)
                .filter(|_| vlen > 0)
                .ok_or_else(|| p.refused("`vlen` must be at least 1 and `delay · vlen` fit 64 bits"))?;
            super::any_item!(p, T => Delay::<T>::new(items).vlen(vlen))
        },
    )
    .doc("Writes `delay` zeros, then the input. A larger new delay inserts the difference in zeros; a smaller one drops the difference from the input. Tags move with their items.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(
        ParamSpec::uint("delay")
            .default(0u64)
            .unit("vectors")
            .settable()
            .doc("the delay, in GNU Radio vectors"),
    )
    .param(ParamSpec::uint("vlen").default(1u64).doc("GNU Radio vector length"))
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
        let mut io = WorkIo::default();
        d.handle_message("delay", Pmt::U64(6), &mut io).unwrap();
        assert_eq!((d.delay(), d.zeros, d.drop), (6, 1, 0));
        assert!(d.handle_message("delay", Pmt::I64(-1), &mut io).is_err());
    }
}
