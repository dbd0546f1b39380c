//! GNU Radio's LDPC coder variables imported from GRC: the matrices
//! (`variable_ldpc_H_matrix_def`, `variable_ldpc_G_matrix_def`), the
//! encoders of them and of an alist file, the belief propagation and bit
//! flip decoders reach the FEC blocks' code parameters and build; a bad
//! alist file is an error naming the block, the file and its line; GNU
//! Radio's own LDPC examples build.

use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use std::path::{Path, PathBuf};

fn block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: '{}'\n", v.replace('\'', "''")));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    state: enabled\n");
    s
}

fn grc(blocks: &[String], conns: &[(&str, &str, &str, &str)]) -> String {
    let mut s = String::from("options:\n  parameters:\n    id: t\nblocks:\n");
    for b in blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    for (a, ap, b, bp) in conns {
        s.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
    }
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

fn testdata(file: &str) -> String {
    let p: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ldpc");
    format!("\"{}\"", p.join(file).display())
}

/// Every LDPC variable, each coder through an extended encoder or
/// decoder; `h_file` is the parity check matrix file.
fn flowgraph(h_file: &str) -> String {
    let g_file = testdata("n_0100_k_0058_gen_matrix.alist");
    grc(
        &[
            block(
                "H",
                "variable_ldpc_H_matrix_def",
                &[("filename", h_file), ("gap", "2")],
            ),
            block("G", "variable_ldpc_G_matrix_def", &[("filename", &g_file)]),
            block(
                "enc",
                "variable_ldpc_encoder_def",
                &[("file", h_file), ("ndim", "0")],
            ),
            block(
                "dec",
                "variable_ldpc_decoder_def",
                &[
                    ("file", h_file),
                    ("sigma", "0.5"),
                    ("max_iter", "50"),
                    ("ndim", "0"),
                ],
            ),
            block(
                "enc_H",
                "variable_ldpc_encoder_H_def",
                &[("H", "H"), ("ndim", "0")],
            ),
            block(
                "enc_G",
                "variable_ldpc_encoder_G_def",
                &[("G", "G"), ("ndim", "0")],
            ),
            block(
                "dec_G",
                "variable_ldpc_bit_flip_decoder_def",
                &[
                    ("matrix_object", "G"),
                    ("max_iterations", "100"),
                    ("ndim", "0"),
                ],
            ),
            block(
                "dec_H",
                "variable_ldpc_bit_flip_decoder_def",
                &[
                    ("matrix_object", "H"),
                    ("max_iterations", "100"),
                    ("ndim", "0"),
                ],
            ),
            block(
                "src",
                "blocks_vector_source_x",
                &[("type", "byte"), ("vector", "[0, 1]"), ("repeat", "False")],
            ),
            block(
                "fsrc",
                "blocks_vector_source_x",
                &[
                    ("type", "float"),
                    ("vector", "[1.0, -1.0]"),
                    ("repeat", "False"),
                ],
            ),
            block(
                "e1",
                "fec_extended_encoder",
                &[("encoder_list", "enc"), ("puncpat", "'11'")],
            ),
            block(
                "e2",
                "fec_extended_encoder",
                &[("encoder_list", "enc_H"), ("puncpat", "'11'")],
            ),
            block(
                "e3",
                "fec_extended_encoder",
                &[("encoder_list", "enc_G"), ("puncpat", "'11'")],
            ),
            block(
                "d1",
                "fec_extended_decoder",
                &[("decoder_list", "dec"), ("puncpat", "'11'")],
            ),
            block(
                "d2",
                "fec_extended_decoder",
                &[("decoder_list", "dec_H"), ("puncpat", "'11'")],
            ),
            block(
                "d3",
                "fec_extended_decoder",
                &[("decoder_list", "dec_G"), ("puncpat", "'11'")],
            ),
            block("s1", "blocks_null_sink", &[("type", "byte")]),
            block("s2", "blocks_null_sink", &[("type", "byte")]),
            block("s3", "blocks_null_sink", &[("type", "byte")]),
            block("s4", "blocks_null_sink", &[("type", "byte")]),
            block("s5", "blocks_null_sink", &[("type", "byte")]),
            block("s6", "blocks_null_sink", &[("type", "byte")]),
        ],
        &[
            ("src", "0", "e1", "0"),
            ("src", "0", "e2", "0"),
            ("src", "0", "e3", "0"),
            ("fsrc", "0", "d1", "0"),
            ("fsrc", "0", "d2", "0"),
            ("fsrc", "0", "d3", "0"),
            ("e1", "0", "s1", "0"),
            ("e2", "0", "s2", "0"),
            ("e3", "0", "s3", "0"),
            ("d1", "0", "s4", "0"),
            ("d2", "0", "s5", "0"),
            ("d3", "0", "s6", "0"),
        ],
    )
}

#[test]
fn ldpc_variables_build_their_coders() {
    let registry = rfgraph_flowfile::standard::registry();
    let text = flowgraph(&testdata("n_0100_k_0042_gap_02.alist"));
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    build::build(&doc, &registry, &BuildOptions::default()).unwrap();
}

#[test]
fn a_bad_alist_file_is_an_error_naming_file_and_line() {
    let registry = rfgraph_flowfile::standard::registry();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grc_ldpc");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.alist");
    let good =
        std::fs::read_to_string(testdata("n_0100_k_0042_gap_02.alist").trim_matches('"')).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines[6] = "1 2 x";
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let text = flowgraph(&format!("\"{}\"", bad.display()));
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let err = build::build(&doc, &registry, &BuildOptions::default())
        .err()
        .expect("a bad alist file is an error")
        .to_string();
    assert!(
        err.contains(&bad.display().to_string()) && err.contains("line 7"),
        "{err}"
    );
}

#[test]
fn gnu_radio_ldpc_examples_build() {
    let registry = rfgraph_flowfile::standard::registry();
    for name in ["fecapi_ldpc_encoders.grc", "fecapi_ldpc_decoders.grc"] {
        let path = Path::new("/usr/share/gnuradio/examples/fec").join(name);
        if !path.exists() || !Path::new("/usr/share/gnuradio/fec/ldpc").exists() {
            eprintln!("skipped: {} absent", path.display());
            continue;
        }
        let doc = grc::load(&path, &registry).unwrap_or_else(|e| panic!("{name}: {e}"));
        build::build(&doc, &registry, &BuildOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
