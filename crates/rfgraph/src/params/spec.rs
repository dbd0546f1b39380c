//! [`ParamSpec`]: the declaration of one parameter (name, type, default,
//! unit, documentation, choices, valid range, whether it may change while
//! the block runs) and the check every value passes, whether it comes
//! from a flowgraph file, a message or the control port.

use super::types::{ItemKind, ParamType};
use super::value::{ParamValue, describe};
use crate::pmt::Pmt;
use num_complex::Complex32;
use std::fmt;

/// One end of a [`Range`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The limit.
    pub value: f64,
    /// Whether the limit itself is allowed.
    pub inclusive: bool,
}

/// The values a numeric parameter may take; an open end is unbounded.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Range {
    /// The lower end.
    pub min: Option<Bound>,
    /// The upper end.
    pub max: Option<Bound>,
}

impl Range {
    /// True when `v` lies within the range.
    pub fn contains(&self, v: f64) -> bool {
        let above = self.min.is_none_or(|b| {
            if b.inclusive {
                v >= b.value
            } else {
                v > b.value
            }
        });
        let below = self.max.is_none_or(|b| {
            if b.inclusive {
                v <= b.value
            } else {
                v < b.value
            }
        });
        above && below
    }

    /// True when neither end is set.
    pub fn is_unbounded(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }
}

impl fmt::Display for Range {
    /// `≥ 1`, `> 0`, `≤ 65536`, `in (0, 1]`, or `any` when unbounded.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (None, None) => f.write_str("any"),
            (Some(b), None) => write!(f, "{} {}", if b.inclusive { "≥" } else { ">" }, b.value),
            (None, Some(b)) => write!(f, "{} {}", if b.inclusive { "≤" } else { "<" }, b.value),
            (Some(lo), Some(hi)) => write!(
                f,
                "in {}{}, {}{}",
                if lo.inclusive { '[' } else { '(' },
                lo.value,
                hi.value,
                if hi.inclusive { ']' } else { ')' }
            ),
        }
    }
}

/// Why a value does not fit a parameter's declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejection {
    /// The value is of another type.
    Type {
        /// The parameter's type.
        expected: ParamType,
        /// What was given.
        found: String,
    },
    /// The value is of the right type but not allowed (out of range, not
    /// a choice, too long, not finite).
    Invalid(String),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Type { expected, found } => write!(f, "expected {expected}, found {found}"),
            Rejection::Invalid(reason) => f.write_str(reason),
        }
    }
}

/// The declaration of one parameter: what the registry documents, what a
/// flowgraph file and the control port may give, and what a block reads.
/// `#[derive(ParamSet)]` writes these from a struct's fields; see the
/// [module docs](super).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name flowgraph files, messages and the control port use.
    pub name: &'static str,
    /// Other names accepted for it (GNU Radio's, a shorter one); a
    /// settable parameter has a message input under each.
    pub aliases: Vec<&'static str>,
    /// The value's type.
    pub ty: ParamType,
    /// The value when none is given; `None` makes the parameter required,
    /// `Some(Pmt::Null)` optional without a value.
    pub default: Option<Pmt>,
    /// The unit (`"Hz"`), empty when it has none.
    pub unit: &'static str,
    /// One line saying what it does.
    pub doc: &'static str,
    /// The values a string parameter may take, empty for any.
    pub choices: Vec<&'static str>,
    /// Every text a string parameter with choices accepts, compared
    /// without case: the choices and their other spellings (GNU Radio's
    /// `short` for `i16`, `GR_SIN_WAVE` for `sine`).
    pub spellings: Vec<&'static str>,
    /// The values a number may take.
    pub range: Range,
    /// The most elements a vector (or characters a string) may have.
    pub max_len: Option<usize>,
    /// A message input of the same name changes it while the block runs.
    pub settable: bool,
}

impl ParamSpec {
    /// A parameter of type `ty`.
    pub fn new(name: &'static str, ty: ParamType) -> Self {
        Self {
            name,
            aliases: Vec::new(),
            ty,
            default: None,
            unit: "",
            doc: "",
            choices: Vec::new(),
            spellings: Vec::new(),
            range: Range::default(),
            max_len: None,
            settable: false,
        }
    }

    /// A parameter of the Rust type `T`: its type, its choices (an enum's
    /// names) and, for `Option<T>`, optional.
    pub fn of<T: ParamValue>(name: &'static str) -> Self {
        let mut spec = Self::new(name, T::TYPE);
        spec.choices = T::choices();
        spec.spellings = T::spellings();
        if T::OPTIONAL {
            spec.default = Some(Pmt::Null);
        }
        spec
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
        Self::string("type").doc("stream item type").kinds(kinds)
    }

