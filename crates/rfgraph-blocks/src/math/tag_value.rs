//! [`MultiplyByTagValue`]: multiplies a complex stream by the value of
//! the last tag with a given key (GNU Radio's
//! `multiply_by_tag_value_cc`), with its registry entry.

use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Pmt, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of [`MultiplyByTagValue`] (`multiply_by_tag_value`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MultiplyByTagValueParams {
    /// the key of the tags whose values are the factor
    #[param(default = "amp", alias = "tagname")]
    pub key: String,
    /// GNU Radio vector length (items are handled one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// Multiplies every item by a factor, 1 at first, which becomes the value
/// of each tag keyed `key` from its item on (a number, or a one-entry
/// complex vector; other values are ignored).
///
/// # Parameters
/// [`MultiplyByTagValueParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`.
///
/// # Stream Outputs
/// - `out`: `Complex32`.
///
/// # Usage
/// ```
/// use rfgraph_blocks::math::{MultiplyByTagValue, MultiplyByTagValueParams};
/// let block = MultiplyByTagValue::new(MultiplyByTagValueParams {
///     key: "gain".into(),
///     ..Default::default()
/// })?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct MultiplyByTagValue {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    params: MultiplyByTagValueParams,
    factor: Complex32,
}

impl MultiplyByTagValue {
    /// Takes its factor from tags keyed `params.key`.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(params: MultiplyByTagValueParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            factor: Complex32::new(1.0, 0.0),
        })
    }
}

fn factor(value: &Pmt) -> Option<Complex32> {
    match value {
        Pmt::VecComplexF32(v) if v.len() == 1 => Some(Complex32::new(v[0][0], v[0][1])),
        other => other.as_f64().map(|x| Complex32::new(x as f32, 0.0)),
    }
}

impl Block for MultiplyByTagValue {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        let n = self.input.slice().len().min(self.output.free());
        if n == 0 {
            return Ok(());
        }
        let mut changes: Vec<(usize, Complex32)> = self
            .input
            .tags()
            .iter()
            .filter(|t| t.key == self.params.key && t.index >= start && t.index < start + n as u64)
            .filter_map(|t| Some(((t.index - start) as usize, factor(&t.value)?)))
            .collect();
        changes.sort_by_key(|c| c.0);
        let (i, o) = (self.input.slice(), self.output.slice());
        let mut from = 0;
        for (at, f) in changes {
            for (o, &x) in o[from..at].iter_mut().zip(&i[from..at]) {
                *o = x * self.factor;
            }
            from = at;
            self.factor = f;
        }
        for (o, &x) in o[from..n].iter_mut().zip(&i[from..n]) {
            *o = x * self.factor;
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// `multiply_by_tag_value`: GNU Radio's `blocks_multiply_by_tag_value_cc`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<MultiplyByTagValueParams>(
        "multiply_by_tag_value",
        "Math",
        "Multiplies by the value of the last tag with key `key` (1 before).",
        |p| Ok(Box::new(MultiplyByTagValue::new(p)?)),
    )
    .doc("The factor changes on the tagged item itself. GNU Radio vectors are flat here; a tag inside a vector takes effect on its item.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
