//! [`gr_string`]: a message or tag value written as GNU Radio's
//! `pmt::write_string` writes it (`TEST`, `42`, `1e+06`, `#t`, `()`,
//! `((a . 3))`, `#[1 2 255]`), for the debug blocks' output.

use rfgraph::Pmt;
use std::fmt::Write;

/// A float as C++'s default stream output writes it (`%g`, 6 digits).
fn g(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let exp = x.abs().log10().floor() as i32;
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    // Rounding to 6 digits may carry into the next power of ten.
    let rounded: f64 = format!("{x:.5e}").parse().unwrap_or(x);
    let exp = if rounded.abs() >= 10f64.powi(exp + 1) {
        exp + 1
    } else {
        exp
    };
    if (-4..6).contains(&exp) {
        trim(format!("{:.*}", (5 - exp).max(0) as usize, x))
    } else {
        let mantissa = trim(format!("{:.5}", x / 10f64.powi(exp)));
        format!(
            "{mantissa}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    }
}

/// `value` as GNU Radio writes a PMT.
pub fn gr_string(value: &Pmt) -> String {
    let mut s = String::new();
    write_pmt(&mut s, value);
    s
}

fn write_pmt(s: &mut String, value: &Pmt) {
    match value {
        Pmt::Null => s.push_str("()"),
        Pmt::Bool(b) => s.push_str(if *b { "#t" } else { "#f" }),
        Pmt::I64(v) => {
            let _ = write!(s, "{v}");
        }
        Pmt::U64(v) => {
            let _ = write!(s, "{v}");
        }
        Pmt::F32(v) => s.push_str(&g(*v as f64)),
        Pmt::F64(v) => s.push_str(&g(*v)),
        Pmt::String(v) => s.push_str(v),
        Pmt::Blob(b) => {
            s.push_str("#[");
            for (i, x) in b.iter().enumerate() {
                let _ = write!(s, "{}{x}", if i > 0 { " " } else { "" });
            }
            s.push(']');
        }
        Pmt::VecF32(v) => {
            s.push_str("#[");
            for (i, x) in v.iter().enumerate() {
                let _ = write!(s, "{}{x:.6}", if i > 0 { " " } else { "" });
            }
            s.push(']');
        }
        Pmt::VecComplexF32(v) => {
            s.push_str("#[");
            for (i, [re, im]) in v.iter().enumerate() {
                let _ = write!(
                    s,
                    "{}({},{})",
                    if i > 0 { " " } else { "" },
                    g(*re as f64),
                    g(*im as f64)
                );
            }
            s.push(']');
        }
        Pmt::Complex([re, im]) => {
            let _ = write!(
                s,
                "{}{}{}i",
                g(*re),
                if *im < 0.0 { "" } else { "+" },
                g(*im)
            );
        }
        Pmt::Uniform(u) => {
            s.push_str("#[");
            let text = match u.to_plain_json() {
                serde_json::Value::Array(items) => items
                    .iter()
                    .map(|x| match x {
                        serde_json::Value::Array(c) => format!("({},{})", c[0], c[1]),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                other => other.to_string(),
            };
            s.push_str(&text);
            s.push(']');
        }
        Pmt::Pair(pair) => {
            s.push('(');
            write_pmt(s, &pair.0);
            s.push_str(" . ");
            write_pmt(s, &pair.1);
            s.push(')');
        }
        Pmt::List(items) | Pmt::Tuple(items) => {
            // A PDU is GNU Radio's pair: `(meta . data)`.
            if let (Pmt::List(_), Some(_)) = (value, super::pdu::parse(value)) {
                write_pmt(s, &Pmt::pair(items[0].clone(), items[1].clone()));
                return;
            }
            let (open, close) = match value {
                Pmt::Tuple(_) => ('{', '}'),
                _ => ('(', ')'),
            };
            s.push(open);
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                write_pmt(s, x);
            }
            s.push(close);
        }
        Pmt::Map(m) => {
            if m.is_empty() {
                s.push_str("()");
                return;
            }
            s.push('(');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                let _ = write!(s, "({k} . ");
                write_pmt(s, v);
                s.push(')');
            }
            s.push(')');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// What GNU Radio 3.10's `pmt.write_string` gives for the same values.
    #[test]
    fn values_read_as_gnu_radio_writes_them() {
        let meta: BTreeMap<String, Pmt> = [
            ("a".to_string(), Pmt::I64(3)),
            ("b".to_string(), Pmt::F64(2.5)),
        ]
        .into_iter()
        .collect();
        let cases = [
            (Pmt::from("TEST"), "TEST"),
            (Pmt::I64(42), "42"),
            (Pmt::F64(1e6), "1e+06"),
            (Pmt::F64(0.1), "0.1"),
            (Pmt::F64(123456.0), "123456"),
            (Pmt::F64(1234567.0), "1.23457e+06"),
            (Pmt::F64(-0.00001234), "-1.234e-05"),
            (Pmt::F64(999999.7), "1e+06"),
            (Pmt::Bool(true), "#t"),
            (Pmt::Null, "()"),
            (Pmt::Map(meta.clone()), "((a . 3) (b . 2.5))"),
            (
                Pmt::List(vec![Pmt::Map(meta), Pmt::Blob(vec![1, 2, 255])]),
                "(((a . 3) (b . 2.5)) . #[1 2 255])",
            ),
            (Pmt::VecF32(vec![1.5, 2.0]), "#[1.500000 2.000000]"),
            (Pmt::VecComplexF32(vec![[1.0, 2.0]]), "#[(1,2)]"),
            (Pmt::List(vec![Pmt::from("x"), Pmt::I64(1)]), "(x 1)"),
            (Pmt::U64(7), "7"),
        ];
        for (value, want) in cases {
            assert_eq!(gr_string(&value), want, "{value:?}");
        }
    }
}
