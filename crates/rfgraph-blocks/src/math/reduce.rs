//! Reductions over GNU Radio vectors and several inputs, with their
//! registry entries: [`Integrate`] (`integrate_xx`: sums of `decimation`
//! vectors), and `max` / `min` / `argmax` (`max_xx`, `min_xx`,
//! `argmax_xs`: the extreme entry across the inputs).

use super::scalar::Arith;
use crate::wav::ports::channel_port;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, FixedRateBlock, FixedRateKernel, Item, Ports, StreamInput, StreamOutput,
    WorkIo,
};

/// Sums every `decimation` consecutive GNU Radio vectors of `vlen` items
/// entry by entry: one vector out per `decimation` in.
///
/// # Stream Inputs
/// - `in`: `T`, in groups of `decimation · vlen`.
///
/// # Stream Outputs
/// - `out`: `T`, `vlen` per group.
///
/// # Usage
/// ```
/// use rfgraph_blocks::math::Integrate;
/// let block = Integrate::<f32>::block(10, 1)?;
/// # let _ = block;
/// # Ok::<(), String>(())
/// ```
pub struct Integrate<T> {
    decimation: usize,
    vlen: usize,
    _item: std::marker::PhantomData<fn(T) -> T>,
}

impl<T: Arith> Integrate<T> {
    /// The block summing `decimation` vectors of `vlen`.
    ///
    /// Errors: a `decimation` or `vlen` of 0, or a group too large.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(decimation: usize, vlen: usize) -> Result<FixedRateBlock<Self>, String> {
        if decimation.checked_mul(vlen).is_none() {
            return Err("decimation · vlen is too large".into());
        }
        FixedRateBlock::new(Self {
            decimation,
            vlen,
            _item: std::marker::PhantomData,
        })
        .map_err(|e| e.to_string())
    }
}

impl<T: Arith> FixedRateKernel for Integrate<T> {
    type In = T;
    type Out = T;
    fn decimation(&self) -> usize {
        self.decimation * self.vlen
    }
    fn interpolation(&self) -> usize {
        self.vlen
    }
    fn process(&mut self, input: &[T], output: &mut [T]) {
        let group = self.decimation * self.vlen;
        for (o, i) in output
            .chunks_exact_mut(self.vlen)
            .zip(input.chunks_exact(group))
        {
            o.fill(T::ZERO);
            for v in i.chunks_exact(self.vlen) {
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

/// The largest entry of every vector across all inputs (`out` gets one
/// item per vector), or of every entry across the inputs (`vlen` items
/// per vector) when `per_entry`; with `argmax`, its position instead:
/// `out0` the entry, `out1` the input (as `i16`).
struct Extremum<T: Ordered> {
    inputs: Vec<StreamInput<T>>,
    out: StreamOutput<T>,
    arg: Option<(StreamOutput<i16>, StreamOutput<i16>)>,
    vlen: usize,
    per_entry: bool,
    /// The smallest instead (`min`, `argmin`).
    lowest: bool,
}

impl<T: Ordered> Extremum<T> {
    fn new(inputs: usize, vlen: usize, per_entry: bool, arg: bool) -> Self {
        Self {
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

impl<T: Ordered> Block for Extremum<T> {
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
    BlockSpec::new(
        "integrate",
        "Math",
        "Sums every `decimation` vectors: one out per `decimation` in.",
        |p: &Params| {
            let (d, vlen) = (p.usize("decimation")?, p.usize("vlen")?);
            rfgraph::for_item_kinds!(p, p.item_type()?, {
                F32 => f32, C32 => Complex32, I32 => i32, I16 => i16
            } as T => Integrate::<T>::block(d, vlen).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Entry by entry over GNU Radio vectors of `vlen` items; an incomplete last group is dropped. Integers wrap.")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32, ItemKind::I32, ItemKind::I16]))
    .param(ParamSpec::uint("decimation").default(1u64).doc("vectors summed"))
    .param(ParamSpec::uint("vlen").default(1u64).doc("GNU Radio vector length"))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

fn inputs_and_vlen(p: &Params) -> Result<(usize, usize), rfgraph::registry::BuildError> {
    let (n, vlen) = (p.usize("inputs")?, p.usize("vlen")?);
    if n == 0 || vlen == 0 {
        return Err(p.refused("`inputs` and `vlen` must be at least 1"));
    }
    Ok((n, vlen))
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
    BlockSpec::new(
        name,
        "Math",
        if lowest {
            "The smallest entry of each vector across the inputs."
        } else {
            "The largest entry of each vector across the inputs."
        },
        move |p: &Params| {
            let (n, vlen) = inputs_and_vlen(p)?;
            let per_entry = match p.usize("vlen_out")? {
                1 => false,
                v if v == vlen => true,
                _ => return Err(p.invalid("vlen_out", "must be 1 or `vlen`")),
            };
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, I32 => i32, I16 => i16 } as T
                => {
                    let e = Extremum::<T>::new(n, vlen, per_entry, false);
                    if lowest { e.lowest() } else { e }
                })
        },
    )
    .doc("With `vlen_out` 1: one item per vector, the extreme of its entries on every input. With `vlen_out` = `vlen`: entry by entry, the extreme across the inputs.")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::I32, ItemKind::I16]))
    .param(ParamSpec::uint("inputs").default(1u64).doc("number of inputs"))
    .param(ParamSpec::uint("vlen").default(1u64).doc("GNU Radio vector length"))
    .param(ParamSpec::uint("vlen_out").default(1u64).doc("1 or `vlen`"))
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `argmax`: GNU Radio's `blocks_argmax_xs`.
pub(crate) fn argmax_spec() -> BlockSpec {
    BlockSpec::new(
        "argmax",
        "Math",
        "Where the largest entry of each vector across the inputs is.",
        |p: &Params| {
            let (n, vlen) = inputs_and_vlen(p)?;
            if vlen > 32768 || n > 32768 {
                return Err(p.refused("indices must fit 16 bits"));
            }
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, I32 => i32, I16 => i16 } as T
                => Extremum::<T>::new(n, vlen, false, true))
        },
    )
    .doc("Per vector: `out0` the entry and `out1` the input of the first largest value (entries outer, inputs inner, as GNU Radio scans).")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::I32, ItemKind::I16]))
    .param(ParamSpec::uint("inputs").default(1u64).doc("number of inputs"))
    .param(ParamSpec::uint("vlen").default(1u64).doc("GNU Radio vector length"))
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out0", PortItem::Fixed(ItemKind::I16)).doc("entry index"))
    .output(PortSpec::new("out1", PortItem::Fixed(ItemKind::I16)).doc("input index"))
}