    /// Restricts an item type parameter to `kinds`, the first the default.
    pub fn kinds(mut self, kinds: &[ItemKind]) -> Self {
        self.choices = kinds.iter().map(|k| k.name()).collect();
        self.spellings = ItemKind::spellings(kinds);
        self.default = kinds.first().map(|k| Pmt::from(k.name()));
        self
    }

    /// Sets the default value (and makes the parameter optional).
    pub fn default(mut self, value: impl Into<Pmt>) -> Self {
        self.default = Some(value.into());
        self
    }

    /// Sets the default from a value of the parameter's Rust type.
    pub fn default_value<T: ParamValue>(mut self, value: &T) -> Self {
        self.default = Some(value.to_pmt());
        self
    }

    /// Makes the parameter optional without a default value.
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
        self.spellings = choices.to_vec();
        self
    }

    /// Adds another accepted name.
    pub fn alias(mut self, alias: &'static str) -> Self {
        self.aliases.push(alias);
        self
    }

    /// Values must be at least `v`.
    pub fn min(mut self, v: f64) -> Self {
        self.range.min = Some(Bound {
            value: v,
            inclusive: true,
        });
        self
    }

    /// Values must be at most `v`.
    pub fn max(mut self, v: f64) -> Self {
        self.range.max = Some(Bound {
            value: v,
            inclusive: true,
        });
        self
    }

    /// Values must be greater than `v`.
    pub fn above(mut self, v: f64) -> Self {
        self.range.min = Some(Bound {
            value: v,
            inclusive: false,
        });
        self
    }

    /// Values must be less than `v`.
    pub fn below(mut self, v: f64) -> Self {
        self.range.max = Some(Bound {
            value: v,
            inclusive: false,
        });
        self
    }

    /// Vectors (and strings) may have at most `n` elements.
    pub fn max_len(mut self, n: usize) -> Self {
        self.max_len = Some(n);
        self
    }

    /// Marks the parameter as changeable while the block runs (a message
    /// input of the same name).
    pub fn settable(mut self) -> Self {
        self.settable = true;
        self
    }

    /// The declaration as JSON: what `rfgraph blocks --json`, the control
    /// port and the bindings show (`name`, `aliases`, `type`, `default`,
    /// `required`, `optional`, `unit`, `doc`, `choices`, `min`/`max` with
    /// `min_inclusive`/`max_inclusive`, `max_len`, `settable`).
    pub fn to_json(&self) -> serde_json::Value {
        let bound = |b: Option<Bound>| b.map(|b| (b.value, b.inclusive));
        let (min, max) = (bound(self.range.min), bound(self.range.max));
        serde_json::json!({
            "name": self.name,
            "aliases": self.aliases,
            "type": self.ty.to_string(),
            "default": self.default.as_ref().map_or(serde_json::Value::Null, Pmt::to_plain_json),
            "required": self.default.is_none(),
            "optional": self.is_optional(),
            "unit": self.unit,
            "doc": self.doc,
            "choices": self.choices,
            "min": min.map(|b| b.0),
            "min_inclusive": min.map(|b| b.1),
            "max": max.map(|b| b.0),
            "max_inclusive": max.map(|b| b.1),
            "max_len": self.max_len,
            "settable": self.settable,
        })
    }

    /// True when `name` is this parameter's name or one of its aliases.
    pub fn is_called(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }

    /// Checks `value` against the declaration: its type, that numbers are
    /// finite and within the range, that a string is one of the choices,
    /// that a vector is not too long. An optional parameter takes null.
    pub fn check(&self, value: &Pmt) -> Result<(), Rejection> {
        if value.is_null() && self.is_optional() {
            return Ok(());
        }
        let type_error = || Rejection::Type {
            expected: self.ty,
            found: describe(value),
        };
        let v = value.clone();
        // The numbers a value holds, for the finiteness check; its length.
        let (numbers, len): (Vec<f64>, Option<usize>) = match self.ty {
            ParamType::Bool => {
                bool::from_pmt(v).map_err(|_| type_error())?;
                (Vec::new(), None)
            }
            ParamType::Int => (
                vec![i64::from_pmt(v).map_err(|_| type_error())? as f64],
                None,
            ),
            ParamType::UInt => (
                vec![u64::from_pmt(v).map_err(|_| type_error())? as f64],
                None,
            ),
            ParamType::Float => (vec![f64::from_pmt(v).map_err(|_| type_error())?], None),
            ParamType::Complex => {
                let c = Complex32::from_pmt(v).map_err(|_| type_error())?;
                (vec![c.re as f64, c.im as f64], None)
            }
            ParamType::String => {
                let s = String::from_pmt(v).map_err(|_| type_error())?;
                self.check_choice(&s)?;
                (Vec::new(), Some(s.chars().count()))
            }
            ParamType::FloatVec => {
                let x = Vec::<f32>::from_pmt(v).map_err(|_| type_error())?;
                let len = x.len();
                (x.into_iter().map(f64::from).collect(), Some(len))
            }
            ParamType::ComplexVec => {
                let x = Vec::<Complex32>::from_pmt(v).map_err(|_| type_error())?;
                let len = x.len();
                let parts = x.into_iter().flat_map(|c| [c.re as f64, c.im as f64]);
                (parts.collect(), Some(len))
            }
            ParamType::IntVec => {
                let x = Vec::<i64>::from_pmt(v.clone())
                    .or_else(|_| {
                        Vec::<u64>::from_pmt(v).map(|u| u.into_iter().map(|x| x as i64).collect())
                    })
                    .map_err(|_| type_error())?;
                (Vec::new(), Some(x.len()))
            }
            ParamType::Any => (Vec::new(), None),
        };
        if let Some(bad) = numbers.iter().find(|x| !x.is_finite()) {
            return Err(Rejection::Invalid(format!("must be finite, not {bad}")));
        }
        if self.ty.is_number()
            && let Some(&x) = numbers.first()
            && !self.range.contains(x)
        {
            return Err(Rejection::Invalid(format!(
                "{} is out of range: must be {}",
                describe_number(value),
                self.range
            )));
        }
        if let (Some(max), Some(len)) = (self.max_len, len)
            && len > max
        {
            return Err(Rejection::Invalid(format!(
                "has {len} elements, more than the {max} allowed"
            )));
        }
        Ok(())
    }

    /// A string's check against the choices and their spellings.
    fn check_choice(&self, s: &str) -> Result<(), Rejection> {
        let s = s.trim();
        let known = |list: &[&str]| list.iter().any(|c| c.eq_ignore_ascii_case(s));
        if self.choices.is_empty() || known(&self.choices) || known(&self.spellings) {
            return Ok(());
        }
        let closest = crate::registry::suggest::closest(s, self.choices.iter().copied());
        Err(Rejection::Invalid(format!(
            "`{s}` is not one of {}{}",
            self.choices.join(", "),
            closest
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default()
        )))
    }
}

