//! Typed block parameters: how a registered block declares one
//! ([`ParamSpec`]) and how its constructor reads the values a flowgraph
//! file, GRC import, the control port or Python gave ([`Params`]).
//!
//! Values travel as [`Pmt`]s and are converted with the same rules as
//! run-time settings ([`FromPmt`]): an integer sets a float, a whole float
//! sets an integer, anything that would truncate or wrap is an error that
//! names the parameter and both types. This module owns the declaration
//! and the reading; it never builds blocks.

use crate::block::settings::{FromPmt, ParamType};
use crate::pmt::Pmt;
use std::collections::BTreeMap;
use std::fmt;

/// One parameter of a registered block.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name used in flowgraph files and by the constructor.
    pub name: &'static str,
    /// The value's type.
    pub ty: ParamType,
    /// The value when none is given; `None` makes the parameter required.
    pub default: Option<Pmt>,
    /// The unit (`"Hz"`), empty when it has none.
    pub unit: &'static str,
    /// One line saying what it does.
    pub doc: &'static str,
    /// The values a string parameter may take (`["cu8", "cf32", ...]`),
    /// empty for any.
    pub choices: Vec<&'static str>,
    /// A message input of the same name changes it while the block runs
    /// (a [`Setting`](crate::Setting) of the block).
    pub settable: bool,
}

impl ParamSpec {
    fn new(name: &'static str, ty: ParamType) -> Self {
        Self {
            name,
            ty,
            default: None,
            unit: "",
            doc: "",
            choices: Vec::new(),
            settable: false,
        }
    }

    /// A real number.
    pub fn float(name: &'static str) -> Self {
        Self::new(name, ParamType::Float)
    }

    /// A signed integer.
    pub fn int(name: &'static str) -> Self {
        Self::new(name, ParamType::Int)
    }

    /// A non-negative integer.
    pub fn uint(name: &'static str) -> Self {
        Self::new(name, ParamType::UInt)
    }

    /// `true` or `false`.
    pub fn bool(name: &'static str) -> Self {
        Self::new(name, ParamType::Bool)
    }

    /// Text.
    pub fn string(name: &'static str) -> Self {
        Self::new(name, ParamType::String)
    }

    /// A list of real numbers (filter taps).
    pub fn floats(name: &'static str) -> Self {
        Self::new(name, ParamType::FloatVec)
    }

    /// A list of complex numbers, given as `[re, im]` pairs or numbers.
    pub fn complexes(name: &'static str) -> Self {
        Self::new(name, ParamType::ComplexVec)
    }

    /// Any value, handed over as it is.
    pub fn any(name: &'static str) -> Self {
        Self::new(name, ParamType::Any)
    }

    /// The stream item type of a generic block, one of `kinds` (`type =
    /// "f32"`); the first is the default.
    pub fn item_type(kinds: &[ItemKind]) -> Self {
        let mut spec = Self::string("type").doc("stream item type");
        spec.choices = kinds.iter().map(|k| k.name()).collect();
        spec.default = kinds.first().map(|k| Pmt::from(k.name()));
        spec
    }

    /// Sets the default value (and makes the parameter optional).
    pub fn default(mut self, value: impl Into<Pmt>) -> Self {
        self.default = Some(value.into());
        self
    }

    /// Makes the parameter optional without a default value: when it is
    /// not given, [`Params::opt`] reads `None` (a source's `items` limit,
    /// unlimited unless set).
    pub fn optional(mut self) -> Self {
        self.default = Some(Pmt::Null);
        self
    }

    /// True for a parameter made [`optional`](Self::optional).
    pub fn is_optional(&self) -> bool {
        self.default == Some(Pmt::Null)
    }

    /// Sets the unit.
    pub fn unit(mut self, unit: &'static str) -> Self {
        self.unit = unit;
        self
    }

    /// Sets the one-line documentation.
    pub fn doc(mut self, doc: &'static str) -> Self {
        self.doc = doc;
        self
    }

    /// Restricts a string parameter to `choices`.
    pub fn choices(mut self, choices: &[&'static str]) -> Self {
        self.choices = choices.to_vec();
        self
    }

    /// Marks the parameter as changeable while the block runs (a message
    /// input of the same name).
    pub fn settable(mut self) -> Self {
        self.settable = true;
        self
    }
}

/// The stream item types a generic block may be built for, by the names
/// flowgraph files use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// `f32`, GNU Radio's `float` (`_ff`, `_f`).
    F32,
    /// `Complex32`, GNU Radio's `gr_complex` (`_cc`, `_c`).
    C32,
    /// `f64`.
    F64,
    /// `i32`, GNU Radio's `int` (`_ii`, `_i`).
    I32,
    /// `i16`, GNU Radio's `short` (`_ss`, `_s`).
    I16,
    /// `i8`.
    I8,
    /// `u8`, GNU Radio's `byte`/`char` (`_bb`, `_b`).
    U8,
}

