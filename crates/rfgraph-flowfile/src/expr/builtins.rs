//! The names an expression may use besides its variables: Python's
//! built-in functions (`int`, `min`, `range`, ...), the `math` module,
//! a few `numpy` (`np`) constants and functions, GNU Radio's window
//! names and filter designer (delegated to `filters`) and its `pmt`
//! message constructors (delegated to `pmt`). Owns argument
//! binding, name lookup and the closest-name suggestion for unknown
//! names.

use super::Env;
use super::error::{ExprError, ExprErrorKind};
use super::filters;
use super::value::Value;
use super::{MAX_ITEMS, ops};
use num_complex::Complex64;
use rfgraph_dsp::firdes::WinType;
use std::ops::Range;

/// An evaluated call argument.
pub(crate) struct Arg {
    /// `name=` for keyword arguments.
    pub name: Option<String>,
    /// Its value.
    pub value: Value,
    /// Where it is written.
    pub span: Range<usize>,
}

/// The modules a dotted name may start with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Module {
    Math,
    Numpy,
    Firdes,
    Window,
    Pmt,
    Random,
    NumpyRandom,
}

const BUILTINS: &[&str] = &[
    "abs", "bool", "complex", "float", "int", "len", "list", "max", "min", "pow", "range", "round",
    "str", "sum", "tuple",
];
const MATH_FUNCS: &[&str] = &[
    "acos", "asin", "atan", "atan2", "ceil", "cos", "cosh", "degrees", "exp", "fabs", "floor",
    "fmod", "hypot", "log", "log10", "log2", "pow", "radians", "sin", "sinh", "sqrt", "tan",
    "tanh", "trunc", "isnan", "isinf",
];
const MATH_CONSTS: &[&str] = &["pi", "e", "tau", "inf", "nan"];
const NUMPY_FUNCS: &[&str] = &[
    "abs", "arange", "ceil", "cos", "exp", "floor", "linspace", "log", "log10", "log2", "ones",
    "sin", "sqrt", "tan", "zeros", "round", "sum", "arctan2", "hamming", "hanning", "blackman",
    "kron",
];
const WINDOW_FUNCS: &[&str] = &[
    "build",
    "hamming",
    "hann",
    "hanning",
    "blackman",
    "rectangular",
    "kaiser",
    "blackman_harris",
    "blackmanharris",
    "bartlett",
    "flattop",
];
const WIN_NAMES: &[&str] = &[
    "WIN_HAMMING",
    "WIN_HANN",
    "WIN_HANNING",
    "WIN_BLACKMAN",
    "WIN_RECTANGULAR",
    "WIN_KAISER",
    "WIN_BLACKMAN_HARRIS",
    "WIN_BLACKMAN_hARRIS",
    "WIN_BARTLETT",
    "WIN_FLATTOP",
    "WIN_NUTTALL",
    "WIN_BLACKMAN_NUTTALL",
    "WIN_NUTTALL_CFD",
    "WIN_WELCH",
    "WIN_PARZEN",
    "WIN_EXPONENTIAL",
    "WIN_RIEMANN",
    "WIN_GAUSSIAN",
    "WIN_TUKEY",
];

/// The module a dotted path names and the member it asks for.
fn module(path: &[&str]) -> Option<(Module, Option<&'static str>)> {
    let (m, rest): (Module, &[&str]) = match path {
        ["math", rest @ ..] => (Module::Math, rest),
        ["random", rest @ ..] => (Module::Random, rest),
        ["numpy" | "np", "random", rest @ ..] => (Module::NumpyRandom, rest),
        ["numpy" | "np", rest @ ..] => (Module::Numpy, rest),
        ["firdes", rest @ ..]
        | ["filter", "firdes", rest @ ..]
        | ["gr", "filter", "firdes", rest @ ..]
        | ["gnuradio", "filter", "firdes", rest @ ..] => (Module::Firdes, rest),
        ["window", rest @ ..]
        | ["fft", "window", rest @ ..]
        | ["filter", "window", rest @ ..]
        | ["gnuradio", "fft", "window", rest @ ..] => (Module::Window, rest),
        ["pmt", rest @ ..] => (Module::Pmt, rest),
        _ => return None,
    };
    match rest {
        [] => Some((m, None)),
        [member] => {
            let known = members(m).into_iter().find(|k| k == member)?;
            Some((m, Some(known)))
        }
        _ => None,
    }
}

