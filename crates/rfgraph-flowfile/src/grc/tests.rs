//! The importer against a small registry of stand-in specs (the real
//! blocks are registered by the block crates; these tests check the
//! translation, not the blocks). The stand-ins declare the real blocks'
//! GNU Radio aliases, through which most parameters pass.

use super::*;
use crate::model::{ConnectionKind, GuiHint, Orient, Value, VariableWidget, WidgetKind};
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};

const KINDS: [ItemKind; 5] = [
    ItemKind::F32,
    ItemKind::C32,
    ItemKind::I32,
    ItemKind::I16,
    ItemKind::U8,
];

fn spec(name: &'static str) -> BlockSpec {
    BlockSpec::new(name, "Test", "stand-in", |p| Err(p.refused("a stand-in")))
}

fn registry() -> Registry {
    let mut r = Registry::new();
    r.add(
        spec("sig_source")
            .param(ParamSpec::float("sample_rate").alias("samp_rate"))
            .param(ParamSpec::string("waveform").choices(&[
                "constant", "sine", "cosine", "square", "triangle", "sawtooth",
            ]))
            .param(ParamSpec::float("frequency").alias("freq").settable())
            .param(ParamSpec::float("amplitude").alias("amp"))
            .param(ParamSpec::any("offset"))
            .param(ParamSpec::float("phase"))
            .param(ParamSpec::uint("items").default(0u64))
            .param(ParamSpec::item_type(&[ItemKind::C32, ItemKind::F32]))
            .output(PortSpec::new("out", PortItem::OfType))
            .message_input("cmd"),
    );
    r.add(
        spec("throttle")
            .param(ParamSpec::float("sample_rate").alias("samples_per_second"))
            .param(ParamSpec::item_type(&KINDS))
            .input(PortSpec::new("in", PortItem::OfType))
            .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        spec("multiply_const")
            .param(ParamSpec::any("constant").alias("const"))
            .param(ParamSpec::item_type(&KINDS))
            .input(PortSpec::new("in", PortItem::OfType))
            .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        spec("add")
            .param(ParamSpec::uint("inputs").alias("num_inputs").default(2u64))
            .param(ParamSpec::item_type(&KINDS))
            .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
            .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        spec("null_sink")
            .param(ParamSpec::item_type(&KINDS))
            .input(PortSpec::new("in", PortItem::OfType)),
    );
    r.add(
        spec("null_source")
            .param(ParamSpec::uint("items").default(0u64))
            .param(ParamSpec::item_type(&KINDS))
            .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        spec("vector_source")
            .param(ParamSpec::any("values").alias("vector"))
            .param(ParamSpec::bool("repeat").default(false))
            .param(ParamSpec::item_type(&KINDS))
            .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        spec("head")
            .param(ParamSpec::uint("items").alias("num_items"))
            .param(ParamSpec::item_type(&KINDS))
            .input(PortSpec::new("in", PortItem::OfType))
            .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        spec("complex_to_mag")
            .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
            .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32))),
    );
    r.add(
        spec("message_strobe")
            .param(ParamSpec::any("message").alias("msg"))
            .param(ParamSpec::float("period"))
            .message_output("strobe"),
    );
    r.add(
        spec("message_debug")
            .param(ParamSpec::bool("en_uvec").default(true))
            .message_input("print")
            .message_input("store"),
    );
    r
}

fn block(name: &str, id: &str, params: &[(&str, &str)], state: &str) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        if v.contains('\n') {
            s.push_str(&format!("    {k}: {v:?}\n"));
        } else {
            s.push_str(&format!("    {k}: '{v}'\n"));
        }
    }
    s.push_str(&format!(
        "  states:\n    coordinate: [0, 0]\n    state: {state}\n"
    ));
    s
}

