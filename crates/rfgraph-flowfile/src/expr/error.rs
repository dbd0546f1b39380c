//! [`ExprError`]: why an expression could not be read or evaluated, with
//! the byte range of the culprit in the expression's text, so that a file
//! format can turn it into a file, line and column.
//!
//! This module owns the error type and its wording; it never evaluates.

use std::ops::Range;

/// Why an expression failed, and where in its text.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct ExprError {
    /// What went wrong.
    pub kind: ExprErrorKind,
    /// The byte range of the culprit in the expression's text.
    pub span: Range<usize>,
}

impl ExprError {
    /// An error of `kind` at `span`.
    pub fn new(kind: ExprErrorKind, span: Range<usize>) -> Self {
        Self { kind, span }
    }

    /// The byte offset of the culprit in the expression's text.
    pub fn offset(&self) -> usize {
        self.span.start
    }

    /// The 1-based character column of the culprit within `text` (the
    /// expression the error came from), counted from the start of the
    /// line it is on.
    pub fn column_in(&self, text: &str) -> usize {
        let offset = self.span.start.min(text.len());
        let before = text.get(..offset).unwrap_or(text);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        before[line_start..].chars().count() + 1
    }

    /// The error with its column in `text`: `column 7: division by zero`.
    pub fn describe(&self, text: &str) -> String {
        format!("column {}: {}", self.column_in(text), self.kind)
    }
}

fn suggestion(s: &Option<String>) -> String {
    s.as_ref()
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// The kinds of expression errors.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ExprErrorKind {
    /// The text is not an expression.
    #[error("syntax error: {0}")]
    Syntax(String),
    /// A name that is neither a variable nor a known constant or function.
    #[error("unknown name `{name}`{}", suggestion(.suggest))]
    UnknownName {
        /// The name used.
        name: String,
        /// The closest known name, if one is close.
        suggest: Option<String>,
    },
    /// Division or modulo by zero (`/`, `//`, `%`, `0 ** -1`).
    #[error("division by zero")]
    DivisionByZero,
    /// A value of the wrong type.
    #[error("{context}: expected {expected}, found {found}")]
    Type {
        /// The operation or function (`operand of +`, `sqrt()`).
        context: String,
        /// The type it takes.
        expected: String,
        /// The type given.
        found: String,
    },
    /// A function called with the wrong number of arguments.
    #[error("`{function}` takes {expected} argument(s), {found} given")]
    Arity {
        /// The function.
        function: String,
        /// How many it takes (`2`, `1 to 3`).
        expected: String,
        /// How many were given.
        found: usize,
    },
    /// A value of the right type that the operation rejects (`sqrt(-1)`,
    /// `int("x")`, a filter design that cannot be met).
    #[error("{0}")]
    Value(String),
    /// An integer result outside the 64-bit range.
    #[error("integer overflow")]
    Overflow,
    /// A list or string result larger than the limits (see
    /// [`MAX_ITEMS`](super::MAX_ITEMS)).
    #[error("{what} would hold {size} items, more than the limit of {limit}")]
    TooLarge {
        /// What would have been built.
        what: String,
        /// Its size.
        size: u128,
        /// The limit.
        limit: usize,
    },
    /// Nesting deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    #[error("expression nested more than {0} levels deep")]
    TooDeep(usize),
    /// An expression text longer than [`MAX_TEXT`](super::MAX_TEXT).
    #[error("expression of {size} bytes, more than the limit of {limit}")]
    TooLong {
        /// Its length.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// An index outside a list, tuple or string.
    #[error("index {index} out of range for length {len}")]
    Index {
        /// The index given.
        index: i64,
        /// The length indexed.
        len: usize,
    },
    /// Python that rfgraph does not evaluate (generators, lambdas'
    /// defaults, methods with arguments).
    #[error("{0} is not supported in flowgraph expressions")]
    Unsupported(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_on_the_culprits_line() {
        let e = ExprError::new(ExprErrorKind::DivisionByZero, 4..5);
        assert_eq!(e.column_in("1 / 0"), 5);
        assert_eq!(e.column_in("é / 0"), 4, "é is two bytes, one column");
        assert_eq!(e.column_in("1\n/ 0"), 3);
        assert_eq!(e.describe("1 / 0"), "column 5: division by zero");
    }
}
