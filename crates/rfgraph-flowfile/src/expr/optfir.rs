//! GNU Radio's equiripple designers in expressions: `filter.pm_remez(order,
//! bands, response, weight, filter_type, grid_density)` and
//! `filter.optfir.low_pass` / `high_pass` / `band_pass` (also without the
//! `filter.` prefix), computed by `rfgraph_dsp::design` as GNU Radio
//! computes them. Owns the argument binding.

use super::builtins::Call;
use super::error::{ExprError, ExprErrorKind};
use super::value::Value;
use rfgraph_dsp::design::{RemezKind, optfir, pm_remez};

/// Calls `path` when it is one of the designers.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    let f = path
        .strip_prefix("filter.optfir.")
        .or_else(|| path.strip_prefix("optfir."))
        .map(|f| (true, f))
        .or_else(|| {
            matches!(path, "filter.pm_remez" | "pm_remez").then_some((false, "pm_remez"))
        })?;
    match f {
        (true, "low_pass" | "high_pass" | "band_pass") | (false, _) => Some(design(f.1, call)),
        _ => None,
    }
}

fn floats(taps: Vec<f64>) -> Value {
    Value::List(taps.into_iter().map(Value::Float).collect())
}

fn design(f: &str, call: &Call) -> Result<Value, ExprError> {
    let bad = |what: String| call.error(ExprErrorKind::Value(format!("{}: {what}", call.name)));
    let num = |a: Option<&super::builtins::Arg>, what: &str| -> Result<Option<f64>, ExprError> {
        a.map(|a| {
            a.value
                .as_f64()
                .ok_or_else(|| bad(format!("{what} must be a number, not {}", a.value)))
        })
        .transpose()
    };
    let list = |a: Option<&super::builtins::Arg>, what: &str| -> Result<Vec<f64>, ExprError> {
        match a.map(|a| &a.value) {
            None => Ok(Vec::new()),
            Some(Value::List(l)) => l
                .iter()
                .map(|v| {
                    v.as_f64()
                        .ok_or_else(|| bad(format!("{what}: {v} is no number")))
                })
                .collect(),
            Some(v) => Err(bad(format!("{what} must be a list of numbers, not {v}"))),
        }
    };
    let dsp = |e: rfgraph_dsp::DspError| bad(e.to_string());
    let taps = match f {
        "pm_remez" => {
            let a = call.bind(
                &[
                    "order",
                    "bands",
                    "ampl",
                    "error_weight",
                    "filter_type",
                    "grid_density",
                ],
                3,
                &[],
            )?;
            let order = num(a[0], "order")?.unwrap_or(0.0);
            if !(0.0..=1e6).contains(&order) || order.fract() != 0.0 {
                return Err(bad(format!("order must be a whole number, not {order}")));
            }
            let kind = match a[4].map(|a| &a.value) {
                None => RemezKind::Bandpass,
                Some(Value::Str(s)) if s == "bandpass" => RemezKind::Bandpass,
                Some(Value::Str(s)) if s == "hilbert" => RemezKind::Hilbert,
                Some(Value::Str(s)) if s == "differentiator" => RemezKind::Differentiator,
                Some(v) => return Err(bad(format!("unknown ftype {v}"))),
            };
            let density = num(a[5], "grid_density")?.unwrap_or(16.0);
            if !(0.0..=1e6).contains(&density) {
                return Err(bad(format!("grid_density {density}")));
            }
            pm_remez(
                order as usize,
                &list(a[1], "bands")?,
                &list(a[2], "ampl")?,
                &list(a[3], "error_weight")?,
                kind,
                density as usize,
            )
            .map_err(dsp)?
        }
        "band_pass" => {
            let a = call.bind(
                &[
                    "gain",
                    "Fs",
                    "freq_sb1",
                    "freq_pb1",
                    "freq_pb2",
                    "freq_sb2",
                    "passband_ripple_db",
                    "stopband_atten_db",
                    "nextra_taps",
                ],
                8,
                &[],
            )?;
            let v: Vec<f64> = (0..8)
                .map(|i| num(a[i], "argument").map(|v| v.unwrap_or(0.0)))
                .collect::<Result<_, _>>()?;
            let extra = num(a[8], "nextra_taps")?.unwrap_or(2.0);
            optfir::band_pass(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], extra as i64)
                .map_err(dsp)?
        }
        _ => {
            let a = call.bind(
                &[
                    "gain",
                    "Fs",
                    "freq1",
                    "freq2",
                    "passband_ripple_db",
                    "stopband_atten_db",
                    "nextra_taps",
                ],
                6,
                &[],
            )?;
            let v: Vec<f64> = (0..6)
                .map(|i| num(a[i], "argument").map(|v| v.unwrap_or(0.0)))
                .collect::<Result<_, _>>()?;
            let extra = num(a[6], "nextra_taps")?.unwrap_or(2.0);
            let make = if f == "low_pass" {
                optfir::low_pass
            } else {
                optfir::high_pass
            };
            make(v[0], v[1], v[2], v[3], v[4], v[5], extra as i64).map_err(dsp)?
        }
    };
    Ok(floats(taps))
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, eval};

    #[test]
    fn designs_in_expressions() {
        let env = Env::new();
        let lp = eval(
            "filter.optfir.low_pass(8, 400000, 16000, 18000, 0.1, 40)",
            &env,
        )
        .unwrap();
        match lp {
            crate::expr::Value::List(l) => assert!(l.len() > 100),
            other => panic!("{other:?}"),
        }
        assert!(eval("filter.pm_remez(20, [0, 0.2, 0.3, 1], [1, 1, 0, 0])", &env).is_ok());
        assert!(eval("filter.pm_remez(2, [0, 0.2, 0.3, 1], [1, 1, 0, 0])", &env).is_err());
        assert!(eval("optfir.low_pass(1, 8000, 'x', 1500, 0.1, 40)", &env).is_err());
    }
}
