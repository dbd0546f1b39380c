//! Expressions evaluated by rfgraph and by Python (`/usr/bin/python3`,
//! with GNU Radio's `firdes` when installed) give the same values, the
//! same types (int stays int, `/` gives a float), and fail on the same
//! inputs with the matching kind of error. Skips with one line when
//! Python is absent, except under `CI=true`, where it fails.

use num_complex::Complex64;
use rfgraph_flowfile::expr::{Env, ExprErrorKind, Value, eval};
use serde_json::Value as Json;
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

const EXPRESSIONS: &[&str] = &[
    "1 + 2 * 3",
    "7 / 2",
    "7 // 2",
    "-7 // 2",
    "-7 % 3",
    "7 % -3",
    "7.5 // 2",
    "-7.5 % 2",
    "2 ** 10",
    "2 ** -1",
    "-2 ** 2",
    "(-8) ** (1 / 3)",
    "1_000 + 0x10 + 0o17 + 0b101",
    "True + True",
    "1j * 1j",
    "(1 + 2j) * (3 - 1j)",
    "(1 + 2j) / (3 - 1j)",
    "abs(3 + 4j)",
    "(2 + 3j).real + (2 + 3j).imag",
    "int(samp_rate / 240e3)",
    "int(-2.7)",
    "float('2.4e6')",
    "round(2.5)",
    "round(3.5)",
    "round(-2.5)",
    "round(2.675, 2)",
    "1 < 2 < 3",
    "1 < 2 > 3",
    "10 == 10.0",
    "not 0",
    "0 or 'x'",
    "3 and 5",
    "'a' if decim > 2 else 'b'",
    "2 in [1, 2]",
    "'m' in name",
    "None is None",
    "[1.0] * 3",
    "3 * [0]",
    "[1, 2] + [3]",
    "list(range(5))[1:4]",
    "list(range(10))[::-3]",
    "list(range(0, 10, 4))",
    "list(range(10, 0, -3))",
    "list(range(10))[-3:]",
    "len([1, 2, 3])",
    "min(3, 1, 2)",
    "max(taps)",
    "sum(taps)",
    "sum([1, 2], 10)",
    "pow(2, 3)",
    "pow(2, 0.5)",
    "name + '.cf32'",
    "'abc'[-1]",
    "'abcdef'[1:5:2]",
    "str(decim)",
    "str(2.5)",
    "'ab' * 2",
    "(1, 2)",
    "3 // 2 * 2.0",
    "~5",
    "5 & 3 | 8 ^ 1",
    "1 << 10",
    "1e3 == 1000",
    "0.1 + 0.2",
    "int(True)",
    "bool([])",
    "complex(1, 2)",
    "abs(-3)",
    "math.pi",
    "math.e",
    "math.sqrt(16)",
    "math.atan2(1, 1)",
    "math.log10(1000)",
    "math.log(8, 2)",
    "math.floor(2.5)",
    "math.ceil(-2.5)",
    "math.fabs(-2)",
    "math.pow(2, 0.5)",
    "math.exp(1)",
    "math.sin(1) + math.cos(1) + math.tan(1)",
    "math.degrees(math.pi)",
    "math.hypot(3, 4)",
    "math.trunc(-2.7)",
    "numpy.pi / 2",
    "np.sqrt(2)",
    "[i * 2 for i in range(4)]",
    "[i for i in range(10) if i % 3 == 0 if i]",
    "[[j for j in range(i)] for i in range(3)]",
    "[t * decim for t in taps]",
    "list(map(lambda x: int(x), list('10110')))",
    "(lambda x, y: x * y + decim)(3, 4)",
    "(lambda: name)()",
    "(lambda a: lambda b: a - b)(10)(3)",
    "[(lambda k: k * i)(2) for i in range(3)]",
    "list(map(lambda a, b: a + b, [1, 2, 3], [10, 20]))",
    "list(map(lambda t: t * decim, taps))",
    "list(filter(lambda v: v % 2, range(7)))",
    "list(filter(None, [0, 1, '', 'a', [], [0]]))",
    "sorted([3, 1, 2])",
    "sorted([3, 1, 2], reverse=True)",
    "sorted([-3, 1, -2, 2], key=lambda v: v * v)",
    "sorted([-3, 1, -2, 2], key=lambda v: abs(v), reverse=True)",
    "sorted('cab')",
    "(lambda x: x if x > 0 else -x)(-4.5)",
    "(lambda x: x)(1, 2)",
    "(lambda x: undefined_name)(1)",
    "list(map(5, [1]))",
    "sorted([1, 'a'])",
    "1 / 0",
    "1 % 0",
    "1 // 0.0",
    "0 ** -1",
    "undefined_name",
    "'a' + 1",
    "[1][5]",
    "int('x')",
    "math.sqrt(-1)",
    "len(5)",
    "min([])",
];

