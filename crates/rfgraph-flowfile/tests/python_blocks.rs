//! Python blocks in documents (`rfgraph_flowfile::python`): GRC's
//! `epy_block` / `epy_module` and TOML's `kind = "python"` read into
//! blocks of kind `python` / `python_module` with their code and
//! arguments; their ports named as a Python block's; the arguments
//! evaluated with the variables (GRC text the evaluator lacks left to
//! Python); a resolved block built like any; without Python, an error
//! naming the blocks.

use rfgraph_flowfile::build::{BuildOptions, build};
use rfgraph_flowfile::expr;
use rfgraph_flowfile::model::{ConnectionKind, Value};
use rfgraph_flowfile::python::{self, Argument};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const GRC: &str = r#"options:
  parameters: {id: epy_test, title: Epy}
blocks:
- name: k
  id: variable
  parameters: {value: '2.5'}
- name: helpers
  id: epy_module
  parameters: {source_code: "OFFSET = 1\n"}
- name: src
  id: blocks_vector_source_x
  parameters: {type: float, vector: '[1.0, 2.0]', repeat: 'False', tags: '[]', vlen: '1'}
- name: epy_0
  id: epy_block
  parameters:
    _source_code: "from gnuradio import gr\n"
    affinity: ''
    alias: ''
    comment: ''
    gain: k * 2
    label: "'text'"
    table: helpers.TABLE
    maxoutbuf: '0'
    minoutbuf: '0'
- name: snk
  id: blocks_null_sink
  parameters: {type: float, vlen: '1', num_inputs: '1'}
- name: dbg
  id: blocks_message_debug
  parameters: {en_uvec: 'True'}
connections:
- [src, '0', epy_0, '0']
- [epy_0, '0', snk, '0']
- [epy_0, stats, dbg, print]
"#;

fn registry() -> rfgraph::registry::Registry {
    rfgraph_flowfile::standard::registry()
}

#[test]
fn grc_epy_blocks_become_python_blocks_with_their_code_and_arguments() {
    let doc = rfgraph_flowfile::grc::from_str(GRC, Path::new("epy.grc"), &registry()).unwrap();
    let epy = doc.block("epy_0").expect("the epy block");
    assert_eq!(epy.kind, python::BLOCK_KIND);
    let param = |n: &str| epy.param(n).map(|p| p.value.clone());
    assert_eq!(
        param(python::SOURCE_PARAM),
        Some(Value::Text("from gnuradio import gr\n".into()))
    );
    assert_eq!(param("gain"), Some(Value::Expr("k * 2".into())));
    assert_eq!(param("affinity"), None);
    let module = doc.block("helpers").expect("the module");
    assert_eq!(module.kind, python::MODULE_KIND);
    let ends: Vec<String> = doc
        .connections
        .iter()
        .map(|c| format!("{} -> {} ({:?})", c.from, c.to, c.kind))
        .collect();
    assert!(
        ends.contains(&"src.out -> epy_0.in0 (Stream)".to_string()),
        "{ends:?}"
    );
    assert!(
        doc.connections
            .iter()
            .any(|c| c.from.to_string() == "epy_0.stats" && c.kind == ConnectionKind::Message),
        "{ends:?}"
    );

    let d = python::declarations(&doc, &[]).unwrap();
    assert_eq!(d.modules.len(), 1);
    assert_eq!(d.modules[0].name, "helpers");
    assert_eq!(d.modules[0].source, "OFFSET = 1\n");
    let b = &d.blocks[0];
    assert_eq!(b.name, "epy_0");
    let arg = |n: &str| {
        b.kwargs
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(arg("gain"), Some(Argument::Value(expr::Value::Float(5.0))));
    assert_eq!(
        arg("label"),
        Some(Argument::Value(expr::Value::Str("text".into())))
    );
    // The evaluator has no `helpers`: Python evaluates it.
    assert_eq!(arg("table"), Some(Argument::Python("helpers.TABLE".into())));

    let message = python::needs_python(&doc).expect("it needs Python");
    assert!(
        message.contains("`epy_0` (embedded Python block)"),
        "{message}"
    );
    assert!(
        message.contains("pip install ./crates/rfgraph-python"),
        "{message}"
    );
}

#[test]
fn a_resolved_python_block_builds_as_the_block_it_declared() {
    let text = r#"format = 1
connections = ["src -> scale -> snk"]
[variables]
k = 3
[blocks.src]
kind = "vector_source"
type = "f32"
values = [1.0, 2.0]
[blocks.scale]
kind = "python"
module = "mymod:Scale"
factor = "k * 2"
name = "plain text"
[blocks.snk]
kind = "null_sink"
type = "f32"
"#;
    let mut doc = rfgraph_flowfile::toml::parse(text, Arc::new(PathBuf::from("p.toml"))).unwrap();
    let d = python::declarations(&doc, &[("k".into(), "4".into())]).unwrap();
    let b = &d.blocks[0];
    assert_eq!(b.module.as_deref(), Some("mymod:Scale"));
    assert_eq!(
        b.kwargs,
        vec![
            ("factor".to_string(), Argument::Value(expr::Value::Int(8))),
            (
                "name".to_string(),
                Argument::Value(expr::Value::Str("plain text".into()))
            ),
        ]
    );
    // Stands in for what the Python package declares (a 1:1 f32 block).
    python::resolve(
        &mut doc,
        "scale",
        "multiply_const",
        vec![
            ("type".into(), Value::Text("f32".into())),
            ("constant".into(), Value::Float(8.0)),
        ],
    )
    .unwrap();
    assert!(python::needs_python(&doc).is_none());
    let options = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    build(&doc, &registry(), &options).expect("the resolved document builds");
    assert!(python::resolve(&mut doc, "nope", "head", vec![]).is_err());
}

#[test]
fn a_toml_python_block_without_module_is_an_error_at_its_place() {
    let text = "format = 1\n[blocks.b]\nkind = \"python\"\nx = 1\n";
    let doc = rfgraph_flowfile::toml::parse(text, Arc::new(PathBuf::from("p.toml"))).unwrap();
    let e = python::declarations(&doc, &[]).unwrap_err();
    assert!(e.to_string().contains("needs `module"), "{e}");
    assert!(e.to_string().starts_with("p.toml:2"), "{e}");
}

#[test]
fn the_registry_documents_the_python_block() {
    let registry = registry();
    let spec = registry.get("python").expect("a `python` entry");
    assert!(spec.param_spec("module").is_some());
    assert!(spec.doc.contains("keyword argument"));
}
