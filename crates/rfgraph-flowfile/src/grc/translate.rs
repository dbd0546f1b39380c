//! One GNU Radio block's parameters translated into its registry
//! block's, by its [`mapping`](super::mapping) entry, checked against the
//! registry spec: a parameter, item type or enumeration value the
//! registry block does not take makes the block unsupported (the reason
//! says which), so nothing loads half-translated.

use super::file::GrcBlock;
use super::mapping::{self, Map, P};
use crate::model::{Location, ParamValue, Value};
use rfgraph::registry::BlockSpec;

/// The registry parameter that counts the repeated ports of `outputs` or
/// inputs, when GNU Radio's `num_inputs`/`num_outputs` is written as
/// `inputs`/`outputs` in the table.
fn count_param(spec: &BlockSpec, rf: &str) -> Option<&'static str> {
    let ports = match rf {
        "inputs" => &spec.inputs,
        "outputs" => &spec.outputs,
        _ => return None,
    };
    ports.iter().find_map(|p| p.count)
}

/// A parameter value from GRC's text: Python's `True`/`False` as
/// booleans, everything else an expression.
pub fn expr_value(text: &str) -> Value {
    match text.trim() {
        "True" => Value::Bool(true),
        "False" => Value::Bool(false),
        t => Value::Expr(t.to_string()),
    }
}

/// A Python string literal's text (`'x'`, `"x"`).
fn quoted(text: &str) -> Option<&str> {
    let t = text.trim();
    ['\'', '"']
        .into_iter()
        .find_map(|q| t.strip_prefix(q).and_then(|r| r.strip_suffix(q)))
        .filter(|inner| !inner.contains(['\'', '"', '\\']))
}

/// `text` as a string expression.
fn string_expr(text: &str) -> Value {
    Value::Expr(format!("\"{text}\""))
}

/// The argument of `pmt.<f>(arg)` for one of `functions`.
fn pmt_call<'t>(text: &'t str, functions: &[&str]) -> Option<&'t str> {
    let rest = text.trim().strip_prefix("pmt.")?;
    functions.iter().find_map(|f| {
        rest.strip_prefix(f)?
            .trim()
            .strip_prefix('(')?
            .strip_suffix(')')
    })
}

/// A GNU Radio message value: a quoted string gives the string,
/// anything else is an expression (the expressions know GNU Radio's
/// `pmt` constructors, dictionaries and sets).
fn pmt_value(text: &str) -> Value {
    match quoted(text) {
        Some(s) => string_expr(s),
        None => expr_value(text),
    }
}

