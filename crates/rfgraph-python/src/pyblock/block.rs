//! [`PyBlock`]: one Rust block for every kind of Python block. Each call
//! sizes the views by the kind's rules ([`Kind::plan`]), hands them to
//! the object's `_rfgraph_work(inputs, outputs, tags)` and applies what
//! it returns:
//! - an `int`: the items produced on every output, the inputs consumed
//!   by the kind's rate; `-1` (GNU Radio's `WORK_DONE`) finishes the block;
//! - a tuple `(consumed, produced, added, published)`: per-input and
//!   per-output counts, `None` or a list of `(output, offset, key, value)`
//!   tags to attach (see [`tags`](super::tags)), and `None` or a list of
//!   `(message output, value)` messages to post (see [`messages`](super::messages)).
//!
//! A message reaches the object's `_rfgraph_message(port, value)`, which
//! returns `(reply, published)`.
//!
//! At construction it asks the object's `_rfgraph_setup()` for its output
//! multiple and tag propagation policy (both set in its `__init__`), and
//! for a general block its relative rate (tag offsets scale by it) and
//! the input items a call needs (its `forecast` for one output multiple):
//! the rings are sized for them, and the runtime finishes the block once
//! a done writer left fewer.

use super::hooks::{self, Outside};
use super::messages;
use super::rate::Kind;
use super::tags::{self, Added};
use super::view::{PYBUF_READ, PYBUF_WRITE, describe, view};
use super::{OBJECTS, PythonBlockParams};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use rfgraph::port::message::MessageOutput;
use rfgraph::{
    Block, BoxError, Item, Pmt, Ports, StreamInput, StreamOutput, Tag, TagPolicy, WorkIo,
};
use std::sync::Arc;

/// The most stream ports on each side of a Python block.
const MAX_PY_PORTS: usize = 16;
const IN_NAMES: [&str; MAX_PY_PORTS] = [
    "in0", "in1", "in2", "in3", "in4", "in5", "in6", "in7", "in8", "in9", "in10", "in11", "in12",
    "in13", "in14", "in15",
];
const OUT_NAMES: [&str; MAX_PY_PORTS] = [
    "out0", "out1", "out2", "out3", "out4", "out5", "out6", "out7", "out8", "out9", "out10",
    "out11", "out12", "out13", "out14", "out15",
];

/// The most items a Python block may ask for at once on an input (ring
/// sizes follow it).
const MAX_MIN_ITEMS: usize = 1 << 24;

/// GNU Radio's `TPP_ONE_TO_ONE`.
const TPP_ONE_TO_ONE: u8 = 2;

/// A Python object's `work` as a block from `I` items to `O` items.
pub struct PyBlock<I: Item, O: Item> {
    inputs: Vec<StreamInput<I>>,
    outputs: Vec<StreamOutput<O>>,
    message_inputs: Vec<&'static str>,
    message_outputs: Vec<MessageOutput>,
    object: Py<PyAny>,
    /// What the object shares with this block (see [`hooks`]).
    outside: Arc<Outside>,
    kind: Kind,
    /// The object's output multiple.
    multiple: usize,
    /// The object's tag propagation policy (GNU Radio's numbers).
    tpp: u8,
}

/// What `_rfgraph_setup()` returns: output multiple, tag policy, items
/// each input needs (general blocks), relative rate `(interpolation,
/// decimation)` (general blocks).
type Setup = (usize, u8, Option<Vec<usize>>, Option<(u64, u64)>);

/// What one call asks of the ports.
enum Outcome {
    /// `WORK_DONE`: finish, moving nothing.
    Done,
    /// Items consumed per input, produced per output, tags to attach,
    /// messages to post.
    Moved {
        consumed: Vec<usize>,
        produced: Vec<usize>,
        added: Vec<Added>,
        published: Vec<(String, Pmt)>,
    },
}

