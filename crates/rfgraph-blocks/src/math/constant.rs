//! [`ConstOp`]: a stream combined with a constant, a scalar or a vector
//! of `vlen` entries, settable while running: GNU Radio's
//! `multiply_const_xx`/`_vxx` and `add_const_xx`/`_vxx`. Owns the kernel
//! and both registry entries.

use super::nary::Combination;
use super::scalar::{Arith, constants};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet, describe, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, FixedRateBlock, FixedRateKernel, ParamError, Pmt};

/// What [`ConstOp`] reads of its parameters: [`MultiplyConstParams`] or
/// [`AddConstParams`].
pub trait ConstParams: ParamSet + Clone {
    /// The registry name of the block.
    const BLOCK: &'static str;
    /// How the constant combines with each item.
    const OP: Combination;
    /// The item type.
    fn item(&self) -> ItemKind;
    /// The constant, one value or `vlen` of them.
    fn constant(&self) -> &Pmt;
    /// GNU Radio's vector length.
    fn vlen(&self) -> usize;
    /// Sets the vector length (to a vector constant's length when it was 1).
    fn set_vlen(&mut self, vlen: usize);
}

/// How many values `constant` holds as constants of `item`, or why it
/// holds none.
fn constant_len(item: ItemKind, constant: &Pmt) -> Result<usize, String> {
    let len = match item {
        ItemKind::F32 => constants::<f32>(constant).map(|c| c.len()),
        ItemKind::C32 => constants::<Complex32>(constant).map(|c| c.len()),
        ItemKind::I32 => constants::<i32>(constant).map(|c| c.len()),
        ItemKind::I16 => constants::<i16>(constant).map(|c| c.len()),
        ItemKind::U8 => constants::<u8>(constant).map(|c| c.len()),
        other => return Err(format!("item type `{other}` is not supported here")),
    };
    len.ok_or_else(|| {
        format!(
            "expected a number or a vector of numbers that fit `{item}`, found {}",
            describe(constant)
        )
    })
}

/// The rules across `type`, `constant` and `vlen`: the constant fits the
/// item type, and holds 1 or `vlen` values (any number up to
/// [`limits::MAX_VLEN`] when `vlen` is 1: that sets the vector length).
fn check_constant<P: ConstParams>(p: &P) -> Result<(), ParamError> {
    let invalid = |reason: String| ParamError::new(P::BLOCK, "constant", reason);
    let len = constant_len(p.item(), p.constant()).map_err(invalid)?;
    let vlen = p.vlen();
    if len > limits::MAX_VLEN {
        return Err(invalid(format!(
            "has {len} values, more than the {} allowed",
            limits::MAX_VLEN
        )));
    }
    if vlen != 1 && len != 1 && len != vlen {
        return Err(invalid(format!(
            "the constant has {len} values; it needs 1 or vlen = {vlen}"
        )));
    }
    Ok(())
}

