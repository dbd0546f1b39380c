//! [`Values`]: the parameter values one block is built from, checked
//! against its declarations, and [`BuildError`], why they were refused.

use super::set::ParamSet;
use super::spec::{ParamSpec, Rejection};
use super::types::ParamType;
use super::value::ParamValue;
use crate::error::ParamError;
use crate::pmt::Pmt;
use std::collections::BTreeMap;
use std::fmt;

/// Why a block could not be built from its parameters.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// A parameter the block does not have.
    #[error("block `{block}` has no parameter `{param}`{}", suggestion(.suggest))]
    UnknownParam {
        /// The registered block.
        block: String,
        /// The name given.
        param: String,
        /// The closest parameter name, if one is close.
        suggest: Option<String>,
    },
    /// A required parameter without a value.
    #[error("block `{block}` needs parameter `{param}` ({ty})")]
    Missing {
        /// The registered block.
        block: String,
        /// The parameter.
        param: String,
        /// Its type.
        ty: ParamType,
    },
    /// A value of the wrong type.
    #[error("block `{block}`, parameter `{param}`: expected {expected}, found {found}")]
    Type {
        /// The registered block.
        block: String,
        /// The parameter.
        param: String,
        /// The type it takes.
        expected: String,
        /// What was given.
        found: String,
    },
    /// A value the block rejects (out of range, not among the choices,
    /// inconsistent with another parameter).
    #[error("block `{block}`, parameter `{param}`: {reason}")]
    Invalid {
        /// The registered block.
        block: String,
        /// The parameter.
        param: String,
        /// Why.
        reason: String,
    },
    /// The block's own constructor refused the parameters.
    #[error("block `{block}`: {reason}")]
    Block {
        /// The registered block.
        block: String,
        /// The constructor's error.
        reason: String,
    },
}

impl BuildError {
    /// The parameter at fault, when the error is about one.
    pub fn param(&self) -> Option<&str> {
        match self {
            BuildError::UnknownParam { param, .. }
            | BuildError::Missing { param, .. }
            | BuildError::Type { param, .. }
            | BuildError::Invalid { param, .. } => Some(param),
            BuildError::Block { .. } => None,
        }
    }
}