fn grc(blocks: &[String], conns: &[(&str, &str, &str, &str)]) -> String {
    let mut s = String::from(
        "options:\n  parameters:\n    id: t\n    title: Test graph\n    generate_options: qt_gui\nblocks:\n",
    );
    for b in blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    for (a, ap, b, bp) in conns {
        s.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
    }
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

fn src(name: &str, ty: &str) -> String {
    block(
        name,
        "analog_sig_source_x",
        &[
            ("type", ty),
            ("samp_rate", "samp_rate"),
            ("waveform", "analog.GR_SIN_WAVE"),
            ("freq", "freq"),
            ("amp", "1"),
            ("offset", "0"),
            ("phase", "0"),
            ("affinity", ""),
        ],
        "enabled",
    )
}

fn load(text: &str) -> Result<Document, GrcError> {
    from_str(text, Path::new("t.grc"), &registry())
}

#[test]
fn blocks_parameters_variables_and_connections_are_translated() {
    let text = grc(
        &[
            block(
                "freq",
                "variable_qtgui_range",
                &[
                    ("value", "1000"),
                    ("start", "0"),
                    ("stop", "samp_rate / 4"),
                    ("step", "10"),
                    ("label", "Frequency"),
                ],
                "enabled",
            ),
            block("samp_rate", "variable", &[("value", "32000")], "enabled"),
            block(
                "imp",
                "import",
                &[("imports", "import math\nfrom gnuradio import filter")],
                "enabled",
            ),
            src("src", "complex"),
            block(
                "thr",
                "blocks_throttle",
                &[
                    ("type", "complex"),
                    ("samples_per_second", "samp_rate"),
                    ("vlen", "1"),
                ],
                "enabled",
            ),
            block(
                "mul",
                "blocks_multiply_const_vxx",
                &[("type", "complex"), ("const", "0.5"), ("vlen", "1")],
                "bypassed",
            ),
            block("vs", "virtual_sink", &[("stream_id", "sig")], "enabled"),
            block("vo", "virtual_source", &[("stream_id", "sig")], "enabled"),
            block("mag", "blocks_complex_to_mag", &[("vlen", "1")], "enabled"),
            block("off", "blocks_complex_to_mag", &[("vlen", "1")], "disabled"),
            block(
                "scope",
                "qtgui_histogram_sink_f",
                &[("type", "float")],
                "enabled",
            ),
            block(
                "strobe",
                "blocks_message_strobe",
                &[("msg", "pmt.intern(\"x\")"), ("period", "100")],
                "enabled",
            ),
            block(
                "dbg",
                "blocks_message_debug",
                &[("en_uvec", "True")],
                "enabled",
            ),
        ],
        &[
            ("src", "0", "thr", "0"),
            ("thr", "0", "mul", "0"),
            ("mul", "0", "vs", "0"),
            ("vo", "0", "mag", "0"),
            ("vo", "0", "off", "0"),
            ("mag", "0", "scope", "0"),
            ("thr", "0", "scope", "1"),
            ("strobe", "strobe", "dbg", "print"),
            ("strobe", "strobe", "src", "cmd"),
        ],
    );
    let doc = load(&text).unwrap();
    assert_eq!(doc.title.as_deref(), Some("Test graph"));
    let names: Vec<&str> = doc.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        ["src", "thr", "mag", "strobe", "dbg", "scope", "scope_1"]
    );
    let s = doc.block("src").unwrap();
    assert_eq!(s.kind, "sig_source");
    assert_eq!(s.param("type").unwrap().value, Value::Text("c32".into()));
    assert_eq!(
        s.param("waveform").unwrap().value,
        Value::Text("sine".into())
    );
    assert_eq!(
        s.param("sample_rate").unwrap().value,
        Value::Expr("samp_rate".into())
    );
    let line = text.lines().position(|l| l == "    freq: 'freq'").unwrap() + 1;
    assert_eq!(
        s.param("frequency").unwrap().at.to_string(),
        format!("t.grc:{line}:11")
    );
    assert!(s.param("affinity").is_none());
    let thr = doc.block("thr").unwrap();
    assert_eq!(
        thr.param("sample_rate").unwrap().value,
        Value::Expr("samp_rate".into())
    );
    // GUI sink inputs: null sinks typed by what feeds them.
    assert_eq!(
        doc.block("scope").unwrap().param("type").unwrap().value,
        Value::Text("f32".into())
    );
    assert_eq!(
        doc.block("scope_1").unwrap().param("type").unwrap().value,
        Value::Text("c32".into())
    );
    assert!(
        doc.notices
            .iter()
            .any(|n| n.contains("qtgui_histogram_sink_f 'scope'")),
        "{:?}",
        doc.notices
    );
    let conns: Vec<String> = doc
        .connections
        .iter()
        .map(|c| {
            format!(
                "{}->{}{}",
                c.from,
                c.to,
                if c.kind == ConnectionKind::Message {
                    " (msg)"
                } else {
                    ""
                }
            )
        })
        .collect();
    assert_eq!(
        conns,
        [
            "src.out->thr.in",
            "thr.out->mag.in",
            "mag.out->scope.in",
            "thr.out->scope_1.in",
            "strobe.strobe->dbg.print (msg)",
            "strobe.strobe->src.cmd (msg)",
        ]
    );
    let freq = doc.variable("freq").unwrap();
    assert!(freq.settable);
    assert_eq!(freq.label.as_deref(), Some("Frequency"));
    assert_eq!(
        freq.widget,
        Some(VariableWidget::new(WidgetKind::Range {
            start: 0.0,
            stop: 8000.0,
            step: 10.0,
            style: "counter_slider".into(),
            orient: Orient::Horizontal,
        }))
    );
    assert_eq!(
        doc.variable("samp_rate").unwrap().value,
        Value::Expr("32000".into())
    );
    assert!(doc.variable("imp").is_none());
}

