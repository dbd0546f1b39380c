//! [`VariableWidget`]: how a user interface draws and sets a GUI
//! variable (GNU Radio's Qt GUI range, chooser, entry, check box and
//! push button, or a TOML variable's `widget`), where GNU Radio placed
//! it ([`GuiHint`], parsed from GRC's `gui_hint` text), and its JSON form
//! for a web page ([`VariableWidget::to_json`]).

use super::value::Value;
use serde_json::{Value as Json, json};

/// A GUI variable's widget and its place.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableWidget {
    /// What it is.
    pub kind: WidgetKind,
    /// Where GNU Radio's window placed it, if the file says.
    pub gui_hint: Option<GuiHint>,
}

/// Which way a widget's parts are laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orient {
    /// Side by side.
    #[default]
    Horizontal,
    /// One above the other.
    Vertical,
}

impl Orient {
    /// `"horizontal"` or `"vertical"`.
    pub fn name(self) -> &'static str {
        match self {
            Orient::Horizontal => "horizontal",
            Orient::Vertical => "vertical",
        }
    }

    /// GRC's orientation text (`QtCore.Qt.Vertical`, `Qt.QVBoxLayout`, or
    /// plain `vertical`): vertical when it names it, else horizontal.
    pub fn parse(text: &str) -> Self {
        let t = text.to_ascii_lowercase();
        if t.contains("vertical") || t.contains("qvbox") {
            Orient::Vertical
        } else {
            Orient::Horizontal
        }
    }
}

/// The kinds of widget, with what each needs to be drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum WidgetKind {
    /// A number from `start` to `stop` in `step`s.
    Range {
        /// Lowest value.
        start: f64,
        /// Highest value.
        stop: f64,
        /// Step.
        step: f64,
        /// How it is drawn: GRC's `widget` (`counter_slider`, `slider`,
        /// `counter`, `dial`, `eng`, `eng_slider`).
        style: String,
        /// Its layout.
        orient: Orient,
    },
    /// One of these values, with labels.
    Chooser {
        /// The values, as expressions (literal text for a string
        /// chooser).
        options: Vec<Value>,
        /// Their labels.
        labels: Vec<String>,
        /// How it is drawn: GRC's `widget` (`combo_box`, `radio_buttons`,
        /// `push_buttons`).
        style: String,
        /// Its layout.
        orient: Orient,
    },
    /// Free text (an expression, or a string).
    Entry,
    /// A check box: the variable is `on` when checked, `off` when not.
    CheckBox {
        /// The value when checked (GRC's `true`).
        on: Value,
        /// The value when not (GRC's `false`).
        off: Value,
    },
    /// A button: the variable is `pressed` while held, `released` after.
    PushButton {
        /// The value while pressed.
        pressed: Value,
        /// The value once released.
        released: Value,
    },
}

impl VariableWidget {
    /// A widget of `kind` with no place.
    pub fn new(kind: WidgetKind) -> Self {
        Self {
            kind,
            gui_hint: None,
        }
    }

    /// With the place GRC's `gui_hint` text gives (none for an empty or
    /// unreadable one).
    pub fn at(mut self, gui_hint: &str) -> Self {
        self.gui_hint = GuiHint::parse(gui_hint);
        self
    }

