//! A hierarchical block's definition on its own (`rfgraph check
//! packet_tx.grc`): GNU Radio's `grcc` makes such a file a block for
//! other flowgraphs, not a program. It checks with its pads as its ports
//! (listed in what the build gives), a block refusing the parameters'
//! defaults is a notice (the users give the values), a port neither
//! connected nor a pad is still an error, and building it to run says
//! that it does not run alone.

mod common;

use common::{scratch, write};
use rfgraph_flowfile::build::{BuildOptions, build_file};
use std::path::Path;

fn block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: '{v}'\n"));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    state: enabled\n");
    s
}

fn grc(blocks: &[String], conns: &[[&str; 4]]) -> String {
    let mut s =
        "options:\n  parameters:\n    id: scale\n    generate_options: hb\nblocks:\n".to_string();
    for b in blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    for [a, ap, b, bp] in conns {
        s.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
    }
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

fn pad(name: &str, id: &str, label: &str, ty: &str) -> String {
    block(
        name,
        id,
        &[
            ("label", label),
            ("type", ty),
            ("num_streams", "1"),
            ("optional", "False"),
            ("vlen", "1"),
        ],
    )
}

/// `in` → FIR filter → `out`, and a message pad `msgs` out of a strobe;
/// the filter's taps are parameter `taps` (default `taps_default`).
fn definition(taps_default: &str, extra: &[String]) -> String {
    let mut blocks = vec![
        pad("pad_source_0", "pad_source", "in", "float"),
        pad("pad_sink_0", "pad_sink", "out", "float"),
        pad("pad_sink_1", "pad_sink", "msgs", "message"),
        block(
            "taps",
            "parameter",
            &[("type", ""), ("value", taps_default)],
        ),
        block(
            "fir",
            "fir_filter_xxx",
            &[
                ("type", "fff"),
                ("decim", "1"),
                ("taps", "taps"),
                ("samp_delay", "0"),
            ],
        ),
        block(
            "strobe",
            "blocks_message_strobe",
            &[("msg", "pmt.PMT_T"), ("period", "1000")],
        ),
    ];
    blocks.extend_from_slice(extra);
    grc(
        &blocks,
        &[
            ["pad_source_0", "0", "fir", "0"],
            ["fir", "0", "pad_sink_0", "0"],
            ["strobe", "strobe", "pad_sink_1", "in"],
        ],
    )
}

fn dry() -> BuildOptions {
    BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    }
}

#[test]
fn a_definition_checks_with_its_pads_as_ports_and_does_not_run() {
    let dir = scratch("hier_definition");
    let path = write(&dir, "scale.grc", &definition("[0.5, 0.5]", &[]));
    let registry = rfgraph_flowfile::standard::registry();
    let built = build_file(&path, &registry, &dry()).unwrap();
    assert_eq!(
        built.exposed,
        [
            "stream input in -> fir.in",
            "stream output out <- fir.out",
            "message output msgs <- strobe.strobe",
        ],
        "{:?}",
        built.exposed
    );
    assert!(built.notices.is_empty(), "{:?}", built.notices);
    let e = build_file(&path, &registry, &BuildOptions::default())
        .err()
        .expect("a definition does not run")
        .to_string();
    assert!(
        e.contains(
            "`scale.grc` defines a hierarchical block (ports in, out, msgs): it does not run alone"
        ),
        "{e}"
    );
}

#[test]
fn refused_defaults_are_notices_and_unconnected_ports_errors() {
    let dir = scratch("hier_definition_defaults");
    let registry = rfgraph_flowfile::standard::registry();
    // No taps: the filter refuses the default.
    let path = write(&dir, "scale.grc", &definition("[]", &[]));
    let built = build_file(&path, &registry, &dry()).unwrap();
    assert_eq!(built.notices.len(), 1, "{:?}", built.notices);
    assert!(
        built.notices[0].contains("blocks.fir") && built.notices[0].contains("default parameters"),
        "{:?}",
        built.notices
    );
    // An inner block whose input is neither connected nor a pad.
    let lonely = block(
        "lonely",
        "blocks_multiply_const_vxx",
        &[("type", "float"), ("const", "1"), ("vlen", "1")],
    );
    let path = write(&dir, "lonely.grc", &definition("[1.0]", &[lonely]));
    let e = build_file(&path, &registry, &dry())
        .err()
        .expect("an unconnected inner port")
        .to_string();
    assert!(e.contains("of block `lonely` is not connected"), "{e}");
}

#[test]
fn gnu_radios_packet_tx_and_rx_check_as_definitions() {
    let dir = Path::new("/usr/share/gnuradio/examples/digital/packet");
    if !dir.join("packet_tx.grc").exists() {
        rfgraph_testkit::skip(
            "gnu_radios_packet_tx_and_rx_check_as_definitions",
            "no GNU Radio examples (apt-get install gnuradio)",
        );
        return;
    }
    let registry = rfgraph_flowfile::standard::registry();
    for (file, ports) in [("packet_tx.grc", 5), ("packet_rx.grc", 8)] {
        let built = build_file(&dir.join(file), &registry, &dry())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(built.exposed.len(), ports, "{file}: {:?}", built.exposed);
        let e = build_file(&dir.join(file), &registry, &BuildOptions::default())
            .err()
            .expect("a definition does not run")
            .to_string();
        assert!(e.contains("does not run alone"), "{file}: {e}");
    }
}
