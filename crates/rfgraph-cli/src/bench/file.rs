//! The `file` experiment: how long a large flowgraph file takes to become
//! a running graph and to stop. A generated TOML file of `--blocks`
//! blocks (`null_source` → copies → `null_sink` pipes of `--stages`
//! copies, through the standard registry) is parsed, built (variables,
//! parameters, connection checks, construction), started and stopped.
//!
//! # What the timers cover
//!
//! Generating the text comes first and is not timed. `parse_seconds`:
//! TOML → document; `build_seconds`: document → flowgraph (expressions,
//! registry, checks, constructors, connections, validation);
//! `start_seconds`: the scheduler's creation and `Flowgraph::start`;
//! `stop_seconds`: `stop` and `wait` (every `deinit`, the joins).
//! `seconds` is their sum. The sources are endless, so the run between
//! start and stop is only as long as the stop takes to arrive.

use super::{Record, Span};
use crate::console::errln;
use anyhow::{Context, bail};
use clap::Args;
use rfgraph_flowfile::build::{BuildOptions, build};
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `rfgraph bench file` arguments.
#[derive(Args, Debug)]
pub struct FileArgs {
    /// Blocks in the generated file.
    #[arg(long, default_value_t = 1000)]
    pub blocks: usize,
    /// Copy blocks per pipe (each pipe adds a source and a sink).
    #[arg(long, default_value_t = 48)]
    pub stages: usize,
    /// Scheduler: tpb, single, pool or chain.
    #[arg(long, default_value = "pool")]
    pub scheduler: String,
    /// Runs to measure.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
    /// Writes the generated file here too.
    #[arg(long)]
    pub write: Option<PathBuf>,
}

/// The generated file: pipes of `null_source` → `stages` copies →
/// `null_sink` until `blocks` blocks (the last pipe shorter).
pub fn generate(blocks: usize, stages: usize) -> String {
    let mut text = String::from("format = 1\ntitle = \"generated\"\nconnections = [\n");
    let mut body = String::from("\n[variables]\nkind = { text = \"f32\" }\n");
    let mut n = 0;
    let mut pipe = 0;
    while n + 2 <= blocks.max(2) {
        let copies = stages.min(blocks.max(2) - n - 2);
        let mut names = vec![format!("src{pipe}")];
        names.extend((0..copies).map(|c| format!("p{pipe}c{c}")));
        names.push(format!("snk{pipe}"));
        let _ = writeln!(text, "  \"{}\",", names.join(" -> "));
        let _ = write!(
            body,
            "\n[blocks.src{pipe}]\nkind = \"null_source\"\ntype = {{ expr = \"kind\" }}\n"
        );
        for c in 0..copies {
            let _ = write!(
                body,
                "\n[blocks.p{pipe}c{c}]\nkind = \"copy\"\ntype = {{ expr = \"kind\" }}\n"
            );
        }
        let _ = write!(
            body,
            "\n[blocks.snk{pipe}]\nkind = \"null_sink\"\ntype = {{ expr = \"kind\" }}\n"
        );
        n += copies + 2;
        pipe += 1;
    }
    text.push_str("]\n");
    text.push_str(&body);
    text
}

/// Runs the experiment.
pub fn run(args: &FileArgs) -> anyhow::Result<()> {
    let registry = rfgraph_flowfile::standard::registry();
    for name in ["null_source", "copy", "null_sink"] {
        if registry.get(name).is_err() {
            bail!("the standard registry has no `{name}` block; `bench file` needs it");
        }
    }
    let text = generate(args.blocks, args.stages);
    if let Some(path) = &args.write {
        std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
    }
    let file = Arc::new(PathBuf::from("generated.toml"));
    for run in 0..args.repeat {
        let t0 = Instant::now();
        let doc = rfgraph_flowfile::toml::parse(&text, file.clone())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let t1 = Instant::now();
        let options = BuildOptions {
            scheduler: Some(args.scheduler.clone()),
            ..BuildOptions::default()
        };
        let built = build(&doc, &registry, &options).map_err(|e| anyhow::anyhow!("{e}"))?;
        let blocks = built.blocks.len();
        let t2 = Instant::now();
        let scheduler = built.scheduler.scheduler().map_err(anyhow::Error::msg)?;
        let running = built.flowgraph.start(scheduler)?;
        let t3 = Instant::now();
        running.handle().stop();
        running.wait_timeout(Duration::from_secs(120))?;
        let t4 = Instant::now();
        let secs = |a: Instant, b: Instant| (b - a).as_secs_f64();
        let span = Span {
            seconds: secs(t0, t4),
            run_seconds: secs(t3, t4),
        };
        let record = Record::new("file", &args.scheduler, run, span)
            .field("blocks", blocks)
            .field("stages", args.stages)
            .field("bytes", text.len())
            .field("parse_seconds", secs(t0, t1))
            .field("build_seconds", secs(t1, t2))
            .field("start_seconds", secs(t2, t3))
            .field("stop_seconds", secs(t3, t4));
        record.print();
        errln!(
            "file: {blocks} blocks ({} kB): parse {:.1} ms, build {:.1} ms, start {:.1} ms, stop {:.1} ms",
            text.len() / 1000,
            secs(t0, t1) * 1e3,
            secs(t1, t2) * 1e3,
            secs(t2, t3) * 1e3,
            secs(t3, t4) * 1e3
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_file_has_the_blocks_asked_for() {
        for (blocks, stages) in [(1000, 48), (10, 3), (2, 5), (7, 100)] {
            let text = generate(blocks, stages);
            let doc =
                rfgraph_flowfile::toml::parse(&text, Arc::new(PathBuf::from("g.toml"))).unwrap();
            assert_eq!(doc.blocks.len(), blocks, "{blocks}/{stages}");
            assert_eq!(
                doc.connections.len(),
                blocks
                    - doc
                        .blocks
                        .iter()
                        .filter(|b| b.kind == "null_source")
                        .count()
            );
        }
    }
}
