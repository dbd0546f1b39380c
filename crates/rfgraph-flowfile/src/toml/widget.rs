//! A TOML variable's widget: how a user interface draws and sets it.
//!
//! ```toml
//! freq = { value = 1e3, settable = true, range = [0, 1e4, 10] }              # a slider with a counter
//! gain = { value = 1, settable = true, widget = "slider", range = [0, 10, 1], gui_hint = "tab@0: 1,0,1,2" }
//! mode = { value = 0, settable = true, widget = "combo", options = [0, 1], labels = ["AM", "FM"] }
//! mute = { value = 0, settable = true, widget = "check_box", options = [0, 1] }  # [off, on]
//! ping = { value = 0, settable = true, widget = "push_button" }           # [released, pressed] = [0, 1]
//! note = { value = "''", settable = true, widget = "entry" }
//! ```
//!
//! `widget` is one of [`WIDGETS`]: `slider` and `counter` need `range =
//! [start, stop, step]`; `combo`, `radio` and `buttons` need `options`
//! (or `choices`), with `labels` one per option (default: the options'
//! text); `check_box` takes `options = [off, on]` (default `[false,
//! true]`), `push_button` `options = [released, pressed]` (default `[0,
//! 1]`). Without `widget`, `range` makes a counter-slider and `options`
//! a combo box. `gui_hint` is GRC's text (`row,col[,row_span,col_span]`,
//! optionally after `tab@index:`).

use super::reader::{Ctx, R, join, value};
use crate::model::{GuiHint, Orient, Value, VariableWidget, WidgetKind};
use toml_edit::{Item, TableLike};

/// The values `widget` takes.
pub const WIDGETS: &[&str] = &[
    "slider",
    "counter",
    "combo",
    "radio",
    "buttons",
    "check_box",
    "push_button",
    "entry",
];

