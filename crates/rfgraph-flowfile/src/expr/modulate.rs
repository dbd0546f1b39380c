//! GNU Radio's `digital.generic_mod(...)` modulator objects and
//! `digital.modulate_vector_bc(mod, data, taps)` in expressions (GRC's
//! `variable_modulate_vector`): the modulator is an object of its
//! settings and constellation; `modulate_vector_bc` computes the samples
//! GNU Radio's flowgraph gives (`rfgraph_blocks::digital::modulate_vector`).
//! Owns only these two functions.

use super::builtins::Call;
use super::error::{ExprError, ExprErrorKind};
use super::object::Object;
use super::value::Value;
use num_complex::Complex64;
use rfgraph_blocks::digital::{GenericMod, modulate_vector};

/// Calls `path` when it is one of the functions here.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    match path {
        "digital.generic_mod" | "digital.generic_mod_demod.generic_mod" => Some(generic(call)),
        "digital.modulate_vector_bc" => Some(modulate(call)),
        _ => None,
    }
}

/// `generic_mod(constellation, differential=False, samples_per_symbol=2,
/// pre_diff_code=True, excess_bw=0.35, verbose=False, log=False,
/// truncate=False)`.
fn generic(call: &Call) -> Result<Value, ExprError> {
    let names = [
        "constellation",
        "differential",
        "samples_per_symbol",
        "pre_diff_code",
        "excess_bw",
        "verbose",
        "log",
        "truncate",
    ];
    let bound = call.bind(&names, 1, &[])?;
    let cons = match bound[0].map(|a| &a.value) {
        Some(Value::Object(o)) if o.class.starts_with("constellation_") => o.clone(),
        other => {
            return Err(call.error(ExprErrorKind::Type {
                context: format!("the constellation of `{}`", call.name),
                expected: "a constellation object".into(),
                found: other.map_or("nothing", Value::type_name).into(),
            }));
        }
    };
    let value = |i: usize, default: Value| bound[i].map_or(default, |a| a.value.clone());
    let fields = vec![
        ("constellation".to_string(), Value::Object(cons)),
        ("differential".into(), value(1, Value::Bool(false))),
        ("samples_per_symbol".into(), value(2, Value::Int(2))),
        ("pre_diff_code".into(), value(3, Value::Bool(true))),
        ("excess_bw".into(), value(4, Value::Float(0.35))),
    ];
    Ok(Value::Object(Box::new(Object {
        class: "generic_mod".into(),
        fields,
    })))
}

/// `modulate_vector_bc(modulator, data, taps)`.
fn modulate(call: &Call) -> Result<Value, ExprError> {
    let bound = call.bind(&["modulator", "data", "taps"], 3, &[])?;
    let bad = |what: String| call.error(ExprErrorKind::Value(format!("{}: {what}", call.name)));
    let m = match bound[0].map(|a| &a.value) {
        Some(Value::Object(o)) if o.class == "generic_mod" => o,
        _ => return Err(bad("the modulator is not a digital.generic_mod(...)".into())),
    };
    let cons = match m.field("constellation") {
        Some(Value::Object(c)) => super::object::constellation(c).map_err(&bad)?,
        _ => return Err(bad("the modulator has no constellation".into())),
    };
    let number = |name: &str| m.field(name).and_then(Value::as_f64);
    let settings = GenericMod {
        constellation: cons,
        differential: m.field("differential").is_some_and(Value::truthy),
        samples_per_symbol: number("samples_per_symbol")
            .ok_or_else(|| bad("samples_per_symbol is not a number".into()))?,
        pre_diff_code: m.field("pre_diff_code").is_some_and(Value::truthy),
        excess_bw: number("excess_bw").ok_or_else(|| bad("excess_bw is not a number".into()))?,
    };
    let list = |i: usize| match bound[i].map(|a| &a.value) {
        Some(Value::List(items)) => Ok(items.clone()),
        _ => Err(bad(format!("argument {} is not a list", i + 1))),
    };
    let data = list(1)?
        .iter()
        .map(|v| {
            v.as_i64()
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(|| bad(format!("the data item {v} is not a byte")))
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let taps = list(2)?
        .iter()
        .map(|v| {
            v.as_f64()
                .map(|f| f as f32)
                .ok_or_else(|| bad(format!("the tap {v} is not a number")))
        })
        .collect::<Result<Vec<f32>, _>>()?;
    let out = modulate_vector(&settings, &data, &taps).map_err(|e| bad(e.to_string()))?;
    Ok(Value::List(
        out.into_iter()
            .map(|c| Value::Complex(Complex64::new(f64::from(c.re), f64::from(c.im))))
            .collect(),
    ))
}
