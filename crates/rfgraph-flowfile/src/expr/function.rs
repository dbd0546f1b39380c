//! [`Function`]: the value of a `lambda`. It keeps its parameters, its
//! body and the values of the names the body read when the lambda was
//! made (a closure), so it can be called later without the variables
//! it came from: by the expression evaluator (`f(2)`, `map(f, xs)`) and
//! by blocks that take a Python function (`pdu_lambda`'s `fn`).
//! Calls nest at most [`MAX_CALL_DEPTH`] deep.

use super::Env;
use super::ast::{LambdaDef, Node};
use super::error::{ExprError, ExprErrorKind};
use super::eval;
use super::value::Value;
use std::cell::Cell;
use std::fmt;
use std::ops::Range;

/// The deepest lambda calls nest (a lambda calling a lambda ...), so
/// that `(lambda f: f(f))(lambda f: f(f))` ends in an error, not a
/// stack overflow.
pub const MAX_CALL_DEPTH: usize = 16;

thread_local! {
    /// Lambda calls under way on this thread.
    static CALL_DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// A function made by `lambda params: body`, with the values it closes
/// over.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    params: Vec<String>,
    body: Node,
    captured: Vec<(String, Value)>,
}

impl Function {
    /// The function `def` makes where the body's free names resolve
    /// through `lookup` (names found nowhere are left to the modules and
    /// built-ins, or to a name error when called, as in Python).
    pub(crate) fn new(def: &LambdaDef, lookup: impl Fn(&str) -> Option<Value>) -> Function {
        let mut names = Vec::new();
        def.body.names(&mut names);
        let mut captured: Vec<(String, Value)> = Vec::new();
        for name in names {
            if def.params.iter().any(|p| p == name) || captured.iter().any(|(n, _)| n == name) {
                continue;
            }
            if let Some(v) = lookup(name) {
                captured.push((name.to_string(), v));
            }
        }
        Function {
            params: def.params.clone(),
            body: def.body.clone(),
            captured,
        }
    }

    /// The names the body reads from outside, with their values when
    /// the lambda was made.
    pub fn captured(&self) -> &[(String, Value)] {
        &self.captured
    }

    /// The first name the body reads that is no parameter, no value
    /// it closes over and nothing the language knows (`foo`,
    /// `np.fft.fft`): calling it could only fail.
    pub fn unknown_name(&self) -> Option<String> {
        let (mut paths, mut bound) = (Vec::new(), Vec::new());
        self.body.paths(&mut paths, &mut bound);
        paths
            .into_iter()
            .find(|p| {
                let own = self.params.iter().any(|n| n == p[0])
                    || self.captured.iter().any(|(n, _)| n == p[0])
                    || bound.contains(&p[0]);
                !own && super::builtins::unknown_path(p)
            })
            .map(|p| p.join("."))
    }

    /// The parameters' names.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// Calls the function with positional `args`.
    ///
    /// Errors: a wrong number of arguments, calls nested past
    /// [`MAX_CALL_DEPTH`], or any error of the body (its byte ranges
    /// are within the lambda's own text).
    ///
    /// ```
    /// use rfgraph_flowfile::expr::{eval, Env, Value};
    /// let mut env = Env::new();
    /// env.set("k", Value::Int(3));
    /// let Value::Function(f) = eval("lambda x: x * k", &env).unwrap() else {
    ///     panic!("not a function")
    /// };
    /// assert_eq!(f.call(vec![Value::Int(2)]).unwrap(), Value::Int(6));
    /// ```
    pub fn call(&self, args: Vec<Value>) -> Result<Value, ExprError> {
        let top = CALL_DEPTH.with(Cell::get) == 0;
        if top {
            eval::reset_steps();
        }
        self.call_at(args, &self.body.span)
    }

    /// Calls the function from an expression, errors about the call
    /// itself at `span`.
    pub(crate) fn call_at(
        &self,
        args: Vec<Value>,
        span: &Range<usize>,
    ) -> Result<Value, ExprError> {
        let at = |kind: ExprErrorKind| ExprError::new(kind, span.clone());
        if args.len() != self.params.len() {
            return Err(at(ExprErrorKind::Arity {
                function: "<lambda>".into(),
                expected: self.params.len().to_string(),
                found: args.len(),
            }));
        }
        let depth = CALL_DEPTH.with(Cell::get);
        if depth >= MAX_CALL_DEPTH {
            return Err(at(ExprErrorKind::Value(format!(
                "lambda calls nested more than {MAX_CALL_DEPTH} deep"
            ))));
        }
        eval::step(span)?;
        CALL_DEPTH.with(|d| d.set(depth + 1));
        let mut scope = self.captured.clone();
        scope.extend(self.params.iter().cloned().zip(args));
        let out = eval::with_scope(scope, || eval::eval(&self.body, &Env::new()));
        CALL_DEPTH.with(|d| d.set(depth));
        out
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<lambda({})>", self.params.join(", "))
    }
}
