//! GRC import against files nobody here wrote: every `.grc` flowgraph
//! Debian's `gnuradio` package ships under `/usr/share/gnuradio/examples`
//! is loaded against the standard registry and classified (loaded, uses
//! unsupported blocks, or an error). A real GNU Radio file must never be
//! an error of the reader: only "loaded" or "unsupported" are right.
//!
//! Those that load are built and run (sources bounded, a watchdog on
//! each run); the deterministic ones are compared with GNU Radio 3.10
//! running the Python that `grcc` generates from the same file (see
//! `grc_run`). Prints the counts and the GNU Radio block ids that keep
//! most examples from loading. Skips with one line when GNU Radio's examples are absent
//! (fails under `CI=true`, where `.ci/run` installs them).

#[path = "grc_examples/grc_run.rs"]
mod grc_run;

use rfgraph_registry::grc::{self, GrcError, LoadOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "/usr/share/gnuradio/examples";

/// Examples that load must keep loading: the floor rises as blocks land.
const LOAD_FLOOR: usize = 51;

/// Examples that run must keep running (the target is 40).
const RUN_FLOOR: usize = 45;

/// Examples whose output must keep matching GNU Radio's.
const MATCH_FLOOR: usize = 24;

use rfgraph_testkit::skip;

fn grc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            grc_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "grc") {
            out.push(p);
        }
    }
}

/// Every example, sorted.
pub fn examples() -> Vec<PathBuf> {
    let mut files = Vec::new();
    grc_files(Path::new(EXAMPLES), &mut files);
    files.sort();
    files
}

#[test]
fn every_gnu_radio_example_loads_or_names_its_unsupported_blocks() {
    let files = examples();
    if files.is_empty() {
        skip(
            "every_gnu_radio_example_loads_or_names_its_unsupported_blocks",
            &format!("no GNU Radio examples under {EXAMPLES} (apt-get install gnuradio)"),
        );
        return;
    }
    let registry = rfgraph_registry::standard::registry();
    let options = LoadOptions {
        max_items: Some(grc_run::ITEMS),
    };
    let (mut loaded, mut unsupported, mut errors, mut old) = (Vec::new(), 0, Vec::new(), 0);
    let mut missing: BTreeMap<String, usize> = BTreeMap::new();
    // Mapped blocks refused for a parameter or port: naming to align.
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        match grc::load_with(f, &registry, &options) {
            Ok(doc) => loaded.push((f.clone(), doc)),
            Err(GrcError::Unsupported { blocks, .. }) => {
                unsupported += 1;
                let mut ids: Vec<&str> = blocks.iter().map(|b| b.id.as_str()).collect();
                ids.sort();
                ids.dedup();
                for id in ids {
                    *missing.entry(id.to_string()).or_default() += 1;
                }
                for b in &blocks {
                    if let Some(r) = b
                        .reason
                        .as_ref()
                        .filter(|r| r.starts_with('`') || r.contains("has no"))
                    {
                        *refused.entry(format!("{}: {r}", b.id)).or_default() += 1;
                    }
                }
            }
            // GNU Radio still ships a few 3.7 XML files; their refusal
            // says how to convert them.
            Err(e) if e.to_string().contains("3.7 XML") => old += 1,
            Err(e) => errors.push(e.to_string()),
        }
    }
    let mut top: Vec<(&String, &usize)> = missing.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = top
        .iter()
        .take(25)
        .map(|(id, n)| format!("{id} ({n})"))
        .collect();
    println!(
        "GRC examples: {} files, {} load, {} use unsupported blocks, {} are GNU Radio 3.7 XML, {} errors",
        files.len(),
        loaded.len(),
        unsupported,
        old,
        errors.len()
    );
    println!("most missing: {}", top.join(", "));
    for (r, n) in &refused {
        println!("refused ({n}): {r}");
    }
    let report = grc_run::run_all(&loaded, &registry);
    println!("{report}");
    assert!(
        errors.is_empty(),
        "GNU Radio's own files must read:\n{}",
        errors.join("\n")
    );
    assert_eq!(loaded.len() + unsupported + old, files.len());
    assert!(
        loaded.len() >= LOAD_FLOOR,
        "{} examples load, fewer than the floor {LOAD_FLOOR}",
        loaded.len()
    );
    assert!(
        report.mismatched.is_empty(),
        "rfgraph and GNU Radio disagree:\n{}",
        report.mismatched.join("\n")
    );
    if !report.gnuradio {
        skip(
            "every_gnu_radio_example_loads_or_names_its_unsupported_blocks (comparison)",
            "GNU Radio 3.10 (/usr/bin/python3 with gnuradio, grcc) is not installed",
        );
    }
    if report.gnuradio {
        assert!(
            report.matched.len() >= MATCH_FLOOR,
            "{} examples match GNU Radio, fewer than the floor {MATCH_FLOOR}",
            report.matched.len()
        );
    }
    assert!(
        report.ran.len() >= RUN_FLOOR,
        "{} examples run, fewer than the floor {RUN_FLOOR}",
        report.ran.len()
    );
}