fn members(m: Module) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    match m {
        Module::Math => {
            out.extend(MATH_FUNCS);
            out.extend(MATH_CONSTS);
        }
        Module::Numpy => {
            out.extend(NUMPY_FUNCS);
            out.extend(super::ndarray::FUNCTIONS);
            out.extend(["pi", "e", "inf", "nan"]);
        }
        Module::Firdes => {
            out.extend(filters::FUNCTIONS);
            out.extend(WIN_NAMES);
        }
        Module::Window => {
            out.extend(WINDOW_FUNCS);
            out.extend(WIN_NAMES);
        }
        Module::Pmt => {
            out.extend(super::pmt::FUNCTIONS);
            out.extend(super::pmt::CONSTANTS);
        }
        Module::Random => out.extend(super::random::PYTHON),
        Module::NumpyRandom => out.extend(super::random::NUMPY),
    }
    out
}

/// The value of a dotted constant (`math.pi`, `firdes.WIN_HAMMING`).
pub(crate) fn constant(path: &[&str]) -> Option<Value> {
    if let Some(v) = super::object::constant(path) {
        return Some(v);
    }
    let (m, member) = module(path)?;
    let member = member?;
    if m == Module::Pmt {
        return super::pmt::constant(member);
    }
    if let Some(w) = WinType::from_gr_name(member) {
        return Some(Value::Int(i64::from(w.code())));
    }
    let v = match (m, member) {
        (Module::Math | Module::Numpy, "pi") => std::f64::consts::PI,
        (Module::Math | Module::Numpy, "e") => std::f64::consts::E,
        (Module::Math, "tau") => std::f64::consts::TAU,
        (Module::Math | Module::Numpy, "inf") => f64::INFINITY,
        (Module::Math | Module::Numpy, "nan") => f64::NAN,
        _ => return None,
    };
    Some(Value::Float(v))
}

/// The error for an unknown (or misused) name, with the closest known
/// one.
pub(crate) fn name_error(path: &[&str], env: &Env) -> ExprErrorKind {
    let name = path.join(".");
    if path.len() == 1 && (BUILTINS.contains(&path[0]) || module(path).is_some()) {
        return ExprErrorKind::Type {
            context: format!("`{name}`"),
            expected: "a value".into(),
            found: if BUILTINS.contains(&path[0]) {
                "a function (call it)".into()
            } else {
                "a module".into()
            },
        };
    }
    if let Some((m, Some(member))) = module(path) {
        // A function used as a value.
        let _ = m;
        return ExprErrorKind::Type {
            context: format!("`{name}`"),
            expected: "a value".into(),
            found: format!("a function (call `{member}(...)`)"),
        };
    }
    let suggest = if path.len() > 1 {
        let prefix = &path[..path.len() - 1];
        match module(prefix) {
            Some((m, None)) => {
                rfgraph::registry::suggest::closest(path[path.len() - 1], members(m))
                    .map(|s| format!("{}.{s}", prefix.join(".")))
            }
            _ => closest_top(path[0], env),
        }
    } else {
        closest_top(path[0], env)
    };
    ExprErrorKind::UnknownName { name, suggest }
}

/// Whether the dotted name `path`, read by a function and not one of
/// its own names, is certainly nothing the language knows: an unknown
/// plain name, or an unknown member of `math`, `numpy`, `pmt`,
/// `random` (other dotted names may be object constructors).
pub(crate) fn unknown_path(path: &[&str]) -> bool {
    let roots = ["math", "numpy", "np", "random", "pmt"];
    match path {
        [] => false,
        [name] => {
            !BUILTINS.contains(name)
                && !["map", "filter", "sorted"].contains(name)
                && !roots.contains(name)
                && ![
                    "firdes", "window", "filter", "fft", "digital", "fec", "analog", "blocks",
                    "channels", "gr",
                ]
                .contains(name)
        }
        [root, ..] if roots.contains(root) => !matches!(module(path), Some((_, Some(_)))),
        _ => false,
    }
}

