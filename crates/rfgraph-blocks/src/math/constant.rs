//! [`ConstOp`]: a stream combined with a constant, a scalar or a vector
//! of `vlen` entries, settable while running: GNU Radio's
//! `multiply_const_xx`/`_vxx` and `add_const_xx`/`_vxx`. Owns the kernel
//! and both registry entries.

use super::nary::Combination;
use super::scalar::{Arith, constants};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, FixedRateKernel, Pmt, Setting};

/// Multiplies or adds a constant to every item: `out[i] = in[i] · c[i mod
/// vlen]` (or `+`), where the constant `c` is one value or one per entry
/// of a GNU Radio vector of `vlen` items (carried as a flat stream). The
/// constant is the setting `constant`. Integers wrap as in C++.
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`, one item per input item.
///
/// # Message Inputs
/// - `constant`: a new constant, a number or a vector of `vlen` numbers
///   (complex items: a complex vector, `[re, im]` pairs, or `{re, im}`).
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{Combination, ConstOp, VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
/// let gain = fg.add(ConstOp::<f32>::block(Combination::Multiply, vec![2.0], 1)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, "out", gain, "in")?;
/// fg.connect(gain, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[2.0, 4.0, 6.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ConstOp<T: Arith> {
    op: Combination,
    values: Vec<T>,
    /// Index into `values` of the next item.
    phase: usize,
}

impl<T: Arith> ConstOp<T> {
    /// The block combining with `op` and `constant` (one value, or
    /// `vlen` values), with its `constant` setting.
    ///
    /// Errors: `vlen` of 0, or a constant that is neither one value nor
    /// `vlen` values.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(
        op: Combination,
        constant: Vec<T>,
        vlen: usize,
    ) -> Result<FixedRateBlock<Self>, String> {
        let values = Self::spread(constant, vlen)?;
        let kernel = Self {
            op,
            values,
            phase: 0,
        };
        Ok(FixedRateBlock::new(kernel)
            .map_err(|e| e.to_string())?
            .with_setting(
                Setting::try_new("constant", |k: &mut Self, v: Pmt| {
                    let c = constants::<T>(&v).ok_or_else(|| {
                        format!("expected a number or a vector of numbers, found {v:?}")
                    })?;
                    k.values = Self::spread(c, k.values.len())?;
                    Ok::<(), String>(())
                })
                .doc("the constant, one value or one per vector entry"),
            ))
    }

    /// `constant` as `vlen` values.
    fn spread(constant: Vec<T>, vlen: usize) -> Result<Vec<T>, String> {
        if vlen == 0 {
            return Err("vlen must be at least 1".into());
        }
        match constant.len() {
            1 => Ok(vec![constant[0]; vlen]),
            n if n == vlen => Ok(constant),
            n => Err(format!(
                "the constant has {n} values; it needs 1 or vlen = {vlen}"
            )),
        }
    }

    /// The constant now.
    pub fn constant(&self) -> &[T] {
        &self.values
    }

    #[inline]
    fn run(&mut self, input: &[T], output: &mut [T]) {
        let op = self.op;
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
}

impl<T: Arith> FixedRateKernel for ConstOp<T> {
    type In = T;
    type Out = T;

    fn process(&mut self, input: &[T], output: &mut [T]) {
        self.run(input, output);
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [T]) {
        let op = self.op;
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
}

fn spec(name: &'static str, op: Combination, summary: &'static str) -> BlockSpec {
    BlockSpec::new(name, "Math", summary, move |p: &Params| {
        let vlen = p.usize("vlen")?;
        let raw = p.raw("constant")?.clone();
        rfgraph::for_item_kinds!(p, p.item_type()?, {
            F32 => f32, C32 => Complex32, I32 => i32, I16 => i16, U8 => u8
        } as T => {
            let c = constants::<T>(&raw)
                .ok_or_else(|| p.invalid("constant", format!("expected a number or a vector of numbers for `{}`", p.item_type().map(|k| k.name()).unwrap_or("?"))))?;
            // A vector constant sets the vector length when none is given.
            let vlen = if vlen == 1 { c.len() } else { vlen };
            ConstOp::<T>::block(op, c, vlen).map_err(|e| p.invalid("constant", e))?
        })
    })
    .doc("`out[i] = in[i] (op) constant[i mod vlen]`: the constant is one value or a GNU Radio vector of `vlen` values (the stream is flat; a vector constant with `vlen` 1 sets `vlen` to its length). Complex constants: a number, a complex vector, `[re, im]` pairs, or a map `{re, im}`. Integers wrap.")
    .param(ParamSpec::item_type(&[
        ItemKind::F32,
        ItemKind::C32,
        ItemKind::I32,
        ItemKind::I16,
        ItemKind::U8,
    ]))
    .param(
        ParamSpec::any("constant")
            .default(if op == Combination::Multiply { 1.0 } else { 0.0 })
            .settable()
            .doc("one value, or one per vector entry"),
    )
    .param(
        ParamSpec::uint("vlen")
            .default(1u64)
            .doc("GNU Radio vector length"),
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `multiply_const`: GNU Radio's `blocks_multiply_const_xx` and `_vxx`.
pub(crate) fn multiply_const_spec() -> BlockSpec {
    spec(
        "multiply_const",
        Combination::Multiply,
        "Multiplies every item by a constant (settable).",
    )
}

/// `add_const`: GNU Radio's `blocks_add_const_xx` and `_vxx`.
pub(crate) fn add_const_spec() -> BlockSpec {
    spec(
        "add_const",
        Combination::Add,
        "Adds a constant (settable) to every item.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph::{Block, WorkIo};

    #[test]
    fn the_constant_is_settable_and_checked_against_vlen() {
        let mut b = ConstOp::<f32>::block(Combination::Multiply, vec![1.0, 2.0], 2).unwrap();
        assert_eq!(b.settings()[0].name, "constant");
        let mut io = WorkIo::default();
        b.handle_message("constant", Pmt::F64(3.0), &mut io)
            .unwrap();
        assert_eq!(b.kernel().constant(), &[3.0, 3.0]);
        b.handle_message("constant", Pmt::VecF32(vec![4.0, 5.0]), &mut io)
            .unwrap();
        assert_eq!(b.kernel().constant(), &[4.0, 5.0]);
        let e = b
            .handle_message("constant", Pmt::VecF32(vec![1.0, 2.0, 3.0]), &mut io)
            .unwrap_err();
        assert!(e.to_string().contains("needs 1 or vlen = 2"), "{e}");
        let e = b
            .handle_message("constant", Pmt::from("x"), &mut io)
            .unwrap_err();
        assert!(e.to_string().contains("parameter `constant`"), "{e}");
        assert_eq!(b.kernel().constant(), &[4.0, 5.0]);
        assert!(ConstOp::<f32>::block(Combination::Add, vec![1.0, 2.0], 3).is_err());
        assert!(ConstOp::<f32>::block(Combination::Add, vec![1.0], 0).is_err());
    }

    #[test]
    fn the_registry_entry_takes_the_vector_length_from_a_vector_constant() {
        let spec = multiply_const_spec();
        let block = spec
            .build(
                [("constant".to_string(), Pmt::VecF32(vec![1.0, 2.0, 3.0]))]
                    .into_iter()
                    .collect(),
            )
            .unwrap();
        let any: &dyn std::any::Any = block.as_ref();
        let b = any
            .downcast_ref::<FixedRateBlock<ConstOp<f32>>>()
            .expect("f32 by default");
        assert_eq!(b.kernel().constant(), &[1.0, 2.0, 3.0]);
        let e = spec
            .build(
                [
                    ("type".to_string(), Pmt::from("i16")),
                    ("constant".to_string(), Pmt::F64(0.5)),
                ]
                .into_iter()
                .collect(),
            )
            .err()
            .unwrap();
        assert!(e.to_string().contains("`constant`"), "{e}");
    }
}