#[test]
fn repeated_ports_take_gnu_radio_indices() {
    let text = grc(
        &[
            src("a", "float"),
            src("b", "float"),
            block(
                "sum",
                "blocks_add_xx",
                &[("type", "float"), ("num_inputs", "2"), ("vlen", "1")],
                "enabled",
            ),
            block(
                "snk",
                "blocks_null_sink",
                &[("type", "float"), ("vlen", "1"), ("num_inputs", "1")],
                "enabled",
            ),
        ],
        &[
            ("a", "0", "sum", "0"),
            ("b", "0", "sum", "1"),
            ("sum", "0", "snk", "0"),
        ],
    );
    let doc = load(&text).unwrap();
    let to: Vec<String> = doc.connections.iter().map(|c| c.to.to_string()).collect();
    assert_eq!(to, ["sum.in0", "sum.in1", "snk.in"]);
    assert_eq!(
        doc.block("sum").unwrap().param("inputs").unwrap().value,
        Value::Expr("2".into())
    );
}

#[test]
fn variables_only_gui_blocks_read_may_use_ignored_imports() {
    // GNU Radio's qt-gui examples find their pictures with `subprocess`.
    let text = grc(
        &[
            block(
                "imp",
                "import",
                &[("imports", "import subprocess")],
                "enabled",
            ),
            block(
                "picture",
                "variable",
                &[("value", "subprocess.getoutput(\"pwd\") + \"/earth.jpg\"")],
                "enabled",
            ),
            block("samp_rate", "variable", &[("value", "32000")], "enabled"),
            block(
                "overlay",
                "qtgui_graphicitem",
                &[("file", "picture")],
                "enabled",
            ),
            src("src", "float"),
            block("snk", "blocks_null_sink", &[("type", "float")], "enabled"),
        ],
        &[("src", "0", "snk", "0")],
    );
    let doc = load(&text).unwrap();
    assert!(doc.variable("picture").is_none());
    assert!(doc.variable("samp_rate").is_some());
    assert!(
        doc.notices
            .iter()
            .any(|n| n.contains("'picture'") && n.contains("left out")),
        "{:?}",
        doc.notices
    );
}