/// `text` split at the commas outside brackets and string literals.
fn split_top(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut quote, mut from) = (Vec::new(), 0i32, None, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(&text[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[from..]);
    parts
}

/// A tag's value: a message value as [`P::Pmt`] reads it, `pmt.PMT_NIL`
/// as none.
fn tag_pmt(text: &str) -> Result<Value, String> {
    match text.trim() {
        "pmt.PMT_NIL" => Ok(Value::Expr("None".into())),
        v => Ok(pmt_value(v)),
    }
}

/// A tag `[offset, key, value]` from GNU Radio's offset, key and value
/// texts (the key a symbol or a string literal).
fn tag(offset: &str, key: &str, value: &str) -> Result<Value, String> {
    let key = text_object(key)
        .or_else(|| quoted(key).map(str::to_string))
        .ok_or_else(|| format!("tag key `{}`: only string literals are read", key.trim()))?;
    Ok(Value::List(vec![
        Value::Expr(offset.trim().to_string()),
        string_expr(&key),
        tag_pmt(value)?,
    ]))
}

/// The tag a `variable_tag_object` block defines, as `[offset, key,
/// value]` (its `src` is not kept).
pub fn tag_object(block: &GrcBlock) -> Result<Value, String> {
    let or = |text: &'static str, default: &'static str| match block.text(text) {
        t if t.trim().is_empty() => default,
        t => t,
    };
    tag(
        or("offset", "0"),
        block.text("key"),
        or("value", "pmt.PMT_NIL"),
    )
}

/// GNU Radio's stream tags as written in a vector source: a list (or
/// tuple) of `gr.tag_utils.python_to_tag((offset, key, value, srcid))`,
/// the same with a dict (`{'offset': 0, 'key': ..., 'value': ...}`), or
/// names of `variable_tag_object` blocks; each becomes `[offset, key,
/// value]`.
fn tags_value(text: &str, is_variable: &dyn Fn(&str) -> bool) -> Result<Value, String> {
    let t = text.trim();
    let unsupported = || {
        format!(
            "tags `{t}`: rfgraph reads a list of tag objects or of \
             `gr.tag_utils.python_to_tag((offset, pmt.intern(\"key\"), value, srcid))`"
        )
    };
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    if is_name(t) && is_variable(t) {
        return Ok(Value::Expr(t.to_string()));
    }
    if let Some(args) = [
        "tagged_streams.make_lengthtags",
        "digital.utils.tagged_streams.make_lengthtags",
    ]
    .iter()
    .find_map(|f| t.strip_prefix(f))
    .and_then(|r| r.trim().strip_prefix('('))
    .and_then(|r| r.strip_suffix(')'))
    {
        return length_tags(args).ok_or_else(unsupported);
    }
    let inner = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .or_else(|| t.strip_prefix('(').and_then(|r| r.strip_suffix(')')))
        .ok_or_else(unsupported)?;
    let mut tags = Vec::new();
    for item in split_top(inner) {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        if is_name(item) {
            if !is_variable(item) {
                return Err(unsupported());
            }
            tags.push(Value::Expr(item.to_string()));
            continue;
        }
        let args = [
            "gr.tag_utils.python_to_tag",
            "tag_utils.python_to_tag",
            "gr.python_to_tag",
        ]
        .iter()
        .find_map(|f| item.strip_prefix(f))
        .and_then(|r| r.trim().strip_prefix('('))
        .and_then(|r| r.strip_suffix(')'))
        .map(str::trim)
        .ok_or_else(unsupported)?;
        if let Some(tuple) = args.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            match split_top(tuple).as_slice() {
                [offset, key, value] | [offset, key, value, _] => {
                    tags.push(tag(offset, key, value)?)
                }
                _ => return Err(unsupported()),
            }
        } else if let Some(dict) = args.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            let mut fields = std::collections::BTreeMap::new();
            for entry in split_top(dict) {
                let (k, v) = entry.split_once(':').ok_or_else(unsupported)?;
                fields.insert(quoted(k).ok_or_else(unsupported)?.to_string(), v);
            }
            let field = |name: &str| fields.get(name).copied().ok_or_else(unsupported);
            tags.push(tag(
                field("offset")?,
                field("key")?,
                fields.get("value").copied().unwrap_or("pmt.PMT_NIL"),
            )?);
        } else {
            return Err(unsupported());
        }
    }
    Ok(Value::List(tags))
}

/// GNU Radio's `tagged_streams.make_lengthtags(lengths, offsets,
/// tagname='length', vlen=1)`: a tag `tagname` = `length // vlen` at
/// `offset // vlen` for each pair; its arguments must be literals.
fn length_tags(args: &str) -> Option<Value> {
    let env = crate::expr::Env::new();
    let parts = split_top(args);
    let ints = |text: &str| -> Option<Vec<i64>> {
        match crate::expr::eval(text, &env).ok()? {
            crate::expr::Value::List(items) => items.iter().map(|v| v.as_i64()).collect(),
            _ => None,
        }
    };
    let (lengths, offsets) = (ints(parts.first()?)?, ints(parts.get(1)?)?);
    let key = match parts.get(2) {
        Some(k) => quoted(k.split_once('=').map_or(*k, |(_, v)| v))?.to_string(),
        None => "length".to_string(),
    };
    let vlen = match parts.get(3) {
        Some(v) => crate::expr::eval(v.split_once('=').map_or(*v, |(_, v)| v), &env)
            .ok()?
            .as_i64()
            .filter(|&v| v > 0)?,
        None => 1,
    };
    if lengths.len() != offsets.len() {
        return None;
    }
    let tags = offsets
        .iter()
        .zip(&lengths)
        .map(|(o, l)| {
            Value::List(vec![
                Value::Expr((o.div_euclid(vlen)).to_string()),
                string_expr(&key),
                Value::Expr((l.div_euclid(vlen)).to_string()),
            ])
        })
        .collect();
    Some(Value::List(tags))
}

