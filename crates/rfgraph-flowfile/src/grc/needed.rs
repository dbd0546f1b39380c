//! Which variables the imported flowgraph needs.
//!
//! GNU Radio evaluates every variable, so a `.grc` file may hold
//! variables whose values rfgraph cannot compute (they call a module
//! rfgraph's expressions leave out, such as `subprocess`) and that only
//! GUI blocks read: an image file for a Qt overlay, say. The GUI blocks
//! are not built here, so neither is needed. This module finds the
//! variables the built blocks read, directly or through other variables;
//! the importer refuses only those.

use std::collections::BTreeSet;

use crate::expr::Expr;
use crate::model::{Document, Value};

/// The names read by `value` when it is an expression (text that does
/// not parse as one reads nothing).
fn reads(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Expr(t) | Value::Text(t) => {
            if let Ok(e) = Expr::parse(t) {
                out.extend(e.names());
            }
        }
        Value::List(items) => items.iter().for_each(|v| reads(v, out)),
        Value::Bool(_) | Value::Int(_) | Value::Float(_) => {}
    }
}

/// The names the blocks of `doc` read, with those the variables they
/// read read in turn.
pub fn needed(doc: &Document) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for b in &doc.blocks {
        b.params.iter().for_each(|p| reads(&p.value, &mut names));
    }
    loop {
        let before = names.len();
        let mut more = BTreeSet::new();
        for v in doc.variables.iter().filter(|v| names.contains(&v.name)) {
            reads(&v.value, &mut more);
        }
        names.extend(more);
        if names.len() == before {
            return names;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{BlockInstance, BlockOptions, Location, ParamValue, Variable};
    use std::path::PathBuf;
    use std::sync::Arc;

    fn at() -> Location {
        Location::new(Arc::new(PathBuf::from("t.grc")), 1, 1)
    }

    fn variable(name: &str, value: &str) -> Variable {
        Variable {
            name: name.into(),
            value: Value::Expr(value.into()),
            at: at(),
            settable: false,
            label: None,
            widget: None,
            probe: None,
        }
    }

    #[test]
    fn variables_read_by_blocks_are_needed_through_other_variables() {
        let mut doc = Document::new(Arc::new(PathBuf::from("t.grc")));
        doc.variables = vec![
            variable("rate", "base * 2"),
            variable("base", "1000"),
            variable("picture", "subprocess.getoutput('x') + '/a.png'"),
        ];
        doc.blocks.push(BlockInstance {
            name: "src".into(),
            kind: "sig_source".into(),
            at: at(),
            kind_at: at(),
            params: vec![ParamValue {
                name: "sample_rate".into(),
                value: Value::List(vec![Value::Expr("rate".into())]),
                at: at(),
            }],
            options: BlockOptions::default(),
        });
        let needed = needed(&doc);
        assert!(needed.contains("rate") && needed.contains("base"));
        assert!(!needed.contains("picture") && !needed.contains("subprocess"));
    }
}
