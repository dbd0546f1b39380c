//! [`Combine`]: one output from N inputs item by item: GNU Radio's
//! `add_xx`, `subtract_xx`, `multiply_xx` and `divide_xx`. Owns the block
//! and its four registry entries.

use super::scalar::Arith;
use crate::wav::ports::channel_port;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of [`Combine`] as `add`, `subtract`, `multiply` and
/// `divide`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct CombineParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, I32, I16))]
    pub item: ItemKind,
    /// number of inputs
    #[param(default = 2, min = 1, max = limits::MAX_PORTS, alias = "num_inputs")]
    pub inputs: usize,
    /// GNU Radio vector length (items are handled one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// How [`Combine`] joins its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combination {
    /// `in0 + in1 + …`
    Add,
    /// `in0 - in1 - …`
    Subtract,
    /// `in0 · in1 · …`
    Multiply,
    /// `in0 / in1 / …` (integers divided by zero give zero)
    Divide,
}

impl Combination {
    /// The operation on two items.
    pub fn function<T: Arith>(self) -> fn(T, T) -> T {
        match self {
            Combination::Add => |a, b| a.add(b),
            Combination::Subtract => |a, b| a.sub(b),
            Combination::Multiply => |a, b| a.mul(b),
            Combination::Divide => |a, b| a.div(b),
        }
    }

    #[inline(always)]
    pub(crate) fn apply<T: Arith>(self, a: T, b: T) -> T {
        match self {
            Combination::Add => a.add(b),
            Combination::Subtract => a.sub(b),
            Combination::Multiply => a.mul(b),
            Combination::Divide => a.div(b),
        }
    }
}

/// Combines N streams item by item: adds, subtracts, multiplies or
/// divides them in input order (GNU Radio's `add_xx`, `subtract_xx`,
/// `multiply_xx`, `divide_xx`). Integers wrap as in C++; an integer
/// divided by zero gives zero. GNU Radio's vectors (`vlen`) are flat
/// streams here, and the operation is item by item either way.
///
/// # Parameters
/// [`CombineParams`] (the bitwise blocks have their own, `P`).
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T`, `inputs` of them (at least 1).
///
/// # Stream Outputs
/// - `out`: `T`, one item per item of every input.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{Combination, Combine, CombineParams, VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1.0f32, 2.0]));
/// let b = fg.add(VectorSource::new(vec![10.0f32, 20.0]));
/// let add = fg.add(Combine::<f32>::new(Combination::Add, CombineParams::default())?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(a, "out", add, "in0")?;
/// fg.connect(b, "out", add, "in1")?;
/// fg.connect(add, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[11.0, 22.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Combine<T: Arith, P: ParamSet = CombineParams> {
    inputs: Vec<StreamInput<T>>,
    output: StreamOutput<T>,
    op: fn(T, T) -> T,
    params: P,
}

impl<T: Arith> Combine<T> {
    /// Combines `params.inputs` streams with `op`.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(op: Combination, params: CombineParams) -> Result<Self, ParamError> {
        let inputs = params.inputs;
        Self::with(op.function(), inputs, params)
    }
}

impl<T: Arith, P: ParamSet> Combine<T, P> {
    /// Combines `inputs` streams with `op`, folded in input order
    /// (`op(op(in0, in1), in2)`, …), with `params` as its parameters.
    ///
    /// Errors: a parameter out of its range, no inputs or more than
    /// [`limits::MAX_PORTS`].
    pub fn with(op: fn(T, T) -> T, inputs: usize, params: P) -> Result<Self, ParamError> {
        params.validate()?;
        if !(1..=limits::MAX_PORTS).contains(&inputs) {
            return Err(ParamError::new(
                "Combine",
                "inputs",
                format!("must be in [1, {}]", limits::MAX_PORTS),
            ));
        }
        Ok(Self {
            inputs: (0..inputs)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            output: StreamOutput::new("out"),
            op,
            params,
        })
    }
}

impl<T: Arith, P: ParamSet> Block for Combine<T, P> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        ports.output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut n = self.output.free();
        for input in &mut self.inputs {
            n = n.min(input.available());
        }
        if n == 0 {
            return Ok(());
        }
        let out = &mut self.output.slice()[..n];
        let (first, rest) = self.inputs.split_first_mut().expect("at least one input");
        out.copy_from_slice(&first.slice()[..n]);
        let op = self.op;
        for input in rest {
            for (o, &x) in out.iter_mut().zip(&input.slice()[..n]) {
                *o = op(*o, x);
            }
        }
        for input in &mut self.inputs {
            input.consume(n);
        }
        self.output.produce(n);
        Ok(())
    }
}

fn spec(name: &'static str, op: Combination, summary: &'static str) -> BlockSpec {
    BlockSpec::of::<CombineParams>(name, "Math", summary, move |p| {
        rfgraph::for_item_kinds!(p.item, {
            F32 => f32, C32 => Complex32, I32 => i32, I16 => i16
        } as T => Combine::<T>::new(op, p)?)
    })
    .doc("Item by item across `in0`, `in1`, … in input order. Integers wrap; an integer divided by zero gives zero. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1.")
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `add`: GNU Radio's `blocks_add_xx`.
pub(crate) fn add_spec() -> BlockSpec {
    spec("add", Combination::Add, "Sums N streams item by item.")
}

/// `subtract`: GNU Radio's `blocks_sub_xx`.
pub(crate) fn subtract_spec() -> BlockSpec {
    spec(
        "subtract",
        Combination::Subtract,
        "Subtracts streams `in1`, `in2`, … from `in0` item by item.",
    )
}

/// `multiply`: GNU Radio's `blocks_multiply_xx`.
pub(crate) fn multiply_spec() -> BlockSpec {
    spec(
        "multiply",
        Combination::Multiply,
        "Multiplies N streams item by item.",
    )
}

/// `divide`: GNU Radio's `blocks_divide_xx`.
pub(crate) fn divide_spec() -> BlockSpec {
    spec(
        "divide",
        Combination::Divide,
        "Divides `in0` by `in1`, `in2`, … item by item.",
    )
}