/// The widget of the variable table `tt` at `key`, if it has one.
pub(super) fn widget(ctx: &Ctx, tt: &dyn TableLike, key: &str) -> R<Option<VariableWidget>> {
    let at = |k: &str| (tt.get(k).and_then(Item::span), join(key, k));
    let kind_text = match tt.get("widget") {
        None => None,
        Some(w) => {
            let (span, k) = at("widget");
            let text = w.as_str().filter(|t| WIDGETS.contains(t)).ok_or_else(|| {
                ctx.err(span, &k, format!("expected one of {}", WIDGETS.join(", ")))
            })?;
            Some(text)
        }
    };
    let range = match tt.get("range") {
        None => None,
        Some(r) => Some(range(ctx, r, &join(key, "range"))?),
    };
    let options = options(ctx, tt, key)?;
    let labels = match tt.get("labels") {
        None => None,
        Some(l) => {
            let (span, k) = at("labels");
            let texts: Option<Vec<String>> = l
                .as_array()
                .and_then(|a| a.iter().map(|x| x.as_str().map(str::to_string)).collect());
            Some(texts.ok_or_else(|| ctx.err(span, &k, "expected a list of strings"))?)
        }
    };
    let gui_hint = match tt.get("gui_hint") {
        None => None,
        Some(h) => {
            let (span, k) = at("gui_hint");
            let text = h
                .as_str()
                .ok_or_else(|| ctx.err(span.clone(), &k, "expected a string"))?;
            Some(GuiHint::parse(text).ok_or_else(|| {
                ctx.err(
                    span,
                    &k,
                    "expected `row,col`, `row,col,row_span,col_span`, optionally after `tab@index:`",
                )
            })?)
        }
    };
    let need = |what: &str, k: &str| {
        let (span, wk) = at("widget");
        ctx.err(
            span,
            &wk,
            format!("`{}` needs `{k}`", kind_text.unwrap_or(what)),
        )
    };
    let choose = |style: &str, options: Vec<Value>| -> R<WidgetKind> {
        let labels = match labels.clone() {
            Some(l) if l.len() != options.len() => {
                let (span, k) = at("labels");
                return Err(ctx.err(
                    span,
                    &k,
                    format!("expected {} labels, one per option", options.len()),
                ));
            }
            Some(l) => l,
            None => options.iter().map(crate::model::value_text).collect(),
        };
        Ok(WidgetKind::Chooser {
            options,
            labels,
            style: style.to_string(),
            orient: Orient::Horizontal,
        })
    };
    let slide = |style: &str, [start, stop, step]: [f64; 3]| WidgetKind::Range {
        start,
        stop,
        step,
        style: style.to_string(),
        orient: Orient::Horizontal,
    };
    let pair = |default: [Value; 2]| -> R<[Value; 2]> {
        match options.clone() {
            None => Ok(default),
            Some(o) => <[Value; 2]>::try_from(o).map_err(|_| {
                let (span, k) = at(if tt.contains_key("options") {
                    "options"
                } else {
                    "choices"
                });
                ctx.err(
                    span,
                    &k,
                    "expected two values: [off, on] or [released, pressed]",
                )
            }),
        }
    };
    let kind = match kind_text {
        None => match (range, options.clone()) {
            (Some(r), _) => slide("counter_slider", r),
            (None, Some(o)) => choose("combo_box", o)?,
            (None, None) if gui_hint.is_some() => WidgetKind::Entry,
            (None, None) => return Ok(None),
        },
        Some(style @ ("slider" | "counter")) => slide(
            style,
            range.ok_or_else(|| need(style, "range = [start, stop, step]"))?,
        ),
        Some(short @ ("combo" | "radio" | "buttons")) => {
            let style = match short {
                "combo" => "combo_box",
                "radio" => "radio_buttons",
                _ => "push_buttons",
            };
            choose(
                style,
                options.ok_or_else(|| need(short, "options = [...]"))?,
            )?
        }
        Some("check_box") => {
            let [off, on] = pair([Value::Bool(false), Value::Bool(true)])?;
            WidgetKind::CheckBox { on, off }
        }
        Some("push_button") => {
            let [released, pressed] = pair([Value::Int(0), Value::Int(1)])?;
            WidgetKind::PushButton { pressed, released }
        }
        Some(_) => WidgetKind::Entry,
    };
    Ok(Some(VariableWidget { kind, gui_hint }))
}

/// `range = [start, stop, step]`.
fn range(ctx: &Ctx, r: &Item, key: &str) -> R<[f64; 3]> {
    let nums: Option<Vec<f64>> = r.as_array().and_then(|a| {
        a.iter()
            .map(|x| x.as_float().or_else(|| x.as_integer().map(|i| i as f64)))
            .collect()
    });
    match nums.as_deref() {
        Some(&[start, stop, step]) => Ok([start, stop, step]),
        _ => Err(ctx.err(r.span(), key, "expected [start, stop, step]")),
    }
}

