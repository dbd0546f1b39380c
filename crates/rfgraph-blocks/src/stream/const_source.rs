//! [`ConstSource`]: an endless (or `items`-long) stream of one value,
//! GNU Radio's `analog_const_source_x`, with its registry entry.

use crate::limit::Limit;
use crate::math::{Arith, constants};
use crate::spec_util::kind_of;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Pmt, Ports, StreamOutput, WorkIo};

/// The parameters of [`ConstSource`] (`const_source`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ConstSourceParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, I32, I16, U8))]
    pub item: ItemKind,
    /// the value written (complex: `[[re, im]]` or `{re, im}`); for integer
    /// types a whole number in the type's range
    #[param(default = Pmt::F64(0.0), alias = "const", settable)]
    pub constant: Pmt,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
}

/// `constant` as an item of type `T`, or why it is none.
fn value_of<T: Arith>(constant: &Pmt) -> Result<T, ParamError> {
    match constants::<T>(constant).as_deref() {
        Some(&[c]) => Ok(c),
        _ => Err(ParamError::new(
            "const_source",
            "constant",
            format!("expected one number of the item type, found {constant:?}"),
        )),
    }
}

impl ConstSourceParams {
    fn check(&self) -> Result<(), ParamError> {
        let finite = |ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(ParamError::new(
                    "const_source",
                    "constant",
                    format!("{:?} is too large for the item type", self.constant),
                ))
            }
        };
        match self.item {
            ItemKind::F32 => finite(value_of::<f32>(&self.constant)?.is_finite()),
            ItemKind::C32 => {
                let c = value_of::<Complex32>(&self.constant)?;
                finite(c.re.is_finite() && c.im.is_finite())
            }
            ItemKind::I32 => value_of::<i32>(&self.constant).map(drop),
            ItemKind::I16 => value_of::<i16>(&self.constant).map(drop),
            ItemKind::U8 => value_of::<u8>(&self.constant).map(drop),
            other => Err(ParamError::new(
                "const_source",
                "type",
                format!("`{other}` is not supported here"),
            )),
        }
    }
}

/// Writes one value over and over; the value is the parameter
/// `constant`, which may change while the source runs.
///
/// # Parameters
/// [`ConstSourceParams`].
///
/// # Stream Outputs
/// - `out`: `T`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt, scheduler::Tpb};
/// use rfgraph_blocks::{ConstSource, VectorSink, stream::ConstSourceParams};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(ConstSource::<f32>::new(ConstSourceParams {
///     constant: Pmt::F64(1.5),
///     items: Some(3),
///     ..Default::default()
/// })?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[1.5; 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ConstSource<T: Arith> {
    output: StreamOutput<T>,
    params: ConstSourceParams,
    value: T,
    limit: Limit,
}

impl<T: Arith> ConstSource<T> {
    /// The source `params` describe (the item type is `T`'s).
    ///
    /// Errors: a constant that is not one number of the item type.
    pub fn new(mut params: ConstSourceParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out"),
            value: value_of(&params.constant)?,
            limit: Limit::new(params.items),
            params,
        })
    }

    /// The value written now.
    pub fn value(&self) -> T {
        self.value
    }
}

impl<T: Arith> Block for ConstSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        self.value = value_of(&self.params.constant)?;
        Ok(())
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
    BlockSpec::of::<ConstSourceParams>(
        "const_source",
        "Sources",
        "An endless (or `items`-long) stream of one settable value.",
        |p| {
            rfgraph::for_item_kinds!(p.item, {
                F32 => f32, C32 => Complex32, I32 => i32, I16 => i16, U8 => u8
            } as T => ConstSource::<T>::new(p)?)
        },
    )
    .doc("`out[i] = constant` for every item, of `f32`, `c32`, `i32`, `i16` or `u8`. For integer types the constant must be a whole number in the type's range (no rounding or wrapping; anything else is refused); a real number given to `c32` has imaginary part 0. Changing `constant` while running applies from the next items written. Endless unless `items` is set, then it writes exactly that many and finishes. GNU Radio's `analog_const_source_x`.")
    .output(PortSpec::new("out", PortItem::OfType))
}
