//! Random numbers in expressions: Python's `random` module
//! (`random.getrandbits(8)` fills a payload in GNU Radio's
//! `test_corr_est.grc`) and numpy's legacy `numpy.random`
//! (`np.random.randint(40)` in a PDU lambda).
//!
//! Both draw from one Mersenne Twister per process, seeded from the
//! clock, as Python and numpy seed theirs from the system's entropy
//! unless told otherwise: a flowgraph that uses them differs from run to
//! run in GNU Radio as here. The draws follow the modules' own algorithms
//! (bits from the top of each 32-bit word, rejection for ranges, 53-bit
//! floats), so a run has the same statistics as GNU Radio's.

use std::sync::Mutex;

use super::builtins::{Arg, Call, arg_type, count, integer, real};
use super::error::{ExprError, ExprErrorKind};
use super::value::Value;
use rfgraph_blocks::Mt19937 as Mt;

/// The functions of Python's `random` module provided.
pub(crate) const PYTHON: &[&str] = &[
    "getrandbits",
    "random",
    "randint",
    "randrange",
    "uniform",
    "choice",
];

/// The functions of `numpy.random` provided.
pub(crate) const NUMPY: &[&str] = &["randint", "random", "random_sample", "rand", "uniform"];

static GENERATOR: Mutex<Option<Mt>> = Mutex::new(None);

/// Runs `f` on the process's generator, seeding it on first use.
fn with_generator<T>(f: impl FnOnce(&mut Mt) -> T) -> T {
    let mut guard = GENERATOR.lock().unwrap_or_else(|e| e.into_inner());
    let mt = guard.get_or_insert_with(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Mt::new((nanos as u32) ^ ((nanos >> 32) as u32) ^ std::process::id())
    });
    f(mt)
}

/// Python's `getrandbits(k)` for `k` up to 63: 32-bit words, least
/// significant first, each short one taken from the word's top bits.
fn bits(mt: &mut Mt, k: u32) -> u64 {
    let mut out = 0u64;
    let mut shift = 0;
    while shift < k {
        let take = (k - shift).min(32);
        let word = u64::from(mt.next_u32() >> (32 - take));
        out |= word << shift;
        shift += take;
    }
    out
}

/// A uniform integer in `0..n` by rejection (Python's `_randbelow`).
fn below(mt: &mut Mt, n: u64) -> u64 {
    let k = 64 - n.leading_zeros();
    loop {
        let r = bits(mt, k);
        if r < n {
            return r;
        }
    }
}

