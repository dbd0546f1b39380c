//! GRC's `variable_file_filter_taps` ("Filter Taps Loader"): a variable
//! whose value is the taps of a file written by GNU Radio's filter design
//! tool, as `filter.file_taps_loader(file, verbose).get_taps()` reads
//! them. The file is read when the flowgraph is imported; its taps
//! become the variable's value as a list literal. Owns the file's path
//! (a GRC `file_open` parameter), its reading and its parsing.
//!
//! The file is CSV: a row `taps,t0,t1,...`, or a row of bare numbers, is
//! the taps (the last such row wins); complex when its first tap looks
//! complex to GNU Radio's pattern (`[+-]?\d+\.*\d*[Ee]?[-+]?\d+j`); any
//! other row of text (`fs,320000.0`) is a design parameter and ignored.
//! GNU Radio gives an empty tuple for a file without taps; here that is
//! an error, as are a missing file, an empty line and a tap that is not
//! a number (which GNU Radio raises on too).

use super::file::GrcBlock;
use crate::expr::{self, Env};
use crate::model::Value;

/// The GRC block id.
pub const ID: &str = "variable_file_filter_taps";

/// The largest file read (a design tool's taps are a few kilobytes).
const MAX_BYTES: u64 = 16 << 20;

/// True for GRC's taps loader variable.
pub fn is_file_taps(id: &str) -> bool {
    id == ID
}

/// The variable's value: the taps of the file that `block`'s `file`
/// names (an expression over the variables in `env`, or literal text as
/// GRC takes a `file_open` parameter), as a list literal; the error
/// says why the file cannot give taps.
pub fn value(block: &GrcBlock, env: &Env) -> Result<Value, String> {
    let path = path(block.text("file"), env);
    if path.is_empty() {
        return Err("no taps file given".into());
    }
    let meta = std::fs::metadata(&path).map_err(|e| format!("cannot open `{path}`: {e}"))?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return Err(format!(
            "`{path}` is not a taps file of at most {MAX_BYTES} bytes"
        ));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    let taps = parse(&text).map_err(|e| format!("`{path}`: {e}"))?;
    Ok(Value::Expr(taps.literal()))
}

/// The path a `file_open` parameter's text gives: the string it
/// evaluates to, else the text itself (unquoted). GNU Radio's examples
/// find their files under `subprocess.getoutput("gnuradio-config-info
/// --prefix")`: that one call is GNU Radio's installation prefix here
/// (the subprocess module is not otherwise provided).
fn path(text: &str, env: &Env) -> String {
    let mut text = text.trim().to_string();
    for q in ['"', '\''] {
        let call = format!("subprocess.getoutput({q}gnuradio-config-info --prefix{q})");
        if text.contains(&call) {
            text = text.replace(&call, &format!("{:?}", gnuradio_prefix()));
        }
    }
    match expr::eval(&text, env) {
        Ok(expr::Value::Str(s)) => s,
        _ => {
            let t = text.as_str();
            ['"', '\'']
                .into_iter()
                .find_map(|q| t.strip_prefix(q).and_then(|r| r.strip_suffix(q)))
                .unwrap_or(t)
                .to_string()
        }
    }
}

/// GNU Radio's installation prefix: what `gnuradio-config-info --prefix`
/// prints, `/usr` without it.
fn gnuradio_prefix() -> String {
    std::process::Command::new("gnuradio-config-info")
        .arg("--prefix")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/usr".into())
}

/// A file's taps.
#[derive(Clone, Debug, PartialEq)]
pub enum Taps {
    /// Real taps.
    Real(Vec<f64>),
    /// Complex taps, `(re, im)`.
    Complex(Vec<(f64, f64)>),
}

impl Taps {
    /// The taps as an expression list literal.
    pub fn literal(&self) -> String {
        let items: Vec<String> = match self {
            Taps::Real(t) => t.iter().map(|x| number(*x)).collect(),
            Taps::Complex(t) => t
                .iter()
                .map(|(re, im)| format!("complex({}, {})", number(*re), number(*im)))
                .collect(),
        };
        format!("[{}]", items.join(", "))
    }
}

/// A number as the expressions read it (`inf`/`nan` by name).
fn number(x: f64) -> String {
    if x.is_nan() {
        "float('nan')".into()
    } else if x.is_infinite() {
        format!("float('{}inf')", if x < 0.0 { "-" } else { "" })
    } else {
        format!("{x:?}")
    }
}

/// The taps of a design tool file's text (see the module docs).
pub fn parse(text: &str) -> Result<Taps, String> {
    let mut taps = None;
    for (i, line) in text.lines().enumerate() {
        let row: Vec<&str> = line.split(',').collect();
        let at = |e: String| format!("line {}: {e}", i + 1);
        if line.is_empty() {
            return Err(at("an empty line".into()));
        }
        if row[0] == "taps" {
            taps = Some(numbers(&row[1..]).map_err(at)?);
        } else if looks_complex(row[0]) {
            taps = Some(numbers(&row).map_err(at)?);
        } else if let Ok(t) = reals(&row) {
            taps = Some(Taps::Real(t));
        }
    }
    match taps {
        Some(Taps::Real(t)) if t.is_empty() => Err("its taps row is empty".into()),
        Some(Taps::Complex(t)) if t.is_empty() => Err("its taps row is empty".into()),
        Some(t) => Ok(t),
        None => Err("no taps in the file".into()),
    }
}

