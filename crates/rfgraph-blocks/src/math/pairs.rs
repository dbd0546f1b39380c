//! Two streams into one and one into two, item by item: [`Zip2`] (GNU
//! Radio's `float_to_complex`, `magphase_to_complex`,
//! `multiply_conjugate_cc`) and [`Unzip2`] (`complex_to_float`,
//! `complex_to_magphase`), with their registry entries.

use super::vlen::FlatVlenParams;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, NoParams, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// One output item from one item of each of two inputs, with the
/// block's parameters `P` (none by default; see
/// [`with_params`](Self::with_params)).
///
/// # Stream Inputs
/// - `in0`: `A`.
/// - `in1`: `B`.
///
/// # Stream Outputs
/// - `out`: `O`, `f(in0, in1)`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSink, VectorSource, Zip2};
/// use num_complex::Complex32;
///
/// let mut fg = Flowgraph::new();
/// let re = fg.add(VectorSource::new(vec![1.0f32]));
/// let im = fg.add(VectorSource::new(vec![2.0f32]));
/// let zip = fg.add(Zip2::new(|a: f32, b: f32| Complex32::new(a, b)));
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(re, "out", zip, "in0")?;
/// fg.connect(im, "out", zip, "in1")?;
/// fg.connect(zip, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<Complex32>>(sink).unwrap().items(), &[Complex32::new(1.0, 2.0)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Zip2<A: Item, B: Item, O: Item, F, P = NoParams> {
    in0: StreamInput<A>,
    in1: StreamInput<B>,
    output: StreamOutput<O>,
    f: F,
    /// What `in1` reads as when it may stay unconnected.
    unconnected_second: Option<B>,
    params: P,
}

impl<A: Item, B: Item, O: Item, F: FnMut(A, B) -> O + Send + 'static> Zip2<A, B, O, F> {
    /// Applies `f` to each pair of items.
    pub fn new(f: F) -> Self {
        Self {
            in0: StreamInput::new("in0"),
            in1: StreamInput::new("in1"),
            output: StreamOutput::new("out"),
            f,
            unconnected_second: None,
            params: NoParams,
        }
    }
}

impl<A: Item, B: Item, O: Item, F: FnMut(A, B) -> O + Send + 'static, P: ParamSet>
    Zip2<A, B, O, F, P>
{
    /// The same block with `params` as its parameters (the registry's
    /// declaration, read back by the control port; `f` does not read
    /// them).
    pub fn with_params<Q: ParamSet>(self, params: Q) -> Zip2<A, B, O, F, Q> {
        Zip2 {
            in0: self.in0,
            in1: self.in1,
            output: self.output,
            f: self.f,
            unconnected_second: self.unconnected_second,
            params,
        }
    }

    /// Lets `in1` stay unconnected, reading as `value` then (GNU Radio's
    /// `float_to_complex` on its real input alone).
    pub fn second_optional(mut self, value: B) -> Self {
        self.in1 = StreamInput::optional("in1");
        self.unconnected_second = Some(value);
        self
    }
}

impl<A: Item, B: Item, O: Item, F: FnMut(A, B) -> O + Send + 'static, P: ParamSet> Block
    for Zip2<A, B, O, F, P>
{
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.in0)
            .input(&mut self.in1)
            .output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let alone = match self.unconnected_second {
            Some(b) if !self.in1.is_connected() => Some(b),
            _ => None,
        };
        let mut n = self.in0.available().min(self.output.free());
        if alone.is_none() {
            n = n.min(self.in1.available());
        }
        if n == 0 {
            return Ok(());
        }
        let (a, o) = (self.in0.slice(), self.output.slice());
        if let Some(b) = alone {
            for (o, &a) in o[..n].iter_mut().zip(&a[..n]) {
                *o = (self.f)(a, b);
            }
        } else {
            let b = self.in1.slice();
            for ((o, &a), &b) in o[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
                *o = (self.f)(a, b);
            }
            self.in1.consume(n);
        }
        self.in0.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// Two output items from each input item; the second output may stay
