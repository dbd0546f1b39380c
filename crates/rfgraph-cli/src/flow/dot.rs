//! `rfgraph dot FILE`: the checked graph as Graphviz on stdout (streams as
//! solid edges labelled with their item type, messages dashed).

use super::FileArgs;
use crate::console::out;
use rfgraph_flowfile::model::ConnectionKind;
use std::fmt::Write;

fn quote(s: &str) -> String {
    format!("\"{}\"", label_text(s))
}

/// Text inside a quoted label: quotes and backslashes escaped, so that
/// the `\n` between the lines is the only escape Graphviz sees.
fn label_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes the graph of the file as Graphviz `dot`.
pub fn dot(args: FileArgs) -> anyhow::Result<()> {
    let built = args.build(true)?;
    out!("{}", to_dot(&built));
    Ok(())
}

/// The Graphviz text of a built graph.
pub fn to_dot(built: &rfgraph_flowfile::build::Built) -> String {
    let mut out = String::new();
    let title = built
        .title
        .clone()
        .unwrap_or_else(|| "flowgraph".to_string());
    let _ = writeln!(out, "digraph {} {{", quote(&title));
    let _ = writeln!(out, "  rankdir=LR;");
    let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
    for b in &built.blocks {
        let _ = writeln!(
            out,
            "  {} [label=\"{}\\n{}\"];",
            quote(&b.name),
            label_text(&b.name),
            label_text(&b.kind)
        );
    }
    for e in &built.edges {
        let (from_block, from_port) = e.from.rsplit_once('.').unwrap_or((&e.from, ""));
        let (to_block, to_port) = e.to.rsplit_once('.').unwrap_or((&e.to, ""));
        let label = match e.kind {
            ConnectionKind::Stream => format!("{from_port} -> {to_port} ({})", e.item),
            ConnectionKind::Message => format!("{from_port} => {to_port}"),
        };
        let style = match e.kind {
            ConnectionKind::Stream => "",
            ConnectionKind::Message => ", style=dashed",
        };
        let _ = writeln!(
            out,
            "  {} -> {} [label={}{style}];",
            quote(from_block),
            quote(to_block),
            quote(&label)
        );
    }
    out.push_str("}\n");
    out
}
