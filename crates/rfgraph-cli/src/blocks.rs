//! `rfgraph blocks [NAME] [--json]`: the standard registry's blocks by
//! category, or one block's documentation. The registry holds everything;
//! this file only formats it.

use crate::console::{out, outln};
use anyhow::bail;
use clap::Args;
use rfgraph::Pmt;
use rfgraph::registry::{BlockSpec, ParamSpec, PortSpec, suggest};
use serde_json::Value;
use std::fmt::Write;

/// `rfgraph blocks` arguments.
#[derive(Args)]
pub struct BlocksArgs {
    /// A block's registry name: print its full documentation.
    name: Option<String>,
    /// Machine-readable output (one JSON document).
    #[arg(long)]
    json: bool,
}

/// Runs `rfgraph blocks`.
pub fn run(args: BlocksArgs) -> anyhow::Result<()> {
    let registry = rfgraph_flowfile::standard::registry();
    let specs = registry.specs();
    let Some(name) = args.name else {
        if args.json {
            let all: Vec<Value> = specs.iter().map(|s| s.to_json()).collect();
            outln!("{}", serde_json::to_string_pretty(&all)?);
        } else {
            out!("{}", listing(&specs));
        }
        return Ok(());
    };
    let Ok(spec) = registry.get(&name) else {
        let hint = suggest::closest(&name, specs.iter().map(|s| s.name))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        bail!("no block named `{name}`{hint}; `rfgraph blocks` lists them all");
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&spec.to_json())?);
    } else {
        if registry.alias_of(&name).is_some() {
            outln!(
                "(`{name}` is GNU Radio's id for rfgraph's `{}`)\n",
                spec.name
            );
        }
        out!("{}", documentation(spec));
    }
    Ok(())
}

/// Every block by category: name and summary, aligned.
fn listing(specs: &[&BlockSpec]) -> String {
    let width = specs.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    let mut category = "";
    for spec in specs {
        if spec.category != category {
            if !category.is_empty() {
                out.push('\n');
            }
            category = spec.category;
            let _ = writeln!(out, "{category}:");
        }
        let _ = writeln!(out, "  {:width$}  {}", spec.name, spec.summary);
    }
    out
}

/// A value as flowgraph files write it.
fn show(value: &Pmt) -> String {
    match value {
        Pmt::Null => "-".into(),
        Pmt::String(s) => format!("{s:?}"),
        Pmt::Bool(b) => b.to_string(),
        Pmt::I64(v) => v.to_string(),
        Pmt::U64(v) => v.to_string(),
        Pmt::F32(v) => v.to_string(),
        Pmt::F64(v) => v.to_string(),
        Pmt::VecF32(v) => format!("{v:?}"),
        other => serde_json::to_string(other).unwrap_or_else(|_| format!("{other:?}")),
    }
}

fn default_text(p: &ParamSpec) -> String {
    match &p.default {
        None => "required".into(),
        Some(Pmt::Null) => "unset".into(),
        Some(v) => show(v),
    }
}

fn port_line(out: &mut String, port: &PortSpec) {
    let name = match port.count {
        Some(count) => format!("{}0, {}1, … ({count})", port.name, port.name),
        None => port.name.to_string(),
    };
    let doc = if port.doc.is_empty() {
        String::new()
    } else {
        format!(": {}", port.doc)
    };
    let _ = writeln!(out, "  {name}  {}{doc}", port.item);
}

/// The width documentation is wrapped to.
const WIDTH: usize = 80;

/// `text` with its prose lines wrapped at `width` characters; table rows
/// (`|`), list items and code stay as they are.
fn wrap(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('|') || line.starts_with("    ") || line.chars().count() <= width {
            out.push(line.to_string());
            continue;
        }
        let mut current = String::new();
        for word in line.split(' ') {
            if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
                out.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push(current);
    }
    out.join("\n")
}

/// One block's full documentation.
fn documentation(spec: &BlockSpec) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({})\n\n{}\n",
        spec.name, spec.category, spec.summary
    );
    if !spec.doc.is_empty() {
        let _ = writeln!(out, "{}\n", wrap(spec.doc, WIDTH));
    }
    if !spec.params.is_empty() {
        let rows: Vec<[String; 5]> = spec
            .params
            .iter()
            .map(|p| {
                let ty = p.ty.to_string();
                [
                    p.name.to_string(),
                    ty,
                    default_text(p),
                    p.unit.to_string(),
                    if p.settable { "yes" } else { "" }.to_string(),
                ]
            })
            .collect();
        let header = ["name", "type", "default", "unit", "settable"];
        let mut widths = header.map(str::len);
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let _ = writeln!(out, "Parameters:");
        let line = |cells: [&str; 5]| {
            let mut l = String::from(" ");
            for (cell, w) in cells.iter().zip(widths) {
                let _ = write!(l, " {cell:w$} ");
            }
            l.trim_end().to_string()
        };
        let _ = writeln!(out, "{}", line(header));
        for (row, p) in rows.iter().zip(&spec.params) {
            let cells = [&*row[0], &*row[1], &*row[2], &*row[3], &*row[4]];
            let _ = writeln!(out, "{}", line(cells));
            let mut notes = Vec::new();
            if !p.choices.is_empty() {
                notes.push(format!("one of: {}", p.choices.join(", ")));
            }
            if !p.range.is_unbounded() {
                notes.push(format!("{}", p.range));
            }
            if let Some(max) = p.max_len {
                notes.push(format!("at most {max} elements"));
            }
            if !p.aliases.is_empty() {
                notes.push(format!("also called {}", p.aliases.join(", ")));
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            };
            if !p.doc.is_empty() || !notes.is_empty() {
                let _ = writeln!(out, "      {}{notes}", p.doc);
            }
        }
        out.push('\n');
    }
    for (title, ports) in [
        ("Stream inputs", &spec.inputs),
        ("Stream outputs", &spec.outputs),
    ] {
        if !ports.is_empty() {
            let _ = writeln!(out, "{title}:");
            for port in ports {
                port_line(&mut out, port);
            }
            out.push('\n');
        }
    }
    let inputs = spec.message_input_names();
    if !inputs.is_empty() {
        let _ = writeln!(out, "Message inputs: {}", inputs.join(", "));
    }
    if !spec.message_outputs.is_empty() {
        let _ = writeln!(out, "Message outputs: {}", spec.message_outputs.join(", "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn prose_wraps_and_tables_stay() {
        let text = "one two three four five six\n| a | b | c | d | e | f | g |";
        assert_eq!(
            wrap(text, 10),
            "one two\nthree four\nfive six\n| a | b | c | d | e | f | g |"
        );
        assert_eq!(wrap("short", 10), "short");
    }
}