impl ItemKind {
    /// Every kind, in the order names are tried.
    pub const ALL: [ItemKind; 7] = [
        ItemKind::F32,
        ItemKind::C32,
        ItemKind::F64,
        ItemKind::I32,
        ItemKind::I16,
        ItemKind::I8,
        ItemKind::U8,
    ];

    /// The name flowgraph files use (`"f32"`, `"c32"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::F32 => "f32",
            ItemKind::C32 => "c32",
            ItemKind::F64 => "f64",
            ItemKind::I32 => "i32",
            ItemKind::I16 => "i16",
            ItemKind::I8 => "i8",
            ItemKind::U8 => "u8",
        }
    }

    /// The kind called `name`; GNU Radio's names (`float`, `complex`,
    /// `int`, `short`, `byte`) are accepted too.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "f32" | "float" | "f" => ItemKind::F32,
            "c32" | "complex" | "c" | "complex64" => ItemKind::C32,
            "f64" | "double" => ItemKind::F64,
            "i32" | "int" | "i" => ItemKind::I32,
            "i16" | "short" | "s" => ItemKind::I16,
            "i8" => ItemKind::I8,
            "u8" | "byte" | "char" | "b" | "uchar" => ItemKind::U8,
            _ => return None,
        })
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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
    /// A value the block rejects (out of range, not among the choices).
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

