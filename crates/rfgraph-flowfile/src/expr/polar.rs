//! GNU Radio's polar code helpers in expressions: the configurator's
//! `polar.load_frozen_bits_info(is_prototype, channel, block_size,
//! num_info_bits, design_snr, mu)` (a dict whose `positions` and
//! `values` the polar coder definitions read), its channel constants
//! `polar.CHANNEL_TYPE_BEC` / `_AWGN`, and the polar coder constructors
//! (`fec.polar_encoder.make(...)`, `fec.polar_decoder_sc.make(...)`,
//! `fec.polar_decoder_sc_list.make(...)`, the systematic ones) with
//! their `rate()`.

use super::builtins::{Arg, Call, arg_type, real};
use super::error::{ExprError, ExprErrorKind};
use super::object::{Constructor, Object};
use super::value::Value;
use rfgraph_blocks::fec::polar::frozen_bit_positions;

/// The polar coder constructors (GNU Radio's argument names).
pub(super) const CONSTRUCTORS: &[Constructor] = &[
    Constructor {
        path: "fec.polar_encoder.make",
        class: "polar_encoder",
        kind: Some(("code", "polar")),
        params: &[
            ("block_size", "block_size", None),
            ("num_info_bits", "num_info_bits", None),
            ("frozen_bit_positions", "frozen_bit_positions", None),
            ("frozen_bit_values", "frozen_bit_values", None),
            ("is_packed", "is_packed", Some("False")),
        ],
    },
    Constructor {
        path: "fec.polar_decoder_sc.make",
        class: "polar_decoder_sc",
        kind: Some(("code", "polar")),
        params: &[
            ("block_size", "block_size", None),
            ("num_info_bits", "num_info_bits", None),
            ("frozen_bit_positions", "frozen_bit_positions", None),
            ("frozen_bit_values", "frozen_bit_values", None),
        ],
    },
    Constructor {
        path: "fec.polar_decoder_sc_list.make",
        class: "polar_decoder_sc_list",
        kind: Some(("code", "polar_list")),
        params: &[
            ("max_list_size", "max_list_size", None),
            ("block_size", "block_size", None),
            ("num_info_bits", "num_info_bits", None),
            ("frozen_bit_positions", "frozen_bit_positions", None),
            ("frozen_bit_values", "frozen_bit_values", None),
        ],
    },
    Constructor {
        path: "fec.polar_encoder_systematic.make",
        class: "polar_encoder_systematic",
        kind: Some(("code", "polar_systematic")),
        params: &[
            ("block_size", "block_size", None),
            ("num_info_bits", "num_info_bits", None),
            ("frozen_bit_positions", "frozen_bit_positions", None),
        ],
    },
    Constructor {
        path: "fec.polar_decoder_sc_systematic.make",
        class: "polar_decoder_sc_systematic",
        kind: Some(("code", "polar_systematic")),
        params: &[
            ("block_size", "block_size", None),
            ("num_info_bits", "num_info_bits", None),
            ("frozen_bit_positions", "frozen_bit_positions", None),
        ],
    },
];

/// The dotted path without GNU Radio's package prefixes
/// (`gnuradio.fec.polar.x`, `fec.polar.x` → `polar.x`).
fn short(path: &[&str]) -> Option<String> {
    let p = match path {
        ["gnuradio", rest @ ..] => rest,
        other => other,
    };
    let p = match p {
        ["fec", "polar", rest @ ..] => rest,
        ["polar", rest @ ..] => rest,
        _ => return None,
    };
    Some(p.join("."))
}

/// `polar.CHANNEL_TYPE_BEC` and `polar.CHANNEL_TYPE_AWGN`.
pub(crate) fn constant(path: &[&str]) -> Option<Value> {
    match short(path)?.as_str() {
        "CHANNEL_TYPE_BEC" => Some(Value::Str("BEC".into())),
        "CHANNEL_TYPE_AWGN" => Some(Value::Str("AWGN".into())),
        _ => None,
    }
}

/// `polar.load_frozen_bits_info(...)`; `None` for other paths.
pub(crate) fn construct(path: &[&str], call: &Call) -> Option<Result<Value, ExprError>> {
    (short(path)? == "load_frozen_bits_info").then(|| load_frozen_bits_info(call))
}

