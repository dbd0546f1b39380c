//! `rfgraph check FILE`: loads, evaluates, checks and builds a flowgraph
//! without starting it, and prints what it holds.

use super::FileArgs;
use rfgraph_registry::model::ConnectionKind;

/// Validates the file and prints a summary on stdout.
pub fn check(args: FileArgs) -> anyhow::Result<()> {
    let built = args.build()?;
    for n in &built.notices {
        eprintln!("rfgraph: note: {n}");
    }
    let title = built
        .title
        .as_deref()
        .map(|t| format!(" ({t})"))
        .unwrap_or_default();
    println!("{}{title}: ok", args.file.display());
    if !built.variables.is_empty() {
        println!("variables:");
        for (name, value) in &built.variables {
            let mut shown = value.to_string();
            if shown.chars().count() > 70 {
                shown = format!(
                    "{}... ({})",
                    shown.chars().take(60).collect::<String>(),
                    value.describe()
                );
            }
            println!("  {name} = {shown}");
        }
    }
    println!("blocks: {}", built.blocks.len());
    for b in &built.blocks {
        println!("  {} ({})", b.name, b.kind);
    }
    let streams = built
        .edges
        .iter()
        .filter(|e| e.kind == ConnectionKind::Stream)
        .count();
    println!(
        "connections: {streams} stream, {} message",
        built.edges.len() - streams
    );
    for e in &built.edges {
        match e.kind {
            ConnectionKind::Stream => println!("  {} -> {} ({})", e.from, e.to, e.item),
            ConnectionKind::Message => println!("  {} => {}", e.from, e.to),
        }
    }
    let cores = built
        .scheduler
        .cores
        .map(|c| format!(", {c} cores"))
        .unwrap_or_default();
    println!("scheduler: {}{cores}", built.scheduler.name);
    for v in &built.settable {
        let reaches: Vec<String> = v
            .reaches
            .iter()
            .map(|(b, p, s)| format!("{b}.{p}{}", if *s { "" } else { " (at build only)" }))
            .collect();
        println!("settable: {} -> {}", v.name, reaches.join(", "));
    }
    Ok(())
}
