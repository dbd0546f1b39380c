//! [`ProbeSignal`]: a sink that keeps the last item (or last GNU Radio
//! vector) it read, for code that looks at a level now and then (GNU
//! Radio's `probe_signal_x` and `probe_signal_vx`), as a shared handle
//! and as its reading `level`, with its registry entry.

use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet, ParamValue, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, ParamError, Pmt, Ports, StreamInput, WorkIo};
use std::sync::{Arc, Mutex};

/// The parameters of [`ProbeSignal`] (`probe_signal`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct ProbeSignalParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length: the items kept
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// Consumes a stream and keeps its last `vlen` items, readable while the
/// graph runs through [`level`](Self::level)'s shared handle, or as the
/// block's reading `level` (what GNU Radio's `level()` returns: the
/// item, or a list of `vlen` items; what a GRC `variable_function_probe`
/// polls).
///
/// # Parameters
/// [`ProbeSignalParams`].
///
/// # Stream Inputs
/// - `in`: `T`, in GNU Radio vectors of `vlen`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSource, stream::{ProbeSignal, ProbeSignalParams}};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
/// let probe = ProbeSignal::<f32>::new(ProbeSignalParams::default())?;
/// let level = probe.level();
/// let probe = fg.add(probe);
/// fg.connect(src, "out", probe, "in")?;
/// fg.run(Tpb::new())?;
/// assert_eq!(*level.lock().unwrap(), [3.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ProbeSignal<T: Item> {
    input: StreamInput<T>,
    params: ProbeSignalParams,
    vlen: usize,
    level: Arc<Mutex<Vec<T>>>,
}

impl<T: Item> ProbeSignal<T> {
    /// A probe keeping the last vector of `vlen` items.
    ///
    /// Errors: a `vlen` out of its range.
    pub fn new(mut params: ProbeSignalParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let vlen = params.vlen;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(vlen),
            params,
            vlen,
            level: Arc::new(Mutex::new(vec![T::zeroed(); vlen])),
        })
    }

    /// The last vector read (zeros before the first), shared.
    pub fn level(&self) -> Arc<Mutex<Vec<T>>> {
        self.level.clone()
    }
}

impl<T: Item + ParamValue> Block for ProbeSignal<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn readings(&self) -> &'static [&'static str] {
        &["level"]
    }

    fn reading(&mut self, name: &str) -> Option<Pmt> {
        if name != "level" {
            return None;
        }
        let level = self.level.lock().unwrap_or_else(|e| e.into_inner());
        Some(match level.as_slice() {
            [one] => one.to_pmt(),
            many => Pmt::List(many.iter().map(ParamValue::to_pmt).collect()),
        })
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
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
    BlockSpec::of::<ProbeSignalParams>(
        "probe_signal",
        "Measurement Tools",
        "A sink keeping the last item (or vector) it read.",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => ProbeSignal::<T>::new(p)?),
    )
    .doc("Consumes its input and keeps the last GNU Radio vector of `vlen` items: its reading `level` (the item, or a list of `vlen`), which a GRC `variable_function_probe` polls.")
    .input(PortSpec::new("in", PortItem::OfType))
}
