//! Expressions as flowgraph files write them: values, Python's rules,
//! GNU Radio's filter designer, errors with their place, and a property
//! test that no input panics or hangs.

use num_complex::Complex64;
use proptest::prelude::*;
use rfgraph_flowfile::expr::{Env, Expr, ExprErrorKind, Value, eval};

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

fn v(text: &str) -> Value {
    eval(text, &env()).unwrap_or_else(|e| panic!("{text}: {}", e.describe(text)))
}

fn err(text: &str) -> rfgraph_flowfile::expr::ExprError {
    match eval(text, &env()) {
        Ok(v) => panic!("{text}: expected an error, got {v}"),
        Err(e) => e,
    }
}

#[test]
fn numbers_follow_python() {
    assert_eq!(v("1 + 2 * 3"), Value::Int(7));
    assert_eq!(v("7 / 2"), Value::Float(3.5));
    assert_eq!(v("7 // 2"), Value::Int(3));
    assert_eq!(v("-7 // 2"), Value::Int(-4));
    assert_eq!(v("-7 % 3"), Value::Int(2));
    assert_eq!(v("7.5 // 2"), Value::Float(3.0));
    assert_eq!(v("2 ** 10"), Value::Int(1024));
    assert_eq!(v("2 ** -1"), Value::Float(0.5));
    assert_eq!(v("-2 ** 2"), Value::Int(-4));
    assert_eq!(v("1_000 + 0x10"), Value::Int(1016));
    assert_eq!(v("True + 1"), Value::Int(2));
    assert_eq!(v("1j * 1j"), Value::Complex(Complex64::new(-1.0, 0.0)));
    assert_eq!(v("(1 + 2j).imag"), Value::Float(2.0));
    assert_eq!(v("abs(3 + 4j)"), Value::Float(5.0));
    assert_eq!(v("int(samp_rate / 240e3)"), Value::Int(10));
    assert_eq!(v("int(-2.7)"), Value::Int(-2));
    assert_eq!(v("float('2.4e6')"), Value::Float(2.4e6));
    assert_eq!(v("round(2.5)"), Value::Int(2));
    assert_eq!(v("round(2.71828, 2)"), Value::Float(2.72));
    assert_eq!(v("samp_rate / decim"), Value::Float(240e3));
}

#[test]
fn logic_comparisons_and_conditionals() {
    assert_eq!(v("1 < 2 < 3"), Value::Bool(true));
    assert_eq!(v("1 < 2 > 3"), Value::Bool(false));
    assert_eq!(v("decim == 10.0"), Value::Bool(true));
    assert_eq!(v("not decim"), Value::Bool(false));
    assert_eq!(v("0 or 'x'"), Value::Str("x".into()));
    assert_eq!(v("decim and 5"), Value::Int(5));
    assert_eq!(v("'a' if decim > 5 else 'b'"), Value::Str("a".into()));
    assert_eq!(
        v("1 / 0 if False else 2"),
        Value::Int(2),
        "the other branch is not evaluated"
    );
    assert_eq!(v("2 in [1, 2]"), Value::Bool(true));
    assert_eq!(v("'m' not in name"), Value::Bool(false));
    assert_eq!(v("None is None"), Value::Bool(true));
}

#[test]
fn lists_strings_and_builtins() {
    assert_eq!(v("[1.0] * 3"), v("[1.0, 1.0, 1.0]"));
    assert_eq!(v("3 * [0]"), v("[0, 0, 0]"));
    assert_eq!(v("[1, 2] + [3]"), v("[1, 2, 3]"));
    assert_eq!(v("(1, 2)"), v("[1, 2]"));
    assert_eq!(v("[(1, 2)]"), Value::List(vec![v("[1, 2]")]));
    assert_eq!(v("taps[-1]"), Value::Float(0.25));
    assert_eq!(v("list(range(5))[1:4]"), v("[1, 2, 3]"));
    assert_eq!(v("range(10)[::-3]"), v("[9, 6, 3, 0]"));
    assert_eq!(v("range(0, 10, 4)"), v("[0, 4, 8]"));
    assert_eq!(v("len(taps)"), Value::Int(2));
    assert_eq!(v("min(3, 1, 2)"), Value::Int(1));
    assert_eq!(v("max(taps)"), Value::Float(0.5));
    assert_eq!(v("sum(taps)"), Value::Float(0.75));
    assert_eq!(v("pow(2, 3)"), Value::Int(8));
    assert_eq!(v("name + '.cf32'"), Value::Str("fm.cf32".into()));
    assert_eq!(v("name[0]"), Value::Str("f".into()));
    assert_eq!(v("str(decim)"), Value::Str("10".into()));
    assert_eq!(v("'ab' * 2"), Value::Str("abab".into()));
}