#[test]
fn every_unsupported_block_comes_in_one_error_and_unknown_imports_only_matter_when_used() {
    let text = grc(
        &[
            block("imp", "import", &[("imports", "import os")], "enabled"),
            block("path", "variable", &[("value", "os.getcwd()")], "enabled"),
            block(
                "picture",
                "variable",
                &[("value", "os.getcwd()")],
                "enabled",
            ),
            block(
                "sink",
                "blocks_head",
                &[("type", "float"), ("num_items", "len(path)")],
                "enabled",
            ),
            block("ofdm", "dtv_dvbt2_p1insertion_cc", &[], "enabled"),
            src("src", "int"),
            block(
                "m",
                "blocks_multiply_const_vxx",
                &[("type", "float"), ("const", "[1, 2]"), ("vlen", "2")],
                "enabled",
            ),
            block("ad", "blocks_add_xxx", &[], "enabled"),
            block("dis", "dtv_dvbt2_modulator_bc", &[], "disabled"),
        ],
        &[("src", "0", "m", "0"), ("src", "0", "sink", "0")],
    );
    let e = load(&text).unwrap_err();
    let GrcError::Unsupported { blocks, .. } = &e else {
        panic!("{e}")
    };
    let ids: Vec<&str> = blocks.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "variable",
            "dtv_dvbt2_p1insertion_cc",
            "analog_sig_source_x",
            "blocks_multiply_const_vxx",
            "blocks_add_xxx"
        ]
    );
    let msg = e.to_string();
    assert!(
        msg.starts_with(
            "t.grc: unsupported blocks: variable 'path' (line 14: its value reads `os`, \
             which an ignored import gives)"
        ),
        "{msg}"
    );
    // `picture` reads `os` too, but no block that runs reads it.
    assert!(!msg.contains("'picture'"), "{msg}");
    assert!(
        msg.contains("dtv_dvbt2_p1insertion_cc 'ofdm' (line 36)"),
        "{msg}"
    );
    assert!(
        msg.contains("no rfgraph item type for `int`") || msg.contains("not `i32`"),
        "{msg}"
    );
    assert!(msg.contains("vlen `2`"), "{msg}");
    assert!(msg.contains("did you mean `blocks_add_xx`?"), "{msg}");
    assert!(
        !msg.contains("dtv_dvbt2_modulator_bc"),
        "disabled blocks are dropped: {msg}"
    );
}

#[test]
fn missing_registry_blocks_and_message_ports_make_blocks_unsupported() {
    let text = grc(
        &[
            block(
                "lpf",
                "low_pass_filter",
                &[("type", "fir_filter_fff")],
                "enabled",
            ),
            block(
                "strobe",
                "blocks_message_strobe",
                &[("period", "100")],
                "enabled",
            ),
            block("dbg", "blocks_message_debug", &[], "enabled"),
        ],
        &[("strobe", "strobe", "dbg", "print_pdu")],
    );
    let msg = load(&text).unwrap_err().to_string();
    assert!(
        msg.contains("low_pass_filter 'lpf' (line 7: rfgraph has no `low_pass_filter` block yet)"),
        "{msg}"
    );
    assert!(msg.contains("no message input `print_pdu`"), "{msg}");
}

#[test]
fn hardware_is_replaced_and_sources_are_bounded_on_request() {
    let text = grc(
        &[
            block("usrp", "uhd_usrp_source", &[("type", "fc32")], "enabled"),
            block("audio", "audio_sink", &[("samp_rate", "48000")], "enabled"),
            block("mag", "blocks_complex_to_mag", &[], "enabled"),
            src("tone", "float"),
        ],
        &[
            ("usrp", "0", "mag", "0"),
            ("mag", "0", "audio", "0"),
            ("tone", "0", "audio", "1"),
        ],
    );
    let opts = LoadOptions {
        max_items: Some(4096),
    };
    let doc = from_str_with(&text, Path::new("t.grc"), &registry(), &opts).unwrap();
    let usrp = doc.block("usrp").unwrap();
    assert_eq!(usrp.kind, "null_source");
    assert_eq!(usrp.param("items").unwrap().value, Value::Int(4096));
    assert_eq!(
        doc.block("tone").unwrap().param("items").unwrap().value,
        Value::Int(4096)
    );
    assert_eq!(doc.block("audio_1").unwrap().kind, "null_sink");
    assert_eq!(doc.notices.len(), 2, "{:?}", doc.notices);
    assert!(
        load(&text)
            .unwrap()
            .block("tone")
            .unwrap()
            .param("items")
            .is_none()
    );
}