/// A taps row: complex when its first item looks complex.
fn numbers(row: &[&str]) -> Result<Taps, String> {
    if row.first().is_some_and(|c| looks_complex(c)) {
        row.iter()
            .map(|c| complex(c).ok_or_else(|| format!("`{}` is not a complex number", c.trim())))
            .collect::<Result<_, _>>()
            .map(Taps::Complex)
    } else {
        reals(row).map(Taps::Real)
    }
}

fn reals(row: &[&str]) -> Result<Vec<f64>, String> {
    row.iter()
        .map(|c| real(c).ok_or_else(|| format!("`{}` is not a number", c.trim())))
        .collect()
}

/// Python's `float(text)` for the forms a design tool writes.
fn real(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() || t.contains(['_', ' ']) {
        return None;
    }
    t.parse().ok()
}

/// Python's `complex(text)`: `a`, `bj`, `a+bj`, `a-bj`, in optional
/// parentheses.
fn complex(text: &str) -> Option<(f64, f64)> {
    let t = text.trim();
    let t = t
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .map(str::trim)
        .unwrap_or(t);
    let Some(body) = t.strip_suffix(['j', 'J']) else {
        return real(t).map(|re| (re, 0.0));
    };
    let b = body.as_bytes();
    // The sign that starts the imaginary part: not the first character,
    // nor an exponent's.
    let split = (1..b.len())
        .rev()
        .find(|&i| matches!(b[i], b'+' | b'-') && !matches!(b[i - 1], b'e' | b'E'));
    let imag = |s: &str| match s {
        "" | "+" => Some(1.0),
        "-" => Some(-1.0),
        s => real(s),
    };
    match split {
        Some(i) => Some((real(&body[..i])?, imag(&body[i..])?)),
        None => Some((0.0, imag(body)?)),
    }
}

/// True when GNU Radio's pattern `[+-]?\d+\.*\d*[Ee]?[-+]?\d+j` occurs
/// in `text` (how `file_taps_loader` tells complex taps from real ones).
fn looks_complex(text: &str) -> bool {
    let b = text.as_bytes();
    let digit = |i: usize| b[i].is_ascii_digit();
    (0..b.len()).filter(|&j| b[j] == b'j').any(|j| {
        // The digits right before `j` (at least one).
        let mut k = j;
        while k > 0 && digit(k - 1) {
            k -= 1;
        }
        match j - k {
            0 => false,
            // `\d+` then `\d+j` split within the run.
            n if n >= 2 => true,
            _ => {
                // One digit before `j`: before it an optional sign, an
                // optional exponent mark, then `\d+\.*\d*`.
                let sign = [false, true];
                sign.iter().any(|&skip_sign| {
                    let mut p = k;
                    if skip_sign {
                        if p == 0 || !matches!(b[p - 1], b'+' | b'-') {
                            return false;
                        }
                        p -= 1;
                    }
                    [false, true].iter().any(|&skip_e| {
                        let mut q = p;
                        if skip_e {
                            if q == 0 || !matches!(b[q - 1], b'e' | b'E') {
                                return false;
                            }
                            q -= 1;
                        }
                        // `\d*` (D2), `\.*`, then `\d+` (D1).
                        let mut r = q;
                        while r > 0 && digit(r - 1) {
                            r -= 1;
                        }
                        if r < q {
                            return true;
                        }
                        let mut s = r;
                        while s > 0 && b[s - 1] == b'.' {
                            s -= 1;
                        }
                        s < r && s > 0 && digit(s - 1)
                    })
                })
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_radio_tells_complex_taps_by_its_pattern() {
        assert!(looks_complex("(0.0012+0.0034j)"));
        assert!(looks_complex("1e-5j"));
        assert!(looks_complex("12j"));
        assert!(looks_complex("1.5j"));
        assert!(looks_complex("1e5j"));
        assert!(looks_complex("1..2j"));
        assert!(!looks_complex("1.j"));
        assert!(!looks_complex("1j"));
        assert!(!looks_complex("0.25"));
        assert!(!looks_complex("taps"));
        assert!(!looks_complex("j"));
    }

    #[test]
    fn complex_numbers_read_as_python_reads_them() {
        assert_eq!(complex("(1+2j)"), Some((1.0, 2.0)));
        assert_eq!(complex("-1.5e-3-2E+2j"), Some((-1.5e-3, -200.0)));
        assert_eq!(complex("3j"), Some((0.0, 3.0)));
        assert_eq!(complex("-j"), Some((0.0, -1.0)));
        assert_eq!(complex(" 4 "), Some((4.0, 0.0)));
        assert_eq!(complex("1+"), None);
        assert_eq!(complex("x"), None);
    }

    #[test]
    fn the_last_taps_row_wins_and_parameters_are_skipped() {
        let t = "restype,fir\nfs,320000.0\ntaps,0.5,-0.25,1e-3\n";
        assert_eq!(parse(t), Ok(Taps::Real(vec![0.5, -0.25, 1e-3])));
        let t = "0.1,0.2\n(1+12j),(3-4.5j)\n";
        assert_eq!(parse(t), Ok(Taps::Complex(vec![(1.0, 12.0), (3.0, -4.5)])));
        assert_eq!(
            Taps::Complex(vec![(1.0, -0.5)]).literal(),
            "[complex(1.0, -0.5)]"
        );
    }

    #[test]
    fn files_without_taps_are_errors() {
        assert!(parse("").is_err());
        assert!(parse("fs,1\n").is_err());
        assert!(parse("taps,1,x\n").is_err());
        assert!(parse("taps,1\n\n").is_err());
        assert!(parse("taps\n").is_err());
    }
}