fn int_arg(call: &Call, a: &Arg) -> Result<i64, ExprError> {
    // Python's `is_power_of_two` and list repetition take ints only.
    match a.value {
        Value::Int(v) => Ok(v),
        _ => Err(arg_type(&call.name, "int", a)),
    }
}

fn load_frozen_bits_info(call: &Call) -> Result<Value, ExprError> {
    let names = [
        "is_prototype",
        "channel",
        "block_size",
        "num_info_bits",
        "design_snr",
        "mu",
    ];
    let args = call.bind(&names, names.len(), &[])?;
    let arg = |i: usize| args[i].expect("bind checks the required arguments");
    let prototype = arg(0).value.truthy();
    let channel = match &arg(1).value {
        Value::Str(s) if s == "BEC" || s == "AWGN" => s.clone(),
        other => {
            return Err(ExprError::new(
                ExprErrorKind::Value(format!(
                    "channel is {}, but only BEC and AWGN are supported!",
                    other.describe()
                )),
                arg(1).span.clone(),
            ));
        }
    };
    let block_size = int_arg(call, arg(2))?;
    let num_info_bits = int_arg(call, arg(3))?;
    let design_snr = real(&call.name, arg(4))?;
    let mut mu = real(&call.name, arg(5))?;
    if mu <= 0.0 || mu.is_nan() {
        mu = 2.0;
    }
    if channel == "AWGN" && !prototype {
        return Err(call.error(ExprErrorKind::Unsupported(
            "the AWGN channel construction (GNU Radio's Tal-Vardy algorithm): use polar.CHANNEL_TYPE_BEC".into(),
        )));
    }
    let positions = frozen_bit_positions(block_size, num_info_bits, design_snr)
        .map_err(|e| call.error(ExprErrorKind::Value(e)))?;
    let nfrozen = positions.len();
    let ints = |v: Vec<i64>| Value::List(v.into_iter().map(Value::Int).collect());
    let key = |k: &str| Value::Str(k.into());
    let mu_value = if mu.fract() == 0.0 && mu.abs() < 9.0e15 {
        Value::Int(mu as i64)
    } else {
        Value::Float(mu)
    };
    Ok(Value::Dict(vec![
        (
            key("positions"),
            ints(positions.into_iter().map(|p| p as i64).collect()),
        ),
        (key("values"), ints(vec![0; nfrozen])),
        (key("block_size"), Value::Int(block_size)),
        (key("num_info_bits"), Value::Int(num_info_bits)),
        (key("num_frozenbits"), Value::Int(nfrozen as i64)),
        (key("design_snr"), Value::Float(design_snr)),
        (key("channel"), Value::Str(channel)),
        (key("mu"), mu_value),
    ]))
}

/// `rate()` of a polar coder object: GNU Radio's `K / N` for encoders
/// and decoders alike; `None` for other objects.
pub(crate) fn rate(o: &Object) -> Option<Value> {
    if !o.class.starts_with("polar_") {
        return None;
    }
    let int = |f: &str| o.field(f).and_then(Value::as_i64).unwrap_or(0);
    Some(Value::Float(
        int("num_info_bits") as f64 / int("block_size").max(1) as f64,
    ))
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, Value, eval};

    #[test]
    fn configurator_gives_gnu_radios_dict() {
        let env = Env::new();
        let v = eval(
            "polar.load_frozen_bits_info(False, polar.CHANNEL_TYPE_BEC, 8, 4, 0.0, 32)['positions']",
            &env,
        )
        .unwrap();
        assert_eq!(v.to_string(), "[0, 1, 2, 4]");
        assert!(
            eval(
                "polar.load_frozen_bits_info(False, 'BEC', 12, 4, 0.0, 32)",
                &env
            )
            .is_err()
        );
        let enc = eval(
            "fec.polar_encoder.make(8, 4, [0, 1, 2, 4], [0, 0, 0, 0]).rate()",
            &env,
        )
        .unwrap();
        assert_eq!(enc, Value::Float(0.5));
    }
}