/// A number as written (`0`, `1e-30`), for range errors.
fn describe_number(p: &Pmt) -> String {
    match p {
        Pmt::I64(v) => v.to_string(),
        Pmt::U64(v) => v.to_string(),
        Pmt::F32(v) => v.to_string(),
        Pmt::F64(v) => v.to_string(),
        other => describe(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_intervals() {
        let spec = ParamSpec::float("rate").above(0.0).max(1.0);
        assert_eq!(spec.range.to_string(), "in (0, 1]");
        assert!(spec.check(&Pmt::F64(1.0)).is_ok());
        let e = spec.check(&Pmt::F64(0.0)).unwrap_err();
        assert_eq!(e.to_string(), "0 is out of range: must be in (0, 1]");
        assert_eq!(ParamSpec::uint("n").min(1.0).range.to_string(), "≥ 1");
        assert_eq!(Range::default().to_string(), "any");
    }

    #[test]
    fn values_must_be_finite_and_short_enough() {
        let f = ParamSpec::float("x");
        assert!(matches!(
            f.check(&Pmt::F64(f64::NAN)),
            Err(Rejection::Invalid(_))
        ));
        assert!(matches!(
            f.check(&Pmt::from("x")),
            Err(Rejection::Type { .. })
        ));
        let taps = ParamSpec::floats("taps").max_len(2);
        assert!(taps.check(&Pmt::VecF32(vec![1.0, 2.0])).is_ok());
        let e = taps.check(&Pmt::VecF32(vec![1.0; 3])).unwrap_err();
        assert_eq!(e.to_string(), "has 3 elements, more than the 2 allowed");
        let bad = ParamSpec::floats("taps").check(&Pmt::VecF32(vec![f32::INFINITY]));
        assert!(bad.is_err());
    }

    #[test]
    fn strings_must_be_choices_and_types_take_gnu_radio_names() {
        let w = ParamSpec::string("window").choices(&["hamming", "hann"]);
        assert!(w.check(&Pmt::from("HANN")).is_ok());
        let e = w.check(&Pmt::from("han")).unwrap_err().to_string();
        assert!(e.contains("(did you mean `hann`?)"), "{e}");
        let t = ParamSpec::item_type(&[ItemKind::F32, ItemKind::I16]);
        assert!(t.check(&Pmt::from("short")).is_ok());
        assert!(t.check(&Pmt::from("complex")).is_err());
        assert_eq!(t.default, Some(Pmt::from("f32")));
    }

    #[test]
    fn optional_parameters_take_null() {
        let spec = ParamSpec::of::<Option<u64>>("items");
        assert!(spec.is_optional());
        assert!(spec.check(&Pmt::Null).is_ok());
        assert!(spec.check(&Pmt::I64(-1)).is_err());
        assert!(ParamSpec::uint("n").check(&Pmt::Null).is_err());
    }
}
