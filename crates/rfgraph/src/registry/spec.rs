//! [`BlockSpec`]: everything a registry knows about one block: its stable
//! name, category and documentation, its typed parameters, its ports, and
//! the constructor that builds it from parameter values.
//!
//! A block crate writes one spec next to each block; this module owns the
//! type and its builder, never the list of blocks.

use crate::block::Block;
use crate::error::{BoxError, ParamError};
use crate::params::{BuildError, ItemKind, ParamSet, ParamSpec, Values};
use crate::pmt::Pmt;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// What a port carries, for documentation and early connection checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortItem {
    /// Always this item type.
    Fixed(ItemKind),
    /// The item type named by the block's `type` parameter.
    OfType,
    /// The item type named by another parameter (`output_type`).
    OfParam(&'static str),
    /// Raw bytes or another item type the registry has no name for.
    Other(&'static str),
}

impl fmt::Display for PortItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PortItem::Fixed(k) => write!(f, "{k}"),
            PortItem::OfType => f.write_str("`type`"),
            PortItem::OfParam(p) => write!(f, "`{p}`"),
            PortItem::Other(s) => f.write_str(s),
        }
    }
}

/// One stream port of a registered block. Blocks with a variable number
/// of ports (an adder's inputs) name them `in0`, `in1`, ... and give the
/// parameter that sets the count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortSpec {
    /// The port's name, or its prefix when `count` is set.
    pub name: &'static str,
    /// What it carries.
    pub item: PortItem,
    /// The parameter that sets how many such ports there are (`name0`,
    /// `name1`, ...), if variable.
    pub count: Option<&'static str>,
    /// Whether the port may stay unconnected.
    pub optional: bool,
    /// One line saying what flows there.
    pub doc: &'static str,
}

impl PortSpec {
    /// A port named `name` carrying `item`.
    pub fn new(name: &'static str, item: PortItem) -> Self {
        Self {
            name,
            item,
            count: None,
            optional: false,
            doc: "",
        }
    }

    /// Lets the port stay unconnected (the block's port is
    /// `StreamInput::optional` / `StreamOutput::optional`).
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// Sets the documentation.
    pub fn doc(mut self, doc: &'static str) -> Self {
        self.doc = doc;
        self
    }

    /// Makes this `count` ports named `name0`, `name1`, ...
    pub fn repeated(mut self, count: &'static str) -> Self {
        self.count = Some(count);
        self
    }
}

type Build = dyn Fn(&Values) -> Result<Box<dyn Block>, BuildError> + Send + Sync;
type Check = dyn Fn(&Values) -> Result<(), BuildError> + Send + Sync;

/// A registered block: names, documentation, parameters, ports, and its
/// constructor.
#[derive(Clone)]
pub struct BlockSpec {
    /// The stable name flowgraph files use (`file_source`).
    pub name: &'static str,
    /// Where `rfgraph blocks` lists it (`Sources`, `Filters`, ...).
    pub category: &'static str,
    /// One line saying what it does.
    pub summary: &'static str,
    /// The full documentation, in Markdown.
    pub doc: &'static str,
    /// Its parameters, in declaration order.
    pub params: Vec<ParamSpec>,
    /// Its stream inputs.
    pub inputs: Vec<PortSpec>,
    /// Its stream outputs.
    pub outputs: Vec<PortSpec>,
    /// Its message inputs besides its settable parameters.
    pub message_inputs: Vec<&'static str>,
    /// Its message outputs.
    pub message_outputs: Vec<&'static str>,
    /// The parameter whose list of names adds message inputs of those
    /// names, for a block whose ports are per instance (a Python block's
    /// `message_port_register_in`); see
    /// [`message_inputs_named_by`](Self::message_inputs_named_by).
    pub message_inputs_param: Option<&'static str>,
    /// As [`message_inputs_param`](Self::message_inputs_param), for
    /// message outputs.
    pub message_outputs_param: Option<&'static str>,
    build: Arc<Build>,
    check: Option<Arc<Check>>,
}

impl fmt::Debug for BlockSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockSpec")
            .field("name", &self.name)
            .field("category", &self.category)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl PortSpec {
    /// The port as JSON (`name`, `item`, `count`, `doc`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "item": self.item.to_string().trim_matches('`'),
            "count": self.count,
            "doc": self.doc,
        })
    }
}

impl BlockSpec {
    /// The block as JSON: what `rfgraph blocks --json` prints and the
    /// Python package's `blocks()` gives (`name`, `category`, `summary`,
    /// `doc`, `params` as [`ParamSpec::to_json`], `inputs` and `outputs`
    /// as [`PortSpec::to_json`], `message_inputs`, `message_outputs`).
    pub fn to_json(&self) -> serde_json::Value {
        let ports = |list: &[PortSpec]| list.iter().map(PortSpec::to_json).collect::<Vec<_>>();
        serde_json::json!({
            "name": self.name,
            "category": self.category,
            "summary": self.summary,
            "doc": self.doc,
            "params": self.params.iter().map(ParamSpec::to_json).collect::<Vec<_>>(),
            "inputs": ports(&self.inputs),
            "outputs": ports(&self.outputs),
            "message_inputs": self.message_inputs,
            "message_outputs": self.message_outputs,
        })
    }