    /// The widget for a web page:
    ///
    /// - `{"kind":"range","style":S,"orient":O,"start":N,"stop":N,"step":N,"gui_hint":H}`
    /// - `{"kind":"chooser","style":S,"orient":O,"options":[T,…],"labels":[S,…],"gui_hint":H}`
    /// - `{"kind":"entry","gui_hint":H}`
    /// - `{"kind":"check_box","true":T,"false":T,"gui_hint":H}`
    /// - `{"kind":"push_button","pressed":T,"released":T,"gui_hint":H}`
    ///
    /// where `O` is `"horizontal"` or `"vertical"`, each `T` a value's
    /// text (what setting the variable to it takes: an expression, or
    /// the literal text of a string), and `H` `null` or
    /// [`GuiHint::to_json`]'s object.
    pub fn to_json(&self) -> Json {
        let hint = self.gui_hint.as_ref().map_or(Json::Null, GuiHint::to_json);
        match &self.kind {
            WidgetKind::Range {
                start,
                stop,
                step,
                style,
                orient,
            } => json!({
                "kind": "range",
                "style": style,
                "orient": orient.name(),
                "start": start,
                "stop": stop,
                "step": step,
                "gui_hint": hint,
            }),
            WidgetKind::Chooser {
                options,
                labels,
                style,
                orient,
            } => json!({
                "kind": "chooser",
                "style": style,
                "orient": orient.name(),
                "options": options.iter().map(value_text).collect::<Vec<_>>(),
                "labels": labels,
                "gui_hint": hint,
            }),
            WidgetKind::Entry => json!({ "kind": "entry", "gui_hint": hint }),
            WidgetKind::CheckBox { on, off } => json!({
                "kind": "check_box",
                "true": value_text(on),
                "false": value_text(off),
                "gui_hint": hint,
            }),
            WidgetKind::PushButton { pressed, released } => json!({
                "kind": "push_button",
                "pressed": value_text(pressed),
                "released": value_text(released),
                "gui_hint": hint,
            }),
        }
    }
}

/// A value as the text that sets a variable to it.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Expr(t) | Value::Text(t) => t.clone(),
        Value::Bool(b) => if *b { "True" } else { "False" }.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(value_text).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Where GNU Radio's Qt window places a widget or display (GRC's
/// `gui_hint`: `row, col[, row_span, col_span]`, optionally after
/// `tab@index:`, or only `tab@index`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuiHint {
    /// The tab widget it is in, if any.
    pub tab: Option<String>,
    /// Which of that widget's tabs.
    pub tab_index: Option<u32>,
    /// Grid row, if placed on the grid.
    pub row: Option<u32>,
    /// Grid column, if placed on the grid.
    pub col: Option<u32>,
    /// Rows it spans (1 unless given).
    pub row_span: u32,
    /// Columns it spans (1 unless given).
    pub col_span: u32,
}

/// Largest grid coordinate or span a hint may give.
const MAX_GRID: u32 = 1000;

impl GuiHint {
    /// Reads GRC's `gui_hint` text; `None` for an empty or unreadable
    /// hint (never panics).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let (tab, grid) = match text.split_once('@') {
            Some((tab, rest)) => {
                let (index, grid) = rest.split_once(':').unwrap_or((rest, ""));
                let tab = tab.trim();
                let ident =
                    !tab.is_empty() && tab.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !ident {
                    return None;
                }
                let index = number(index)?;
                (Some((tab.to_string(), index)), grid.trim())
            }
            None => (None, text),
        };
        let mut hint = GuiHint {
            tab_index: tab.as_ref().map(|t| t.1),
            tab: tab.map(|t| t.0),
            row: None,
            col: None,
            row_span: 1,
            col_span: 1,
        };
        if grid.is_empty() {
            return hint.tab.is_some().then_some(hint);
        }
        let grid = grid
            .trim_start_matches(['(', '['])
            .trim_end_matches([')', ']']);
        let parts: Vec<u32> = grid.split(',').map(number).collect::<Option<_>>()?;
        match parts[..] {
            [row, col] => (hint.row, hint.col) = (Some(row), Some(col)),
            [row, col, rs, cs] if rs > 0 && cs > 0 => {
                (hint.row, hint.col) = (Some(row), Some(col));
                (hint.row_span, hint.col_span) = (rs, cs);
            }
            _ => return None,
        }
        Some(hint)
    }

    /// `{"tab":S|null,"tab_index":N|null,"row":N|null,"col":N|null,"row_span":N,"col_span":N}`.
    pub fn to_json(&self) -> Json {
        json!({
            "tab": self.tab,
            "tab_index": self.tab_index,
            "row": self.row,
            "col": self.col,
            "row_span": self.row_span,
            "col_span": self.col_span,
        })
    }
}