#[test]
fn list_comprehensions() {
    assert_eq!(v("[i * 2 for i in range(4)]"), v("[0, 2, 4, 6]"));
    assert_eq!(
        v("[i for i in range(10) if i % 3 == 0 if i]"),
        v("[3, 6, 9]")
    );
    assert_eq!(v("[t * decim for t in taps]"), v("[5.0, 2.5]"));
    assert_eq!(
        v("[[j for j in range(i)] for i in range(3)]"),
        v("[[], [0], [0, 1]]")
    );
    assert_eq!(
        v("[decim for decim in range(2)] + [decim]"),
        v("[0, 1, 10]"),
        "the loop name shadows only inside"
    );
    assert_eq!(v("[c for c in name]"), v("['f', 'm']"));
    let e = Expr::parse("[x * k for x in xs if x > lim]").unwrap();
    assert_eq!(e.names(), vec!["xs", "k", "lim"]);
    // Nested loops that multiply past the step bound stop with an error.
    let e = err("[0 for a in range(100000) if [0 for b in range(100000) if 0]]");
    assert!(matches!(e.kind, ExprErrorKind::TooLarge { .. }), "{e}");
}

#[test]
fn math_and_numpy() {
    let pi = std::f64::consts::PI;
    assert_eq!(v("math.pi"), Value::Float(pi));
    assert_eq!(v("numpy.pi"), Value::Float(pi));
    assert_eq!(v("np.pi / 2"), Value::Float(pi / 2.0));
    assert_eq!(v("math.sqrt(16)"), Value::Float(4.0));
    assert_eq!(v("math.atan2(1, 1)"), Value::Float(pi / 4.0));
    assert_eq!(v("math.log10(1000)"), Value::Float(3.0));
    assert_eq!(v("math.log(8, 2)"), Value::Float(3.0));
    assert_eq!(v("math.floor(2.5)"), Value::Int(2));
    assert_eq!(v("math.ceil(2.5)"), Value::Int(3));
    assert_eq!(v("math.fabs(-2)"), Value::Float(2.0));
    assert_eq!(v("math.pow(2, 0.5)"), Value::Float(2f64.sqrt()));
    assert_eq!(v("math.exp(0)"), Value::Float(1.0));
    assert_eq!(
        v("math.cos(0) + math.sin(0) + math.tan(0)"),
        Value::Float(1.0)
    );
    assert_eq!(v("numpy.ones(2)"), v("[1.0, 1.0]"));
    assert_eq!(v("np.sqrt([4, 9])"), v("[2.0, 3.0]"));
    assert_eq!(v("np.arange(3)"), v("[0, 1, 2]"));
    // numpy 1.x: np.kron(np.ones(2), np.arange(3)) is [0, 1, 2, 0, 1, 2].
    assert_eq!(
        v("np.kron(np.ones(2), np.arange(3))"),
        v("[0.0, 1.0, 2.0, 0.0, 1.0, 2.0]")
    );
    assert_eq!(v("np.kron([1, 2], [1, -1])"), v("[1.0, -1.0, 2.0, -2.0]"));
}