    /// A block named `name` in `category` that does what `summary` says,
    /// built by `build` from its parameters.
    pub fn new(
        name: &'static str,
        category: &'static str,
        summary: &'static str,
        build: impl Fn(&Values) -> Result<Box<dyn Block>, BuildError> + Send + Sync + 'static,
    ) -> Self {
        Self {
            name,
            category,
            summary,
            doc: "",
            params: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            message_inputs: Vec::new(),
            message_outputs: Vec::new(),
            message_inputs_param: None,
            message_outputs_param: None,
            build: Arc::new(build),
            check: None,
        }
    }

    /// A block whose parameters are the [`ParamSet`] `P`: its parameter
    /// list is `P`'s declaration, files are checked by building `P` (so
    /// `rfgraph check` refuses what `run` would), and `build` makes the
    /// block from the checked parameters. A [`ParamError`] from `build`
    /// names its parameter; any other error names the block.
    pub fn of<P: ParamSet>(
        name: &'static str,
        category: &'static str,
        summary: &'static str,
        build: impl Fn(P) -> Result<Box<dyn Block>, BoxError> + Send + Sync + 'static,
    ) -> Self {
        let mut spec = Self::new(name, category, summary, move |values| {
            let params = P::from_values(values)?;
            build(params).map_err(|e| match e.downcast::<ParamError>() {
                Ok(p) => values.param_error(&p),
                Err(other) => values.refused(other),
            })
        });
        spec.params = P::specs();
        spec.check = Some(Arc::new(|values| P::from_values(values).map(drop)));
        spec
    }

    /// Adds `check` to what checking a file asks of the parameters `P`
    /// (after their own checks), for a refusal only constructing would
    /// otherwise find (a function's text the block's compiler refuses),
    /// so that `rfgraph check` refuses what `run` would.
    pub fn check_params<P: ParamSet>(
        mut self,
        check: impl Fn(&P) -> Result<(), ParamError> + Send + Sync + 'static,
    ) -> Self {
        self.check = Some(Arc::new(move |values| {
            let params = P::from_values(values)?;
            check(&params).map_err(|e| values.param_error(&e))
        }));
        self
    }

    /// Sets the full documentation.
    pub fn doc(mut self, doc: &'static str) -> Self {
        self.doc = doc;
        self
    }

    /// Adds a parameter.
    pub fn param(mut self, param: ParamSpec) -> Self {
        self.params.push(param);
        self
    }

    /// Adds a stream input.
    pub fn input(mut self, port: PortSpec) -> Self {
        self.inputs.push(port);
        self
    }

    /// Adds a stream output.
    pub fn output(mut self, port: PortSpec) -> Self {
        self.outputs.push(port);
        self
    }

    /// Adds a message input (settable parameters have theirs already).
    pub fn message_input(mut self, name: &'static str) -> Self {
        self.message_inputs.push(name);
        self
    }

    /// Adds a message output.
    pub fn message_output(mut self, name: &'static str) -> Self {
        self.message_outputs.push(name);
        self
    }

    /// Adds a message input for each name in the list parameter `param`
    /// (a list of strings) of each instance: the builder checks message
    /// connections against them as against declared ones, and the block
    /// declares the same ports in `Block::ports`.
    pub fn message_inputs_named_by(mut self, param: &'static str) -> Self {
        self.message_inputs_param = Some(param);
        self
    }

    /// As [`message_inputs_named_by`](Self::message_inputs_named_by), for
    /// message outputs.
    pub fn message_outputs_named_by(mut self, param: &'static str) -> Self {
        self.message_outputs_param = Some(param);
        self
    }

    /// Every message input of the block as it runs: those it declares,
    /// then one for each settable parameter and each of its aliases (the
    /// runtime's order, see [`params::setting_inputs`](crate::params::setting_inputs)).
    pub fn message_input_names(&self) -> Vec<&'static str> {
        let mut names = self.message_inputs.clone();
        for p in self.params.iter().filter(|p| p.settable) {
            for name in std::iter::once(p.name).chain(p.aliases.iter().copied()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }

    /// The parameter called `name`.
    pub fn param_spec(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Checks `given` against the parameters and builds the block.
    pub fn build(&self, given: BTreeMap<String, Pmt>) -> Result<Box<dyn Block>, BuildError> {
        let values = Values::resolve(self.name, &self.params, given)?;
        (self.build)(&values)
    }

    /// Checks `given` as [`build`](Self::build) would, without building:
    /// every value against its declaration and, for a block of a
    /// [`ParamSet`], the set's own consistency rules.
    pub fn check(&self, given: BTreeMap<String, Pmt>) -> Result<(), BuildError> {
        let values = Values::resolve(self.name, &self.params, given)?;
        match &self.check {
            Some(check) => check(&values),
            None => Ok(()),
        }
    }
}

/// Builds a boxed block for the item kind `$kind` (an [`ItemKind`]),
/// with `$t` standing for the Rust type of each listed kind, inside a
/// [`BlockSpec::of`] constructor:
///
/// ```ignore
/// for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T => Head::<T>::new(p.items))
/// ```
///
/// A kind not listed is an error (the `kinds(...)` of the parameter
/// normally refuses it first).
#[macro_export]
macro_rules! for_item_kinds {
    ($kind:expr, { $($k:ident => $ty:ty),+ $(,)? } as $t:ident => $body:expr) => {{
        match $kind {
            $(
                $crate::params::ItemKind::$k => {
                    type $t = $ty;
                    Ok(Box::new($body) as Box<dyn $crate::Block>)
                }
            )+
            #[allow(unreachable_patterns)]
            other => Err($crate::BoxError::from(format!("item type `{other}` is not supported here"))),
        }
    }};
}
