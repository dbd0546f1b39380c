//! Reductions over GNU Radio vectors and several inputs, with their
//! registry entries: [`Integrate`] (`integrate_xx`: sums of `decimation`
//! vectors), and `max` / `min` / `argmax` (`max_xx`, `min_xx`,
//! `argmax_xs`: the extreme entry across the inputs).

use super::scalar::Arith;
use crate::wav::ports::channel_port;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, FixedRateBlock, FixedRateKernel, Item, ParamError, Ports, StreamInput,
    StreamOutput, WorkIo,
};

/// The parameters of [`Integrate`] (`integrate`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct IntegrateParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, I32, I16))]
    pub item: ItemKind,
    /// vectors summed into one
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "decim")]
    pub decimation: usize,
    /// GNU Radio vector length
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

impl IntegrateParams {
    /// A group (`decimation · vlen` items) must fit a ring.
    fn check(&self) -> Result<(), ParamError> {
        match self.decimation.checked_mul(self.vlen) {
            Some(group) if group <= limits::MAX_BUFFER_ITEMS => Ok(()),
            _ => Err(ParamError::new(
                "integrate",
                "decimation",
                format!(
                    "decimation · vlen = {} · {} is more than the {} items a ring may hold",
                    self.decimation,
                    self.vlen,
                    limits::MAX_BUFFER_ITEMS
                ),
            )),
        }
    }
}

/// Sums every `decimation` consecutive GNU Radio vectors of `vlen` items
/// entry by entry: one vector out per `decimation` in.
///
/// # Parameters
/// [`IntegrateParams`].
///
/// # Stream Inputs
/// - `in`: `T`, in groups of `decimation · vlen`.
///
/// # Stream Outputs
/// - `out`: `T`, `vlen` per group.
///
/// # Usage
/// ```
/// use rfgraph_blocks::math::{Integrate, IntegrateParams};
/// let block = Integrate::<f32>::block(IntegrateParams { decimation: 10, ..Default::default() })?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct Integrate<T> {
    params: IntegrateParams,
    _item: std::marker::PhantomData<fn(T) -> T>,
}

impl<T: Arith> Integrate<T> {
    /// The block summing `params.decimation` vectors of `params.vlen`.
    ///
    /// Errors: a parameter out of its range, a group too large.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(params: IntegrateParams) -> Result<FixedRateBlock<Self>, ParamError> {
        params.validate()?;
        FixedRateBlock::new(Self {
            params,
            _item: std::marker::PhantomData,
        })
    }
}

impl<T: Arith> FixedRateKernel for Integrate<T> {
    type In = T;
    type Out = T;
    fn decimation(&self) -> usize {
        self.params.decimation * self.params.vlen
    }
    fn interpolation(&self) -> usize {
        self.params.vlen
    }
    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }
    fn process(&mut self, input: &[T], output: &mut [T]) {
        let vlen = self.params.vlen;
        let group = self.params.decimation * vlen;
        for (o, i) in output.chunks_exact_mut(vlen).zip(input.chunks_exact(group)) {
            o.fill(T::ZERO);
            for v in i.chunks_exact(vlen) {
                for (o, &x) in o.iter_mut().zip(v) {
                    *o = o.add(x);
                }
            }
        }
    }
}

/// Numbers that have a maximum.
trait Ordered: Item + PartialOrd {}
impl<T: Item + PartialOrd> Ordered for T {}

/// The parameters of `max` and `min`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ExtremumParams {
    /// stream item type
    #[param(name = "type", kinds(F32, I32, I16))]
    pub item: ItemKind,
    /// number of inputs
    #[param(default = 1, min = 1, max = limits::MAX_PORTS, alias = "num_inputs")]
    pub inputs: usize,
    /// GNU Radio vector length
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// 1 (one extreme per vector) or `vlen` (entry by entry across the inputs)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen_out: usize,
}

impl ExtremumParams {
    /// `vlen_out` is 1 or `vlen`.
    fn check(&self) -> Result<(), ParamError> {
        if self.vlen_out != 1 && self.vlen_out != self.vlen {
            return Err(ParamError::new(
                "max",
                "vlen_out",
                format!("must be 1 or `vlen` ({}), not {}", self.vlen, self.vlen_out),
            ));
        }
        Ok(())
    }
}

/// The parameters of `argmax`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct ArgmaxParams {
    /// stream item type
    #[param(name = "type", kinds(F32, I32, I16))]
    pub item: ItemKind,
    /// number of inputs
    #[param(default = 1, min = 1, max = limits::MAX_PORTS, alias = "num_inputs")]
    pub inputs: usize,
    /// GNU Radio vector length (entry indices must fit 16 bits)
    #[param(default = 1, min = 1, max = 32768)]
    pub vlen: usize,
}

/// The largest entry of every vector across all inputs (`out` gets one
/// item per vector), or of every entry across the inputs (`vlen` items
/// per vector) when `per_entry`; with `argmax`, its position instead:
/// `out0` the entry, `out1` the input (as `i16`). `P` are the block's
/// parameters.
struct Extremum<T: Ordered, P> {
    inputs: Vec<StreamInput<T>>,
    out: StreamOutput<T>,
    arg: Option<(StreamOutput<i16>, StreamOutput<i16>)>,
    vlen: usize,
    per_entry: bool,
    /// The smallest instead (`min`, `argmin`).
    lowest: bool,
    params: P,
}

