//! [`MultiplyMatrix`]: N input streams to M output streams through an
//! M × N matrix, settable while running (GNU Radio's
//! `multiply_matrix_xx`), with its registry entry.

use super::scalar::{Arith, constants};
use crate::wav::ports::channel_port;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Pmt, Ports, StreamInput, StreamOutput, WorkIo};

/// The rows of a matrix value: a list of rows, each a list of numbers
/// (complex numbers as [`constants`] reads them), at most
/// [`limits::MAX_PORTS`] rows of at most as many columns.
pub fn matrix<T: Arith>(value: &Pmt) -> Result<Vec<Vec<T>>, String> {
    let Pmt::List(rows) = value else {
        return Err(format!(
            "expected a list of rows, found {}",
            rfgraph::params::describe(value)
        ));
    };
    if rows.len() > limits::MAX_PORTS {
        return Err(format!(
            "has {} rows (outputs), more than the {} allowed",
            rows.len(),
            limits::MAX_PORTS
        ));
    }
    let rows: Vec<Vec<T>> = rows
        .iter()
        .map(|r| {
            constants::<T>(r).ok_or_else(|| {
                format!(
                    "not a row of numbers that fit the items: {}",
                    rfgraph::params::describe(r)
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let width = rows.first().map_or(0, Vec::len);
    if width == 0 || rows.iter().any(|r| r.len() != width) {
        return Err("needs at least one row, all of the same length".into());
    }
    if width > limits::MAX_PORTS {
        return Err(format!(
            "has {width} columns (inputs), more than the {} allowed",
            limits::MAX_PORTS
        ));
    }
    Ok(rows)
}

/// The parameters of [`MultiplyMatrix`] (`multiply_matrix`); the matrix
/// may change while it runs (in its shape), as GNU Radio's `set_A` does.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct MultiplyMatrixParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
    /// list of rows (one per output), each a list of numbers (one per input)
    #[param(
        default = Pmt::List(vec![Pmt::List(vec![Pmt::F64(1.0), Pmt::F64(1.0)])]),
        alias = "A",
        settable
    )]
    pub matrix: Pmt,
}

impl MultiplyMatrixParams {
    /// The matrix is one of numbers that fit the item type, rectangular,
    /// with at most [`limits::MAX_PORTS`] rows and columns.
    fn check(&self) -> Result<(), ParamError> {
        let shape = match self.item {
            ItemKind::F32 => matrix::<f32>(&self.matrix).map(drop),
            ItemKind::C32 => matrix::<Complex32>(&self.matrix).map(drop),
            other => Err(format!("item type `{other}` is not supported here")),
        };
        shape.map_err(|e| ParamError::new("multiply_matrix", "matrix", e))
    }
}

/// `out_j = Σ_i A[j][i] · in_i`, item by item: one output per row of
/// `A`, one input per column.
///
/// # Parameters
/// [`MultiplyMatrixParams`]; a new matrix must keep the shape.
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T`, one per column.
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `T`, one per row.
///
/// # Message Inputs
/// - `matrix` (also `A`, and GNU Radio's message port `set_A`): a new
///   matrix of the same shape, from one item on.
///
/// # Usage
/// ```
/// use rfgraph::Pmt;
/// use rfgraph_blocks::math::{MultiplyMatrix, MultiplyMatrixParams};
/// // Sum and difference of two streams.
/// let row = |r: [f64; 2]| Pmt::List(r.into_iter().map(Pmt::F64).collect());
/// let mm = MultiplyMatrix::<f32>::new(MultiplyMatrixParams {
///     matrix: Pmt::List(vec![row([1.0, 1.0]), row([1.0, -1.0])]),
///     ..Default::default()
/// })?;
/// # let _ = mm;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct MultiplyMatrix<T: Arith> {
    inputs: Vec<StreamInput<T>>,
    outputs: Vec<StreamOutput<T>>,
    a: Vec<Vec<T>>,
    params: MultiplyMatrixParams,
}

impl<T: Arith> MultiplyMatrix<T> {
    /// The block for `params`; `T` is the item type `params.item` names.
    ///
    /// Errors: an empty, ragged or too large matrix, or one whose numbers
    /// do not fit `T`.
    pub fn new(params: MultiplyMatrixParams) -> Result<Self, ParamError> {
        params.validate()?;
        let a = matrix::<T>(&params.matrix)
            .map_err(|e| ParamError::new("multiply_matrix", "matrix", e))?;
        Ok(Self {
            inputs: (0..a[0].len())
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            outputs: (0..a.len())
                .map(|i| StreamOutput::new(channel_port("out", i)))
                .collect(),
            a,
            params,
        })
    }

    /// The matrix now.
    pub fn rows(&self) -> &[Vec<T>] {
        &self.a
    }
}

impl<T: Arith> Block for MultiplyMatrix<T> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        for output in &mut self.outputs {
            ports = ports.output(output);
        }
        ports.message_input("set_A")
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    /// A new matrix, of the same shape.
    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        let a = matrix::<T>(&self.params.matrix)?;
        if a.len() != self.a.len() || a[0].len() != self.a[0].len() {
            return Err(format!(
                "the matrix must stay {} × {}",
                self.a.len(),
                self.a[0].len()
            )
            .into());
        }
        self.a = a;
        Ok(())
    }

    /// GNU Radio's `set_A` message port: the same as `matrix`.
    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        rfgraph::params::apply(self, "matrix", msg)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut n = usize::MAX;
        for input in &mut self.inputs {
            n = n.min(input.available());
        }
        for output in &mut self.outputs {
            n = n.min(output.free());
        }
        if n == 0 {
            return Ok(());
        }
        let ins: Vec<&[T]> = self.inputs.iter_mut().map(|i| i.slice()).collect();
        for (row, output) in self.a.iter().zip(&mut self.outputs) {
            let o = &mut output.slice()[..n];
            o.fill(T::ZERO);
            for (&k, input) in row.iter().zip(&ins) {
                for (o, &x) in o.iter_mut().zip(&input[..n]) {
                    *o = o.add(k.mul(x));
                }
            }
            output.produce(n);
        }
        for input in &mut self.inputs {
            input.consume(n);
        }
        Ok(())
    }
}