/// unconnected. The block's parameters are `P` (none by default; see
/// [`with_params`](Self::with_params)).
///
/// # Stream Inputs
/// - `in`: `I`.
///
/// # Stream Outputs
/// - `out0`: `A`, the first part of `f(in)`.
/// - `out1`: `B`, the second part (optional).
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{Unzip2, VectorSink, VectorSource};
/// use num_complex::Complex32;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 2.0)]));
/// let split = fg.add(Unzip2::new(|x: Complex32| (x.re, x.im)));
/// let re = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, "out", split, "in")?;
/// fg.connect(split, "out0", re, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<f32>>(re).unwrap().items(), &[1.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Unzip2<I: Item, A: Item, B: Item, F, P = NoParams> {
    input: StreamInput<I>,
    out0: StreamOutput<A>,
    out1: StreamOutput<B>,
    f: F,
    params: P,
}

impl<I: Item, A: Item, B: Item, F: Fn(I) -> (A, B) + Send + 'static> Unzip2<I, A, B, F> {
    /// Splits each item with `f`.
    pub fn new(f: F) -> Self {
        Self {
            input: StreamInput::new("in"),
            out0: StreamOutput::new("out0"),
            out1: StreamOutput::optional("out1"),
            f,
            params: NoParams,
        }
    }
}

impl<I: Item, A: Item, B: Item, F: Fn(I) -> (A, B) + Send + 'static, P: ParamSet>
    Unzip2<I, A, B, F, P>
{
    /// The same block with `params` as its parameters (the registry's
    /// declaration, read back by the control port; `f` does not read
    /// them).
    pub fn with_params<Q: ParamSet>(self, params: Q) -> Unzip2<I, A, B, F, Q> {
        Unzip2 {
            input: self.input,
            out0: self.out0,
            out1: self.out1,
            f: self.f,
            params,
        }
    }
}

impl<I: Item, A: Item, B: Item, F: Fn(I) -> (A, B) + Send + 'static, P: ParamSet> Block
    for Unzip2<I, A, B, F, P>
{
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.out0)
            .output(&mut self.out1)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let second = self.out1.is_connected();
        let mut n = self.input.available().min(self.out0.free());
        if second {
            n = n.min(self.out1.free());
        }
        if n == 0 {
            return Ok(());
        }
        let (i, a) = (self.input.slice(), self.out0.slice());
        if second {
            let b = self.out1.slice();
            for ((&x, a), b) in i[..n].iter().zip(&mut a[..n]).zip(&mut b[..n]) {
                (*a, *b) = (self.f)(x);
            }
            self.out1.produce(n);
        } else {
            for (&x, a) in i[..n].iter().zip(&mut a[..n]) {
                *a = (self.f)(x).0;
            }
        }
        self.input.consume(n);
        self.out0.produce(n);
        Ok(())
    }
}

fn zip_spec(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    a: ItemKind,
    b: ItemKind,
    o: ItemKind,
    build: fn(FlatVlenParams) -> Box<dyn Block>,
) -> BlockSpec {
    BlockSpec::of::<FlatVlenParams>(name, "Math", summary, move |p| Ok(build(p)))
        .doc(doc)
        .input(PortSpec::new("in0", PortItem::Fixed(a)))
        .input(PortSpec::new("in1", PortItem::Fixed(b)))
        .output(PortSpec::new("out", PortItem::Fixed(o)))
}

/// `float_to_complex`: `in0 + j·in1` (GNU Radio's `blocks_float_to_complex`).
pub(crate) fn float_to_complex_spec() -> BlockSpec {
    let mut spec = zip_spec(
        "float_to_complex",
        "Complex items from a real stream `in0` and an imaginary stream `in1`.",
        "`out[i] = in0[i] + j·in1[i]` from two `f32` streams, one output per pair, as many as the shorter input has. `in1` may stay unconnected, as in GNU Radio: the imaginary parts are then 0. GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_float_to_complex`.",
        ItemKind::F32,
        ItemKind::F32,
        ItemKind::C32,
        |p| {
            Box::new(
                Zip2::new(Complex32::new)
                    .second_optional(0.0)
                    .with_params(p),
            )
        },
    );
    spec.inputs[1].optional = true;
    spec
}

