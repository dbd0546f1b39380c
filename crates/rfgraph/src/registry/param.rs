//! Transitional readers of [`Values`] by name, for registry specs not yet
//! built from a [`ParamSet`](crate::params::ParamSet).

pub use crate::params::{BuildError, ItemKind, ParamSpec, Values as Params};
use crate::params::{ParamType, ParamValue, Values};
use num_complex::Complex32;

impl Values {
    /// The value of `name`, converted to `T`.
    pub fn get<T: ParamValue>(&self, name: &str) -> Result<T, BuildError> {
        self.take(name)
    }

    /// The value of an optional parameter: `None` when it was not given.
    pub fn opt<T: ParamValue>(&self, name: &str) -> Result<Option<T>, BuildError> {
        self.take(name)
    }

    /// A real number.
    pub fn f64(&self, name: &str) -> Result<f64, BuildError> {
        self.take(name)
    }

    /// A real number, as `f32`.
    pub fn f32(&self, name: &str) -> Result<f32, BuildError> {
        self.take(name)
    }

    /// A non-negative integer.
    pub fn u64(&self, name: &str) -> Result<u64, BuildError> {
        self.take(name)
    }

    /// A non-negative integer, as `usize`.
    pub fn usize(&self, name: &str) -> Result<usize, BuildError> {
        self.take(name)
    }

    /// A signed integer.
    pub fn i64(&self, name: &str) -> Result<i64, BuildError> {
        self.take(name)
    }

    /// `true` or `false`.
    pub fn bool(&self, name: &str) -> Result<bool, BuildError> {
        self.take(name)
    }

    /// Text.
    pub fn string(&self, name: &str) -> Result<String, BuildError> {
        self.take(name)
    }

    /// A list of real numbers.
    pub fn floats(&self, name: &str) -> Result<Vec<f32>, BuildError> {
        self.take(name)
    }

    /// A list of complex numbers as `[re, im]` pairs.
    pub fn complexes(&self, name: &str) -> Result<Vec<[f32; 2]>, BuildError> {
        let v: Vec<Complex32> = self.take(name).map_err(|e| match e {
            BuildError::Type {
                block,
                param,
                found,
                ..
            } => BuildError::Type {
                block,
                param,
                expected: ParamType::ComplexVec.to_string(),
                found,
            },
            other => other,
        })?;
        Ok(v.into_iter().map(|c| [c.re, c.im]).collect())
    }

    /// The stream item type (parameter `type`).
    pub fn item_type(&self) -> Result<ItemKind, BuildError> {
        self.item_type_of("type")
    }

    /// The item type named by parameter `param`.
    pub fn item_type_of(&self, param: &str) -> Result<ItemKind, BuildError> {
        let name: String = self.take(param)?;
        ItemKind::parse(&name).ok_or_else(|| BuildError::Invalid {
            block: self.block().to_string(),
            param: param.into(),
            reason: format!("unknown item type `{name}`"),
        })
    }

    /// An error for `name` saying why the block rejects its value.
    pub fn invalid(&self, name: &str, reason: impl Into<String>) -> BuildError {
        BuildError::Invalid {
            block: self.block().to_string(),
            param: name.to_string(),
            reason: reason.into(),
        }
    }
}
