//! [`ProbeSignal`]: a sink that keeps the last item (or last GNU Radio
//! vector) it read, for code that looks at a level now and then (GNU
//! Radio's `probe_signal_x` and `probe_signal_vx`), with its registry
//! entry.

use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, WorkIo};
use std::sync::{Arc, Mutex};

/// Consumes a stream and keeps its last `vlen` items, readable while the
/// graph runs through [`level`](Self::level)'s shared handle.
///
/// # Stream Inputs
/// - `in`: `T`, in GNU Radio vectors of `vlen`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSource, stream::ProbeSignal};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
/// let probe = ProbeSignal::<f32>::new(1)?;
/// let level = probe.level();
/// let probe = fg.add(probe);
/// fg.connect(src, "out", probe, "in")?;
/// fg.run(Tpb::new())?;
/// assert_eq!(*level.lock().unwrap(), [3.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ProbeSignal<T: Item> {
    input: StreamInput<T>,
    vlen: usize,
    level: Arc<Mutex<Vec<T>>>,
}

impl<T: Item> ProbeSignal<T> {
    /// A probe keeping the last vector of `vlen` items.
    ///
    /// Errors: a `vlen` of 0.
    pub fn new(vlen: usize) -> Result<Self, String> {
        if vlen == 0 {
            return Err("vlen must be at least 1".into());
        }
        Ok(Self {
            input: StreamInput::new("in").with_min_items(vlen),
            vlen,
            level: Arc::new(Mutex::new(vec![T::zeroed(); vlen])),
        })
    }

    /// The last vector read (zeros before the first), shared.
    pub fn level(&self) -> Arc<Mutex<Vec<T>>> {
        self.level.clone()
    }
}

impl<T: Item> Block for ProbeSignal<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let n = i.len() / self.vlen * self.vlen;
        if n > 0 {
            self.level
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .copy_from_slice(&i[n - self.vlen..n]);
            self.input.consume(n);
        }
        Ok(())
    }
}

/// `probe_signal`: GNU Radio's `blocks_probe_signal_x` and `_vx`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "probe_signal",
        "Measurement Tools",
        "A sink keeping the last item (or vector) it read.",
        |p: &Params| {
            let vlen = p.usize("vlen")?;
            super::any_item!(p, T => ProbeSignal::<T>::new(vlen).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Consumes its input and keeps the last GNU Radio vector of `vlen` items, for Rust code holding the block's `level()` (GNU Radio's function probes have no counterpart yet).")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::uint("vlen").default(1u64).doc("GNU Radio vector length"))
    .input(PortSpec::new("in", PortItem::OfType))
}