fn suggestion(s: &Option<String>) -> String {
    s.as_ref()
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// The parameter values one block is built from, with the defaults of its
/// [`ParamSpec`]s filled in and every value checked against its type.
#[derive(Clone, Debug)]
pub struct Params {
    block: String,
    values: BTreeMap<String, Pmt>,
}

impl Params {
    /// Checks `given` against `specs` for the block `block`: every name
    /// must be a parameter, every required one given, every value of its
    /// type (and among its choices); defaults fill the rest.
    pub fn resolve(
        block: &str,
        specs: &[ParamSpec],
        given: BTreeMap<String, Pmt>,
    ) -> Result<Self, BuildError> {
        for name in given.keys() {
            if !specs.iter().any(|s| s.name == name) {
                return Err(BuildError::UnknownParam {
                    block: block.to_string(),
                    param: name.clone(),
                    suggest: super::suggest::closest(name, specs.iter().map(|s| s.name))
                        .map(str::to_string),
                });
            }
        }
        let mut values = BTreeMap::new();
        for spec in specs {
            let value = match given.get(spec.name) {
                Some(v) => v.clone(),
                None => match &spec.default {
                    Some(d) => d.clone(),
                    None => {
                        return Err(BuildError::Missing {
                            block: block.to_string(),
                            param: spec.name.to_string(),
                            ty: spec.ty,
                        });
                    }
                },
            };
            let value = check(block, spec, value)?;
            values.insert(spec.name.to_string(), value);
        }
        Ok(Self {
            block: block.to_string(),
            values,
        })
    }

    /// The registered block these parameters are for.
    pub fn block(&self) -> &str {
        &self.block
    }

    /// The value of `name`, converted to `T`.
    pub fn get<T: FromPmt>(&self, name: &str) -> Result<T, BuildError> {
        let value = self.raw(name)?;
        T::from_pmt(value.clone()).map_err(|e| BuildError::Type {
            block: self.block.clone(),
            param: name.to_string(),
            expected: e.expected.to_string(),
            found: e.found,
        })
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

    /// The value of an [`optional`](ParamSpec::optional) parameter:
    /// `None` when it was not given.
    pub fn opt<T: FromPmt>(&self, name: &str) -> Result<Option<T>, BuildError> {
        match self.raw(name)? {
            Pmt::Null => Ok(None),
            _ => self.get(name).map(Some),
        }
    }

    /// A real number.
    pub fn f64(&self, name: &str) -> Result<f64, BuildError> {
        self.get(name)
    }

    /// A real number, as `f32`.
    pub fn f32(&self, name: &str) -> Result<f32, BuildError> {
        self.get(name)
    }

    /// A non-negative integer.
    pub fn u64(&self, name: &str) -> Result<u64, BuildError> {
        self.get(name)
    }

    /// A non-negative integer, as `usize`.
    pub fn usize(&self, name: &str) -> Result<usize, BuildError> {
        self.get(name)
    }

    /// A signed integer.
    pub fn i64(&self, name: &str) -> Result<i64, BuildError> {
        self.get(name)
    }

    /// `true` or `false`.
    pub fn bool(&self, name: &str) -> Result<bool, BuildError> {
        self.get(name)
    }

    /// Text.
    pub fn string(&self, name: &str) -> Result<String, BuildError> {
        self.get(name)
    }

    /// A list of real numbers.
    pub fn floats(&self, name: &str) -> Result<Vec<f32>, BuildError> {
        self.get(name)
    }

    /// A list of complex numbers as `[re, im]` pairs: from a complex
    /// vector, a list of pairs, or a list of real numbers.
    pub fn complexes(&self, name: &str) -> Result<Vec<[f32; 2]>, BuildError> {
        complexes(self.raw(name)?).ok_or_else(|| BuildError::Type {
            block: self.block.clone(),
            param: name.to_string(),
            expected: ParamType::ComplexVec.to_string(),
            found: describe(self.raw(name).unwrap_or(&Pmt::Null)),
        })
    }

    /// The stream item type (parameter `type`).
    pub fn item_type(&self) -> Result<ItemKind, BuildError> {
        let name = self.string("type")?;
        ItemKind::parse(&name).ok_or_else(|| BuildError::Invalid {
            block: self.block.clone(),
            param: "type".into(),
            reason: format!("unknown item type `{name}`"),
        })
    }

    /// An error for `name` saying why the block rejects its value.
    pub fn invalid(&self, name: &str, reason: impl Into<String>) -> BuildError {
        BuildError::Invalid {
            block: self.block.clone(),
            param: name.to_string(),
            reason: reason.into(),
        }
    }

    /// The block's constructor refused the parameters.
    pub fn refused(&self, reason: impl fmt::Display) -> BuildError {
        BuildError::Block {
            block: self.block.clone(),
            reason: reason.to_string(),
        }
    }
}

/// A list of complex numbers from `[re, im]` pairs, complex vectors or
/// real numbers.
fn complexes(p: &Pmt) -> Option<Vec<[f32; 2]>> {
    match p {
        Pmt::VecComplexF32(v) => Some(v.clone()),
        Pmt::VecF32(v) => Some(v.iter().map(|&x| [x, 0.0]).collect()),
        Pmt::List(items) => items
            .iter()
            .map(|item| match item {
                Pmt::List(pair) if pair.len() == 2 => {
                    Some([pair[0].as_f64()? as f32, pair[1].as_f64()? as f32])
                }
                Pmt::VecF32(pair) if pair.len() == 2 => Some([pair[0], pair[1]]),
                other => Some([other.as_f64()? as f32, 0.0]),
            })
            .collect(),
        _ => None,
    }
}

/// A short description of a value for errors.
fn describe(p: &Pmt) -> String {
    match p {
        Pmt::String(s) => format!("string {s:?}"),
        Pmt::List(v) => format!("list of {}", v.len()),
        other => format!("{other:?}"),
    }
}

/// Checks `value` against `spec`'s type and choices.
fn check(block: &str, spec: &ParamSpec, value: Pmt) -> Result<Pmt, BuildError> {
    let type_error = |found: String| BuildError::Type {
        block: block.to_string(),
        param: spec.name.to_string(),
        expected: spec.ty.to_string(),
        found,
    };
    if value == Pmt::Null && spec.is_optional() {
        return Ok(value);
    }
    let converted: Result<(), String> = match spec.ty {
        ParamType::Float => f64::from_pmt(value.clone()).map(drop).map_err(|e| e.found),
        ParamType::Int => i64::from_pmt(value.clone()).map(drop).map_err(|e| e.found),
        ParamType::UInt => u64::from_pmt(value.clone()).map(drop).map_err(|e| e.found),
        ParamType::Bool => bool::from_pmt(value.clone()).map(drop).map_err(|e| e.found),
        ParamType::String => String::from_pmt(value.clone())
            .map(drop)
            .map_err(|e| e.found),
        ParamType::FloatVec => Vec::<f32>::from_pmt(value.clone())
            .map(drop)
            .map_err(|e| e.found),
        ParamType::ComplexVec => complexes(&value).map(drop).ok_or_else(|| describe(&value)),
        ParamType::Any => Ok(()),
    };
    converted.map_err(type_error)?;
    if !spec.choices.is_empty()
        && let Pmt::String(s) = &value
        && !spec.choices.iter().any(|c| c.eq_ignore_ascii_case(s))
    {
        return Err(BuildError::Invalid {
            block: block.to_string(),
            param: spec.name.to_string(),
            reason: format!(
                "`{s}` is not one of {}{}",
                spec.choices.join(", "),
                suggestion(
                    &super::suggest::closest(s, spec.choices.iter().copied()).map(str::to_string)
                )
            ),
        });
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<ParamSpec> {
        vec![
            ParamSpec::float("cutoff").unit("Hz").doc("edge"),
            ParamSpec::uint("taps").default(64u64),
            ParamSpec::string("window")
                .choices(&["hamming", "hann", "blackman"])
                .default("hamming"),
            ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]),
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
        let p = Params::resolve("lpf", &specs(), given(&[("cutoff", Pmt::I64(5000))])).unwrap();
        assert_eq!(p.f64("cutoff").unwrap(), 5000.0);
        assert_eq!(p.usize("taps").unwrap(), 64);
        assert_eq!(p.string("window").unwrap(), "hamming");
        assert_eq!(p.item_type().unwrap(), ItemKind::F32);
    }

    #[test]
    fn errors_name_the_block_the_parameter_and_both_types() {
        let e = Params::resolve("lpf", &specs(), given(&[])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "block `lpf` needs parameter `cutoff` (float)"
        );
        let e = Params::resolve(
            "lpf",
            &specs(),
            given(&[("cutoff", Pmt::from("high")), ("taps", Pmt::I64(3))]),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "block `lpf`, parameter `cutoff`: expected float, found string \"high\""
        );
        let e = Params::resolve(
            "lpf",
            &specs(),
            given(&[("cutof", Pmt::F64(1.0)), ("cutoff", Pmt::F64(1.0))]),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "block `lpf` has no parameter `cutof` (did you mean `cutoff`?)"
        );
        let e = Params::resolve(
            "lpf",
            &specs(),
            given(&[("cutoff", Pmt::F64(1.0)), ("window", Pmt::from("han"))]),
        )
        .unwrap_err();
        assert!(e.to_string().contains("(did you mean `hann`?)"), "{e}");
        let e = Params::resolve(
            "lpf",
            &specs(),
            given(&[("cutoff", Pmt::F64(1.0)), ("taps", Pmt::I64(-1))]),
        )
        .unwrap_err();
        assert!(e.to_string().contains("expected uint, found int -1"), "{e}");
    }

    #[test]
    fn optional_parameters_read_none_until_given() {
        let specs = vec![ParamSpec::uint("items").optional()];
        let p = Params::resolve("src", &specs, given(&[])).unwrap();
        assert_eq!(p.opt::<u64>("items").unwrap(), None);
        let p = Params::resolve("src", &specs, given(&[("items", Pmt::I64(5))])).unwrap();
        assert_eq!(p.opt::<u64>("items").unwrap(), Some(5));
        assert!(Params::resolve("src", &specs, given(&[("items", Pmt::I64(-5))])).is_err());
    }

    #[test]
    fn item_kinds_take_rfgraph_and_gnu_radio_names() {
        assert_eq!(ItemKind::parse("complex"), Some(ItemKind::C32));
        assert_eq!(ItemKind::parse("Float"), Some(ItemKind::F32));
        assert_eq!(ItemKind::parse("byte"), Some(ItemKind::U8));
        assert_eq!(ItemKind::parse("quaternion"), None);
        for k in ItemKind::ALL {
            assert_eq!(ItemKind::parse(k.name()), Some(k));
        }
    }

    #[test]
    fn complex_lists_come_in_three_shapes() {
        let specs = vec![ParamSpec::complexes("taps")];
        for value in [
            Pmt::VecComplexF32(vec![[1.0, 2.0]]),
            Pmt::List(vec![Pmt::List(vec![Pmt::F64(1.0), Pmt::I64(2)])]),
        ] {
            let p = Params::resolve("b", &specs, given(&[("taps", value)])).unwrap();
            assert_eq!(p.complexes("taps").unwrap(), vec![[1.0, 2.0]]);
        }
        let p = Params::resolve("b", &specs, given(&[("taps", Pmt::VecF32(vec![3.0]))])).unwrap();
        assert_eq!(p.complexes("taps").unwrap(), vec![[3.0, 0.0]]);
        assert!(Params::resolve("b", &specs, given(&[("taps", Pmt::from("x"))])).is_err());
    }
}