impl<I: Item, O: Item> PyBlock<I, O> {
    /// The block of `kind` for the object in `p.slot`.
    pub fn new(p: &PythonBlockParams, kind: Kind) -> Result<Self, BoxError> {
        let (object, outside, multiple, tpp, needs, rate) = crate::gil::attach(|py| {
            let object = OBJECTS
                .with(p.slot, |o| o.clone_ref(py))
                .ok_or_else(|| format!("no Python block in slot {}", p.slot))?;
            let setup = || -> PyResult<_> {
                let bound = object.bind(py);
                let (multiple, tpp, needs, rate): Setup =
                    bound.call_method0("_rfgraph_setup")?.extract()?;
                Ok((hooks::install(bound)?, multiple, tpp, needs, rate))
            };
            let (outside, multiple, tpp, needs, rate) = setup().map_err(|e| describe(py, &e))?;
            Ok::<_, String>((object, outside, multiple.max(1), tpp, needs, rate))
        })?;
        let kind = match (kind, rate) {
            (Kind::General { .. }, Some((interpolation, decimation))) => Kind::General {
                interpolation: interpolation.max(1),
                decimation: decimation.max(1),
            },
            _ => kind,
        };
        let message_inputs = messages::names(&p.message_inputs, "message_inputs")?;
        let message_outputs = messages::names(&p.message_outputs, "message_outputs")?;
        if p.ninputs + p.noutputs + message_inputs.len() + message_outputs.len() == 0 {
            return Err("a Python block needs at least one port".into());
        }
        let min_in = kind.min_input(multiple);
        let min_out = kind.output_unit(multiple);
        let needs = needs.unwrap_or_default();
        Ok(Self {
            inputs: IN_NAMES[..p.ninputs.min(MAX_PY_PORTS)]
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    let need = needs.get(i).copied().unwrap_or(min_in);
                    StreamInput::new(n).with_min_items(need.min(MAX_MIN_ITEMS))
                })
                .collect(),
            outputs: OUT_NAMES[..p.noutputs.min(MAX_PY_PORTS)]
                .iter()
                .map(|n| StreamOutput::new(n).with_min_items(min_out))
                .collect(),
            message_inputs,
            message_outputs: message_outputs
                .into_iter()
                .map(MessageOutput::new)
                .collect(),
            object,
            outside,
            kind,
            multiple,
            tpp,
        })
    }

    /// Reads what the Python call returned, checking it against the view
    /// lengths (`inputs` per input, `outputs` per output).
    fn outcome(&self, r: &Bound<'_, PyAny>, inputs: &[usize], outputs: usize) -> PyResult<Outcome> {
        let (nin, nout) = (self.inputs.len(), self.outputs.len());
        if let Ok(tuple) = r.cast::<PyTuple>() {
            let (consumed, produced, added, published): (
                Vec<usize>,
                Vec<usize>,
                Bound<'_, PyAny>,
                Bound<'_, PyAny>,
            ) = tuple.extract()?;
            if consumed.len() != nin || produced.len() != nout {
                return Err(PyValueError::new_err(format!(
                    "work reported {} consumed and {} produced counts for {nin} inputs and {nout} outputs",
                    consumed.len(),
                    produced.len()
                )));
            }
            for (i, (&c, &given)) in consumed.iter().zip(inputs).enumerate() {
                if c > given {
                    return Err(PyValueError::new_err(format!(
                        "consumed {c} items of input {i}, more than the {given} it holds"
                    )));
                }
            }
            if let Some((o, &p)) = produced.iter().enumerate().find(|(_, p)| **p > outputs) {
                return Err(PyValueError::new_err(format!(
                    "produced {p} items on output {o}, more than the {outputs} it was given"
                )));
            }
            let added = if added.is_none() {
                Vec::new()
            } else {
                tags::parse_added(&added, nout)?
            };
            let published = if published.is_none() {
                Vec::new()
            } else {
                messages::parse(&published)?
            };
            return Ok(Outcome::Moved {
                consumed,
                produced,
                added,
                published,
            });
        }
        let n: i64 = r.extract()?;
        if n == -1 {
            return Ok(Outcome::Done);
        }
        let produced =
            usize::try_from(n).map_err(|_| PyValueError::new_err(format!("work returned {n}")))?;
        if produced > outputs {
            return Err(PyValueError::new_err(format!(
                "work returned {produced}, more than the {outputs} items it was given"
            )));
        }
        let each = self.kind.consumed_for(produced).ok_or_else(|| {
            PyValueError::new_err(format!(
                "work returned {produced}, which the block's rate ({:?}) cannot consume a whole number of inputs for",
                self.kind
            ))
        })?;
        Ok(Outcome::Moved {
            consumed: vec![each; nin],
            produced: vec![produced; nout],
            added: Vec::new(),
            published: Vec::new(),
        })
    }
}