/// `options = [...]` (or its older name `choices`), as values.
fn options(ctx: &Ctx, tt: &dyn TableLike, key: &str) -> R<Option<Vec<Value>>> {
    let Some((name, item)) = ["options", "choices"]
        .into_iter()
        .find_map(|k| tt.get(k).map(|i| (k, i)))
    else {
        return Ok(None);
    };
    let k = join(key, name);
    match value(ctx, item, &k, Value::Expr, 0)? {
        Value::List(options) => Ok(Some(options)),
        _ => Err(ctx.err(item.span(), &k, "expected a list")),
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Document, FileError, GuiHint, Orient, Value, VariableWidget, WidgetKind};
    use std::path::PathBuf;
    use std::sync::Arc;

    fn read(vars: &str) -> Result<Document, FileError> {
        crate::toml::parse(
            &format!("format = 1\n[variables]\n{vars}\n"),
            Arc::new(PathBuf::from("w.toml")),
        )
    }

    fn widget(vars: &str, name: &str) -> Option<VariableWidget> {
        read(vars).unwrap().variable(name).unwrap().widget.clone()
    }

    #[test]
    fn widgets_from_toml() {
        let w = widget(
            r#"f = { value = 1, settable = true, widget = "counter", range = [0, 10, 0.5], gui_hint = "tab@1: 2,3" }"#,
            "f",
        )
        .unwrap();
        assert_eq!(
            w.kind,
            WidgetKind::Range {
                start: 0.0,
                stop: 10.0,
                step: 0.5,
                style: "counter".into(),
                orient: Orient::Horizontal,
            }
        );
        assert_eq!(w.gui_hint, GuiHint::parse("tab@1: 2,3"));
        // The older forms: a range alone is a counter-slider, choices a
        // combo box labelled by their text.
        assert!(matches!(
            widget(r#"f = { value = 1, range = [0, 10, 1] }"#, "f").unwrap().kind,
            WidgetKind::Range { style, .. } if style == "counter_slider"
        ));
        assert_eq!(
            widget(r#"m = { value = 0, choices = [0, 1] }"#, "m")
                .unwrap()
                .kind,
            WidgetKind::Chooser {
                options: vec![Value::Int(0), Value::Int(1)],
                labels: vec!["0".into(), "1".into()],
                style: "combo_box".into(),
                orient: Orient::Horizontal,
            }
        );
        let radio = widget(
            r#"m = { value = 0, widget = "radio", options = [0, "2 * x"], labels = ["a", "b"] }"#,
            "m",
        )
        .unwrap();
        assert_eq!(
            radio.to_json()["options"],
            serde_json::json!(["0", "2 * x"])
        );
        assert_eq!(radio.to_json()["style"], "radio_buttons");
        assert_eq!(
            widget(r#"c = { value = 0, widget = "check_box" }"#, "c")
                .unwrap()
                .kind,
            WidgetKind::CheckBox {
                on: Value::Bool(true),
                off: Value::Bool(false)
            }
        );
        assert_eq!(
            widget(
                r#"b = { value = 5, widget = "push_button", options = [5, 9] }"#,
                "b"
            )
            .unwrap()
            .kind,
            WidgetKind::PushButton {
                pressed: Value::Int(9),
                released: Value::Int(5)
            }
        );
        assert_eq!(
            widget(r#"e = { value = 0, widget = "entry" }"#, "e")
                .unwrap()
                .kind,
            WidgetKind::Entry
        );
        assert_eq!(widget(r#"p = { value = 2 }"#, "p"), None);
    }

    #[test]
    fn bad_widgets_are_refused_where_they_are() {
        for (vars, key, says) in [
            (
                r#"f = { value = 1, widget = "knob" }"#,
                "variables.f.widget",
                "expected one of slider",
            ),
            (
                r#"f = { value = 1, widget = "slider" }"#,
                "variables.f.widget",
                "needs `range",
            ),
            (
                r#"f = { value = 1, widget = "combo" }"#,
                "variables.f.widget",
                "needs `options",
            ),
            (
                r#"f = { value = 1, range = [1, 2] }"#,
                "variables.f.range",
                "expected [start, stop, step]",
            ),
            (
                r#"f = { value = 1, options = [1, 2], labels = ["a"] }"#,
                "variables.f.labels",
                "2 labels",
            ),
            (
                r#"f = { value = 1, options = [1, 2], labels = [1, 2] }"#,
                "variables.f.labels",
                "list of strings",
            ),
            (
                r#"f = { value = 1, widget = "check_box", options = [1] }"#,
                "variables.f.options",
                "two values",
            ),
            (
                r#"f = { value = 1, gui_hint = "x,y" }"#,
                "variables.f.gui_hint",
                "row,col",
            ),
            (
                r#"f = { value = 1, gui_hint = 3 }"#,
                "variables.f.gui_hint",
                "a string",
            ),
        ] {
            let e = read(vars).unwrap_err().to_string();
            assert!(e.contains(key) && e.contains(says), "{vars}: {e}");
        }
    }
}
