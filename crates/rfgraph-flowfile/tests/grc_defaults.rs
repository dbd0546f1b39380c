//! GNU Radio Companion's own defaults must load: a block dropped into a
//! flowgraph and left as GRC makes it is the most common input there is.
//! For every GNU Radio block the importer maps, this test writes a
//! `.grc` file holding that block with every parameter at its YAML
//! default (enumerations at their first option, as GRC does) and checks
//! it as `rfgraph check` does: it must load, translate and evaluate.
//! Skips with one line without GNU Radio's block YAML (fails under CI).

use rfgraph_flowfile::build::{BuildOptions, build_file};
use rfgraph_flowfile::grc::{mapping, yaml};
use std::io::Write;
use std::path::Path;

const BLOCKS: &str = "/usr/share/gnuradio/grc/blocks";

/// Mapped blocks whose defaults cannot stand alone, and why.
const NEEDS_MORE: &[(&str, &str)] = &[
    // Defaults that read a variable GRC expects the flowgraph to define.
    (
        "analog_quadrature_demod_cf",
        "its gain reads `fsk_deviation_hz`",
    ),
    (
        "digital_clock_recovery_mm_xx",
        "its omega reads `samp_per_sym`",
    ),
    (
        "digital_ofdm_carrier_allocator_cvc",
        "its defaults read `fft_len`",
    ),
    (
        "digital_ofdm_cyclic_prefixer",
        "its defaults read `fft_len`",
    ),
    (
        "digital_ofdm_frame_equalizer_vcvc",
        "its defaults read `fft_len`",
    ),
    ("digital_ofdm_serializer_vcc", "its defaults read `fft_len`"),
    ("blocks_var_to_msg", "its target reads `freq`"),
    ("digital_symbol_sync_xx", "its sps reads `sps`"),
    ("fec_extended_encoder", "its coder reads `encoder_variable`"),
    (
        "fec_extended_tagged_encoder",
        "its coder reads `encoder_variable`",
    ),
    (
        "fec_extended_async_encoder",
        "its coder reads `encoder_variable`",
    ),
    ("fec_extended_decoder", "its coder reads `decoder_variable`"),
    // GNU Radio's own generator fails on them too (it indexes the 0).
    (
        "fec_bercurve_generator",
        "its coder lists default to `0`, no coder",
    ),
    (
        "fec_extended_tagged_decoder",
        "its coder reads `decoder_variable`",
    ),
    // GRC's default `special_tags` is `(,)`, which is no Python.
    (
        "digital_header_payload_demux",
        "a default that is no Python",
    ),
    // Their default item type is complex, which rfgraph's generic coders
    // do not take (bytes and floats only).
    ("fec_generic_decoder", "complex items"),
    ("fec_generic_encoder", "complex items"),
    // GNU Radio's own firdes refuses the default low cutoff of 0 Hz.
    ("band_pass_filter", "a low cutoff of 0 Hz"),
    // The default file name is empty: GRC itself refuses to generate.
    ("blocks_file_source", "an empty file name"),
    ("blocks_file_sink", "an empty file name"),
    ("blocks_file_meta_source", "an empty file name"),
    ("blocks_file_meta_sink", "an empty file name"),
    ("blocks_wavfile_source", "an empty file name"),
    ("blocks_wavfile_sink", "an empty file name"),
    ("blocks_file_descriptor_source", "a file descriptor"),
    ("blocks_file_descriptor_sink", "a file descriptor"),
];

/// A YAML scalar as GRC writes it in a flowgraph (single-quoted).
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The `.grc` text of one block `id` with `params` (id, value).
fn flowgraph(id: &str, params: &[(String, String)]) -> String {
    let mut out = String::from(
        "options:\n  parameters:\n    id: defaults\n    generate_options: no_gui\n  \
         states:\n    state: enabled\nblocks:\n- name: samp_rate\n  id: variable\n  \
         parameters:\n    value: '32000'\n  states:\n    state: enabled\n",
    );
    out.push_str(&format!("- name: dut\n  id: {id}\n  parameters:\n"));
    for (k, v) in params {
        out.push_str(&format!("    {k}: {}\n", quoted(v)));
    }
    out.push_str("  states:\n    state: enabled\nconnections: []\nmetadata:\n  file_format: 1\n");
    out
}

