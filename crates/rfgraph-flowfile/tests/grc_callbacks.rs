//! GNU Radio Companion changes a parameter while the flowgraph runs when
//! the block's YAML lists it in a callback (`set_taps(firdes.low_pass(...
//! ${cutoff_freq} ...))`): a GUI slider on it acts at once. This test
//! reads every block YAML GNU Radio 3.10 installs and checks that each
//! callback parameter of each block the importer maps is a settable
//! parameter of the registry block that stands for it.

use rfgraph_flowfile::grc::{mapping, yaml};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

const BLOCKS: &str = "/usr/share/gnuradio/grc/blocks";

/// GNU Radio parameters that change nothing rfgraph computes: the FFT
/// blocks' thread count (rfgraph runs the FFT on its scheduler's thread).
const NOTHING_TO_SET: &[&str] = &["nthreads"];

/// The Qt GUI sinks' trigger parameters: the web displays run free (a
/// frame per `update_time`), with no trigger yet.
const NO_TRIGGER: &[&str] = &[
    "tr_chan", "tr_delay", "tr_level", "tr_mode", "tr_slope", "tr_tag",
];

/// Callback parameters rfgraph does not change while running yet, each
/// with why: `(GNU Radio block id, parameter)`.
const NOT_YET: &[(&str, &str, &str)] = &[
    // The correlator derives its scaled threshold and tag delay when built.
    (
        "digital_corr_est_cc",
        "mark_delay",
        "fixed when the block is built",
    ),
    (
        "digital_corr_est_cc",
        "threshold",
        "fixed when the block is built",
    ),
    // GNU Radio's `set_header_formatter` swaps the formatter object.
    (
        "digital_packet_headergenerator_bb",
        "header_formatter",
        "a header format object is not swapped while running",
    ),
    // The channelizers split their prototype into arms when built.
    (
        "pfb_channelizer_ccf",
        "taps",
        "the polyphase arms are fixed when the block is built",
    ),
    (
        "pfb_channelizer_ccf",
        "ch_map",
        "the channel map is fixed when the block is built",
    ),
    (
        "pfb_channelizer_hier_ccf",
        "taps",
        "the polyphase arms are fixed when the block is built",
    ),
];

/// The parameters `${name}` a callback template reads. `${id}` is the
/// block's own name and `${type.size}` an attribute of an enumeration
/// option chosen when the block is built, not a value that changes.
fn references(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("${") {
        rest = &rest[start + 2..];
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after = rest.trim_start()[name.len()..].trim_start();
        if !name.is_empty() && name != "id" && !after.starts_with('.') {
            out.push(name);
        }
    }
    out
}

#[test]
fn references_skip_ids_and_attributes() {
    assert_eq!(
        references("set_taps(firdes.${type.fcn}(${gain}, ${ samp_rate }))"),
        ["gain", "samp_rate"]
    );
    assert_eq!(
        references("self.${id}.set_begin_tag(${begin_tag})"),
        ["begin_tag"]
    );
}

#[test]
fn every_gnu_radio_callback_parameter_of_a_mapped_block_is_settable() {
    let test = "every_gnu_radio_callback_parameter_of_a_mapped_block_is_settable";
    if !Path::new(BLOCKS).is_dir() {
        rfgraph_testkit::skip(
            test,
            &format!("no GNU Radio block YAML in {BLOCKS} (apt-get install gnuradio)"),
        );
        return;
    }
    let registry = rfgraph_flowfile::standard::registry();
    let mut files: Vec<_> = std::fs::read_dir(BLOCKS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".block.yml"))
        .collect();
    files.sort();
    let (mut settable, mut blocks, mut failures) = (0, BTreeSet::new(), Vec::new());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let Ok(root) = yaml::parse(&text) else {
            continue;
        };
        let Some(id) = root.get("id").and_then(yaml::Node::as_str) else {
            continue;
        };
        let Some(map) = mapping::find(id) else {
            continue;
        };
        let callbacks: Vec<&str> = root
            .get("templates")
            .and_then(|t| t.get("callbacks"))
            .and_then(yaml::Node::as_seq)
            .map(|s| s.iter().filter_map(yaml::Node::as_str).collect())
            .unwrap_or_default();
        let params: BTreeSet<String> = callbacks.iter().flat_map(|c| references(c)).collect();
        let spec = registry.get(map.rf).unwrap();
        for gr in params {
            let trigger = id.starts_with("qtgui_") && NO_TRIGGER.contains(&gr.as_str());
            if trigger || NOT_YET.iter().any(|(b, p, _)| *b == id && *p == gr) {
                continue;
            }
            let Some(rf) = map.registry_param(spec, &gr) else {
                if !NOTHING_TO_SET.contains(&gr.as_str()) {
                    failures.push(format!("{id}.{gr}: a callback parameter the mapping drops"));
                }
                continue;
            };
            match spec.param_spec(rf) {
                Some(p) if p.settable => {
                    settable += 1;
                    blocks.insert(id.to_string());
                }
                Some(_) => failures.push(format!("{id}.{gr} → {}.{rf}: not settable", map.rf)),
                None => failures.push(format!("{id}.{gr} → {}.{rf}: no such parameter", map.rf)),
            }
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "{settable} callback parameters of {} mapped GNU Radio blocks are settable; {} are not",
        blocks.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} callback parameters are not settable:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(settable > 100, "only {settable}");
}
