//! [`ConstSource`]: an endless (or `items`-long) stream of one value,
//! GNU Radio's `analog.sig_source_x`-free `analog_const_source_x`, with
//! its registry entry.

use crate::limit::Limit;
use crate::math::{Arith, constants};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Pmt, Ports, Setting, Settings, StreamOutput, WorkIo};

/// Writes one value over and over; the value is the setting `constant`.
///
/// # Stream Outputs
/// - `out`: `T`.
///
/// # Message Inputs
/// - `constant`: a new value (a number; complex values as for
///   [`constants`]).
///
/// # Parameters
/// - `constant`: the value.
/// - `items`: finish after this many items (default: never).
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{ConstSource, VectorSink};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(ConstSource::new(1.5f32).items(3));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[1.5; 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ConstSource<T: Arith> {
    output: StreamOutput<T>,
    value: T,
    limit: Limit,
    settings: Settings<Self>,
}

impl<T: Arith> ConstSource<T> {
    /// An endless stream of `value`.
    pub fn new(value: T) -> Self {
        Self {
            output: StreamOutput::new("out"),
            value,
            limit: Limit::unlimited(),
            settings: Settings::new().with(
                Setting::try_new("constant", |s: &mut Self, v: Pmt| {
                    match constants::<T>(&v).as_deref() {
                        Some(&[c]) => {
                            s.value = c;
                            Ok(())
                        }
                        _ => Err(format!("expected one number, found {v:?}")),
                    }
                })
                .doc("the value written"),
            ),
        }
    }

    /// Finishes after `n` items.
    pub fn items(mut self, n: u64) -> Self {
        self.limit = Limit::of(n);
        self
    }

    /// The value written now.
    pub fn value(&self) -> T {
        self.value
    }
}

impl<T: Arith> Block for ConstSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        self.settings
            .message_inputs(Ports::new().output(&mut self.output))
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Settings::dispatch(self, |b| &mut b.settings, port, msg)
    }

    fn settings(&self) -> Vec<rfgraph::ParamInfo> {
        self.settings.infos()
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let o = self.output.slice();
        let n = self.limit.allow(o.len());
        o[..n].fill(self.value);
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// `const_source`: GNU Radio's `analog_const_source_x`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "const_source",
        "Sources",
        "An endless (or `items`-long) stream of one settable value.",
        |p: &Params| {
            let items = crate::spec_util::items(p)?;
            let raw = p.raw("constant")?.clone();
            rfgraph::for_item_kinds!(p, p.item_type()?, {
                F32 => f32, C32 => Complex32, I32 => i32, I16 => i16, U8 => u8
            } as T => {
                let c = match constants::<T>(&raw).as_deref() {
                    Some(&[c]) => c,
                    _ => return Err(p.invalid("constant", format!("expected one number, found {raw:?}"))),
                };
                let src = ConstSource::<T>::new(c);
                match items { Some(n) => src.items(n), None => src }
            })
        },
    )
    .doc("`out[i] = constant` for every item, of `f32`, `c32`, `i32`, `i16` or `u8`. For integer types the constant must be a whole number in the type's range (no rounding or wrapping; anything else is refused); a real number given to `c32` has imaginary part 0. Changing `constant` while running applies from the next items written. Endless unless `items` is set, then it writes exactly that many and finishes. GNU Radio's `analog_const_source_x`.")
    .param(ParamSpec::item_type(&[
        ItemKind::F32,
        ItemKind::C32,
        ItemKind::I32,
        ItemKind::I16,
        ItemKind::U8,
    ]))
    .param(
        ParamSpec::any("constant")
            .default(0.0)
            .settable()
            .doc("the value written (complex: `[[re, im]]` or `{re, im}`)"),
    )
    .param(crate::spec_util::items_param())
    .output(PortSpec::new("out", PortItem::OfType))
}