/// The parameters GRC gives a new `root` block: each `default`, an
/// enumeration's first option.
fn defaults(root: &yaml::Node) -> Vec<(String, String)> {
    let Some(params) = root.get("parameters").and_then(yaml::Node::as_seq) else {
        return Vec::new();
    };
    params
        .iter()
        .filter_map(|p| {
            let id = p.get("id")?.as_str()?.to_string();
            let value = match p.get("default").and_then(yaml::Node::as_str) {
                Some(d) => d.to_string(),
                None => p
                    .get("options")
                    .and_then(yaml::Node::as_seq)
                    .and_then(|o| o.first())
                    .and_then(yaml::Node::as_str)?
                    .to_string(),
            };
            Some((id, value))
        })
        .collect()
}

#[test]
fn every_mapped_block_loads_at_gnu_radio_companions_defaults() {
    let test = "every_mapped_block_loads_at_gnu_radio_companions_defaults";
    if !Path::new(BLOCKS).is_dir() {
        rfgraph_testkit::skip(
            test,
            &format!("no GNU Radio block YAML in {BLOCKS} (apt-get install gnuradio)"),
        );
        return;
    }
    let registry = rfgraph_flowfile::standard::registry();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grc_defaults");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(BLOCKS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".block.yml"))
        .collect();
    files.sort();
    let options = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    let (mut loaded, mut failures) = (0, Vec::new());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let Ok(root) = yaml::parse(&text) else {
            continue;
        };
        let Some(id) = root.get("id").and_then(yaml::Node::as_str) else {
            continue;
        };
        if mapping::find(id).is_none() || NEEDS_MORE.iter().any(|(n, _)| *n == id) {
            continue;
        }
        let path = dir.join(format!("{id}.grc"));
        std::fs::write(&path, flowgraph(id, &defaults(&root))).unwrap();
        match build_file(&path, &registry, &options) {
            Ok(_) => loaded += 1,
            // The file has no connections: the builder checks ports after
            // every parameter has been evaluated and checked, so this
            // error means the parameters loaded.
            Err(e) if e.to_string().ends_with("is not connected") => loaded += 1,
            Err(e) => failures.push(format!("{id}: {e}")),
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "{loaded} mapped GNU Radio blocks load at their GRC defaults; {} do not",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} blocks do not load at GNU Radio Companion's defaults:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(loaded > 100, "only {loaded}");
}

/// GRC names a new `variable_constellation` after nothing in particular,
/// and users name one after its type: `qpsk` of type `qpsk` is a
/// constellation, not a variable that refers to itself.
#[test]
fn a_constellation_variable_may_be_named_after_its_type() {
    let text = "options:\n  parameters:\n    id: t\n  states:\n    state: enabled\n\
        blocks:\n- name: qpsk\n  id: variable_constellation\n  parameters:\n    \
        const_points: '[-1-1j, -1+1j, 1+1j, 1-1j]'\n    sym_map: '[0, 1, 3, 2]'\n    \
        type: qpsk\n  states:\n    state: enabled\n\
        - name: dec\n  id: digital_constellation_decoder_cb\n  parameters:\n    \
        constellation: qpsk\n  states:\n    state: enabled\n\
        - name: src\n  id: blocks_null_source\n  parameters:\n    type: complex\n  \
        states:\n    state: enabled\n\
        - name: snk\n  id: blocks_null_sink\n  parameters:\n    type: byte\n  \
        states:\n    state: enabled\n\
        connections:\n- [src, '0', dec, '0']\n- [dec, '0', snk, '0']\n\
        metadata:\n  file_format: 1\n";
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grc_defaults");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("constellation_named_qpsk.grc");
    std::fs::write(&path, text).unwrap();
    let registry = rfgraph_flowfile::standard::registry();
    let options = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    let built = build_file(&path, &registry, &options).unwrap_or_else(|e| panic!("{e}"));
    let qpsk = built.variables.iter().find(|(n, _)| n == "qpsk").unwrap();
    assert_eq!(
        qpsk.1.to_string(),
        "constellation_qpsk(constellation=\"qpsk\")"
    );
}
