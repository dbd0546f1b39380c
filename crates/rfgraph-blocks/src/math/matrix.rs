//! [`MultiplyMatrix`]: N input streams to M output streams through an
//! M × N matrix, settable while running (GNU Radio's
//! `multiply_matrix_xx`), with its registry entry.

use super::scalar::{Arith, constants};
use crate::wav::ports::channel_port;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Pmt, Ports, Setting, Settings, StreamInput, StreamOutput, WorkIo};

/// The rows of a matrix value: a list of rows, each a list of numbers
/// (complex numbers as [`constants`] reads them).
pub fn matrix<T: Arith>(value: &Pmt) -> Result<Vec<Vec<T>>, String> {
    let Pmt::List(rows) = value else {
        return Err(format!("expected a list of rows, found {value:?}"));
    };
    let rows: Vec<Vec<T>> = rows
        .iter()
        .map(|r| constants::<T>(r).ok_or_else(|| format!("not a row of numbers: {r:?}")))
        .collect::<Result<_, _>>()?;
    let width = rows.first().map_or(0, Vec::len);
    if width == 0 || rows.iter().any(|r| r.len() != width) {
        return Err("needs at least one row, all of the same length".into());
    }
    Ok(rows)
}

/// `out_j = Σ_i A[j][i] · in_i`, item by item: one output per row of
/// `A`, one input per column.
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T`, one per column.
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `T`, one per row.
///
/// # Message Inputs
/// - `matrix` (also GNU Radio's `set_A`): a new matrix of the same shape.
///
/// # Usage
/// ```
/// use rfgraph_blocks::math::MultiplyMatrix;
/// // Sum and difference of two streams.
/// let mm = MultiplyMatrix::<f32>::new(vec![vec![1.0, 1.0], vec![1.0, -1.0]])?;
/// # let _ = mm;
/// # Ok::<(), String>(())
/// ```
pub struct MultiplyMatrix<T: Arith> {
    inputs: Vec<StreamInput<T>>,
    outputs: Vec<StreamOutput<T>>,
    a: Vec<Vec<T>>,
    settings: Settings<Self>,
}

impl<T: Arith> MultiplyMatrix<T> {
    /// The block for matrix `a` (rows of equal, non-zero length).
    ///
    /// Errors: an empty or ragged matrix.
    pub fn new(a: Vec<Vec<T>>) -> Result<Self, String> {
        let width = a.first().map_or(0, Vec::len);
        if width == 0 || a.iter().any(|r| r.len() != width) {
            return Err("needs at least one row, all of the same length".into());
        }
        Ok(Self {
            inputs: (0..width)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            outputs: (0..a.len())
                .map(|i| StreamOutput::new(channel_port("out", i)))
                .collect(),
            a,
            settings: Settings::new().with(
                Setting::try_new("matrix", |m: &mut Self, v: Pmt| m.set_matrix(&v))
                    .doc("the matrix, rows of numbers"),
            ),
        })
    }

    fn set_matrix(&mut self, value: &Pmt) -> Result<(), String> {
        let a = matrix::<T>(value)?;
        if a.len() != self.a.len() || a[0].len() != self.a[0].len() {
            return Err(format!(
                "the matrix must stay {} × {}",
                self.a.len(),
                self.a[0].len()
            ));
        }
        self.a = a;
        Ok(())
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
        self.settings.message_inputs(ports.message_input("set_A"))
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if port == "set_A" {
            self.set_matrix(&msg)?;
            return Ok(Pmt::Null);
        }
        Settings::dispatch(self, |b| &mut b.settings, port, msg)
    }

    fn settings(&self) -> Vec<rfgraph::ParamInfo> {
        self.settings.infos()
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
    BlockSpec::new(
        "multiply_matrix",
        "Math",
        "M outputs from N inputs through an M × N matrix (settable).",
        |p: &Params| {
            let raw = p.raw("matrix")?.clone();
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T => {
                let a = matrix::<T>(&raw).map_err(|e| p.invalid("matrix", e))?;
                MultiplyMatrix::<T>::new(a).map_err(|e| p.invalid("matrix", e))?
            })
        },
    )
    .doc("`out_j = Σ_i matrix[j][i] · in_i` item by item; the inputs are the columns, the outputs the rows. GNU Radio's `set_A` message port sets it too. Tags pass from every input to every output.")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
    .param(
        ParamSpec::any("matrix")
            .default(Pmt::List(vec![Pmt::List(vec![Pmt::F64(1.0), Pmt::F64(1.0)])]))
            .settable()
            .doc("list of rows (one per output), each a list of numbers (one per input)"),
    )
    .input(PortSpec::new("in", PortItem::OfType).repeated("matrix"))
    .output(PortSpec::new("out", PortItem::OfType).repeated("matrix"))
    .message_input("set_A")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matrix_is_settable_in_its_shape_only() {
        let mut m = MultiplyMatrix::<f32>::new(vec![vec![1.0, 2.0]]).unwrap();
        let mut io = WorkIo::default();
        let row = |r: &[f64]| Pmt::List(r.iter().map(|&x| Pmt::F64(x)).collect());
        m.handle_message("matrix", Pmt::List(vec![row(&[3.0, 4.0])]), &mut io)
            .unwrap();
        assert_eq!(m.a, vec![vec![3.0, 4.0]]);
        m.handle_message("set_A", Pmt::List(vec![row(&[5.0, 6.0])]), &mut io)
            .unwrap();
        assert_eq!(m.a, vec![vec![5.0, 6.0]]);
        let e = m
            .handle_message("matrix", Pmt::List(vec![row(&[1.0])]), &mut io)
            .unwrap_err();
        assert!(e.to_string().contains("must stay 1 × 2"), "{e}");
        assert!(m.handle_message("set_A", Pmt::from("x"), &mut io).is_err());
        assert!(MultiplyMatrix::<f32>::new(vec![vec![1.0], vec![]]).is_err());
        assert!(matrix::<f32>(&Pmt::List(vec![])).is_err());
    }
}
