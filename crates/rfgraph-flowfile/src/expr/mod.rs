//! Expressions: the subset of Python that GNU Radio Companion flowgraphs
//! and rfgraph's TOML files write in variables and parameters
//! (`int(samp_rate / 240e3)`, `firdes.low_pass(1, fs, 100e3, 20e3)`,
//! `[1.0] * 8`, `x if y > 0 else -x`), evaluated without Python.
//!
//! - [`Expr::parse`] reads a text once; [`Expr::names`] lists the names it
//!   reads (the builder orders variables by them); [`Expr::eval`]
//!   evaluates it in an [`Env`] of variables to a [`Value`].
//! - [`eval`] does both at once.
//! - Every error is an [`ExprError`] with the byte range of the culprit.
//!
//! What is understood: int, float, complex (`1j`), bool, string and
//! `None` literals; lists and tuples (both become [`Value::List`]);
//! arithmetic (`+ - * / // % **`, unary signs, bit operations on
//! integers), comparisons (chained, `in`, `is None`), `and`/`or`/`not`,
//! `a if c else b`, indexing and slicing, list comprehensions with one
//! `for` (`[i / 8 for i in range(8) if i % 2]`); `lambda a, b: ...`
//! (a [`Value::Function`] closing over the variables it reads, called as
//! `f(x)` or by `map`, `filter` and `sorted(key=)`); the built-ins `int`, `float`,
//! `complex`, `bool`, `str`, `abs`, `round`, `min`, `max`, `sum`, `len`,
//! `range`, `list`, `tuple`, `pow`; dictionaries and sets (`{"k": 1}`,
//! `{1, 2}`: a set is a list without repeats); GNU Radio's message
//! constructors `pmt.*` (`pmt.to_pmt({...})`, `pmt.intern("x")`,
//! `pmt.cons(...)`, giving [`Value::Pmt`]); its configuration objects
//! (header formats `digital.header_format_*(...)`, FEC coders
//! `fec.cc_encoder_make(...)`, ..., giving [`Value::Object`]); `math.*` and a few `numpy.*`/`np.*`
//! constants and functions; GNU Radio's filter designer `firdes.*`
//! (also `filter.firdes.*`) and window names (`firdes.WIN_HAMMING`,
//! `window.WIN_BLACKMAN_HARRIS`, `fft.window.*`), computed by
//! `rfgraph_dsp::firdes`.
//!
//! Bounds, so that no input panics or hangs: texts up to [`MAX_TEXT`]
//! bytes, nesting up to [`MAX_DEPTH`] levels, lists and strings up to
//! [`MAX_ITEMS`] items in all, comprehensions up to [`MAX_STEPS`]
//! iterations.

mod adaptive;
mod ast;
mod builtins;
mod error;
mod eval;
mod filters;
mod function;
mod functional;
mod ldpc;
mod lexer;
mod methods;
mod modulate;
mod ndarray;
mod object;
mod ofdm_sync;
mod ops;
mod optfir;
mod parser;
mod pmt;
mod polar;
mod random;
mod soft_dec;
mod tpc;
mod uhd_sensor;
mod value;

pub use error::{ExprError, ExprErrorKind};
pub use function::{Function, MAX_CALL_DEPTH};
pub use object::{DEFAULT_ACCESS_CODE, Object};
pub use value::Value;

use std::collections::BTreeMap;

/// The longest expression text read, in bytes.
pub const MAX_TEXT: usize = 1 << 20;
/// The deepest nesting of an expression (brackets, operators, calls).
pub const MAX_DEPTH: usize = 100;
/// The most items a list or string value may hold, nested lists counted
/// in full.
pub const MAX_ITEMS: usize = 1 << 22;

/// The most comprehension iterations one evaluation may take (nested
/// ones multiply), so that no expression runs for long.
pub const MAX_STEPS: u64 = 1 << 22;

/// A parsed expression, ready to evaluate any number of times.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    root: ast::Node,
}

impl Expr {
    /// Parses `text`.
    ///
    /// Errors: a syntax error, unsupported Python (lambda defaults, dictionary
    /// comprehensions, comprehensions with several `for`s), a text longer than [`MAX_TEXT`] or nested
    /// deeper than [`MAX_DEPTH`].
    pub fn parse(text: &str) -> Result<Self, ExprError> {
        Ok(Self {
            root: parser::parse(text)?,
        })
    }

    /// The names the expression reads, each once, in order of first use
    /// (the first part of dotted names: `math` for `math.pi`).
    pub fn names(&self) -> Vec<String> {
        let mut all = Vec::new();
        self.root.names(&mut all);
        let mut out: Vec<String> = Vec::new();
        for n in all {
            if !out.iter().any(|o| o == n) {
                out.push(n.to_string());
            }
        }
        out
    }

    /// The value of the expression with the variables of `env`.
    ///
    /// Errors: unknown names (with the closest known one), type errors,
    /// division by zero, integer overflow, results larger than
    /// [`MAX_ITEMS`], filter designs `rfgraph_dsp::firdes` rejects.
    pub fn eval(&self, env: &Env) -> Result<Value, ExprError> {
        eval::eval_root(&self.root, env)
    }
}

/// Parses and evaluates `text` with the variables of `env`.
///
/// ```
/// use rfgraph_flowfile::expr::{Env, Value, eval};
/// let mut env = Env::new();
/// env.set("samp_rate", Value::Float(2.4e6));
/// assert_eq!(eval("int(samp_rate / 240e3)", &env).unwrap(), Value::Int(10));
/// assert_eq!(eval("len(firdes.low_pass(1, 48e3, 4e3, 1e3))", &env).unwrap(), Value::Int(115));
/// let e = eval("1 / (samp_rate - samp_rate)", &env).unwrap_err();
/// assert_eq!(e.to_string(), "division by zero");
/// assert_eq!(e.span, 0..27);
/// ```
pub fn eval(text: &str, env: &Env) -> Result<Value, ExprError> {
    Expr::parse(text)?.eval(env)
}

/// The variables an expression may read, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Env {
    vars: BTreeMap<String, Value>,
}

impl Env {
    /// No variables.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` to `value` (replacing an earlier value).
    pub fn set(&mut self, name: impl Into<String>, value: Value) {
        self.vars.insert(name.into(), value);
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.vars.get(name)
    }

    /// The variables' names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vars.keys().map(String::as_str)
    }
}
