//! GRC import against files nobody here wrote: every `.grc` flowgraph
//! Debian's `gnuradio` package ships under `/usr/share/gnuradio/examples`
//! is loaded against the standard registry and classified (loaded, uses
//! unsupported blocks, or an error). A real GNU Radio file must never be
//! an error of the reader: only "loaded" or "unsupported" are right.
//!
//! Those that load are built and run (sources bounded, a watchdog on
//! each run); the deterministic ones are compared with GNU Radio 3.10
//! running the Python that `grcc` generates from the same file (see
//! `grc_run`).
//!
//! Every example's outcome is recorded in `grc_examples/outcomes.txt`
//! (one line each: its path under the examples folder, a tab, what
//! happened), and the test fails on any difference, in either direction:
//! an example that loads, runs or matches GNU Radio where it did not, or
//! stops doing so, is a change to look at and record by hand. The
//! README's counts must be the file's. Prints the counts, the GNU Radio
//! block ids that keep most examples from loading, and on a difference
//! the lines to record. Skips with one line when GNU Radio's examples are
//! absent (fails under CI, where `.ci/run` installs them).

#[path = "grc_examples/grc_run.rs"]
mod grc_run;

use rfgraph_flowfile::grc::{self, GrcError, LoadOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "/usr/share/gnuradio/examples";

/// The recorded outcome of every example.
const OUTCOMES: &str = include_str!("grc_examples/outcomes.txt");

/// The recorded outcomes: path under [`EXAMPLES`] → outcome.
fn recorded() -> BTreeMap<String, String> {
    OUTCOMES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(p, o)| (p.to_string(), o.to_string()))
        .collect()
}

/// How many recorded outcomes start with `prefix`.
fn count(outcomes: &BTreeMap<String, String>, prefix: &str) -> usize {
    outcomes.values().filter(|o| o.starts_with(prefix)).count()
}

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
    let registry = rfgraph_flowfile::standard::registry();
    let options = LoadOptions {
        max_items: Some(grc_run::ITEMS),
    };
    let (mut loaded, mut unsupported, mut errors, mut old) = (Vec::new(), 0, Vec::new(), 0);
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let relative = |f: &Path| f.strip_prefix(EXAMPLES).unwrap_or(f).display().to_string();
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
                outcomes.insert(relative(f), format!("unsupported: {}", ids.join(", ")));
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
            Err(e) if e.to_string().contains("3.7 XML") => {
                old += 1;
                outcomes.insert(relative(f), "GNU Radio 3.7 XML".into());
            }
            Err(e) => {
                outcomes.insert(relative(f), "error".into());
                errors.push(e.to_string());
            }
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
    for (path, outcome) in &report.outcomes {
        outcomes.insert(relative(path), outcome.clone());
    }
    assert!(
        errors.is_empty(),
        "GNU Radio's own files must read:\n{}",
        errors.join("\n")
    );
    assert_eq!(loaded.len() + unsupported + old, files.len());
    // A difference from GNU Radio is an outcome like any other: recorded
    // in outcomes.txt (and counted in the README), so a new one, or one
    // that goes away, fails below with the rest of the changes.
    for m in &report.mismatched {
        println!("differs: {m}");
    }
    let mut expected = recorded();
    if !report.gnuradio {
        skip(
            "every_gnu_radio_example_loads_or_names_its_unsupported_blocks (comparison)",
            "GNU Radio 3.10 (/usr/bin/python3 with gnuradio, grcc) is not installed",
        );
        // Without GNU Radio only what rfgraph does itself is compared.
        for o in expected.values_mut().chain(outcomes.values_mut()) {
            if let Some((ran, _)) = o.split_once(';') {
                *o = ran.to_string();
            }
        }
    }
    let changed: Vec<String> = expected
        .keys()
        .chain(outcomes.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter(|p| expected.get(*p) != outcomes.get(*p))
        .map(|p| {
            format!(
                "{p}: recorded `{}`, now `{}`",
                expected.get(p).map_or("(none)", String::as_str),
                outcomes.get(p).map_or("(none)", String::as_str)
            )
        })
        .collect();
    let (load, run, matched) = (
        outcomes.len() - count(&outcomes, "unsupported") - count(&outcomes, "GNU Radio 3.7"),
        count(&outcomes, "ran"),
        count(&outcomes, "ran; matches"),
    );
    println!("outcomes: {load} load, {run} run, {matched} match GNU Radio");
    if !changed.is_empty() {
        println!("the outcomes to record in tests/grc_examples/outcomes.txt:");
        for (p, o) in &outcomes {
            println!("{p}\t{o}");
        }
    }
    assert!(
        changed.is_empty(),
        "{} examples changed outcome (record them in tests/grc_examples/outcomes.txt \
         when the change is right):\n{}",
        changed.len(),
        changed.join("\n")
    );
    // The README's figures are the recorded ones.
    let readme = include_str!("../../../README.md");
    let stated = format!("**{load} load, {run} run**");
    assert!(readme.contains(&stated), "the README does not say {stated}");
    if report.gnuradio {
        let stated = format!("{matched} match GNU Radio's output");
        assert!(readme.contains(&stated), "the README does not say {stated}");
    }
}
