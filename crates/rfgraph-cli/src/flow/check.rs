//! `rfgraph check FILE`: loads, evaluates and checks a flowgraph without
//! constructing or starting anything (a file sink's constructor would
//! create its file), and prints what it holds. Checks that need the
//! constructed blocks (an unconnected port a block does not mark
//! optional) happen when `rfgraph run` builds it. A hierarchical
//! block's definition (a GRC file of `generate_options: hb`) checks with
//! its pads as its ports, which its users connect; it does not run
//! alone.

use super::FileArgs;
use crate::console::{errln, outln};
use rfgraph_flowfile::model::ConnectionKind;

/// Validates the file and prints a summary on stdout.
pub fn check(args: FileArgs) -> anyhow::Result<()> {
    // A file with Python blocks is checked by Python, which makes them.
    match super::python::delegate(&args, "check", &[], &[])? {
        Some(0) => return Ok(()),
        Some(code) => std::process::exit(code),
        None => {}
    }
    let built = args.build(true)?;
    for n in &built.notices {
        errln!("rfgraph: note: {n}");
    }
    let title = built
        .title
        .as_deref()
        .map(|t| format!(" ({t})"))
        .unwrap_or_default();
    outln!("{}{title}: ok", args.file.display());
    if !built.exposed.is_empty() {
        outln!("a hierarchical block (runs inside another flowgraph); its ports:");
        for p in &built.exposed {
            outln!("  {p}");
        }
    }
    if !built.variables.is_empty() {
        outln!("variables:");
        for (name, value) in &built.variables {
            let mut shown = value.to_string();
            if shown.chars().count() > 70 {
                shown = format!(
                    "{}... ({})",
                    shown.chars().take(60).collect::<String>(),
                    value.describe()
                );
            }
            outln!("  {name} = {shown}");
        }
    }
    outln!("blocks: {}", built.blocks.len());
    for b in &built.blocks {
        outln!("  {} ({})", b.name, b.kind);
    }
    let streams = built
        .edges
        .iter()
        .filter(|e| e.kind == ConnectionKind::Stream)
        .count();
    outln!(
        "connections: {streams} stream, {} message",
        built.edges.len() - streams
    );
    for e in &built.edges {
        match e.kind {
            ConnectionKind::Stream => outln!("  {} -> {} ({})", e.from, e.to, e.item),
            ConnectionKind::Message => outln!("  {} => {}", e.from, e.to),
        }
    }
    let cores = built
        .scheduler
        .cores
        .map(|c| format!(", {c} cores"))
        .unwrap_or_default();
    let budget = built
        .scheduler
        .max_latency
        .map(|d| format!(", latency budget {d:?}"))
        .unwrap_or_default();
    outln!("scheduler: {}{cores}{budget}", built.scheduler.name);
    for v in &built.settable {
        let reaches: Vec<String> = v
            .reaches
            .iter()
            .map(|(b, p, s)| format!("{b}.{p}{}", if *s { "" } else { " (at build only)" }))
            .collect();
        outln!("settable: {} -> {}", v.name, reaches.join(", "));
    }
    Ok(())
}