/// `multiply_matrix`: GNU Radio's `blocks_multiply_matrix_xx`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<MultiplyMatrixParams>(
        "multiply_matrix",
        "Math",
        "M outputs from N inputs through an M × N matrix (settable).",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                => MultiplyMatrix::<T>::new(p)?)
        },
    )
    .doc("`out_j = Σ_i matrix[j][i] · in_i` item by item; the inputs are the columns, the outputs the rows (at most 1024 of each). The matrix may change while it runs, keeping its shape (GNU Radio's `set_A`, also its message port `set_A`). Tags pass from every input to every output.")
    .input(PortSpec::new("in", PortItem::OfType).repeated("matrix"))
    .output(PortSpec::new("out", PortItem::OfType).repeated("matrix"))
    .message_input("set_A")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph::params::apply;

    fn row(r: &[f64]) -> Pmt {
        Pmt::List(r.iter().map(|&x| Pmt::F64(x)).collect())
    }

    #[test]
    fn the_matrix_is_settable_in_its_shape_only() {
        let mut m = MultiplyMatrix::<f32>::new(MultiplyMatrixParams {
            matrix: Pmt::List(vec![row(&[1.0, 2.0])]),
            ..Default::default()
        })
        .unwrap();
        let mut io = WorkIo::default();
        apply(&mut m, "matrix", Pmt::List(vec![row(&[3.0, 4.0])])).unwrap();
        assert_eq!(m.a, vec![vec![3.0, 4.0]]);
        m.handle_message("set_A", Pmt::List(vec![row(&[5.0, 6.0])]), &mut io)
            .unwrap();
        assert_eq!(m.a, vec![vec![5.0, 6.0]]);
        let e = apply(&mut m, "matrix", Pmt::List(vec![row(&[1.0])])).unwrap_err();
        assert!(e.to_string().contains("must stay 1 × 2"), "{e}");
        assert_eq!(m.params.matrix, Pmt::List(vec![row(&[5.0, 6.0])]));
        assert!(m.handle_message("set_A", Pmt::from("x"), &mut io).is_err());
        assert!(apply(&mut m, "matrix", Pmt::List(vec![row(&[1e300, 1.0])])).is_err());
        assert_eq!(m.a, vec![vec![5.0, 6.0]]);
        let ragged = MultiplyMatrixParams {
            matrix: Pmt::List(vec![row(&[1.0]), row(&[])]),
            ..Default::default()
        };
        assert!(MultiplyMatrix::<f32>::new(ragged).is_err());
        assert!(matrix::<f32>(&Pmt::List(vec![])).is_err());
        let wide = Pmt::List(vec![row(&vec![1.0; limits::MAX_PORTS + 1])]);
        assert!(matrix::<f32>(&wide).is_err());
    }
}