#[test]
fn connection_errors_name_the_place_and_suggest() {
    let text = grc(
        &[
            src("src", "float"),
            block("snk", "blocks_null_sink", &[("type", "float")], "enabled"),
        ],
        &[("src", "0", "snkk", "0")],
    );
    let e = load(&text).unwrap_err().to_string();
    assert!(
        e.starts_with("t.grc:") && e.contains("(did you mean `snk`?)"),
        "{e}"
    );
    let text = grc(
        &[
            src("src", "float"),
            block("snk", "blocks_null_sink", &[("type", "float")], "enabled"),
        ],
        &[("src", "0", "snk", "3")],
    );
    let e = load(&text).unwrap_err().to_string();
    assert!(
        e.contains("rfgraph's `null_sink` has no stream input 3"),
        "{e}"
    );
}

#[test]
fn filter_tap_label_and_widget_variables_become_variables() {
    let text = grc(
        &[
            block(
                "lp",
                "variable_low_pass_filter_taps",
                &[
                    ("gain", "1.0"),
                    ("samp_rate", "fs"),
                    ("cutoff_freq", "1e3"),
                    ("width", "200"),
                    ("win", "window.WIN_HAMMING"),
                    ("beta", "6.76"),
                ],
                "enabled",
            ),
            block(
                "fs",
                "variable_qtgui_label",
                &[("value", "48e3")],
                "enabled",
            ),
            block(
                "tag0",
                "variable_tag_object",
                &[("key", "pmt.intern(\"k\")")],
                "enabled",
            ),
            block(
                "dial",
                "variable_qtgui_dial_control",
                &[("value", "3")],
                "enabled",
            ),
            block(
                "ant",
                "variable_qtgui_chooser",
                &[
                    ("type", "string"),
                    ("num_opts", "2"),
                    ("value", "TX/RX"),
                    ("option0", "TX/RX"),
                    ("option1", "RX2"),
                ],
                "enabled",
            ),
            block(
                "f",
                "qtgui_msgdigitalnumbercontrol",
                &[("value", "100e6")],
                "enabled",
            ),
        ],
        &[],
    );
    let doc = load(&text).unwrap();
    assert_eq!(
        doc.variable("lp").unwrap().value,
        Value::Expr("firdes.low_pass(1.0, fs, 1e3, 200, window.WIN_HAMMING, 6.76)".into())
    );
    assert_eq!(
        doc.variable("fs").unwrap().value,
        Value::Expr("48e3".into())
    );
    // A tag object is the `[offset, key, value]` a vector source's
    // `tags` takes.
    assert_eq!(
        doc.variable("tag0").unwrap().value,
        Value::List(vec![
            Value::Expr("0".into()),
            Value::Expr("\"k\"".into()),
            Value::Expr("None".into()),
        ])
    );
    let dial = doc.variable("dial").unwrap();
    assert!(dial.settable);
    assert_eq!(dial.widget, Some(VariableWidget::new(WidgetKind::Entry)));
    let ant = doc.variable("ant").unwrap();
    assert_eq!(ant.value, Value::Text("TX/RX".into()));
    assert_eq!(
        ant.widget,
        Some(VariableWidget::new(WidgetKind::Chooser {
            options: vec![Value::Text("TX/RX".into()), Value::Text("RX2".into())],
            labels: vec!["TX/RX".into(), "RX2".into()],
            style: "combo_box".into(),
            orient: Orient::Vertical,
        }))
    );
    assert_eq!(
        doc.variable("f").unwrap().value,
        Value::Expr("100e6".into())
    );
}