fn closest_top(name: &str, env: &Env) -> Option<String> {
    let modules = [
        "math", "numpy", "np", "firdes", "window", "filter", "fft", "random",
    ];
    rfgraph::registry::suggest::closest(
        name,
        env.names().chain(BUILTINS.iter().copied()).chain(modules),
    )
    .map(str::to_string)
}

/// Calls the function `path` (`min`, `math.sqrt`, `firdes.low_pass`).
pub(crate) fn call(
    path: &[&str],
    args: Vec<Arg>,
    env: &Env,
    fspan: Range<usize>,
    span: Range<usize>,
) -> Result<Value, ExprError> {
    let name = path.join(".");
    let call = Call {
        name: name.clone(),
        args,
        span,
    };
    if let Some(made) = super::object::construct(path, &call) {
        return made;
    }
    match (path, module(path)) {
        ([f], None) if BUILTINS.contains(f) => builtin(f, call),
        (_, Some((Module::Math, Some(f)))) => math(f, call),
        (_, Some((Module::Numpy, Some(f)))) => {
            if let [a] = call.args.as_slice()
                && let Some(out) = super::ndarray::numpy(f, &a.value)
            {
                return out.map_err(|k| call.error(k));
            }
            numpy(f, call)
        }
        (_, Some((Module::Firdes, Some(f)))) => filters::firdes(f, call),
        (_, Some((Module::Window, Some(f)))) => filters::window(f, call),
        (_, Some((Module::Pmt, Some(f)))) => super::pmt::call(f, call),
        (_, Some((Module::Random, Some(f)))) => super::random::python(f, call),
        (_, Some((Module::NumpyRandom, Some(f)))) => super::random::numpy(f, call),
        _ => Err(ExprError::new(name_error(path, env), fspan)),
    }
}

/// A call being evaluated: its function's name, arguments and place.
pub(crate) struct Call {
    pub name: String,
    pub args: Vec<Arg>,
    pub span: Range<usize>,
}

impl Call {
    /// The error `kind` at the whole call.
    pub fn error(&self, kind: ExprErrorKind) -> ExprError {
        ExprError::new(kind, self.span.clone())
    }

    /// Matches the arguments to `params` (Python's rules for positional
    /// and keyword arguments); the first `required` are required.
    /// `aliases` maps other keyword names to parameter names.
    pub fn bind(
        &self,
        params: &[&str],
        required: usize,
        aliases: &[(&str, &str)],
    ) -> Result<Vec<Option<&Arg>>, ExprError> {
        let mut out: Vec<Option<&Arg>> = vec![None; params.len()];
        let arity = || {
            let expected = if required == params.len() {
                required.to_string()
            } else {
                format!("{required} to {}", params.len())
            };
            ExprErrorKind::Arity {
                function: self.name.clone(),
                expected,
                found: self.args.len(),
            }
        };
        for (i, a) in self.args.iter().enumerate() {
            let slot = match &a.name {
                None => {
                    if i >= params.len() {
                        return Err(self.error(arity()));
                    }
                    i
                }
                Some(k) => {
                    let k = aliases
                        .iter()
                        .find(|(from, _)| from == k)
                        .map_or(k.as_str(), |(_, to)| *to);
                    match params.iter().position(|p| *p == k) {
                        Some(p) => p,
                        None => {
                            return Err(ExprError::new(
                                ExprErrorKind::UnknownName {
                                    name: format!("{}(..., {k}=)", self.name),
                                    suggest: rfgraph::registry::suggest::closest(
                                        k,
                                        params.iter().copied(),
                                    )
                                    .map(str::to_string),
                                },
                                a.span.clone(),
                            ));
                        }
                    }
                }
            };
            if out[slot].is_some() {
                return Err(ExprError::new(
                    ExprErrorKind::Value(format!(
                        "`{}` got argument `{}` twice",
                        self.name, params[slot]
                    )),
                    a.span.clone(),
                ));
            }
            out[slot] = Some(a);
        }
        if out.iter().take(required).any(Option::is_none) {
            return Err(self.error(arity()));
        }
        Ok(out)
    }