/// An OFDM equalizer object: its constructor, the registry's `equalizer`
/// choice, and the registry parameters of its positional arguments.
type EqualizerObject = (&'static str, &'static str, &'static [&'static str]);

/// GNU Radio's OFDM equalizer objects: constructor, the registry's
/// `equalizer` choice, and the registry parameter of each positional
/// argument (keyword arguments go by their name).
const EQUALIZERS: &[EqualizerObject] = &[
    (
        "ofdm_equalizer_simpledfe",
        "simpledfe",
        &[
            "fft_len",
            "constellation",
            "occupied_carriers",
            "pilot_carriers",
            "pilot_symbols",
            "symbols_skipped",
            "alpha",
            "input_is_shifted",
            "enable_soft_output",
        ],
    ),
    (
        "ofdm_equalizer_static",
        "static",
        &[
            "fft_len",
            "occupied_carriers",
            "pilot_carriers",
            "pilot_symbols",
            "symbols_skipped",
            "input_is_shifted",
        ],
    ),
];

/// The constructor and arguments of an OFDM equalizer object's text
/// (`digital.ofdm_equalizer_simpledfe(64, ...)`, optionally `.base()`).
fn equalizer_call(text: &str) -> Option<(&'static EqualizerObject, &str)> {
    let t = text.trim();
    let t = t.strip_suffix(".base()").unwrap_or(t).trim();
    let t = t.strip_prefix("digital.").unwrap_or(t);
    EQUALIZERS.iter().find_map(|e| {
        let args = t
            .strip_prefix(e.0)?
            .trim()
            .strip_prefix('(')?
            .strip_suffix(')')?;
        Some((e, args))
    })
}

/// True when `text` makes an OFDM equalizer object: a variable holding
/// one is kept as text (the expressions cannot build it; the blocks
/// that use it read its arguments).
pub fn is_equalizer_object(text: &str) -> bool {
    equalizer_call(text).is_some()
}