/// `magphase_to_complex`: `in0 · e^(j·in1)` (GNU Radio's `blocks_magphase_to_complex`).
pub(crate) fn magphase_to_complex_spec() -> BlockSpec {
    zip_spec(
        "magphase_to_complex",
        "Complex items from a magnitude stream `in0` and a phase stream `in1` (radians).",
        "`out[i] = in0[i]·(cos in1[i] + j·sin in1[i])` from two `f32` streams: magnitude on `in0`, phase in radians on `in1` (any value). A negative magnitude gives the opposite point. One output per pair, as many as the shorter input has. GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_magphase_to_complex`.",
        ItemKind::F32,
        ItemKind::F32,
        ItemKind::C32,
        |p| {
            Box::new(Zip2::new(|m: f32, phase: f32| Complex32::from_polar(m, phase)).with_params(p))
        },
    )
}

/// `multiply_conjugate`: `in0 · conj(in1)` (GNU Radio's `blocks_multiply_conjugate_cc`).
pub(crate) fn multiply_conjugate_spec() -> BlockSpec {
    zip_spec(
        "multiply_conjugate",
        "Multiplies `in0` by the conjugate of `in1`, item by item.",
        "`out[i] = in0[i]·conj(in1[i]) = (a·c + b·d) + j·(b·c − a·d)` for `in0 = a + jb`, `in1 = c + jd`, all `c32`, in plain IEEE arithmetic (no special handling of infinities). One output per pair, as many as the shorter input has. GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_multiply_conjugate_cc`.",
        ItemKind::C32,
        ItemKind::C32,
        ItemKind::C32,
        |p| Box::new(Zip2::new(|a: Complex32, b: Complex32| a * b.conj()).with_params(p)),
    )
}

fn unzip_spec(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    build: fn(FlatVlenParams) -> Box<dyn Block>,
) -> BlockSpec {
    BlockSpec::of::<FlatVlenParams>(name, "Math", summary, move |p| Ok(build(p)))
        .doc(doc)
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
        .output(PortSpec::new("out0", PortItem::Fixed(ItemKind::F32)))
        .output(
            PortSpec::new("out1", PortItem::Fixed(ItemKind::F32))
                .optional()
                .doc("optional"),
        )
}

/// `complex_to_float`: real part on `out0`, imaginary on `out1` (GNU
/// Radio's `blocks_complex_to_float`).
pub(crate) fn complex_to_float_spec() -> BlockSpec {
    unzip_spec(
        "complex_to_float",
        "Real parts on `out0`, imaginary parts on `out1` (optional).",
        "`out0[i] = re(in[i])`, `out1[i] = im(in[i])` for `c32` items, as `f32`, one item per input on each output. `out1` may be left unconnected; then only real parts are written. GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_complex_to_float`.",
        |p| Box::new(Unzip2::new(|x: Complex32| (x.re, x.im)).with_params(p)),
    )
}

/// `complex_to_magphase`: `|x|` on `out0`, `arg x` on `out1` (GNU
/// Radio's `blocks_complex_to_magphase`).
pub(crate) fn complex_to_magphase_spec() -> BlockSpec {
    unzip_spec(
        "complex_to_magphase",
        "Magnitudes on `out0`, phases (radians) on `out1` (optional).",
        "`out0[i] = |in[i]|` (`hypot(re, im)`, so no overflow for large parts) and `out1[i] = atan2(im, re)` in radians in `[-π, π]`, as `f32`, one item per input on each output. `out1` may be left unconnected; then only magnitudes are written. GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_complex_to_magphase`.",
        |p| Box::new(Unzip2::new(|x: Complex32| (x.norm(), x.arg())).with_params(p)),
    )
}