#[test]
fn gui_variables_keep_their_widget_style_layout_and_place() {
    let text = grc(
        &[
            block(
                "gain",
                "variable_qtgui_range",
                &[
                    ("value", "5"),
                    ("start", "0"),
                    ("stop", "10"),
                    ("step", "0.5"),
                    ("widget", "slider"),
                    ("orient", "QtCore.Qt.Vertical"),
                    ("gui_hint", "tab@1: 2,0,1,2"),
                ],
                "enabled",
            ),
            block(
                "mode",
                "variable_qtgui_chooser",
                &[
                    ("type", "int"),
                    ("num_opts", "0"),
                    ("options", "[0, 1]"),
                    ("labels", "[\"AM\", \"FM\"]"),
                    ("value", "0"),
                    ("widget", "radio_buttons"),
                    ("orient", "Qt.QHBoxLayout"),
                    ("gui_hint", "0,1"),
                ],
                "enabled",
            ),
            block(
                "mute",
                "variable_qtgui_check_box",
                &[
                    ("type", "int"),
                    ("value", "1"),
                    ("true", "1"),
                    ("false", "0"),
                    ("gui_hint", "oops@"),
                ],
                "enabled",
            ),
            block(
                "ping",
                "variable_qtgui_push_button",
                &[("type", "int"), ("pressed", "7"), ("released", "3")],
                "enabled",
            ),
        ],
        &[],
    );
    let doc = load(&text).unwrap();
    let gain = doc.variable("gain").unwrap();
    assert!(gain.settable);
    assert_eq!(
        gain.widget,
        Some(VariableWidget {
            kind: WidgetKind::Range {
                start: 0.0,
                stop: 10.0,
                step: 0.5,
                style: "slider".into(),
                orient: Orient::Vertical,
            },
            gui_hint: Some(GuiHint {
                tab: Some("tab".into()),
                tab_index: Some(1),
                row: Some(2),
                col: Some(0),
                row_span: 1,
                col_span: 2,
            }),
        })
    );
    let mode = doc.variable("mode").unwrap().widget.clone().unwrap();
    assert_eq!(
        mode.kind,
        WidgetKind::Chooser {
            options: vec![Value::Expr("0".into()), Value::Expr("1".into())],
            labels: vec!["AM".into(), "FM".into()],
            style: "radio_buttons".into(),
            orient: Orient::Horizontal,
        }
    );
    assert_eq!(mode.gui_hint.and_then(|h| h.col), Some(1));
    let mute = doc.variable("mute").unwrap();
    assert!(mute.settable);
    // A hint GNU Radio would refuse: no place, no error.
    assert_eq!(
        mute.widget,
        Some(VariableWidget::new(WidgetKind::CheckBox {
            on: Value::Expr("1".into()),
            off: Value::Expr("0".into()),
        }))
    );
    let ping = doc.variable("ping").unwrap();
    assert_eq!(ping.value, Value::Expr("3".into()));
    assert_eq!(
        ping.widget.as_ref().map(|w| w.to_json()),
        Some(serde_json::json!({
            "kind": "push_button", "pressed": "7", "released": "3", "gui_hint": null
        }))
    );
}

#[test]
fn repeating_sources_without_items_get_a_head_when_bounded() {
    let text = grc(
        &[
            block(
                "vs",
                "blocks_vector_source_x",
                &[
                    ("type", "float"),
                    ("vector", "(1, 2, 3)"),
                    ("repeat", "True"),
                    ("vlen", "1"),
                ],
                "enabled",
            ),
            block(
                "once",
                "blocks_vector_source_x",
                &[
                    ("type", "float"),
                    ("vector", "(1, 2)"),
                    ("repeat", "False"),
                    ("vlen", "1"),
                ],
                "enabled",
            ),
            block(
                "snk",
                "blocks_null_sink",
                &[("type", "float"), ("vlen", "1")],
                "enabled",
            ),
            block(
                "snk2",
                "blocks_null_sink",
                &[("type", "float"), ("vlen", "1")],
                "enabled",
            ),
        ],
        &[("vs", "0", "snk", "0"), ("once", "0", "snk2", "0")],
    );
    let opts = LoadOptions {
        max_items: Some(100),
    };
    let doc = from_str_with(&text, Path::new("t.grc"), &registry(), &opts).unwrap();
    let head = doc.block("vs_bound").unwrap();
    assert_eq!(head.kind, "head");
    assert_eq!(head.param("items").unwrap().value, Value::Int(100));
    assert_eq!(head.param("type").unwrap().value, Value::Text("f32".into()));
    let conns: Vec<String> = doc
        .connections
        .iter()
        .map(|c| format!("{}->{}", c.from, c.to))
        .collect();
    assert_eq!(
        conns,
        [
            "vs_bound.out->snk.in",
            "once.out->snk2.in",
            "vs.out->vs_bound.in"
        ]
    );
    assert!(
        doc.block("once_bound").is_none(),
        "a source that does not repeat ends by itself"
    );
}