/// The registry parameters an OFDM equalizer object's constructor call
/// gives: the `equalizer` choice, then one per argument.
fn equalizer_params(text: &str) -> Result<Vec<(&'static str, Value)>, String> {
    let unsupported = || {
        format!(
            "equalizer `{}`: rfgraph reads `digital.ofdm_equalizer_simpledfe(...)` and \
             `digital.ofdm_equalizer_static(...)`",
            text.trim()
        )
    };
    let ((_, kind, names), args) = equalizer_call(text).ok_or_else(unsupported)?;
    let mut out = vec![("equalizer", Value::Text(kind.to_string()))];
    for (i, arg) in split_top(args).into_iter().enumerate() {
        let arg = arg.trim();
        if arg.is_empty() {
            continue;
        }
        // `name=value`, not a comparison.
        let keyword = arg.split_once('=').filter(|(k, v)| {
            let k = k.trim();
            !v.starts_with('=')
                && !k.is_empty()
                && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        let (name, value) = match keyword {
            Some((k, v)) => {
                let k = k.trim();
                let name = names
                    .iter()
                    .find(|n| **n == k)
                    .ok_or_else(|| format!("equalizer argument `{k}`: unknown"))?;
                (*name, v.trim())
            }
            None => {
                let name = names
                    .get(i)
                    .ok_or_else(|| format!("equalizer: {} arguments at most", names.len()))?;
                (*name, arg)
            }
        };
        // A constellation is an expression object too: it sets the
        // equalizer's flattened constellation parameters.
        out.push((name, expr_value(value)));
    }
    Ok(out)
}

/// The text a GNU Radio object stands for where rfgraph takes text: a
/// symbol (`pmt.intern("x")`). (Constellations are expression objects.)
pub fn text_object(text: &str) -> Option<String> {
    let t = text.trim();
    let arg = pmt_call(t, &["intern", "string_to_symbol"])?;
    quoted(arg).map(str::to_string)
}

fn is_one(text: &str) -> bool {
    matches!(text.trim(), "" | "1")
}

/// True for GNU Radio's literal zero (`0`, `0.0`).
fn is_zero(text: &str) -> bool {
    text.trim().parse::<f64>().is_ok_and(|v| v == 0.0)
}

/// `block`'s parameters for `spec` by `map`; `at` turns a place in the
/// file into a location; `is_variable` says whether a name is one of the
/// flowgraph's variables (a string parameter naming one takes its value,
/// as in GRC), `value_of` gives a variable's value as written (for the
/// GNU Radio objects a variable holds). The error is the reason the
/// block is unsupported.
pub fn params(
    block: &GrcBlock,
    map: &Map,
    spec: &BlockSpec,
    at: &dyn Fn(super::yaml::Pos) -> Location,
    is_variable: &dyn Fn(&str) -> bool,
    value_of: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ParamValue>, String> {
    let mut out: Vec<ParamValue> = Vec::new();
    let push =
        |out: &mut Vec<ParamValue>, rf: &str, value: Value, gr: &str| -> Result<(), String> {
            let name = if spec.param_spec(rf).is_some() {
                rf
            } else if let Some(count) = count_param(spec, rf) {
                count
            } else if gr == "vlen" || (rf == "type" && matches!(value, Value::Text(_))) {
                // A fixed type or a vector length the block does not need.
                return Ok(());
            } else {
                return Err(format!("rfgraph's `{}` has no parameter `{rf}`", spec.name));
            };
            if let (Value::Text(t), Some(p)) = (&value, spec.param_spec(name))
                && !p.choices.is_empty()
                && !p.choices.contains(&t.as_str())
            {
                return Err(format!(
                    "`{gr}`: rfgraph's `{}` takes {name} {}, not `{t}`",
                    spec.name,
                    p.choices.join(", ")
                ));
            }
            out.push(ParamValue {
                name: name.to_string(),
                value,
                at: at(block.pos_of(gr)),
            });
            Ok(())
        };
    for p in map.params {
        match *p {
            P::Expr(gr, rf) => {
                let text = block.text(gr);
                if text.is_empty() || (rf == "taps" && text.replace(' ', "") == "[]") {
                    continue;
                }
                push(&mut out, rf, expr_value(text), gr)?;
            }
            P::NonZero(gr, rf) => {
                let text = block.text(gr);
                if !text.is_empty() && !is_zero(text) {
                    push(&mut out, rf, expr_value(text), gr)?;
                }
            }
            P::Abs(gr, rf) => {
                let text = block.text(gr);
                if !text.is_empty() {
                    push(&mut out, rf, Value::Expr(format!("abs({text})")), gr)?;
                }
            }
            P::Text(gr, rf) => {
                let text = block.text(gr);
                if !text.is_empty() {
                    push(&mut out, rf, Value::Text(text.to_string()), gr)?;
                }
            }
            P::Type(gr) => {
                let text = block.text(gr);
                if text.is_empty() {
                    continue;
                }
                let ty = mapping::item_type(text)
                    .ok_or_else(|| format!("`{gr}`: no rfgraph item type for `{text}`"))?;
                push(&mut out, "type", Value::Text(ty.into()), gr)?;
            }
            P::Str(gr, rf) => {
                let text = block.text(gr);
                if !text.is_empty() {
                    push(&mut out, rf, grc_string(text, is_variable), gr)?;
                }
            }
            P::Pmt(gr, rf) => {
                let text = block.text(gr);
                let optional = spec.param_spec(rf).is_some_and(|p| p.is_optional());
                // GNU Radio's "no value" for a parameter rfgraph may leave
                // unset (`file_source`'s begin tag).
                let nil = text.trim() == "pmt.PMT_NIL" && optional;
                if !text.is_empty() && !nil {
                    push(&mut out, rf, pmt_value(text), gr)?;
                }
            }
            P::Require(gr, values) => {
                let text = block.text(gr);
                if !text.is_empty() && !values.contains(&text.trim()) {
                    return Err(if values.is_empty() {
                        format!("`{gr}` = `{text}`: not supported here yet")
                    } else {
                        format!(
                            "`{gr}` = `{text}`: rfgraph supports only {}",
                            values.join(", ")
                        )
                    });
                }
            }
            P::OfdmEqualizer(gr) => {
                let text = block.text(gr);
                if text.trim().is_empty() {
                    continue;
                }
                let t = text.trim();
                let name = t.strip_suffix(".base()").unwrap_or(t).trim();
                let object = value_of(name).unwrap_or_else(|| t.to_string());
                for (rf, value) in equalizer_params(&object)? {
                    push(&mut out, rf, value, gr)?;
                }
            }
            P::Fixed(rf, value) => push(&mut out, rf, Value::Text(value.into()), rf)?,
            P::Enum(gr, rf, table) => {
                let text = block.text(gr);
                if text.is_empty() {
                    continue;
                }
                let value = table
                    .iter()
                    .find(|(g, _)| *g == text)
                    .map(|(_, r)| *r)
                    .ok_or_else(|| format!("`{gr}` = `{text}` has no rfgraph equivalent"))?;
                push(&mut out, rf, Value::Text(value.into()), gr)?;
            }
            P::Only {
                when,
                prefix,
                gr,
                rf,
            } => {
                let text = block.text(gr);
                if block.text(when).starts_with(prefix) && !text.is_empty() {
                    push(&mut out, rf, expr_value(text), gr)?;
                }
            }
            P::Vlen => {
                let text = block.text("vlen");
                if !is_one(text) {
                    if spec.param_spec("vlen").is_none() {
                        return Err(format!(
                            "vlen `{text}`: rfgraph's `{}` works on single items",
                            spec.name
                        ));
                    }
                    push(&mut out, "vlen", expr_value(text), "vlen")?;
                }
            }
            P::FlatVlen => {
                let text = block.text("vlen");
                if !is_one(text) && spec.param_spec("vlen").is_some() {
                    push(&mut out, "vlen", expr_value(text), "vlen")?;
                }
            }
            P::Tags(gr, rf) => {
                let text = block.text(gr);
                if !text.trim().is_empty() {
                    push(&mut out, rf, tags_value(text, is_variable)?, gr)?;
                }
            }
            P::NumberOr(gr, rf, instead) => {
                let text = block.text(gr).trim();
                let value = match text {
                    "" => continue,
                    "True" | "False" => Value::Expr(instead.into()),
                    t => expr_value(t),
                };
                push(&mut out, rf, value, gr)?;
            }
            P::TextList(grs, rf) => {
                if let Some(value) = text_list(grs.iter().map(|g| block.text(g))) {
                    push(&mut out, rf, value, grs.first().copied().unwrap_or(rf))?;
                }
            }
            P::Call { rf, func, args } => {
                let first = args.first().map_or("", |(gr, _)| *gr);
                let args: Vec<String> = args
                    .iter()
                    .map(|(gr, default)| {
                        let text = block.text(gr);
                        format!("({})", if text.is_empty() { default } else { text })
                    })
                    .collect();
                let value = Value::Expr(format!("{func}({})", args.join(", ")));
                push(&mut out, rf, value, first)?;
            }
            P::PerVector(gr, rf) => {
                let text = block.text(gr);
                if text.is_empty() {
                    continue;
                }
                let vlen = block.text("vlen");
                let value = if is_one(vlen) {
                    expr_value(text)
                } else {
                    Value::Expr(format!("({text}) * ({vlen})"))
                };
                push(&mut out, rf, value, gr)?;
            }
        }
    }
    // What the table does not say passes by its declared name.
    for (gr, param) in &block.params {
        let text = param.text.trim();
        if text.is_empty() || map.reads(gr) {
            continue;
        }
        let Some(rf) = map.registry_param(spec, gr) else {
            continue;
        };
        if out.iter().any(|v| v.name == rf) || (rf == "taps" && text.replace(' ', "") == "[]") {
            continue;
        }
        // A text parameter is GRC's string: literal unless quoted or a
        // variable's name (`len_tag_key: packet_len`).
        let text_param = spec
            .param_spec(rf)
            .is_some_and(|p| p.ty == rfgraph::ParamType::String && p.choices.is_empty());
        let value = if text_param {
            grc_string(text, is_variable)
        } else {
            expr_value(text)
        };
        push(&mut out, rf, value, gr)?;
    }
    Ok(out)
}

/// GRC string parameters as a list expression of strings, up to the
/// last one set (`None` when none is): each quoted or literal, its quotes
/// and backslashes dropped.
fn text_list<'t>(texts: impl Iterator<Item = &'t str>) -> Option<Value> {
    let mut items: Vec<String> = texts
        .map(|t| {
            let t = t.trim();
            let t = ['\'', '"']
                .into_iter()
                .find_map(|q| t.strip_prefix(q).and_then(|r| r.strip_suffix(q)))
                .unwrap_or(t);
            t.chars()
                .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                .collect()
        })
        .collect();
    while items.last().is_some_and(String::is_empty) {
        items.pop();
    }
    (!items.is_empty()).then(|| {
        let quoted: Vec<String> = items.iter().map(|i| format!("\"{i}\"")).collect();
        Value::Expr(format!("[{}]", quoted.join(", ")))
    })
}

/// A GRC string parameter's value: a quoted string or `pmt.intern("x")`
/// gives its text, a variable's name the variable, anything else is
/// taken literally.
pub fn grc_string(text: &str, is_variable: &dyn Fn(&str) -> bool) -> Value {
    let t = text.trim();
    if is_variable(t) {
        return Value::Expr(t.to_string());
    }
    let value = quoted(t)
        .or_else(|| pmt_call(t, &["intern", "string_to_symbol"]).and_then(quoted))
        .unwrap_or(t);
    string_expr(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_become_a_list_of_strings_up_to_the_last_set() {
        let list = |t: &[&str]| text_list(t.iter().copied());
        assert_eq!(
            list(&["'I'", "Q \"x\"", "", "", ""]),
            Some(Value::Expr("[\"I\", \"Q x\"]".into()))
        );
        assert_eq!(list(&["", "''", ""]), None);
        assert_eq!(list(&["", "b"]), Some(Value::Expr("[\"\", \"b\"]".into())));
    }

    #[test]
    fn equalizer_objects_give_their_arguments_by_position_and_name() {
        let params = equalizer_params(
            "digital.ofdm_equalizer_simpledfe(fft_len, header_mod.base(), occupied, pilots, \
             symbols, symbols_skipped=1, alpha = 0.2).base()",
        )
        .unwrap();
        let names: Vec<&str> = params.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "equalizer",
                "fft_len",
                "constellation",
                "occupied_carriers",
                "pilot_carriers",
                "pilot_symbols",
                "symbols_skipped",
                "alpha"
            ]
        );
        assert_eq!(params[0].1, Value::Text("simpledfe".into()));
        assert_eq!(params[2].1, Value::Expr("header_mod.base()".into()));
        assert_eq!(params[7].1, Value::Expr("0.2".into()));
        let st = equalizer_params("ofdm_equalizer_static(64, ((1, 2),), ((),), ((),), 0, False)")
            .unwrap();
        assert_eq!(st[0].1, Value::Text("static".into()));
        assert_eq!(st[6], ("input_is_shifted", Value::Bool(false)));
        assert!(equalizer_params("digital.ofdm_equalizer_static(64, a=1)").is_err());
        assert!(equalizer_params("my_equalizer(64)").is_err());
        assert!(is_equalizer_object("digital.ofdm_equalizer_static(64)"));
    }
}
