//! The crate's error type. Owns every way a designer or constructor can reject
//! its parameters; streaming calls never fail.

use thiserror::Error;

/// Why a filter design or a kernel construction was rejected.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DspError {
    /// A tap vector was empty.
    #[error("filter needs at least one tap")]
    EmptyTaps,
    /// A parameter was NaN or infinite.
    #[error("{name} must be finite, got {value}")]
    NotFinite {
        /// Parameter name.
        name: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A parameter was out of its valid range.
    #[error("{name} = {value} is out of range: {expected}")]
    OutOfRange {
        /// Parameter name.
        name: &'static str,
        /// The offending value.
        value: f64,
        /// Human-readable description of the valid range.
        expected: &'static str,
    },
    /// A filter specification that cannot be met or is inconsistent.
    #[error("invalid filter specification: {0}")]
    InvalidSpec(String),
}

impl DspError {
    /// The parameter at fault, when the error names one.
    pub fn param(&self) -> Option<&'static str> {
        match self {
            DspError::NotFinite { name, .. } | DspError::OutOfRange { name, .. } => Some(name),
            DspError::EmptyTaps | DspError::InvalidSpec(_) => None,
        }
    }

    /// Checks that `value` is finite.
    pub(crate) fn finite(name: &'static str, value: f64) -> Result<f64, DspError> {
        if value.is_finite() {
            Ok(value)
        } else {
            Err(DspError::NotFinite { name, value })
        }
    }

    /// Checks that `value` is finite and strictly positive.
    pub(crate) fn positive(name: &'static str, value: f64) -> Result<f64, DspError> {
        Self::finite(name, value)?;
        if value > 0.0 {
            Ok(value)
        } else {
            Err(DspError::OutOfRange {
                name,
                value,
                expected: "must be > 0",
            })
        }
    }

    /// Checks that a tap count is in `1..=`[`MAX_TAPS`](crate::design::MAX_TAPS)
    /// (the bound keeps a typo from becoming a huge allocation).
    pub(crate) fn tap_count(name: &'static str, value: usize) -> Result<usize, DspError> {
        if (1..=crate::design::MAX_TAPS).contains(&value) {
            Ok(value)
        } else {
            Err(DspError::OutOfRange {
                name,
                value: value as f64,
                expected: "must be in 1..=2^24",
            })
        }
    }

    /// Checks that a rate factor or bank size is in
    /// `1..=`[`MAX_FACTOR`](crate::design::MAX_FACTOR).
    pub(crate) fn factor(name: &'static str, value: usize) -> Result<usize, DspError> {
        if (1..=crate::design::MAX_FACTOR).contains(&value) {
            Ok(value)
        } else {
            Err(DspError::OutOfRange {
                name,
                value: value as f64,
                expected: "must be in 1..=2^20",
            })
        }
    }

    /// Checks that an integer parameter is at least 1.
    pub(crate) fn nonzero(name: &'static str, value: usize) -> Result<usize, DspError> {
        if value >= 1 {
            Ok(value)
        } else {
            Err(DspError::OutOfRange {
                name,
                value: value as f64,
                expected: "must be >= 1",
            })
        }
    }
}