/// Filter designs, compared only when GNU Radio is installed.
const FIRDES: &[&str] = &[
    "firdes.low_pass(1, samp_rate, 100e3, 50e3)",
    "firdes.low_pass(2.0, 48e3, 4e3, 1e3, window.WIN_BLACKMAN_HARRIS)",
    "firdes.low_pass(1, 48e3, 4e3, 1e3, window.WIN_KAISER, 5.0)",
    "firdes.high_pass(1, 48e3, 4e3, 1e3, window.WIN_HANN)",
    "firdes.band_pass(1, 48e3, 2e3, 6e3, 1e3)",
    "firdes.band_reject(1, 48e3, 2e3, 6e3, 1e3)",
    "firdes.root_raised_cosine(1, 8, 1, 0.35, 45)",
    "firdes.complex_band_pass(1, 48e3, -6e3, -2e3, 1e3)",
];

fn python(lines: &[&str]) -> Option<Vec<Json>> {
    let mut child = Command::new(PYTHON)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/eval_exprs.py"
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    stdin.write_all(lines.join("\n").as_bytes()).ok()?;
    stdin.write_all(b"\n").ok()?;
    drop(stdin);
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    String::from_utf8(out.stdout)
        .ok()?
        .lines()
        .map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn env() -> Env {
    let mut env = Env::new();
    env.set("samp_rate", Value::Float(2.4e6));
    env.set("decim", Value::Int(10));
    env.set(
        "taps",
        Value::List(vec![Value::Float(0.5), Value::Float(0.25)]),
    );
    env.set("name", Value::Str("fm".into()));
    env
}

/// Equal to `tol`: relative when positive, absolute when negative.
fn close(a: f64, b: f64, tol: f64) -> bool {
    if tol < 0.0 {
        return (a - b).abs() <= -tol;
    }
    a == b || (a - b).abs() <= tol * a.abs().max(b.abs()).max(1e-300)
}

/// Whether our value equals Python's (as JSON), types included; floats
/// to `tol` relative.
fn same(ours: &Value, theirs: &Json, tol: f64) -> bool {
    match (ours, theirs) {
        (Value::None, Json::Null) => true,
        (Value::Bool(a), Json::Bool(b)) => a == b,
        (Value::Int(a), Json::Number(n)) => n.as_i64() == Some(*a),
        (Value::Float(a), Json::Number(n)) => {
            n.is_f64() && close(*a, n.as_f64().unwrap_or(f64::NAN), tol)
        }
        (Value::Complex(c), Json::Object(o)) => {
            let get = |k: &str| o.get(k).and_then(Json::as_f64).unwrap_or(f64::NAN);
            close(c.re, get("re"), tol) && close(c.im, get("im"), tol)
        }
        (Value::Str(a), Json::String(b)) => a == b,
        (Value::List(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y, tol))
        }
        _ => false,
    }
}

fn python_error(kind: &ExprErrorKind) -> &'static str {
    match kind {
        ExprErrorKind::DivisionByZero => "ZeroDivisionError",
        ExprErrorKind::UnknownName { .. } => "NameError",
        ExprErrorKind::Type { .. } | ExprErrorKind::Arity { .. } => "TypeError",
        ExprErrorKind::Index { .. } => "IndexError",
        ExprErrorKind::Value(_) => "ValueError",
        _ => "other",
    }
}