#[test]
fn filter_designs_come_from_rfgraph_dsp() {
    use rfgraph_dsp::firdes::{self, WinType};
    let floats = |t: Vec<f32>| Value::List(t.into_iter().map(|x| Value::Float(x as f64)).collect());
    assert_eq!(
        v("firdes.low_pass(1, 48e3, 4e3, 1e3)"),
        floats(firdes::low_pass(1.0, 48e3, 4e3, 1e3, WinType::Hamming, 6.76).unwrap())
    );
    assert_eq!(
        v("filter.firdes.low_pass(2.0, samp_rate, 100e3, 50e3, window.WIN_BLACKMAN_HARRIS)"),
        floats(firdes::low_pass(2.0, 2.4e6, 100e3, 50e3, WinType::BlackmanHarris, 6.76).unwrap())
    );
    assert_eq!(
        v("firdes.low_pass(1, 48e3, 4e3, 1e3, window=firdes.WIN_KAISER, beta=5)"),
        floats(firdes::low_pass(1.0, 48e3, 4e3, 1e3, WinType::Kaiser, 5.0).unwrap())
    );
    assert_eq!(
        v("firdes.high_pass(1, 48e3, 4e3, 1e3, fft.window.WIN_HANN)"),
        floats(firdes::high_pass(1.0, 48e3, 4e3, 1e3, WinType::Hann, 6.76).unwrap())
    );
    assert_eq!(
        v("firdes.band_pass(1, 48e3, 2e3, 6e3, 1e3)"),
        floats(firdes::band_pass(1.0, 48e3, 2e3, 6e3, 1e3, WinType::Hamming, 6.76).unwrap())
    );
    assert_eq!(
        v("firdes.band_reject(1, 48e3, 2e3, 6e3, 1e3)"),
        floats(firdes::band_reject(1.0, 48e3, 2e3, 6e3, 1e3, WinType::Hamming, 6.76).unwrap())
    );
    assert_eq!(
        v("firdes.root_raised_cosine(1, 8, 1, 0.35, 45)"),
        floats(firdes::root_raised_cosine(1.0, 8.0, 1.0, 0.35, 45).unwrap())
    );
    assert_eq!(
        v("firdes.gaussian(1, 4, 0.35, 16)"),
        floats(firdes::gaussian(1.0, 4.0, 0.35, 16).unwrap())
    );
    let Value::List(c) = v("firdes.complex_band_pass(1, 48e3, -6e3, -2e3, 1e3)") else {
        panic!("a list")
    };
    assert!(matches!(c[0], Value::Complex(_)));
    assert_eq!(v("firdes.WIN_HAMMING"), Value::Int(0));
    assert_eq!(v("window.WIN_BLACKMAN_hARRIS"), Value::Int(5));
    let e = err("firdes.low_pass(1, 48e3, 30e3, 1e3)");
    assert!(matches!(e.kind, ExprErrorKind::Value(_)), "{e}");
    assert_eq!(e.span, 0..35);
}

#[test]
fn errors_say_what_and_where() {
    let e = err("1 + 2 / (decim - 10)");
    assert_eq!(e.kind, ExprErrorKind::DivisionByZero);
    assert_eq!(e.span, 4..20);
    assert_eq!(
        e.describe("1 + 2 / (decim - 10)"),
        "column 5: division by zero"
    );
    assert_eq!(err("decim % 0").kind, ExprErrorKind::DivisionByZero);
    assert_eq!(err("decim // 0.0").kind, ExprErrorKind::DivisionByZero);
    assert_eq!(err("0 ** -1").kind, ExprErrorKind::DivisionByZero);

    let e = err("samp_rat / 2");
    assert_eq!(e.span, 0..8);
    assert_eq!(
        e.to_string(),
        "unknown name `samp_rat` (did you mean `samp_rate`?)"
    );
    let e = err("math.sqr(2)");
    assert_eq!(
        e.to_string(),
        "unknown name `math.sqr` (did you mean `math.sqrt`?)"
    );
    let e = err("firdes.low_pas(1, 2, 3, 4)");
    assert_eq!(
        e.to_string(),
        "unknown name `firdes.low_pas` (did you mean `firdes.low_pass`?)"
    );
    let e = err("1 + name");
    assert_eq!(
        e.to_string(),
        "operand of `+`: expected a number, found str"
    );
    assert_eq!(e.span, 0..8);
    let e = err("math.sqrt(name)");
    assert_eq!(
        e.to_string(),
        "argument of `math.sqrt()`: expected float, found str"
    );
    assert_eq!(e.span, 10..14);
    let e = err("taps[5]");
    assert_eq!(e.to_string(), "index 5 out of range for length 2");
    assert_eq!(e.span, 5..6);
    assert!(matches!(err("min()").kind, ExprErrorKind::Arity { .. }));
    assert!(matches!(err("2 ** 64").kind, ExprErrorKind::Overflow));
    assert!(matches!(
        err("[0] * 10 ** 9").kind,
        ExprErrorKind::TooLarge { .. }
    ));
    assert!(matches!(
        err("[[0] * 100000] * 100000").kind,
        ExprErrorKind::TooLarge { .. }
    ));
    assert!(matches!(
        err("range(10 ** 12)").kind,
        ExprErrorKind::TooLarge { .. }
    ));
    assert!(matches!(
        err("(x for x in taps)").kind,
        ExprErrorKind::Unsupported(_)
    ));
    assert!(matches!(
        err("[x for x in taps for y in taps]").kind,
        ExprErrorKind::Unsupported(_)
    ));
    let e = err("[x / 0 for x in taps]");
    assert_eq!((e.kind, e.span), (ExprErrorKind::DivisionByZero, 1..6));
    let e = err("[x for x in 3]");
    assert_eq!(
        e.to_string(),
        "comprehension: expected list or str, found int"
    );
    assert!(matches!(err("math").kind, ExprErrorKind::Type { .. }));
    assert!(matches!(err("1 +").kind, ExprErrorKind::Syntax(_)));
}