    /// The positional arguments, exactly `min..=max` of them, no keywords.
    pub fn positional(&self, min: usize, max: usize) -> Result<Vec<&Arg>, ExprError> {
        if let Some(a) = self.args.iter().find(|a| a.name.is_some()) {
            return Err(ExprError::new(
                ExprErrorKind::Unsupported(format!("keyword arguments to `{}`", self.name)),
                a.span.clone(),
            ));
        }
        let n = self.args.len();
        if n < min || n > max {
            return Err(self.error(ExprErrorKind::Arity {
                function: self.name.clone(),
                expected: if min == max {
                    min.to_string()
                } else if max == usize::MAX {
                    format!("{min} or more")
                } else {
                    format!("{min} to {max}")
                },
                found: n,
            }));
        }
        Ok(self.args.iter().collect())
    }
}

/// An error saying the argument `a` of `function` is not `expected`.
pub(crate) fn arg_type(function: &str, expected: &str, a: &Arg) -> ExprError {
    ExprError::new(
        ExprErrorKind::Type {
            context: format!("argument of `{function}()`"),
            expected: expected.into(),
            found: a.value.type_name().into(),
        },
        a.span.clone(),
    )
}

/// The argument as a real number.
pub(crate) fn real(function: &str, a: &Arg) -> Result<f64, ExprError> {
    a.value
        .as_f64()
        .ok_or_else(|| arg_type(function, "float", a))
}

/// The argument as an integer (a whole float is accepted).
pub(crate) fn integer(function: &str, a: &Arg) -> Result<i64, ExprError> {
    match a.value {
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => {
            a.value.as_i64().ok_or_else(|| arg_type(function, "int", a))
        }
        _ => Err(arg_type(function, "int", a)),
    }
}

/// The argument as a count (a non-negative integer up to [`MAX_ITEMS`]).
pub(crate) fn count(function: &str, a: &Arg) -> Result<usize, ExprError> {
    let n = integer(function, a)?;
    usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_ITEMS)
        .ok_or_else(|| {
            ExprError::new(
                ExprErrorKind::Value(format!(
                    "`{function}()` needs a count in 0..={MAX_ITEMS}, found {n}"
                )),
                a.span.clone(),
            )
        })
}

fn value_error(a: &Arg, message: String) -> ExprError {
    ExprError::new(ExprErrorKind::Value(message), a.span.clone())
}

fn float_to_int(f: f64, a: &Arg, what: &str) -> Result<Value, ExprError> {
    if !f.is_finite() {
        return Err(value_error(
            a,
            format!("cannot convert {f} to an integer ({what})"),
        ));
    }
    if f.abs() >= 9.223_372_036_854_775e18 {
        return Err(ExprError::new(ExprErrorKind::Overflow, a.span.clone()));
    }
    Ok(Value::Int(f as i64))
}

/// The items of an iterable argument (a list, or a string's characters).
pub(crate) fn items(function: &str, a: &Arg) -> Result<Vec<Value>, ExprError> {
    match &a.value {
        Value::List(v) => Ok(v.clone()),
        Value::Str(s) => Ok(s.chars().map(|c| Value::Str(c.to_string())).collect()),
        _ => Err(arg_type(function, "list", a)),
    }
}

