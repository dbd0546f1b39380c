//! `rfgraph blocks`, through the binary: the listing by category, one
//! block's documentation, JSON output, and a misspelt name's suggestion.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `rfgraph ARGS` with a one-minute watchdog: (success, stdout,
/// stderr). The outputs are read while it runs, so a long one never
/// blocks it.
fn rfgraph(args: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rfgraph binary starts");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("rfgraph {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (
        status.success(),
        stdout.join().unwrap(),
        stderr.join().unwrap(),
    )
}

#[test]
fn blocks_lists_every_block_by_category() {
    let (ok, out, err) = rfgraph(&["blocks"]);
    assert!(ok, "{err}");
    let registry = rfgraph_flowfile::standard::registry();
    for spec in registry.specs() {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(spec.name))
            .unwrap_or_else(|| panic!("`{}` is not listed:\n{out}", spec.name));
        assert!(line.ends_with(spec.summary), "{line}");
    }
    assert!(out.contains("Filters:\n"), "{out}");
    let filters = out.split("Filters:\n").nth(1).unwrap();
    assert!(filters.lines().next().unwrap().contains("band_pass_filter"));
    // Summaries start in one column.
    let columns: std::collections::BTreeSet<usize> = out
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| {
            let name_end = 2 + l[2..].find(' ').unwrap();
            name_end + l[name_end..].find(|c: char| c != ' ').unwrap()
        })
        .collect();
    assert_eq!(columns.len(), 1, "{columns:?}");
}

#[test]
fn blocks_name_prints_the_documentation() {
    let (ok, out, err) = rfgraph(&["blocks", "low_pass_filter"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("low_pass_filter (Filters)"), "{out}");
    for expected in [
        "Parameters:",
        "cutoff",
        "4000",
        "Hz",
        "hamming",
        "Stream inputs:",
        "Stream outputs:",
    ] {
        assert!(out.contains(expected), "no `{expected}` in\n{out}");
    }
    let (ok, out, err) = rfgraph(&["blocks", "sig_source"]);
    assert!(ok, "{err}");
    let params = out.split("Parameters:").nth(1).unwrap();
    let frequency = params
        .lines()
        .find(|l| l.trim_start().starts_with("frequency"))
        .unwrap();
    assert!(
        frequency.contains("yes") && frequency.contains("Hz"),
        "{frequency}"
    );
    assert!(params.contains("also called samp_rate"), "{params}");
    assert!(params.contains("(> 0; also called"), "{params}");
    assert!(
        out.contains("Message inputs: ") && out.contains("cmd"),
        "{out}"
    );
}

#[test]
fn blocks_json_is_machine_readable() {
    let (ok, out, err) = rfgraph(&["blocks", "--json"]);
    assert!(ok, "{err}");
    let all: serde_json::Value = serde_json::from_str(&out).unwrap();
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), rfgraph_flowfile::standard::registry().len());
    let (ok, out, err) = rfgraph(&["blocks", "head", "--json"]);
    assert!(ok, "{err}");
    let head: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(head["name"], "head");
    let items = head["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "items")
        .unwrap();
    assert_eq!(items["required"], true);
    let (ok, out, err) = rfgraph(&["blocks", "null_source", "--json"]);
    assert!(ok, "{err}");
    let source: serde_json::Value = serde_json::from_str(&out).unwrap();
    let items = &source["params"][0];
    assert_eq!(
        (&items["name"], &items["default"]),
        (&"items".into(), &serde_json::Value::Null)
    );
    assert_eq!(
        (&items["required"], &items["optional"]),
        (&false.into(), &true.into())
    );
    let (ok, out, err) = rfgraph(&["blocks", "vector_source", "--json"]);
    assert!(ok, "{err}");
    let source: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        source["params"][0]["default"],
        serde_json::json!([0.0, 0.0, 0.0])
    );
    assert_eq!(head["inputs"][0]["name"], "in");
    let (ok, out, err) = rfgraph(&["blocks", "sig_source", "--json"]);
    assert!(ok, "{err}");
    let source: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rate = &source["params"][0];
    assert_eq!(rate["name"], "sample_rate");
    assert_eq!(
        (&rate["min"], &rate["min_inclusive"]),
        (&0.0.into(), &false.into())
    );
    assert_eq!(rate["aliases"], serde_json::json!(["samp_rate"]));
    assert_eq!(rate["settable"], true);
}

#[test]
fn an_unknown_block_is_an_error_with_a_suggestion() {
    let (ok, out, err) = rfgraph(&["blocks", "low_pas_filter"]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("no block named `low_pas_filter` (did you mean `low_pass_filter`?)"),
        "{err}"
    );
    let (ok, _, err) = rfgraph(&["blocks", "quantum_flux_capacitor"]);
    assert!(!ok);
    assert!(!err.contains("did you mean"), "{err}");
}

/// GNU Radio users know its block ids: `rfgraph blocks` and flowgraph
/// files take them as other names of the blocks that stand for them.
#[test]
fn a_gnu_radio_block_id_finds_the_block_that_stands_for_it() {
    let (ok, out, err) = rfgraph(&["blocks", "analog_sig_source_x"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("(`analog_sig_source_x` is GNU Radio's id for rfgraph's `sig_source`)"),
        "{out}"
    );
    let dir = std::env::temp_dir().join(format!("rfgraph-gr-id-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("gr_id.toml");
    std::fs::write(
        &file,
        "format = 1\nconnections = [\"src.out -> head.in\", \"head.out -> snk.in\"]\n\
         [blocks.src]\nkind = \"analog_sig_source_x\"\ntype = \"f32\"\n\
         [blocks.head]\nkind = \"blocks_head\"\ntype = \"f32\"\nitems = 10\n\
         [blocks.snk]\nkind = \"null_sink\"\ntype = \"f32\"\n",
    )
    .unwrap();
    let (ok, out, err) = rfgraph(&["check", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("src (sig_source)"), "{out}");
    assert!(out.contains("head (head)"), "{out}");
}