impl<I: Item, O: Item> Block for PyBlock<I, O> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        for output in &mut self.outputs {
            ports = ports.output(output);
        }
        for &name in &self.message_inputs {
            ports = ports.message_input(name);
        }
        for output in &mut self.message_outputs {
            ports = ports.message_output(output);
        }
        ports
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (reply, published) = crate::gil::attach(|py| {
            let call = || -> PyResult<(Pmt, Vec<(String, Pmt)>)> {
                let value = crate::pmt::from_pmt(py, &msg)?;
                let result = self
                    .object
                    .bind(py)
                    .call_method1(pyo3::intern!(py, "_rfgraph_message"), (port, value))?;
                let (reply, published): (Bound<'_, PyAny>, Bound<'_, PyAny>) = result.extract()?;
                let published = if published.is_none() {
                    Vec::new()
                } else {
                    messages::parse(&published)?
                };
                Ok((crate::pmt::to_pmt(&reply)?, published))
            };
            call().map_err(|e| describe(py, &e))
        })?;
        messages::post(&self.message_outputs, published)?;
        Ok(reply)
    }

    fn tag_policy(&self) -> TagPolicy {
        self.kind.tag_policy(self.tpp)
    }

    fn attach_waker(&mut self, waker: rfgraph::Waker) {
        self.outside.attach(waker);
    }

    fn init(&mut self) -> Result<(), BoxError> {
        hooks::call(&self.object, "_rfgraph_start")?;
        // Messages published before the run (in `__init__` or `start`)
        // go out at the first call.
        self.outside.mark_pending();
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        Ok(hooks::call(&self.object, "_rfgraph_stop")?)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let early = hooks::take_published(&self.outside, &self.object)?;
        messages::post(&self.message_outputs, early)?;
        let mut available = [0usize; MAX_PY_PORTS];
        let available = &mut available[..self.inputs.len()];
        for (a, input) in available.iter_mut().zip(&mut self.inputs) {
            *a = input.available();
        }
        let free = self.outputs.iter_mut().map(|o| o.free()).min();
        let Some(plan) = self.kind.plan(available, free, self.multiple) else {
            return Ok(());
        };
        let mut in_tags: Vec<Vec<Tag>> = Vec::new();
        let outcome = crate::gil::attach(|py| {
            let mut call = || -> PyResult<Outcome> {
                let mut views = Vec::with_capacity(self.inputs.len() + self.outputs.len());
                for (input, &n) in self.inputs.iter_mut().zip(&plan.inputs) {
                    let s = &input.slice()[..n];
                    // SAFETY: the view covers `n` readable items of the
                    // input's ring buffer, which stay in place and unchanged
                    // until `consume` below; the views are released (and a
                    // kept one refused) before this closure returns.
                    let v = unsafe { view(py, s.as_ptr() as *mut u8, size_of_val(s), PYBUF_READ)? };
                    views.push(v);
                }
                for output in self.outputs.iter_mut() {
                    let s = &mut output.slice()[..plan.outputs];
                    // SAFETY: the view covers free items of the output's
                    // ring buffer, which only this block writes until
                    // `produce` below; released as the input views are.
                    let v = unsafe {
                        view(py, s.as_mut_ptr().cast::<u8>(), size_of_val(s), PYBUF_WRITE)?
                    };
                    views.push(v);
                }
                in_tags = self.inputs.iter().map(StreamInput::tags).collect();
                let tags = tags::to_python(py, &in_tags)?;
                let (ins, outs) = views.split_at(self.inputs.len());
                let result = self.object.bind(py).call_method1(
                    pyo3::intern!(py, "_rfgraph_work"),
                    (PyList::new(py, ins)?, PyList::new(py, outs)?, tags),
                );
                // The package's shim refuses a `work` that kept an array
                // of a view (see `_rfgraph_work` in the package), so that
                // Python never reads memory the ring reuses; `release`
                // then ends each view itself.
                for v in &views {
                    // An error here would only hide the call's own.
                    let _ = v.call_method0(pyo3::intern!(py, "release"));
                }
                self.outcome(&result?, &plan.inputs, plan.outputs)
            };
            call().map_err(|e| describe(py, &e))
        })?;
        let Outcome::Moved {
            consumed,
            produced,
            added,
            published,
        } = outcome
        else {
            io.finish();
            return Ok(());
        };
        if self.tpp == TPP_ONE_TO_ONE {
            let starts: Vec<u64> = self.inputs.iter().map(StreamInput::position).collect();
            tags::one_to_one(
                &in_tags,
                &starts,
                &consumed,
                self.kind.ratio(),
                &self.outputs,
            );
        }
        tags::attach(added, &self.outputs)?;
        messages::post(&self.message_outputs, published)?;
        for (input, n) in self.inputs.iter_mut().zip(consumed) {
            input.consume(n);
        }
        for (output, n) in self.outputs.iter_mut().zip(produced) {
            output.produce(n);
        }
        Ok(())
    }
}
