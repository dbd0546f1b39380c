//! GRC's variable-like blocks: `variable`, `parameter`, the Qt GUI
//! variables (range, chooser, entry, check box, push button: run-time
//! settable variables with a widget) and `import` (checked against the
//! modules the expression language provides).

use super::file::GrcBlock;
use crate::expr::{self, Env};
use crate::model::{Location, Orient, Value, Variable, VariableProbe, VariableWidget, WidgetKind};

/// The `import` lines flowgraphs may have: the expression language
/// provides these names (`math.*`, `numpy.*`/`np.*`, GNU Radio modules
/// for `firdes`, `window`, enum constants).
const IMPORTS: &[&str] = &[
    "import math",
    "import cmath",
    "import numpy",
    "import numpy as np",
    "import pmt",
    "import time",
    "import random",
    "from gnuradio import gr",
    "from gnuradio import analog",
    "from gnuradio import blocks",
    "from gnuradio import channels",
    "from gnuradio import digital",
    "from gnuradio import fft",
    "from gnuradio import filter",
    "from gnuradio.filter import firdes",
    "from gnuradio.fft import window",
    "from gnuradio.digital.utils import tagged_streams",
    "from math import pi",
    "from numpy import pi",
];

/// The ids handled here: variables, imports, filter-tap variables, and
/// every Qt GUI variable (those GRC draws as message widgets are also
/// GUI blocks whose message ports the importer drops).
pub fn is_variable(id: &str) -> bool {
    matches!(
        id,
        "variable" | "parameter" | "import" | "variable_tag_object" | "variable_function_probe"
    ) || id.starts_with("variable_qtgui_")
        || taps_design(id).is_some()
        || super::objects::is_object(id)
        || super::file_taps::is_file_taps(id)
}

/// The `firdes` function and GNU Radio parameters of a filter-tap
/// variable (`variable_low_pass_filter_taps`).
fn taps_design(id: &str) -> Option<(&'static str, &'static [&'static str])> {
    const LP: &[&str] = &["gain", "samp_rate", "cutoff_freq", "width", "win", "beta"];
    const BP: &[&str] = &[
        "gain",
        "samp_rate",
        "low_cutoff_freq",
        "high_cutoff_freq",
        "width",
        "win",
        "beta",
    ];
    match id {
        "variable_low_pass_filter_taps" => Some(("low_pass", LP)),
        "variable_high_pass_filter_taps" => Some(("high_pass", LP)),
        "variable_band_pass_filter_taps" => Some(("band_pass", BP)),
        "variable_band_reject_filter_taps" => Some(("band_reject", BP)),
        "variable_rrc_filter_taps" => Some((
            "root_raised_cosine",
            &["gain", "samp_rate", "sym_rate", "alpha", "ntaps"],
        )),
        _ => None,
    }
}

/// Why a `variable_tag_object` cannot be imported: its key or value has
/// no rfgraph form.
pub fn unsupported_tag_object(block: &GrcBlock) -> Option<String> {
    (block.id == "variable_tag_object")
        .then(|| super::translate::tag_object(block).err())
        .flatten()
}

/// True for the Qt GUI variables drawn as message widgets (dial, toggle
/// button, ...): besides their variable they have message ports.
pub fn is_message_widget(id: &str) -> bool {
    id.starts_with("variable_qtgui_") && widget_kind(id).is_none() && id != "variable_qtgui_label"
}

fn widget_kind(id: &str) -> Option<&'static str> {
    [
        "variable_qtgui_range",
        "variable_qtgui_chooser",
        "variable_qtgui_entry",
        "variable_qtgui_check_box",
        "variable_qtgui_push_button",
    ]
    .into_iter()
    .find(|k| *k == id)
}