fn range(call: &Call) -> Result<Value, ExprError> {
    let args = call.positional(1, 3)?;
    let ints: Vec<i64> = args
        .iter()
        .map(|a| match a.value {
            Value::Int(_) | Value::Bool(_) => Ok(a.value.as_i64().unwrap_or(0)),
            _ => Err(arg_type("range", "int", a)),
        })
        .collect::<Result<_, _>>()?;
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (0, *stop, 1),
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] => (*start, *stop, *step),
        _ => (0, 0, 1),
    };
    if step == 0 {
        return Err(value_error(args[2], "range() step must not be zero".into()));
    }
    let span = i128::from(stop) - i128::from(start);
    let n = if (span > 0) == (step > 0) && span != 0 {
        let step = i128::from(step);
        ((span.abs() + step.abs() - 1) / step.abs()) as u128
    } else {
        0
    };
    if n > MAX_ITEMS as u128 {
        return Err(call.error(ExprErrorKind::TooLarge {
            what: "range".into(),
            size: n,
            limit: MAX_ITEMS,
        }));
    }
    Ok(Value::List(
        (0..n as i64)
            .map(|i| Value::Int(start + i * step))
            .collect(),
    ))
}

fn min_max(call: &Call, want_max: bool) -> Result<Value, ExprError> {
    let args = call.positional(1, usize::MAX)?;
    let values = if args.len() == 1 {
        items(&call.name, args[0])?
    } else {
        args.iter().map(|a| a.value.clone()).collect()
    };
    let mut best: Option<Value> = None;
    for v in values {
        best = Some(match best {
            None => v,
            Some(b) => {
                let op = if want_max {
                    super::ast::CmpOp::Gt
                } else {
                    super::ast::CmpOp::Lt
                };
                if ops::compare(op, &v, &b).map_err(|k| call.error(k))? {
                    v
                } else {
                    b
                }
            }
        });
    }
    best.ok_or_else(|| {
        call.error(ExprErrorKind::Value(format!(
            "`{}()` of an empty list",
            call.name
        )))
    })
}

