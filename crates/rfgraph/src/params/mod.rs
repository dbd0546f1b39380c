//! Block parameters, declared once.
//!
//! A block's parameters are the fields of one struct that derives
//! [`ParamSet`]. Each field is one parameter: its name, its Rust type
//! (which gives the [`ParamType`]), its `///` comment (the one-line
//! documentation), and a `#[param(...)]` attribute with the rest. Every
//! consumer reads that one declaration:
//!
//! - the registry ([`BlockSpec::of`](crate::registry::BlockSpec::of)) and
//!   `rfgraph blocks` list it ([`ParamSpec`]);
//! - flowgraph files and GRC import build the struct from their values,
//!   each checked for type, range and choices, with errors that name the
//!   parameter ([`Values`], [`BuildError`]);
//! - the runtime gives every settable parameter a message input of its
//!   name, converts what arrives from [`Pmt`](crate::Pmt) with a typed
//!   error, assigns it between two `work` calls, and calls the block's
//!   [`params_changed`](crate::Block::params_changed) to react ([`apply`]);
//! - the control port and the bindings read the declarations and the
//!   current values ([`ParamSet::describe`], [`ParamSet::get`]).
//!
//! ```
//! use rfgraph::{Block, BoxError, ParamSet, Ports, StreamInput, StreamOutput, WorkIo};
//! use rfgraph::params::ParamSet as _;
//!
//! /// Parameters of `Gain`.
//! #[derive(ParamSet, Clone, Debug)]
//! pub struct GainParams {
//!     /// linear gain applied to every sample
//!     #[param(default = 1.0, min = 0.0, settable)]
//!     pub gain: f32,
//! }
//!
//! pub struct Gain {
//!     input: StreamInput<f32>,
//!     output: StreamOutput<f32>,
//!     params: GainParams,
//! }
//!
//! impl Block for Gain {
//!     fn ports(&mut self) -> Ports<'_> {
//!         Ports::new().input(&mut self.input).output(&mut self.output)
//!     }
//!     fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
//!         Some(&mut self.params)
//!     }
//!     fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
//!         let (i, o) = (self.input.slice(), self.output.slice());
//!         let n = i.len().min(o.len());
//!         for (o, i) in o[..n].iter_mut().zip(i) {
//!             *o = self.params.gain * i;
//!         }
//!         self.input.consume(n);
//!         self.output.produce(n);
//!         Ok(())
//!     }
//! }
//!
//! let mut g = Gain {
//!     input: StreamInput::new("in"),
//!     output: StreamOutput::new("out"),
//!     params: GainParams::default(),
//! };
//! // What a message on input `gain` does while the graph runs:
//! rfgraph::params::apply(&mut g, "gain", rfgraph::Pmt::F64(2.0)).unwrap();
//! assert_eq!(g.params.gain, 2.0);
//! let e = rfgraph::params::apply(&mut g, "gain", rfgraph::Pmt::F64(-1.0)).unwrap_err();
//! assert_eq!(e.to_string(), "parameter `gain`: -1 is out of range: must be ≥ 0");
//! assert_eq!(GainParams::specs()[0].doc, "linear gain applied to every sample");
//! ```
//!
//! # The `#[param(...)]` keys
//!
//! | key | meaning |
//! |---|---|
//! | `default = expr` | the value when a file gives none; without it the parameter is required (an `Option<T>` field is optional, `None` when unset) |
//! | `unit = "Hz"` | the unit shown by `rfgraph blocks` and the control port |
//! | `min = x`, `max = x` | inclusive bounds of a number |
//! | `above = x`, `below = x` | exclusive bounds of a number |
//! | `max_len = n` | the most elements of a vector (or characters of a string); every parameter that sizes an allocation has one (see [`limits`]) |
//! | `choices = ["a", "b"]` | the values of a string field (an enum deriving [`ParamChoice`] has its variants as choices) |
//! | `kinds(F32, C32)` | an [`ItemKind`] field's allowed item types, the first the default |
//! | `name = "type"` | the parameter's name when it differs from the field's |
//! | `alias = "freq"` | another accepted name (repeatable); settable parameters get a message input under each |
//! | `settable` | the parameter may change while the block runs |
//! | `flatten` | the field is a parameter set of its own (what a family of blocks shares), whose parameters join these |
//!
//! Floating-point values must be finite. A struct-level
//! `#[params(check = path)]` names a `fn(&Self) -> Result<(), ParamError>`
//! for rules that involve several parameters; it runs at construction and
//! after every change, and a change it refuses is undone. When every
//! field has a default, the derive also implements `Default`, so Rust
//! code writes `GainParams { gain: 2.0, ..Default::default() }`.
//!
//! This module owns the declaration types, the value conversions and the
//! rules every value passes; it knows no block.

pub mod limits;
mod set;
mod spec;
mod types;
mod value;
mod values;

pub use set::{NoParams, ParamSet, SetError, accept, apply, setting_inputs, spec_named};
pub use spec::{Bound, ParamSpec, Range, Rejection};
pub use types::{ItemKind, ParamType};
pub use value::{ParamChoice, ParamValue, PmtTypeError, choice_from_pmt, describe};
pub use values::{BuildError, Values};
