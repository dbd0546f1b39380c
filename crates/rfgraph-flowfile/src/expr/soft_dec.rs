//! GNU Radio's soft-decision tables in expressions: a constellation's
//! `soft_dec_lut`/`precision` (what GRC's `variable_constellation` sets
//! with `gen_soft_dec_lut` or `set_soft_dec_lut`), the table generator
//! `digital.soft_dec_table_generator(digital.sd_psk_2, prec, Es)` and its
//! generators, and the point/code tables `digital.psk_4()` and
//! `digital.qam_16()` the soft-decision examples build constellations
//! from. A table stays a description (generator, precision, energy):
//! the block computes it. Owns only these; the constellation objects are
//! `object`'s.

use super::builtins::Call;
use super::error::{ExprError, ExprErrorKind};
use super::object::Object;
use super::value::Value;

/// The soft-decision arguments every constellation constructor takes
/// after GNU Radio's own (keywords in GRC's templates): `(argument,
/// field, default)`.
pub(crate) const PARAMS: &[(&str, &str, Option<&str>)] = &[
    ("soft_dec_lut", "soft_dec_lut", Some("None")),
    ("precision", "precision", Some("8")),
];

/// GNU Radio's generator names: dotted path → the name blocks take.
const GENERATORS: &[(&str, &str)] = &[
    ("digital.sd_psk_2", "sd_psk_2"),
    ("digital.sd_psk_2_0x0", "sd_psk_2"),
    ("digital.sd_psk_2_0", "sd_psk_2"),
    ("digital.sd_psk_4", "sd_psk_4"),
    ("digital.sd_psk_4_0x0_0_1", "sd_psk_4"),
    ("digital.sd_psk_4_0", "sd_psk_4"),
    ("digital.sd_qam_16", "sd_qam_16"),
    ("digital.sd_qam_16_0x0_0_1_2_3", "sd_qam_16"),
    ("digital.sd_qam_16_0", "sd_qam_16"),
];

/// The value of generator constant `path` (`digital.sd_psk_2`).
pub(crate) fn constant(path: &str) -> Option<Value> {
    GENERATORS
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, n)| Value::Str(n.to_string()))
}

/// Calls `path` when it is one of the functions here.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    let ints = |v: &[i64]| Value::List(v.iter().copied().map(Value::Int).collect());
    let complex = |v: &[(f64, f64)]| {
        Value::List(
            v.iter()
                .map(|&(re, im)| Value::Complex(num_complex::Complex64::new(re, im)))
                .collect(),
        )
    };
    match path {
        // psk_constellations.py: psk_4_0x0_0_1.
        "digital.psk_4" | "digital.psk_4_0x0_0_1" | "digital.psk_4_0" => {
            Some(call.positional(0, 0).map(|_| {
                let pts = complex(&[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]);
                Value::List(vec![pts, ints(&[0, 1, 2, 3])])
            }))
        }
        // qam_constellations.py: qam_16_0x0_0_1_2_3.
        "digital.qam_16" | "digital.qam_16_0x0_0_1_2_3" | "digital.qam_16_0" => {
            Some(call.positional(0, 0).map(|_| {
                let mut pts = Vec::with_capacity(16);
                for im in [-3.0, -1.0, 1.0, 3.0] {
                    for re in [-3.0, -1.0, 1.0, 3.0] {
                        pts.push((re, im));
                    }
                }
                let code = [0, 4, 12, 8, 1, 5, 13, 9, 3, 7, 15, 11, 2, 6, 14, 10];
                Value::List(vec![complex(&pts), ints(&code)])
            }))
        }
        "digital.soft_dec_table_generator" => Some(table(call)),
        _ => None,
    }
}

/// `soft_dec_table_generator(soft_dec_gen, prec, Es=1)`.
fn table(call: &Call) -> Result<Value, ExprError> {
    let bound = call.bind(&["soft_dec_gen", "prec", "Es"], 2, &[])?;
    let bad = |what: &str| call.error(ExprErrorKind::Value(format!("{}: {what}", call.name)));
    let generator = match bound[0].map(|a| &a.value) {
        Some(Value::Str(s)) if GENERATORS.iter().any(|(_, n)| n == s) => s.clone(),
        _ => {
            return Err(bad(
                "the generator is not digital.sd_psk_2, sd_psk_4 or sd_qam_16",
            ));
        }
    };
    let prec = bound[1]
        .and_then(|a| a.value.as_i64())
        .filter(|p| (0..=12).contains(p))
        .ok_or_else(|| bad("the precision is not an integer from 0 to 12"))?;
    let es = match bound[2] {
        Some(a) => a
            .value
            .as_f64()
            .filter(|e| e.is_finite())
            .ok_or_else(|| bad("Es is not a finite number"))?,
        None => 1.0,
    };
    Ok(Value::Object(Box::new(Object {
        class: "soft_dec_table".into(),
        fields: vec![
            ("soft_dec_lut".into(), Value::Str(generator)),
            ("soft_dec_table_precision".into(), Value::Int(prec)),
            ("soft_dec_es".into(), Value::Float(es)),
        ],
    })))
}

/// A constellation's `soft_dec_lut` field as the block parameters take
/// it: `None` → no soft-decision fields at all, `'auto'` → `auto`, a generated table → its
/// generator, with its precision and energy as two more fields.
pub(crate) fn expand(fields: &mut Vec<(String, Value)>, call: &Call) -> Result<(), ExprError> {
    let Some(i) = fields.iter().position(|(n, _)| n == "soft_dec_lut") else {
        return Ok(());
    };
    let mut extra = vec![
        ("soft_dec_table_precision".to_string(), Value::Int(8)),
        ("soft_dec_es".to_string(), Value::Float(1.0)),
    ];
    let lut = match std::mem::replace(&mut fields[i].1, Value::None) {
        // No LUT: the fields stay out (the blocks' default is none).
        Value::None => {
            fields.retain(|(n, _)| n != "soft_dec_lut" && n != "precision");
            return Ok(());
        }
        Value::Str(s) if s.eq_ignore_ascii_case("auto") => Value::Str("auto".into()),
        Value::Object(o) if o.class == "soft_dec_table" => {
            extra = o.fields[1..].to_vec();
            o.fields[0].1.clone()
        }
        other => {
            return Err(call.error(ExprErrorKind::Type {
                context: format!("the soft_dec_lut of `{}`", call.name),
                expected: "None, 'auto' or digital.soft_dec_table_generator(...)".into(),
                found: other.type_name().into(),
            }));
        }
    };
    fields[i].1 = lut;
    match fields
        .iter()
        .find(|(n, _)| n == "precision")
        .map(|(_, v)| v)
    {
        Some(v) if v.as_i64().is_some_and(|p| (0..=12).contains(&p)) => {}
        _ => {
            return Err(call.error(ExprErrorKind::Value(format!(
                "{}: the soft-decision precision is not an integer from 0 to 12",
                call.name
            ))));
        }
    }
    fields.extend(extra);
    Ok(())
}