fn builtin(f: &str, call: Call) -> Result<Value, ExprError> {
    match f {
        "int" => {
            let args = call.positional(1, 2)?;
            let a = args[0];
            if args.len() == 2 {
                let base = integer("int", args[1])?;
                let Value::Str(s) = &a.value else {
                    return Err(arg_type("int", "str", a));
                };
                let base = u32::try_from(base)
                    .ok()
                    .filter(|b| (2..=36).contains(b))
                    .ok_or_else(|| value_error(args[1], "int() base must be 2..=36".into()))?;
                return i64::from_str_radix(s.trim(), base)
                    .map(Value::Int)
                    .map_err(|_| value_error(a, format!("invalid literal for int(): {s:?}")));
            }
            match &a.value {
                Value::Int(_) | Value::Bool(_) => Ok(Value::Int(a.value.as_i64().unwrap_or(0))),
                Value::Float(v) => float_to_int(v.trunc(), a, "int()"),
                Value::Str(s) => s
                    .trim()
                    .replace('_', "")
                    .parse::<i64>()
                    .map(Value::Int)
                    .map_err(|_| value_error(a, format!("invalid literal for int(): {s:?}"))),
                _ => Err(arg_type("int", "a number or str", a)),
            }
        }
        "float" => {
            let args = call.positional(0, 1)?;
            let Some(a) = args.first() else {
                return Ok(Value::Float(0.0));
            };
            match &a.value {
                Value::Str(s) => {
                    let t = s.trim().to_ascii_lowercase();
                    let v = match t.as_str() {
                        "inf" | "+inf" | "infinity" => Some(f64::INFINITY),
                        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
                        "nan" => Some(f64::NAN),
                        _ => t.replace('_', "").parse::<f64>().ok(),
                    };
                    v.map(Value::Float)
                        .ok_or_else(|| value_error(a, format!("could not convert {s:?} to float")))
                }
                _ => real("float", a).map(Value::Float),
            }
        }
        "complex" => {
            let args = call.positional(0, 2)?;
            let re = match args.first() {
                Some(a) => a
                    .value
                    .as_complex()
                    .ok_or_else(|| arg_type("complex", "a number", a))?,
                None => Complex64::default(),
            };
            let im = match args.get(1) {
                Some(a) => a
                    .value
                    .as_complex()
                    .ok_or_else(|| arg_type("complex", "a number", a))?,
                None => Complex64::default(),
            };
            Ok(Value::Complex(re + im * Complex64::i()))
        }
        "bool" => {
            let args = call.positional(0, 1)?;
            Ok(Value::Bool(args.first().is_some_and(|a| a.value.truthy())))
        }
        "str" => {
            let args = call.positional(0, 1)?;
            Ok(Value::Str(match args.first().map(|a| &a.value) {
                None => String::new(),
                Some(Value::Str(s)) => s.clone(),
                Some(v) => v.to_string(),
            }))
        }
        "abs" => {
            let args = call.positional(1, 1)?;
            let a = args[0];
            if let Some(out) = super::ndarray::numpy("abs", &a.value) {
                return out.map_err(|k| call.error(k));
            }
            match &a.value {
                Value::Int(_) | Value::Bool(_) => a
                    .value
                    .as_i64()
                    .and_then(i64::checked_abs)
                    .map(Value::Int)
                    .ok_or_else(|| call.error(ExprErrorKind::Overflow)),
                Value::Float(v) => Ok(Value::Float(v.abs())),
                Value::Complex(c) => Ok(Value::Float(c.norm())),
                _ => Err(arg_type("abs", "a number", a)),
            }
        }
        "round" => {
            let args = call.positional(1, 2)?;
            let x = real("round", args[0])?;
            match args.get(1) {
                None => float_to_int(round_half_even(x), args[0], "round()"),
                Some(d) => {
                    let d = integer("round", d)?.clamp(-308, 308) as i32;
                    let v = if d >= 0 && x.is_finite() {
                        // Rust prints the exact binary value rounded half to
                        // even, as Python's round does (2.675 is 2.67499...).
                        format!("{x:.*}", d as usize).parse().unwrap_or(x)
                    } else {
                        let scale = 10f64.powi(d);
                        round_half_even(x * scale) / scale
                    };
                    if matches!(args[0].value, Value::Int(_)) {
                        float_to_int(v, args[0], "round()")
                    } else {
                        Ok(Value::Float(if v.is_finite() { v } else { x }))
                    }
                }
            }
        }
        "min" => min_max(&call, false),
        "max" => min_max(&call, true),
        "sum" => {
            let args = call.positional(1, 2)?;
            let mut total = args.get(1).map_or(Value::Int(0), |a| a.value.clone());
            for v in items("sum", args[0])? {
                total = ops::binary(super::ast::BinOp::Add, total, v).map_err(|k| call.error(k))?;
            }
            Ok(total)
        }
        "len" => {
            let args = call.positional(1, 1)?;
            if let Some(n) = super::ndarray::len(&args[0].value) {
                return Ok(Value::Int(n as i64));
            }
            match &args[0].value {
                Value::List(v) => Ok(Value::Int(v.len() as i64)),
                Value::Dict(v) => Ok(Value::Int(v.len() as i64)),
                Value::Str(s) => Ok(Value::Int(s.chars().count() as i64)),
                _ => Err(arg_type("len", "list or str", args[0])),
            }
        }
        "range" => range(&call),
        "list" | "tuple" => {
            let args = call.positional(0, 1)?;
            match args.first() {
                None => Ok(Value::List(Vec::new())),
                Some(a) => items(f, a).map(Value::List),
            }
        }
        "pow" => {
            let args = call.positional(2, 2)?;
            ops::binary(
                super::ast::BinOp::Pow,
                args[0].value.clone(),
                args[1].value.clone(),
            )
            .map_err(|k| call.error(k))
        }
        _ => Err(call.error(ExprErrorKind::UnknownName {
            name: f.to_string(),
            suggest: None,
        })),
    }
}

/// Python 3's `round`: halves to even.
fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