macro_rules! const_params {
    ($(#[$doc:meta])* $name:ident, $block:literal, $op:expr, $default:expr) => {
        $(#[$doc])*
        #[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
        #[params(check = check_constant)]
        pub struct $name {
            /// stream item type
            #[param(name = "type", kinds(F32, C32, I32, I16, U8))]
            pub item: ItemKind,
            /// one value, or one per vector entry; it must fit the item type
            /// (complex: a number, a complex vector, `[re, im]` pairs or `{re, im}`)
            #[param(default = Pmt::F64($default), alias = "const", settable)]
            pub constant: Pmt,
            /// GNU Radio vector length; a vector constant with `vlen` 1 sets it
            #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
            pub vlen: usize,
        }

        impl ConstParams for $name {
            const BLOCK: &'static str = $block;
            const OP: Combination = $op;
            fn item(&self) -> ItemKind {
                self.item
            }
            fn constant(&self) -> &Pmt {
                &self.constant
            }
            fn vlen(&self) -> usize {
                self.vlen
            }
            fn set_vlen(&mut self, vlen: usize) {
                self.vlen = vlen;
            }
        }
    };
}

const_params!(
    /// The parameters of `multiply_const` ([`MultiplyConst`]); the
    /// constant may change while it runs, as GNU Radio's `set_k` does.
    MultiplyConstParams,
    "multiply_const",
    Combination::Multiply,
    1.0
);

const_params!(
    /// The parameters of `add_const` ([`AddConst`]); the constant may
    /// change while it runs, as GNU Radio's `set_k` does.
    AddConstParams,
    "add_const",
    Combination::Add,
    0.0
);

/// `multiply_const`: every item times a constant.
pub type MultiplyConst<T> = ConstOp<T, MultiplyConstParams>;

/// `add_const`: every item plus a constant.
pub type AddConst<T> = ConstOp<T, AddConstParams>;

/// Multiplies or adds a constant to every item: `out[i] = in[i] · c[i mod
/// vlen]` (or `+`), where the constant `c` is one value or one per entry
/// of a GNU Radio vector of `vlen` items (carried as a flat stream). The
/// constant is the settable parameter `constant`: a new one applies from
/// one item on, the position within the vector kept. Integers wrap as in
/// C++.
///
/// # Parameters
/// [`MultiplyConstParams`] or [`AddConstParams`] (`P`, which also says
/// the operation).
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`, one item per input item.
///
/// # Message Inputs
/// - `constant` (and its alias `const`): a new constant, a number or a
///   vector of `vlen` numbers (complex items: a complex vector, `[re, im]`
///   pairs, or `{re, im}`).
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::math::{MultiplyConst, MultiplyConstParams};
/// use rfgraph_blocks::{VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
/// let gain = fg.add(MultiplyConst::<f32>::block(MultiplyConstParams {
///     constant: 2.0.into(),
///     ..Default::default()
/// })?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, "out", gain, "in")?;
/// fg.connect(gain, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[2.0, 4.0, 6.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ConstOp<T: Arith, P: ConstParams> {
    params: P,
    /// The constant, `vlen` values.
    values: Vec<T>,
    /// Index into `values` of the next item.
    phase: usize,
}

impl<T: Arith, P: ConstParams> ConstOp<T, P> {
    /// The block for `params`; `T` is the item type `params.item` names.
    ///
    /// Errors: a parameter out of its range, a constant that does not fit
    /// `T` or is neither one value nor `vlen` values.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(mut params: P) -> Result<FixedRateBlock<Self>, ParamError> {
        params.validate()?;
        let constant = Self::parse(&params)?;
        // A vector constant sets the vector length when none is given.
        let vlen = if params.vlen() == 1 {
            constant.len()
        } else {
            params.vlen()
        };
        params.set_vlen(vlen);
        let values = Self::spread(constant, vlen)?;
        FixedRateBlock::new(Self {
            params,
            values,
            phase: 0,
        })
    }

    /// The constant of `params` as values of `T`.
    fn parse(params: &P) -> Result<Vec<T>, ParamError> {
        constants::<T>(params.constant()).ok_or_else(|| {
            ParamError::new(
                P::BLOCK,
                "constant",
                format!(
                    "expected a number or a vector of numbers that fit the items, found {}",
                    describe(params.constant())
                ),
            )
        })
    }

    /// `constant` as `vlen` values.
    fn spread(constant: Vec<T>, vlen: usize) -> Result<Vec<T>, ParamError> {
        match constant.len() {
            1 => Ok(vec![constant[0]; vlen]),
            n if n == vlen => Ok(constant),
            n => Err(ParamError::new(
                P::BLOCK,
                "constant",
                format!("the constant has {n} values; it needs 1 or vlen = {vlen}"),
            )),
        }
    }

    /// The constant now, `vlen` values.
    pub fn constant(&self) -> &[T] {
        &self.values
    }

    /// The parameters now.
    pub fn params(&self) -> &P {
        &self.params
    }
}

impl<T: Arith, P: ConstParams> FixedRateKernel for ConstOp<T, P> {
    type In = T;
    type Out = T;

    fn process(&mut self, input: &[T], output: &mut [T]) {
        let op = P::OP;
        if self.values.len() == 1 {
            let c = self.values[0];
            for (o, &x) in output.iter_mut().zip(input) {
                *o = op.apply(x, c);
            }
            return;
        }
        let len = self.values.len();
        for (o, &x) in output.iter_mut().zip(input) {
            *o = op.apply(x, self.values[self.phase]);
            self.phase += 1;
            if self.phase == len {
                self.phase = 0;
            }
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [T]) {
        let op = P::OP;
        if self.values.len() == 1 {
            let c = self.values[0];
            for x in data.iter_mut() {
                *x = op.apply(*x, c);
            }
            return;
        }
        let len = self.values.len();
        for x in data.iter_mut() {
            *x = op.apply(*x, self.values[self.phase]);
            self.phase += 1;
            if self.phase == len {
                self.phase = 0;
            }
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    /// A new constant, spread over the vector; the position within the
    /// vector stays.
    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        let constant = Self::parse(&self.params)?;
        self.values = Self::spread(constant, self.values.len())?;
        Ok(())
    }
}

fn spec<P: ConstParams>(summary: &'static str) -> BlockSpec {
    BlockSpec::of::<P>(P::BLOCK, "Math", summary, |p| {
        rfgraph::for_item_kinds!(p.item(), {
            F32 => f32, C32 => Complex32, I32 => i32, I16 => i16, U8 => u8
        } as T => ConstOp::<T, P>::block(p)?)
    })
    .doc("`out[i] = in[i] (op) constant[i mod vlen]`: the constant is one value or a GNU Radio vector of `vlen` values (the stream is flat; a vector constant with `vlen` 1 sets `vlen` to its length). It must fit the item type (a `u8` constant is a whole number in 0 … 255). Complex constants: a number, a complex vector, `[re, im]` pairs, or a map `{re, im}`. Integers wrap. The constant may change while it runs (GNU Radio's `set_k`), from one item on.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `multiply_const`: GNU Radio's `blocks_multiply_const_xx` and `_vxx`.
pub(crate) fn multiply_const_spec() -> BlockSpec {
    spec::<MultiplyConstParams>("Multiplies every item by a constant (settable).")
}

/// `add_const`: GNU Radio's `blocks_add_const_xx` and `_vxx`.
pub(crate) fn add_const_spec() -> BlockSpec {
    spec::<AddConstParams>("Adds a constant (settable) to every item.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph::params::apply;

    fn block(constant: Pmt, vlen: usize) -> FixedRateBlock<MultiplyConst<f32>> {
        MultiplyConst::<f32>::block(MultiplyConstParams {
            constant,
            vlen,
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn the_constant_is_settable_and_checked_against_vlen() {
        let mut b = block(Pmt::VecF32(vec![1.0, 2.0]), 2);
        apply(&mut b, "constant", Pmt::F64(3.0)).unwrap();
        assert_eq!(b.kernel().constant(), &[3.0, 3.0]);
        apply(&mut b, "constant", Pmt::VecF32(vec![4.0, 5.0])).unwrap();
        assert_eq!(b.kernel().constant(), &[4.0, 5.0]);
        let e = apply(&mut b, "constant", Pmt::VecF32(vec![1.0, 2.0, 3.0])).unwrap_err();
        assert!(e.to_string().contains("needs 1 or vlen = 2"), "{e}");
        let e = apply(&mut b, "constant", Pmt::from("x")).unwrap_err();
        assert!(e.to_string().contains("parameter `constant`"), "{e}");
        let e = apply(&mut b, "constant", Pmt::F64(1e300)).unwrap_err();
        assert!(e.to_string().contains("parameter `constant`"), "{e}");
        assert_eq!(b.kernel().constant(), &[4.0, 5.0]);
        assert_eq!(b.kernel().params().constant, Pmt::VecF32(vec![4.0, 5.0]));
        let bad = |constant: Pmt, vlen: usize| {
            MultiplyConst::<f32>::block(MultiplyConstParams {
                constant,
                vlen,
                ..Default::default()
            })
            .is_err()
        };
        assert!(bad(Pmt::VecF32(vec![1.0, 2.0]), 3));
        assert!(bad(Pmt::F64(1.0), 0));
    }

    /// A vector constant set while running on a scalar block cannot grow
    /// the vector: the change is refused and undone.
    #[test]
    fn a_scalar_constant_stays_scalar() {
        let mut b = block(Pmt::F64(2.0), 1);
        let e = apply(&mut b, "constant", Pmt::VecF32(vec![1.0, 2.0])).unwrap_err();
        assert!(e.to_string().contains("needs 1 or vlen = 1"), "{e}");
        assert_eq!(b.kernel().constant(), &[2.0]);
        assert_eq!(b.kernel().params().constant, Pmt::F64(2.0));
    }

    #[test]
    fn the_registry_entry_takes_the_vector_length_from_a_vector_constant() {
        let spec = multiply_const_spec();
        let given = |pairs: &[(&str, Pmt)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        let block = spec
            .build(given(&[("constant", Pmt::VecF32(vec![1.0, 2.0, 3.0]))]))
            .unwrap();
        let any: &dyn std::any::Any = block.as_ref();
        let b = any
            .downcast_ref::<FixedRateBlock<MultiplyConst<f32>>>()
            .expect("f32 by default");
        assert_eq!(b.kernel().constant(), &[1.0, 2.0, 3.0]);
        assert_eq!(b.kernel().params().vlen, 3);
        // A constant that does not fit the item type: refused by the check
        // already, naming the parameter.
        for (ty, c) in [
            ("i16", Pmt::F64(0.5)),
            ("u8", Pmt::I64(300)),
            ("u8", Pmt::I64(-1)),
            ("i16", Pmt::I64(40_000)),
            ("f32", Pmt::F64(1e300)),
        ] {
            let values = given(&[("type", Pmt::from(ty)), ("constant", c.clone())]);
            let e = spec.check(values.clone()).unwrap_err();
            assert_eq!(e.param(), Some("constant"), "{ty} {c:?}: {e}");
            assert!(spec.build(values).is_err());
        }
        assert!(
            spec.check(given(&[
                ("type", Pmt::from("u8")),
                ("constant", Pmt::I64(255))
            ]))
            .is_ok()
        );
    }
}