fn suggestion(s: &Option<String>) -> String {
    s.as_ref()
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// The parameter values one block is built from: every given name
/// resolved (aliases to names), the defaults filled in, and every value
/// checked against its declaration.
#[derive(Clone, Debug)]
pub struct Values {
    block: String,
    values: BTreeMap<String, Pmt>,
}

impl Values {
    /// Checks `given` against `specs` for the block `block`: every name
    /// must be a parameter (or an alias of one, given once), every
    /// required one given, every value of its type, finite, in its range
    /// and among its choices; defaults fill the rest.
    pub fn resolve(
        block: &str,
        specs: &[ParamSpec],
        given: BTreeMap<String, Pmt>,
    ) -> Result<Self, BuildError> {
        let mut named: BTreeMap<&'static str, Pmt> = BTreeMap::new();
        for (name, value) in given {
            let Some(spec) = specs.iter().find(|s| s.is_called(&name)) else {
                let names = specs
                    .iter()
                    .flat_map(|s| std::iter::once(s.name).chain(s.aliases.iter().copied()));
                return Err(BuildError::UnknownParam {
                    block: block.to_string(),
                    suggest: crate::registry::suggest::closest(&name, names).map(str::to_string),
                    param: name,
                });
            };
            if named.insert(spec.name, value).is_some() {
                return Err(BuildError::Invalid {
                    block: block.to_string(),
                    param: spec.name.to_string(),
                    reason: format!(
                        "given twice (as `{}` and as one of {})",
                        spec.name,
                        spec.aliases.join(", ")
                    ),
                });
            }
        }
        let mut values = BTreeMap::new();
        for spec in specs {
            let value = match named.remove(spec.name) {
                Some(v) => v,
                None => spec.default.clone().ok_or_else(|| BuildError::Missing {
                    block: block.to_string(),
                    param: spec.name.to_string(),
                    ty: spec.ty,
                })?,
            };
            spec.check(&value)
                .map_err(|r| rejected(block, spec.name, r))?;
            values.insert(spec.name.to_string(), value);
        }
        Ok(Self {
            block: block.to_string(),
            values,
        })
    }

    /// The registered block these values are for.
    pub fn block(&self) -> &str {
        &self.block
    }

    /// The value of `name` as it was given (or defaulted).
    pub fn raw(&self, name: &str) -> Result<&Pmt, BuildError> {
        self.values
            .get(name)
            .ok_or_else(|| BuildError::UnknownParam {
                block: self.block.clone(),
                param: name.to_string(),
                suggest: None,
            })
    }

    /// The value of `name`, converted to `T`.
    pub fn take<T: ParamValue>(&self, name: &str) -> Result<T, BuildError> {
        let value = self.raw(name)?;
        T::from_pmt(value.clone()).map_err(|e| BuildError::Type {
            block: self.block.clone(),
            param: name.to_string(),
            expected: e.expected.to_string(),
            found: e.found,
        })
    }

    /// `params`, once its own consistency check
    /// ([`ParamSet::consistent`]) passed.
    pub fn checked<P: ParamSet>(&self, params: P) -> Result<P, BuildError> {
        params.consistent().map_err(|e| self.param_error(&e))?;
        Ok(params)
    }

    /// The build error for `e`, a parameter the block refused.
    pub fn param_error(&self, e: &ParamError) -> BuildError {
        BuildError::Invalid {
            block: self.block.clone(),
            param: e.param.clone(),
            reason: e.reason.clone(),
        }
    }

    /// An error for the block as a whole (its constructor refused).
    pub fn refused(&self, reason: impl fmt::Display) -> BuildError {
        BuildError::Block {
            block: self.block.clone(),
            reason: reason.to_string(),
        }
    }
}

/// The build error for a value `spec.check` rejected.
pub(crate) fn rejected(block: &str, param: &str, r: Rejection) -> BuildError {
    match r {
        Rejection::Type { expected, found } => BuildError::Type {
            block: block.to_string(),
            param: param.to_string(),
            expected: expected.to_string(),
            found,
        },
        Rejection::Invalid(reason) => BuildError::Invalid {
            block: block.to_string(),
            param: param.to_string(),
            reason,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ItemKind;

    fn specs() -> Vec<ParamSpec> {
        vec![
            ParamSpec::float("cutoff").unit("Hz").doc("edge").above(0.0),
            ParamSpec::uint("taps").default(64u64).max(4096.0),
            ParamSpec::string("window")
                .choices(&["hamming", "hann", "blackman"])
                .default("hamming"),
            ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]),
            ParamSpec::float("rate").default(1.0).alias("samp_rate"),
        ]
    }

    fn given(pairs: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn defaults_fill_in_and_values_convert() {
        let v = Values::resolve("lpf", &specs(), given(&[("cutoff", Pmt::I64(5000))])).unwrap();
        assert_eq!(v.take::<f64>("cutoff").unwrap(), 5000.0);
        assert_eq!(v.take::<usize>("taps").unwrap(), 64);
        assert_eq!(v.take::<String>("window").unwrap(), "hamming");
        assert_eq!(v.take::<ItemKind>("type").unwrap(), ItemKind::F32);
    }

    #[test]
    fn aliases_name_the_same_parameter_once() {
        let v = Values::resolve(
            "lpf",
            &specs(),
            given(&[("cutoff", Pmt::I64(1)), ("samp_rate", Pmt::F64(8e3))]),
        )
        .unwrap();
        assert_eq!(v.take::<f64>("rate").unwrap(), 8e3);
        let e = Values::resolve(
            "lpf",
            &specs(),
            given(&[
                ("cutoff", Pmt::I64(1)),
                ("samp_rate", Pmt::F64(8e3)),
                ("rate", Pmt::F64(8e3)),
            ]),
        )
        .unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
    }

    #[test]
    fn errors_name_the_block_the_parameter_and_both_types() {
        let e = Values::resolve("lpf", &specs(), given(&[])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "block `lpf` needs parameter `cutoff` (float)"
        );
        let e = Values::resolve(
            "lpf",
            &specs(),
            given(&[("cutoff", Pmt::from("high")), ("taps", Pmt::I64(3))]),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "block `lpf`, parameter `cutoff`: expected float, found string \"high\""
        );
        let e = Values::resolve(
            "lpf",
            &specs(),
            given(&[("cutof", Pmt::F64(1.0)), ("cutoff", Pmt::F64(1.0))]),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "block `lpf` has no parameter `cutof` (did you mean `cutoff`?)"
        );
        let e = Values::resolve(
            "lpf",
            &specs(),
            given(&[("cutoff", Pmt::F64(1.0)), ("taps", Pmt::I64(-1))]),
        )
        .unwrap_err();
        assert!(e.to_string().contains("expected uint, found int -1"), "{e}");
        let e = Values::resolve(
            "lpf",
            &specs(),
            given(&[("cutoff", Pmt::F64(1.0)), ("taps", Pmt::I64(1 << 40))]),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "block `lpf`, parameter `taps`: 1099511627776 is out of range: must be ≤ 4096"
        );
        assert_eq!(e.param(), Some("taps"));
    }
}