fn math(f: &str, call: Call) -> Result<Value, ExprError> {
    let name = format!("math.{f}");
    let two = matches!(f, "atan2" | "pow" | "hypot" | "fmod");
    let args = if f == "log" {
        call.positional(1, 2)?
    } else if two {
        call.positional(2, 2)?
    } else {
        call.positional(1, 1)?
    };
    let x = real(&name, args[0])?;
    let domain = |ok: bool| -> Result<(), ExprError> {
        if ok {
            Ok(())
        } else {
            Err(value_error(
                args[0],
                format!("math domain error in `{name}({x})`"),
            ))
        }
    };
    let v = match f {
        "sqrt" => {
            domain(x >= 0.0)?;
            x.sqrt()
        }
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" => {
            domain((-1.0..=1.0).contains(&x))?;
            x.asin()
        }
        "acos" => {
            domain((-1.0..=1.0).contains(&x))?;
            x.acos()
        }
        "atan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "exp" => x.exp(),
        "log" => {
            domain(x > 0.0)?;
            match args.get(1) {
                Some(b) => {
                    let base = real(&name, b)?;
                    if base <= 0.0 || base == 1.0 {
                        return Err(value_error(b, format!("math domain error in `{name}`")));
                    }
                    x.ln() / base.ln()
                }
                None => x.ln(),
            }
        }
        "log10" => {
            domain(x > 0.0)?;
            x.log10()
        }
        "log2" => {
            domain(x > 0.0)?;
            x.log2()
        }
        "fabs" => x.abs(),
        "degrees" => x.to_degrees(),
        "radians" => x.to_radians(),
        "floor" => return float_to_int(x.floor(), args[0], "math.floor()"),
        "ceil" => return float_to_int(x.ceil(), args[0], "math.ceil()"),
        "trunc" => return float_to_int(x.trunc(), args[0], "math.trunc()"),
        "isnan" => return Ok(Value::Bool(x.is_nan())),
        "isinf" => return Ok(Value::Bool(x.is_infinite())),
        "atan2" | "pow" | "hypot" | "fmod" => {
            let y = real(&name, args[1])?;
            match f {
                "atan2" => x.atan2(y),
                "hypot" => x.hypot(y),
                "fmod" => {
                    if y == 0.0 {
                        return Err(call.error(ExprErrorKind::DivisionByZero));
                    }
                    x % y
                }
                _ => {
                    if x == 0.0 && y < 0.0 {
                        return Err(call.error(ExprErrorKind::DivisionByZero));
                    }
                    if x < 0.0 && y.fract() != 0.0 {
                        return Err(value_error(
                            args[1],
                            format!("math domain error in `{name}`"),
                        ));
                    }
                    x.powf(y)
                }
            }
        }
        _ => {
            return Err(call.error(ExprErrorKind::UnknownName {
                name,
                suggest: None,
            }));
        }
    };
    Ok(Value::Float(v))
}