#[test]
fn names_lists_what_an_expression_reads() {
    let e = Expr::parse("int(samp_rate / decim) + math.pi * f(x=samp_rate)").unwrap();
    assert_eq!(e.names(), vec!["int", "samp_rate", "decim", "math", "f"]);
}

fn seeds() -> Vec<&'static str> {
    vec![
        "int(samp_rate / 240e3)",
        "firdes.low_pass(1, samp_rate, 100e3, 20e3, window.WIN_HAMMING, 6.76)",
        "[1.0] * 8 + list(range(3))[::-1]",
        "x if decim > 2 else -2 ** 0.5j",
        "math.atan2(1, 2) // 0.1 % 3",
        "'abc'[1:] + str(len(taps))",
        "[t * 2 for t in taps if t > 0.3]",
        "min(taps) < max(1, 2) and not None or (1, 2)",
        "sorted(map(lambda a, b: (a, b) * x, taps, 'ab'), key=lambda p: p[0])",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        if rfgraph_testkit::under_ci() { 4000 } else { 400 }
    ))]

    /// Mutated expressions evaluate or fail with a span inside the text,
    /// never panic.
    #[test]
    fn mutated_expressions_never_panic(
        seed in 0usize..9,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 0..6),
    ) {
        let mut bytes = seeds()[seed].as_bytes().to_vec();
        for (pos, byte, op) in edits {
            let at = if bytes.is_empty() { 0 } else { pos % (bytes.len() + 1) };
            let pick = b"()[]*,.:+-/%<>=0123456789jeaif x'\"";
            let b = pick[byte as usize % pick.len()];
            match op {
                0 => bytes.insert(at, b),
                1 if at < bytes.len() => { bytes.remove(at); }
                _ => bytes.truncate(at),
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Err(e) = eval(&text, &env()) {
            prop_assert!(e.span.start <= text.len() && e.span.end <= text.len(), "{text}: {e:?}");
            let _ = e.describe(&text);
        }
    }

    /// Arbitrary text never panics.
    #[test]
    fn random_text_never_panics(text in ".{0,80}") {
        let _ = eval(&text, &env());
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for text in [
        format!("{}1{}", "[".repeat(5000), "]".repeat(5000)),
        format!("{}1", "not ".repeat(5000)),
        format!("{}1", "-".repeat(5000)),
        format!("{}1{}", "f(".repeat(5000), ")".repeat(5000)),
        format!("1{}", "[0]".repeat(5000)),
        format!("1{}", " ** 2".repeat(5000)),
        format!("1{}", " if 1 else 1".repeat(5000)),
    ] {
        assert!(eval(&text, &env()).is_err());
    }
}

/// A lambda closes over the variables it reads, so calling it later
/// needs no environment; calls nest only so deep; names it reads count
/// as the expression's names.
#[test]
fn lambdas_close_over_variables_and_nest_boundedly() {
    let mut env = Env::new();
    env.set("k", Value::Int(3));
    let Value::Function(f) = eval("lambda x, y: x * k + y", &env).unwrap() else {
        panic!("a lambda is a function")
    };
    assert_eq!(f.params(), ["x", "y"]);
    assert_eq!(
        f.call(vec![Value::Int(2), Value::Int(1)]).unwrap(),
        Value::Int(7)
    );
    assert!(f.call(vec![Value::Int(2)]).is_err());
    assert_eq!(
        eval("lambda x: x", &env).unwrap().to_string(),
        "<lambda(x)>"
    );
    assert_eq!(eval("bool(lambda: 0)", &env).unwrap(), Value::Bool(true));

    let e = eval("(lambda f: f(f))(lambda f: f(f))", &env).unwrap_err();
    assert!(e.to_string().contains("nested"), "{e}");
    let many = "list(map(lambda i: [j for j in range(5000)], range(5000)))";
    assert!(eval(many, &env).is_err());

    let names = Expr::parse("lambda x: x * k + np.pi").unwrap().names();
    assert!(names.contains(&"k".to_string()), "{names:?}");
    assert!(!names.contains(&"x".to_string()), "{names:?}");
}

/// The access code variable of GNU Radio's `example_corr_est*.grc`
/// (`ac`), as GNU Radio 3.10 evaluates it: 64 ints, the code's bits.
#[test]
fn corr_est_access_code_variable() {
    let text = "list(map(lambda x: int(x), list(digital.packet_utils.default_access_code)))";
    let want: Vec<Value> = rfgraph_flowfile::expr::DEFAULT_ACCESS_CODE
        .chars()
        .map(|c| Value::Int(i64::from(c == '1')))
        .collect();
    assert_eq!(want.len(), 64);
    assert_eq!(eval(text, &Env::new()).unwrap(), Value::List(want));
}
