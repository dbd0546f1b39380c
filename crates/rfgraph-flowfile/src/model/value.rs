//! [`Value`]: what a variable or parameter is set to in a file, before
//! evaluation.

/// A variable's or a parameter's value as written.
///
/// How the builder reads it: [`Value::Expr`] is always evaluated as an
/// expression; [`Value::Text`] is taken literally for a text parameter
/// (a file path, a choice) and evaluated as an expression for anything
/// else (`decim = "samp_rate / 240e3"` in TOML); the rest are literals.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An expression in the Python subset of `expr`.
    Expr(String),
    /// Text: literal for text parameters, an expression otherwise.
    Text(String),
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// A list (taps, vectors).
    List(Vec<Value>),
}
