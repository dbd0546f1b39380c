//! [`ParamSet`]: a block's parameters as one struct, written by
//! `#[derive(ParamSet)]`; [`SetError`], why a change while running was
//! refused; and [`apply`], how the runtime lands a change on a block
//! between two `work` calls.

use super::spec::{ParamSpec, Rejection};
use super::value::ParamValue;
use super::values::{BuildError, Values};
use crate::block::Block;
use crate::error::{BoxError, ParamError};
use crate::pmt::Pmt;
use std::collections::BTreeMap;

/// Why a parameter could not be changed while the block runs. Nothing
/// changed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetError {
    /// No parameter of that name, or one that only applies when the
    /// block is built.
    #[error("`{0}` is not a parameter that can change while the block runs")]
    NotSettable(String),
    /// A value of the wrong type.
    #[error("parameter `{param}`: expected {expected}, found {found}")]
    Type {
        /// The parameter.
        param: String,
        /// The type it takes.
        expected: String,
        /// What was given.
        found: String,
    },
    /// A value the block refuses (out of range, inconsistent with another
    /// parameter).
    #[error("parameter `{param}`: {reason}")]
    Invalid {
        /// The parameter.
        param: String,
        /// Why.
        reason: String,
    },
}

impl SetError {
    /// The error for a name that is no settable parameter.
    pub fn not_settable(name: &str) -> Self {
        SetError::NotSettable(name.to_string())
    }
}

impl From<ParamError> for SetError {
    fn from(e: ParamError) -> Self {
        SetError::Invalid {
            param: e.param,
            reason: e.reason,
        }
    }
}

/// The declaration called `name` among `specs` (what a derived
/// [`ParamSet::set`] checks a value against).
pub fn spec_named(specs: Vec<ParamSpec>, name: &str) -> Result<ParamSpec, SetError> {
    specs
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| SetError::not_settable(name))
}

/// `value` checked against `spec` and converted to the parameter's type
/// (what a derived [`ParamSet::set`] does before it assigns).
pub fn accept<T: ParamValue>(spec: &ParamSpec, value: Pmt) -> Result<T, SetError> {
    let param = spec.name.to_string();
    spec.check(&value).map_err(|r| match r {
        Rejection::Type { expected, found } => SetError::Type {
            param: param.clone(),
            expected: expected.to_string(),
            found,
        },
        Rejection::Invalid(reason) => SetError::Invalid {
            param: param.clone(),
            reason,
        },
    })?;
    T::from_pmt(value).map_err(|e| SetError::Type {
        param,
        expected: e.expected.to_string(),
        found: e.found,
    })
}

/// A block's parameters, declared once as the fields of one struct.
///
/// `#[derive(ParamSet)]` implements it (see the [module docs](super));
/// nothing else should. A block holds its parameter struct and returns it
/// from [`Block::params`], so the registry, flowgraph files, the control
/// port and the bindings all read the same declaration, and the runtime
/// routes each settable parameter's message input to [`set`](Self::set).
pub trait ParamSet: Send + 'static {
    /// Every parameter's declaration, in field order.
    fn specs() -> Vec<ParamSpec>
    where
        Self: Sized;

    /// The parameters from values checked against [`specs`](Self::specs),
    /// then checked for consistency.
    fn from_values(values: &Values) -> Result<Self, BuildError>
    where
        Self: Sized;

    /// The declarations, for a parameter set behind a `dyn` reference.
    fn describe(&self) -> Vec<ParamSpec>;

    /// The current value of parameter `name`.
    fn get(&self, name: &str) -> Option<Pmt>;

    /// Changes settable parameter `name` to `value`: converted, checked
    /// against its declaration and for consistency, or refused with
    /// nothing changed.
    fn set(&mut self, name: &str, value: Pmt) -> Result<(), SetError>;

    /// Checks what no single declaration can (a cut-off below half the
    /// sample rate); the struct's `#[params(check = ...)]`.
    fn consistent(&self) -> Result<(), ParamError> {
        Ok(())
    }

    /// The parameters from `given` (names or aliases to values), checked
    /// as a flowgraph file's would be.
    fn resolve(block: &str, given: BTreeMap<String, Pmt>) -> Result<Self, BuildError>
    where
        Self: Sized,
    {
        Self::from_values(&Values::resolve(block, &Self::specs(), given)?)
    }

    /// Checks every current value against its declaration, then for
    /// consistency: what a block's Rust constructor calls, so that a
    /// struct written in code meets the same rules as a flowgraph file.
    fn validate(&self) -> Result<(), ParamError> {
        let block = std::any::type_name::<Self>()
            .rsplit("::")
            .next()
            .unwrap_or("parameters");
        for spec in self.describe() {
            if let Some(value) = self.get(spec.name) {
                spec.check(&value)
                    .map_err(|r| ParamError::new(block, spec.name, r.to_string()))?;
            }
        }
        self.consistent()
    }
}

/// A block without parameters of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoParams;

impl ParamSet for NoParams {
    fn specs() -> Vec<ParamSpec> {
        Vec::new()
    }
    fn from_values(_: &Values) -> Result<Self, BuildError> {
        Ok(NoParams)
    }
    fn describe(&self) -> Vec<ParamSpec> {
        Vec::new()
    }
    fn get(&self, _: &str) -> Option<Pmt> {
        None
    }
    fn set(&mut self, name: &str, _: Pmt) -> Result<(), SetError> {
        Err(SetError::not_settable(name))
    }
}

/// Lands a change of settable parameter `name` on `block`: the
/// parameter struct takes the value (or refuses it), then the block's
/// [`Block::params_changed`] reacts; when that fails the parameter gets
/// its old value back. The runtime calls this between two `work` calls
/// for a message on the parameter's input; the reply is null.
pub fn apply(block: &mut dyn Block, name: &str, value: Pmt) -> Result<Pmt, BoxError> {
    let params = block.params().ok_or_else(|| SetError::not_settable(name))?;
    let old = params
        .get(name)
        .ok_or_else(|| SetError::not_settable(name))?;
    params.set(name, value)?;
    if let Err(e) = block.params_changed(name) {
        if let Some(params) = block.params() {
            // The old value passed before; it passes again.
            let _ = params.set(name, old);
        }
        return Err(format!("parameter `{name}`: {e}").into());
    }
    Ok(Pmt::Null)
}

/// The message inputs of `params`' settable parameters: `(input name,
/// parameter name)`, each alias an input of its own.
pub fn setting_inputs(params: &dyn ParamSet) -> Vec<(&'static str, &'static str)> {
    params
        .describe()
        .into_iter()
        .filter(|s| s.settable)
        .flat_map(|s| {
            let name = s.name;
            std::iter::once((name, name)).chain(s.aliases.into_iter().map(move |a| (a, name)))
        })
        .collect()
}