/// The `import` lines of an `import` block that the expression language
/// does not provide.
pub fn unsupported_imports(block: &GrcBlock) -> Vec<String> {
    block
        .text("imports")
        .lines()
        .flat_map(|l| l.split(';'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !IMPORTS.contains(&l.as_str()))
        .collect()
}

/// The names an `import` line binds: `import a.b` → `a`, `import a as
/// b` → `b`, `from m import x, y as z` → `x`, `z`.
pub fn imported_names(line: &str) -> Vec<String> {
    let bound = |part: &str| {
        let part = part.trim();
        match part.split_once(" as ") {
            Some((_, alias)) => alias.trim().to_string(),
            None => part.split('.').next().unwrap_or(part).trim().to_string(),
        }
    };
    let names = match line.trim().split_once(" import ") {
        Some((from, what)) if from.starts_with("from ") => what,
        _ => line.trim().strip_prefix("import ").unwrap_or(""),
    };
    names
        .trim_matches(|c| c == '(' || c == ')' || c == ' ')
        .split(',')
        .map(bound)
        .filter(|n| !n.is_empty() && n != "*")
        .collect()
}

/// The first of `names` that the value of variable block `block` reads.
pub fn reads_any(block: &GrcBlock, names: &[String]) -> Option<String> {
    let e = expr::Expr::parse(block.text("value")).ok()?;
    e.names().into_iter().find(|n| names.contains(n))
}

/// The number `text` evaluates to among the variables before it (GUI
/// ranges must be numbers to draw a slider).
fn number(text: &str, env: &Env) -> Option<f64> {
    expr::eval(text, env).ok()?.as_f64()
}

/// Adds `v` to `env` when its value evaluates there (later GUI ranges
/// may use it); variables that do not evaluate yet are left to the
/// builder.
pub fn remember(v: &Variable, env: &mut Env) {
    let value = match &v.value {
        Value::Expr(t) => expr::eval(t, env).ok(),
        Value::Text(t) => Some(expr::Value::Str(t.clone())),
        _ => None,
    };
    if let Some(value) = value {
        env.set(v.name.clone(), value);
    }
}

/// Splits a Python list or tuple literal into its top-level items.
fn items(text: &str) -> Vec<String> {
    let t = text.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .or_else(|| t.strip_prefix('(').and_then(|s| s.strip_suffix(')')))
        .unwrap_or(t);
    let mut out = Vec::new();
    let (mut depth, mut quote, mut cur) = (0i32, None::<char>, String::new());
    for ch in inner.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(ch),
            (None, '[' | '(' | '{') => depth += 1,
            (None, ']' | ')' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn unquote(s: &str) -> String {
    let t = s.trim();
    for q in ['\'', '"'] {
        if let Some(inner) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner.to_string();
        }
    }
    t.to_string()
}

/// An option of a string chooser: its text, unquoted.
fn as_text(v: Value) -> Value {
    match v {
        Value::Expr(t) => Value::Text(unquote(&t)),
        other => other,
    }
}

fn expr(text: &str) -> Value {
    Value::Expr(text.trim().to_string())
}

/// The variable a `variable`, `parameter` or GUI variable block
/// defines; `env` holds the variables before it (for a range's bounds).
/// `None` for `import`.
pub fn variable(block: &GrcBlock, at: Location, env: &Env) -> Option<Variable> {
    let label = Some(block.text("label"))
        .filter(|l| !l.is_empty())
        .map(unquote);
    let mut v = Variable {
        name: block.name.clone(),
        value: expr(block.text("value")),
        at,
        settable: false,
        label,
        widget: None,
        probe: None,
    };
    if let Some((function, params)) = taps_design(&block.id) {
        // The band designs choose their function in `type`
        // (`band_pass`, `complex_band_pass`, ...).
        let function = match block.text("type") {
            t if !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => t,
            _ => function,
        };
        let args: Vec<&str> = params.iter().map(|p| block.text(p)).collect();
        v.value = Value::Expr(format!("firdes.{function}({})", args.join(", ")));
        return Some(v);
    }
    if super::file_taps::is_file_taps(&block.id) {
        // Its taps, read from the file when the importer has every
        // variable (`file_taps::value`); none until then.
        v.value = Value::Expr("[]".into());
        return Some(v);
    }
    // A GUI variable's widget, placed where its `gui_hint` says, drawn
    // as its `widget` says (or `default`).
    let widget = |kind| VariableWidget::new(kind).at(block.text("gui_hint"));
    let style = |default: &str| match block.text("widget").trim() {
        "" => default.to_string(),
        w => w.to_string(),
    };
    match block.id.as_str() {
        "import" => return None,
        // `[offset, key, value]`, what a vector source's `tags` takes; one
        // that cannot be read makes the block unsupported (see
        // `unsupported_tag_object`).
        "variable_tag_object" => v.value = super::translate::tag_object(block).ok()?,
        id if super::objects::is_object(id) => {
            v.value = Value::Expr(super::objects::constructor(block)?);
        }
        "variable" | "variable_qtgui_label" => {
            // GNU Radio objects the expressions do not have, that
            // rfgraph takes as text: symbols.
            if let Some(text) = super::translate::text_object(block.text("value")) {
                v.value = Value::Text(text);
            } else if super::translate::is_equalizer_object(block.text("value")) {
                // An OFDM equalizer object: the frame equalizers that use
                // it read its arguments (`P::OfdmEqualizer`).
                v.value = Value::Text(block.text("value").trim().to_string());
            }
        }
        "variable_function_probe" => {
            // `self.BLOCK.FUNCTION(ARGS)` polled `poll_rate` times a
            // second into the variable, whose value starts as `value`.
            v.settable = true;
            v.probe = Some(VariableProbe {
                block: block.text("block_id").trim().to_string(),
                function: block.text("function_name").trim().to_string(),
                args: block.text("function_args").trim().to_string(),
                rate: expr(match block.text("poll_rate") {
                    "" => "10",
                    r => r,
                }),
                at: v.at.clone(),
                strict: false,
            });
        }
        "parameter" => {
            if block.text("type") == "str" {
                v.value = Value::Text(block.text("value").to_string());
            }
        }
        "variable_qtgui_range" => {
            v.settable = true;
            let n = |k| number(block.text(k), env);
            v.widget = Some(widget(match (n("start"), n("stop"), n("step")) {
                (Some(start), Some(stop), Some(step)) => WidgetKind::Range {
                    start,
                    stop,
                    step,
                    style: style("counter_slider"),
                    orient: Orient::parse(block.text("orient")),
                },
                _ => WidgetKind::Entry,
            }));
        }
        "variable_qtgui_chooser" => {
            v.settable = true;
            let count: usize = block.text("num_opts").parse().unwrap_or(0);
            let (options, labels): (Vec<Value>, Vec<String>) = if count == 0 {
                let opts = items(block.text("options"));
                let mut labels: Vec<String> = items(block.text("labels"))
                    .iter()
                    .map(|l| unquote(l))
                    .collect();
                labels.resize(opts.len(), String::new());
                (opts.iter().map(|o| expr(o)).collect(), labels)
            } else {
                (0..count.min(5))
                    .map(|i| {
                        let o = block.text(&format!("option{i}")).to_string();
                        let l = unquote(block.text(&format!("label{i}")));
                        let l = if l.is_empty() { unquote(&o) } else { l };
                        (expr(&o), l)
                    })
                    .unzip()
            };
            let options = if block.text("type") == "string" {
                // Options and value are literal text here.
                v.value = as_text(v.value.clone());
                options.into_iter().map(as_text).collect()
            } else {
                options
            };
            // GRC lays choosers out vertically unless told.
            let orient = match block.text("orient") {
                "" => Orient::Vertical,
                o => Orient::parse(o),
            };
            v.widget = Some(widget(WidgetKind::Chooser {
                options,
                labels,
                style: style("combo_box"),
                orient,
            }));
        }
        "variable_qtgui_check_box" => {
            v.settable = true;
            v.widget = Some(widget(WidgetKind::CheckBox {
                on: expr(block.text("true")),
                off: expr(block.text("false")),
            }));
        }
        "variable_qtgui_push_button" => {
            v.settable = true;
            v.value = expr(block.text("released"));
            v.widget = Some(widget(WidgetKind::PushButton {
                pressed: expr(block.text("pressed")),
                released: expr(block.text("released")),
            }));
        }
        _ if block.param("value").is_none() => return None,
        _ => {
            // variable_qtgui_entry, and the message widgets (dial,
            // toggle button, ...), settable through their value
            v.settable = true;
            if matches!(block.text("type"), "string" | "str") {
                v.value = Value::Text(unquote(block.text("value")));
            }
            v.widget = Some(widget(WidgetKind::Entry));
        }
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_lines_bind_their_modules_or_names() {
        assert_eq!(imported_names("import subprocess"), ["subprocess"]);
        assert_eq!(imported_names("import os.path"), ["os"]);
        assert_eq!(imported_names("import numpy as np"), ["np"]);
        assert_eq!(
            imported_names("from gnuradio.digital.utils import tagged_streams"),
            ["tagged_streams"]
        );
        assert_eq!(
            imported_names("from cmath import exp, pi as p"),
            ["exp", "p"]
        );
        assert_eq!(imported_names("from x import *"), Vec::<String>::new());
    }

    #[test]
    fn list_items_split_at_top_level_only() {
        assert_eq!(items("[1, (2, 3), 'a,b']"), ["1", "(2, 3)", "'a,b'"]);
        assert_eq!(items("()"), Vec::<String>::new());
        assert_eq!(unquote("'RX2'"), "RX2");
    }
}