fn numpy(f: &str, call: Call) -> Result<Value, ExprError> {
    let name = format!("numpy.{f}");
    match f {
        "ones" | "zeros" => {
            let args = call.positional(1, 1)?;
            let n = count(&name, args[0])?;
            Ok(Value::List(vec![
                Value::Float(if f == "ones" {
                    1.0
                } else {
                    0.0
                });
                n
            ]))
        }
        "arange" => {
            let args = call.positional(1, 3)?;
            let vals: Vec<f64> = args
                .iter()
                .map(|a| real(&name, a))
                .collect::<Result<_, _>>()?;
            let all_int = args.iter().all(|a| matches!(a.value, Value::Int(_)));
            let (start, stop, step) = match vals.as_slice() {
                [stop] => (0.0, *stop, 1.0),
                [a, b] => (*a, *b, 1.0),
                [a, b, c] => (*a, *b, *c),
                _ => (0.0, 0.0, 1.0),
            };
            if step == 0.0 || !step.is_finite() {
                return Err(call.error(ExprErrorKind::Value(
                    "arange() step must be finite and non-zero".into(),
                )));
            }
            let n = ((stop - start) / step).ceil().max(0.0);
            if n.is_nan() || n > MAX_ITEMS as f64 {
                return Err(call.error(ExprErrorKind::TooLarge {
                    what: "arange".into(),
                    size: if n.is_finite() { n as u128 } else { u128::MAX },
                    limit: MAX_ITEMS,
                }));
            }
            Ok(Value::List(
                (0..n as usize)
                    .map(|i| {
                        let v = start + i as f64 * step;
                        if all_int {
                            Value::Int(v as i64)
                        } else {
                            Value::Float(v)
                        }
                    })
                    .collect(),
            ))
        }
        "linspace" => {
            let args = call.positional(2, 3)?;
            let a = real(&name, args[0])?;
            let b = real(&name, args[1])?;
            let n = match args.get(2) {
                Some(n) => count(&name, n)?,
                None => 50,
            };
            Ok(Value::List(
                (0..n)
                    .map(|i| {
                        let t = if n > 1 {
                            i as f64 / (n - 1) as f64
                        } else {
                            0.0
                        };
                        Value::Float(a + (b - a) * t)
                    })
                    .collect(),
            ))
        }
        "kron" => {
            // 1-D real lists: `out[i·len(b) + j] = a[i]·b[j]`.
            let args = call.positional(2, 2)?;
            let reals = |a: &Arg| -> Result<Vec<f64>, ExprError> {
                items(&name, a)?
                    .iter()
                    .map(|v| {
                        v.as_f64()
                            .ok_or_else(|| arg_type(&name, "list of numbers", a))
                    })
                    .collect()
            };
            let (a, b) = (reals(args[0])?, reals(args[1])?);
            if a.len().saturating_mul(b.len()) > MAX_ITEMS {
                return Err(call.error(ExprErrorKind::TooLarge {
                    what: "kron".into(),
                    size: (a.len() as u128) * (b.len() as u128),
                    limit: MAX_ITEMS,
                }));
            }
            Ok(Value::List(
                a.iter()
                    .flat_map(|x| b.iter().map(move |y| Value::Float(x * y)))
                    .collect(),
            ))
        }
        "sum" => builtin("sum", call),
        "arctan2" => math("atan2", call),
        "hamming" | "hanning" | "blackman" => {
            let args = call.positional(1, 1)?;
            let n = count(&name, args[0])?;
            let taps = (0..n)
                .map(|i| {
                    let m = (n.max(2) - 1) as f64;
                    let x = 2.0 * std::f64::consts::PI * i as f64 / m;
                    let v = match f {
                        "hamming" => 0.54 - 0.46 * x.cos(),
                        "hanning" => 0.5 - 0.5 * x.cos(),
                        _ => 0.42 - 0.5 * x.cos() + 0.08 * (2.0 * x).cos(),
                    };
                    Value::Float(if n == 1 { 1.0 } else { v })
                })
                .collect();
            Ok(Value::List(taps))
        }
        _ => {
            // Element-wise on lists, as numpy does.
            let args = call.positional(1, 1)?;
            let elementwise = |v: &Value, span: &Range<usize>| -> Result<Value, ExprError> {
                let arg = Arg {
                    name: None,
                    value: v.clone(),
                    span: span.clone(),
                };
                let sub = Call {
                    name: name.clone(),
                    args: vec![arg],
                    span: call.span.clone(),
                };
                match f {
                    "abs" => builtin("abs", sub),
                    "round" => {
                        let x = real(&name, &sub.args[0])?;
                        Ok(Value::Float(round_half_even(x)))
                    }
                    "floor" | "ceil" => {
                        let x = real(&name, &sub.args[0])?;
                        Ok(Value::Float(if f == "floor" {
                            x.floor()
                        } else {
                            x.ceil()
                        }))
                    }
                    _ => math(f, sub),
                }
            };
            match &args[0].value {
                Value::List(items) => items
                    .iter()
                    .map(|v| elementwise(v, &args[0].span))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::List),
                v => elementwise(v, &args[0].span),
            }
        }
    }
}