/// A float in [0, 1) with 53 random bits (Python's and numpy's).
fn unit(mt: &mut Mt) -> f64 {
    let a = f64::from(mt.next_u32() >> 5);
    let b = f64::from(mt.next_u32() >> 6);
    (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
}

/// A uniform integer in `0..=range` by numpy's legacy masked rejection.
fn masked(mt: &mut Mt, range: u64) -> u64 {
    let mask = u64::MAX >> range.leading_zeros().min(63);
    loop {
        let r = if range <= u64::from(u32::MAX) {
            u64::from(mt.next_u32()) & mask
        } else {
            ((u64::from(mt.next_u32()) << 32) | u64::from(mt.next_u32())) & mask
        };
        if r <= range {
            return r;
        }
    }
}

fn value_error(call: &Call, what: String) -> ExprError {
    call.error(ExprErrorKind::Value(format!("{}: {what}", call.name)))
}

/// The span `start..stop` as a count of values, or an error.
fn span(call: &Call, start: i64, stop: i64) -> Result<u64, ExprError> {
    stop.checked_sub(start)
        .and_then(|n| u64::try_from(n).ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| value_error(call, format!("empty range ({start}, {stop})")))
}

/// Calls `random.f`.
pub(crate) fn python(f: &str, call: Call) -> Result<Value, ExprError> {
    let name = call.name.clone();
    match f {
        "getrandbits" => {
            let args = call.positional(1, 1)?;
            let k = integer(&name, args[0])?;
            let k = u32::try_from(k)
                .ok()
                .filter(|&k| k <= 63)
                .ok_or_else(|| value_error(&call, format!("{k} bits: 0 to 63 here")))?;
            Ok(Value::Int(with_generator(|mt| bits(mt, k)) as i64))
        }
        "random" => {
            call.positional(0, 0)?;
            Ok(Value::Float(with_generator(unit)))
        }
        "uniform" => {
            let args = call.positional(2, 2)?;
            let (a, b) = (real(&name, args[0])?, real(&name, args[1])?);
            Ok(Value::Float(a + (b - a) * with_generator(unit)))
        }
        "randint" | "randrange" => {
            let args = call.positional(1, 3)?;
            let ints: Vec<i64> = args
                .iter()
                .map(|a| integer(&name, a))
                .collect::<Result<_, _>>()?;
            let (start, stop, step) = match (f, ints.as_slice()) {
                ("randint", [a, b]) => (*a, b.saturating_add(1), 1),
                ("randrange", [stop]) => (0, *stop, 1),
                ("randrange", [a, b]) => (*a, *b, 1),
                ("randrange", [a, b, s]) if *s > 0 => (*a, *b, *s),
                _ => {
                    return Err(value_error(
                        &call,
                        "takes (a, b) for randint, (stop), (start, stop) or (start, stop, step > 0) \
                         for randrange"
                            .into(),
                    ));
                }
            };
            let n = span(&call, start, stop)?.div_ceil(step as u64);
            let r = with_generator(|mt| below(mt, n));
            Ok(Value::Int(start + (r as i64) * step))
        }
        "choice" => {
            let args = call.positional(1, 1)?;
            let items: Vec<Value> = match &args[0].value {
                Value::List(v) => v.clone(),
                Value::Str(s) => s.chars().map(|c| Value::Str(c.to_string())).collect(),
                _ => return Err(arg_type(&name, "a sequence", args[0])),
            };
            if items.is_empty() {
                return Err(value_error(&call, "an empty sequence".into()));
            }
            let i = with_generator(|mt| below(mt, items.len() as u64));
            Ok(items[i as usize].clone())
        }
        _ => Err(value_error(&call, "not provided".into())),
    }
}

/// `size` as a count of values, when given.
fn size(call: &Call, a: Option<&Arg>) -> Result<Option<usize>, ExprError> {
    match a {
        None => Ok(None),
        Some(a) if matches!(a.value, Value::None) => Ok(None),
        Some(a) => count(&call.name, a).map(Some),
    }
}

/// One value, or a list of `size` values, each from `draw`.
fn sized(size: Option<usize>, mut draw: impl FnMut(&mut Mt) -> Value) -> Value {
    with_generator(|mt| match size {
        None => draw(mt),
        Some(n) => Value::List((0..n).map(|_| draw(mt)).collect()),
    })
}

/// Calls `numpy.random.f`.
pub(crate) fn numpy(f: &str, call: Call) -> Result<Value, ExprError> {
    let name = call.name.clone();
    match f {
        "randint" => {
            let args = call.bind(&["low", "high", "size"], 1, &[])?;
            let low = integer(&name, args[0].expect("bind checks the required arguments"))?;
            let high = match args[1].filter(|a| !matches!(a.value, Value::None)) {
                Some(a) => Some(integer(&name, a)?),
                None => None,
            };
            let (low, high) = match high {
                Some(h) => (low, h),
                None => (0, low),
            };
            let range = span(&call, low, high)? - 1;
            let size = size(&call, args[2])?;
            Ok(sized(size, |mt| Value::Int(low + masked(mt, range) as i64)))
        }
        "random" | "random_sample" => {
            let args = call.bind(&["size"], 0, &[])?;
            let size = size(&call, args[0])?;
            Ok(sized(size, |mt| Value::Float(unit(mt))))
        }
        "rand" => {
            let args = call.positional(0, 1)?;
            let size = match args.first() {
                Some(a) => Some(count(&name, a)?),
                None => None,
            };
            Ok(sized(size, |mt| Value::Float(unit(mt))))
        }
        "uniform" => {
            let args = call.bind(&["low", "high", "size"], 0, &[])?;
            let low = args[0].map_or(Ok(0.0), |a| real(&name, a))?;
            let high = args[1].map_or(Ok(1.0), |a| real(&name, a))?;
            let size = size(&call, args[2])?;
            Ok(sized(size, |mt| {
                Value::Float(low + (high - low) * unit(mt))
            }))
        }
        _ => Err(value_error(&call, "not provided".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Env, eval};

    #[test]
    fn python_draws_follow_cpython_from_a_known_state() {
        // CPython: random.seed is init_by_array; numpy's RandomState(5489)
        // is the plain seeding used here, so compare with the reference
        // generator's words: 3499211612 and 581869302.
        let mut mt = Mt::new(5489);
        assert_eq!(bits(&mut mt, 8), u64::from(3_499_211_612u32 >> 24));
        let mut mt = Mt::new(5489);
        assert_eq!(
            bits(&mut mt, 40),
            3_499_211_612 | ((581_869_302 >> 24) << 32)
        );
        // numpy.random.RandomState(5489).random_sample() == 0.8147236863931789
        let mut mt = Mt::new(5489);
        assert!((unit(&mut mt) - 0.814_723_686_393_178_9).abs() < 1e-16);
    }

    #[test]
    fn draws_stay_in_their_ranges() {
        let env = Env::new();
        for _ in 0..200 {
            let v = eval("random.getrandbits(8)", &env)
                .unwrap()
                .as_i64()
                .unwrap();
            assert!((0..256).contains(&v));
            let v = eval("random.randint(-3, 3)", &env)
                .unwrap()
                .as_i64()
                .unwrap();
            assert!((-3..=3).contains(&v));
            let v = eval("np.random.randint(40)", &env)
                .unwrap()
                .as_i64()
                .unwrap();
            assert!((0..40).contains(&v));
            let v = eval("random.randrange(0, 10, 5)", &env)
                .unwrap()
                .as_i64()
                .unwrap();
            assert!(v == 0 || v == 5);
            let v = eval("random.uniform(2, 3)", &env)
                .unwrap()
                .as_f64()
                .unwrap();
            assert!((2.0..3.0).contains(&v));
        }
        let list = eval("[random.getrandbits(8) for i in range(100)]", &env).unwrap();
        let Value::List(items) = list else {
            panic!("not a list")
        };
        assert_eq!(items.len(), 100);
        assert!(items.iter().any(|v| v.as_i64() != items[0].as_i64()));
        let Value::List(sized) = eval("numpy.random.randint(2, 5, size=7)", &env).unwrap() else {
            panic!("not a list")
        };
        assert_eq!(sized.len(), 7);
        assert!(sized.iter().all(|v| (2..5).contains(&v.as_i64().unwrap())));
    }

    #[test]
    fn empty_ranges_and_bad_arguments_are_errors() {
        let env = Env::new();
        for bad in [
            "random.randint(3, 2)",
            "random.randrange(0)",
            "random.getrandbits(64)",
            "random.choice([])",
            "np.random.randint(0)",
            "random.randrange(0, 5, 0)",
        ] {
            assert!(eval(bad, &env).is_err(), "{bad} evaluated");
        }
    }
}