fn compare(exprs: &[&str], answers: &[Json], tol: f64) {
    assert_eq!(answers.len(), exprs.len());
    let env = env();
    let mut wrong = Vec::new();
    for (text, answer) in exprs.iter().zip(answers) {
        let ours = eval(text, &env);
        let ok = match (&ours, answer.get("ok"), answer.get("err")) {
            (Ok(v), Some(theirs), _) => same(v, theirs, tol),
            (Err(e), _, Some(Json::String(name))) => python_error(&e.kind) == name,
            _ => false,
        };
        if !ok {
            wrong.push(format!("{text}: rfgraph {ours:?}, Python {answer}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// True when [`PYTHON`] has numpy (GNU Radio's Python does; `.ci/run`
/// installs it).
fn python_available(test: &str) -> bool {
    rfgraph_testkit::gnuradio(test, "numpy")
}

#[test]
fn expressions_evaluate_as_python_does() {
    if !python_available("expressions_evaluate_as_python_does") {
        return;
    }
    let answers = python(EXPRESSIONS).expect("the Python script runs");
    compare(EXPRESSIONS, &answers, 1e-12);
    // The numbers behind one of them, to be sure the comparison can fail.
    assert!(!same(
        &Value::Complex(Complex64::new(1.0, 2.0)),
        &answers[0]["ok"],
        1e-12
    ));
}

#[test]
fn filter_designs_match_gnu_radio() {
    if !rfgraph_testkit::gnuradio("filter_designs_match_gnu_radio", "gnuradio.filter, numpy") {
        return;
    }
    let answers = python(FIRDES).expect("the Python script runs");
    // GNU Radio computes its windows (and the complex designs' frequency
    // shift, whose phase error grows along the taps) in f32, rfgraph in
    // f64: taps of at most about 0.3 agree to 1e-5 absolutely (a wrong
    // design is off by the size of its taps).
    compare(FIRDES, &answers, -1e-5);
}

/// A random expression over small numbers, lists and strings (a fixed
/// generator, so failures repeat).
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn number(&mut self) -> String {
        match self.next(6) {
            0 => format!("{}", self.next(7) as i64 - 3),
            1 => format!("{}.{}", self.next(5), self.next(10)),
            2 => format!("{}j", self.next(3)),
            3 => ["decim", "samp_rate", "True", "False"][self.next(4) as usize].to_string(),
            4 => format!("-{}.5", self.next(3)),
            _ => format!("{}e{}", self.next(9) + 1, self.next(4)),
        }
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth == 0 {
            return self.number();
        }
        let d = depth - 1;
        match self.next(14) {
            0..=5 => {
                let op = [
                    "+", "-", "*", "/", "//", "%", "**", "<", "==", "!=", "and", "or",
                ][self.next(12) as usize];
                format!("({} {op} {})", self.expr(d), self.expr(d))
            }
            6 => format!("(-{})", self.expr(d)),
            7 => format!("(not {})", self.expr(d)),
            8 => format!(
                "({} if {} else {})",
                self.expr(d),
                self.expr(d),
                self.expr(d)
            ),
            9 => {
                let f = [
                    "abs",
                    "int",
                    "float",
                    "round",
                    "math.floor",
                    "math.sqrt",
                    "math.exp",
                    "bool",
                    "str",
                ][self.next(9) as usize];
                format!("{f}({})", self.expr(d))
            }
            10 => format!(
                "[{}, {}][{}]",
                self.expr(d),
                self.expr(d),
                self.next(5) as i64 - 2
            ),
            11 => format!("min({}, {})", self.expr(d), self.expr(d)),
            12 => format!("([{}] * {})", self.expr(d), self.next(4)),
            _ => format!("len([{} for x in range({})])", self.expr(d), self.next(4)),
        }
    }
}

#[test]
fn random_expressions_evaluate_as_python_does() {
    if !python_available("random_expressions_evaluate_as_python_does") {
        return;
    }
    // `EXPR_SEED=n` explores other expressions.
    let seed = std::env::var("EXPR_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed);
    let mut g = Gen(seed);
    let texts: Vec<String> = (0..2000).map(|_| g.expr(3)).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let answers = python(&refs).expect("the Python script runs");
    let env = env();
    let mut wrong = Vec::new();
    let mut compared = 0;
    for (text, answer) in refs.iter().zip(&answers) {
        let ours = eval(text, &env);
        let ok = match (&ours, answer.get("ok"), answer.get("err")) {
            (Ok(v), Some(theirs), _) => same(v, theirs, 1e-9),
            // Python's integers are unbounded and its floats overflow to
            // errors where rfgraph's may not: those cases are not compared.
            (Err(e), _, _) if matches!(e.kind, ExprErrorKind::Overflow) => continue,
            (_, _, Some(Json::String(name))) if name == "OverflowError" => continue,
            (Err(e), _, Some(Json::String(name))) => python_error(&e.kind) == name,
            _ => false,
        };
        compared += 1;
        if !ok {
            wrong.push(format!("{text}: rfgraph {ours:?}, Python {answer}"));
        }
    }
    assert!(compared > 1500, "only {compared} compared");
    assert!(
        wrong.is_empty(),
        "{} of {compared} differ:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