impl<T: Ordered, P: ParamSet> Extremum<T, P> {
    /// Made from checked parameters (`inputs`, `vlen` within their ranges).
    fn new(params: P, inputs: usize, vlen: usize, per_entry: bool, arg: bool) -> Self {
        Self {
            params,
            inputs: (0..inputs)
                .map(|i| StreamInput::new(channel_port("in", i)).with_min_items(vlen))
                .collect(),
            out: if arg {
                StreamOutput::optional("unused")
            } else {
                StreamOutput::new("out").with_min_items(if per_entry { vlen } else { 1 })
            },
            arg: arg.then(|| (StreamOutput::new("out0"), StreamOutput::new("out1"))),
            vlen,
            per_entry,
            lowest: false,
        }
    }

    fn lowest(mut self) -> Self {
        self.lowest = true;
        self
    }
}

impl<T: Ordered, P: ParamSet> Block for Extremum<T, P> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        match &mut self.arg {
            Some((a, b)) => ports.output(a).output(b),
            None => ports.output(&mut self.out),
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let vlen = self.vlen;
        let mut vectors = usize::MAX;
        for input in &mut self.inputs {
            vectors = vectors.min(input.available() / vlen);
        }
        vectors = match &mut self.arg {
            Some((a, b)) => vectors.min(a.free()).min(b.free()),
            None if self.per_entry => vectors.min(self.out.free() / vlen),
            None => vectors.min(self.out.free()),
        };
        if vectors == 0 {
            return Ok(());
        }
        let lowest = self.lowest;
        let better = |a: T, b: T| if lowest { a < b } else { a > b };
        let ins: Vec<&[T]> = self.inputs.iter_mut().map(|i| i.slice()).collect();
        match &mut self.arg {
            Some((a, b)) => {
                let (xs, ys) = (a.slice(), b.slice());
                for v in 0..vectors {
                    let (mut best, mut x, mut y) = (ins[0][v * vlen], 0, 0);
                    for j in 0..vlen {
                        for (k, input) in ins.iter().enumerate() {
                            if better(input[v * vlen + j], best) {
                                (best, x, y) = (input[v * vlen + j], j, k);
                            }
                        }
                    }
                    (xs[v], ys[v]) = (x as i16, y as i16);
                }
                a.produce(vectors);
                b.produce(vectors);
            }
            None => {
                let o = self.out.slice();
                if self.per_entry {
                    for e in 0..vectors * vlen {
                        let mut best = ins[0][e];
                        for input in &ins[1..] {
                            if better(input[e], best) {
                                best = input[e];
                            }
                        }
                        o[e] = best;
                    }
                    self.out.produce(vectors * vlen);
                } else {
                    for v in 0..vectors {
                        let mut best = ins[0][v * vlen];
                        for input in &ins {
                            for &x in &input[v * vlen..(v + 1) * vlen] {
                                if better(x, best) {
                                    best = x;
                                }
                            }
                        }
                        o[v] = best;
                    }
                    self.out.produce(vectors);
                }
            }
        }
        for input in &mut self.inputs {
            input.consume(vectors * vlen);
        }
        Ok(())
    }
}

/// `integrate`: GNU Radio's `blocks_integrate_xx`.
pub(crate) fn integrate_spec() -> BlockSpec {
    BlockSpec::of::<IntegrateParams>(
        "integrate",
        "Math",
        "Sums every `decimation` vectors: one out per `decimation` in.",
        |p| {
            rfgraph::for_item_kinds!(p.item, {
                F32 => f32, C32 => Complex32, I32 => i32, I16 => i16
            } as T => Integrate::<T>::block(p)?)
        },
    )
    .doc("Entry by entry over GNU Radio vectors of `vlen` items; an incomplete last group is dropped. Integers wrap.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `max`: GNU Radio's `blocks_max_xx`.
pub(crate) fn max_spec() -> BlockSpec {
    extremum_spec("max", false)
}

/// `min`: GNU Radio's `blocks_min_xx`.
pub(crate) fn min_spec() -> BlockSpec {
    extremum_spec("min", true)
}

fn extremum_spec(name: &'static str, lowest: bool) -> BlockSpec {
    BlockSpec::of::<ExtremumParams>(
        name,
        "Math",
        if lowest {
            "The smallest entry of each vector across the inputs."
        } else {
            "The largest entry of each vector across the inputs."
        },
        move |p| {
            let (n, vlen, per_entry) = (p.inputs, p.vlen, p.vlen_out != 1);
            rfgraph::for_item_kinds!(p.item, { F32 => f32, I32 => i32, I16 => i16 } as T
                => {
                    let e = Extremum::<T, _>::new(p, n, vlen, per_entry, false);
                    if lowest { e.lowest() } else { e }
                })
        },
    )
    .doc("With `vlen_out` 1: one item per vector, the extreme of its entries on every input. With `vlen_out` = `vlen`: entry by entry, the extreme across the inputs.")
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `argmax`: GNU Radio's `blocks_argmax_xs`.
pub(crate) fn argmax_spec() -> BlockSpec {
    BlockSpec::of::<ArgmaxParams>(
        "argmax",
        "Math",
        "Where the largest entry of each vector across the inputs is.",
        |p| {
            let (n, vlen) = (p.inputs, p.vlen);
            rfgraph::for_item_kinds!(p.item, { F32 => f32, I32 => i32, I16 => i16 } as T
                => Extremum::<T, _>::new(p, n, vlen, false, true))
        },
    )
    .doc("Per vector: `out0` the entry and `out1` the input of the first largest value (entries outer, inputs inner, as GNU Radio scans).")
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out0", PortItem::Fixed(ItemKind::I16)).doc("entry index"))
    .output(PortSpec::new("out1", PortItem::Fixed(ItemKind::I16)).doc("input index"))
}