/// A grid number of a hint: a small non-negative integer.
fn number(text: &str) -> Option<u32> {
    text.trim().parse::<u32>().ok().filter(|n| *n <= MAX_GRID)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hint(tab: Option<(&str, u32)>, grid: Option<[u32; 4]>) -> Option<GuiHint> {
        Some(GuiHint {
            tab: tab.map(|t| t.0.to_string()),
            tab_index: tab.map(|t| t.1),
            row: grid.map(|g| g[0]),
            col: grid.map(|g| g[1]),
            row_span: grid.map_or(1, |g| g[2]),
            col_span: grid.map_or(1, |g| g[3]),
        })
    }

    #[test]
    fn gui_hints_read_grc_forms() {
        assert_eq!(GuiHint::parse("0,0,1,2"), hint(None, Some([0, 0, 1, 2])));
        assert_eq!(GuiHint::parse(" 3, 1 "), hint(None, Some([3, 1, 1, 1])));
        assert_eq!(
            GuiHint::parse("tab@1: 2,0"),
            hint(Some(("tab", 1)), Some([2, 0, 1, 1]))
        );
        assert_eq!(
            GuiHint::parse("tabs_0@2:(1,0,1,3)"),
            hint(Some(("tabs_0", 2)), Some([1, 0, 1, 3]))
        );
        assert_eq!(GuiHint::parse("tab@0"), hint(Some(("tab", 0)), None));
        for bad in [
            "",
            "  ",
            "1",
            "1,2,3",
            "a,b",
            "-1,0",
            "0,0,0,1",
            "@1: 0,0",
            "t@x: 0,0",
            "t@1: 0",
            "9999999,0",
            "t a@1",
        ] {
            assert_eq!(GuiHint::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn widgets_as_json() {
        let range = VariableWidget::new(WidgetKind::Range {
            start: 0.0,
            stop: 10.0,
            step: 0.5,
            style: "counter_slider".into(),
            orient: Orient::Horizontal,
        })
        .at("1,0,1,2");
        assert_eq!(
            range.to_json(),
            json!({"kind": "range", "style": "counter_slider", "orient": "horizontal",
                   "start": 0.0, "stop": 10.0, "step": 0.5,
                   "gui_hint": {"tab": null, "tab_index": null, "row": 1, "col": 0,
                                "row_span": 1, "col_span": 2}})
        );
        let chooser = VariableWidget::new(WidgetKind::Chooser {
            options: vec![Value::Expr("1e3".into()), Value::Text("abc".into())],
            labels: vec!["one".into(), "two".into()],
            style: "radio_buttons".into(),
            orient: Orient::Vertical,
        })
        .at("tab@1");
        assert_eq!(
            chooser.to_json(),
            json!({"kind": "chooser", "style": "radio_buttons", "orient": "vertical",
                   "options": ["1e3", "abc"], "labels": ["one", "two"],
                   "gui_hint": {"tab": "tab", "tab_index": 1, "row": null, "col": null,
                                "row_span": 1, "col_span": 1}})
        );
        let check = VariableWidget::new(WidgetKind::CheckBox {
            on: Value::Bool(true),
            off: Value::Int(0),
        });
        assert_eq!(
            check.to_json(),
            json!({"kind": "check_box", "true": "True", "false": "0", "gui_hint": null})
        );
        let button = VariableWidget::new(WidgetKind::PushButton {
            pressed: Value::Expr("1".into()),
            released: Value::Expr("0".into()),
        })
        .at("not a hint");
        assert_eq!(
            button.to_json(),
            json!({"kind": "push_button", "pressed": "1", "released": "0", "gui_hint": null})
        );
        assert_eq!(
            VariableWidget::new(WidgetKind::Entry).to_json(),
            json!({"kind": "entry", "gui_hint": null})
        );
        assert_eq!(Orient::parse("QtCore.Qt.Vertical"), Orient::Vertical);
        assert_eq!(Orient::parse("Qt.QVBoxLayout"), Orient::Vertical);
        assert_eq!(Orient::parse("Qt.QHBoxLayout"), Orient::Horizontal);
    }

    proptest! {
        #[test]
        fn any_hint_text_parses_or_is_none(text in "\\PC{0,40}") {
            let _ = GuiHint::parse(&text);
        }

        #[test]
        fn grid_hints_round_trip(r in 0u32..50, c in 0u32..50, rs in 1u32..5, cs in 1u32..5) {
            let h = GuiHint::parse(&format!("t@3: {r},{c},{rs},{cs}")).unwrap();
            prop_assert_eq!((h.row, h.col, h.row_span, h.col_span), (Some(r), Some(c), rs, cs));
            prop_assert_eq!(h.tab_index, Some(3));
        }
    }
}
