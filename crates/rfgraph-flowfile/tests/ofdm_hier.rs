//! GNU Radio's OFDM hier blocks as rfgraph's built-in hierarchical
//! flowgraphs (`builtin/digital_ofdm_tx.toml`, `builtin/digital_ofdm_rx.toml`):
//! a file whose transmitter feeds its receiver directly (as
//! `ofdm_loopback.grc` without its channel, silence after the bursts)
//! decodes, on every scheduler, exactly the bytes GNU Radio 3.10's own
//! `digital.ofdm_tx` → `digital.ofdm_rx` decode from the same payload
//! (`ofdm_hier/reference.py`, run by `/usr/bin/python3`): every BPSK
//! packet; of the QPSK ones GNU Radio's receiver loses the sixth, and so
//! does rfgraph's (the transmitters' samples agree to 1e-5). Without GNU
//! Radio the BPSK payload is still checked whole. Bad OFDM parameters and
//! unknown built-in kinds are errors at the file's line.

mod common;

use common::{every_scheduler, run_bounded, scratch, write};
use rfgraph_blocks::VectorSink;
use rfgraph_flowfile::build::{BuildOptions, build_file};
use rfgraph_flowfile::standard::registry;

const PACKET_LEN: usize = 20;
const PACKETS: usize = 12;

fn payload() -> Vec<u8> {
    (0..PACKET_LEN * PACKETS)
        .map(|i| ((i * 37 + i / 7) % 256) as u8)
        .collect()
}

/// The transmitter's samples: per packet two sync symbols, a header
/// symbol and the payload's symbols, of `fft_len + cp_len` samples.
fn tx_samples(bits_per_symbol: usize) -> usize {
    let symbols = (PACKET_LEN + 4) * 8 / bits_per_symbol;
    PACKETS * (3 + symbols.div_ceil(8)) * 80
}

fn loopback(payload_mod: &str, extra_tx: &str) -> String {
    let bps = if payload_mod == "QPSK" { 2 } else { 1 };
    let samples = tx_samples(bps);
    let data = payload()
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        r#"format = 1
title = "OFDM loopback"
# Silence after the bursts lets the receiver finish the last frame.
connections = ["src -> tagger -> tx -> tail.in0", "zeros -> tail.in1", "tail -> rx -> snk"]

[variables]
fft_len = 64

[blocks.src]
kind = "vector_source"
type = "u8"
values = "[{data}]"

[blocks.tagger]
kind = "stream_to_tagged_stream"
type = "u8"
packet_len = {PACKET_LEN}
len_tag_key = "len"

[blocks.tx]
kind = "builtin/digital_ofdm_tx.toml"
fft_len = "fft_len"
cp_len = "fft_len // 4"
packet_len_key = "'len'"
occupied_carriers = "((-4, -3, -2, -1, 1, 2, 3, 4),)"
pilot_carriers = "((-6, -5, 5, 6),)"
pilot_symbols = "((-1, 1, -1, 1),)"
header_mod = "'BPSK'"
payload_mod = "'{payload_mod}'"
{extra_tx}

[blocks.zeros]
kind = "null_source"
type = "c32"

[blocks.tail]
kind = "stream_mux"
type = "c32"
lengths = [{samples}, 4000]

[blocks.rx]
kind = "builtin/digital_ofdm_rx.toml"
fft_len = "fft_len"
cp_len = "fft_len // 4"
packet_len_key = "'rx_len'"
occupied_carriers = "((-4, -3, -2, -1, 1, 2, 3, 4),)"
pilot_carriers = "((-6, -5, 5, 6),)"
pilot_symbols = "((-1, 1, -1, 1),)"
header_mod = "'BPSK'"
payload_mod = "'{payload_mod}'"

[blocks.snk]
kind = "vector_sink"
type = "u8"
"#
    )
}

/// GNU Radio's decoded bytes by payload modulation; `None` without GNU
/// Radio (and not under CI).
fn gnu_radio() -> Option<std::collections::BTreeMap<String, Vec<u8>>> {
    if !rfgraph_testkit::gnuradio("ofdm_hier", "gnuradio.digital") {
        return None;
    }
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ofdm_hier/reference.py");
    let out = std::process::Command::new(rfgraph_testkit::GNURADIO_PYTHON)
        .arg(&script)
        .arg(PACKET_LEN.to_string())
        .arg(PACKETS.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    Some(
        text.lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(m, hex)| {
                let bytes = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                (m.to_string(), bytes)
            })
            .collect(),
    )
}

#[test]
fn the_ofdm_hier_blocks_decode_what_gnu_radio_decodes_on_every_scheduler() {
    let dir = scratch("ofdm_hier_loopback");
    let reference = gnu_radio();
    if let Some(r) = &reference {
        assert_eq!(r["BPSK"], payload(), "GNU Radio's own BPSK loopback");
    }
    for modulation in ["BPSK", "QPSK"] {
        let want = match (&reference, modulation) {
            (Some(r), m) => r[m].clone(),
            (None, "BPSK") => payload(),
            (None, _) => continue,
        };
        let path = write(&dir, "loopback.toml", &loopback(modulation, ""));
        for scheduler in every_scheduler() {
            let built = build_file(&path, &registry(), &BuildOptions::default())
                .unwrap_or_else(|e| panic!("{e}"));
            let id = built.blocks.iter().find(|b| b.name == "snk").unwrap().id;
            let done = run_bounded(built.flowgraph, scheduler);
            let got = done.block::<VectorSink<u8>>(id).unwrap().items().to_vec();
            assert_eq!(got, want, "{modulation}");
        }
    }
}

#[test]
fn bad_ofdm_parameters_are_errors_at_their_line() {
    let dir = scratch("ofdm_hier_bad");
    // The transmitter's carriers are no list of lists.
    let bad = loopback("BPSK", "").replacen(
        "occupied_carriers = \"((-4, -3, -2, -1, 1, 2, 3, 4),)\"",
        "occupied_carriers = \"5\"",
        1,
    );
    assert_ne!(bad, loopback("BPSK", ""));
    let path = write(&dir, "bad.toml", &bad);
    let e = build_file(&path, &registry(), &BuildOptions::default())
        .err()
        .expect("an error");
    assert!(e.to_string().contains("occupied_carriers"), "{e}");
    let unknown =
        loopback("BPSK", "").replace("builtin/digital_ofdm_rx.toml", "builtin/nothing.toml");
    let path = write(&dir, "unknown.toml", &unknown);
    let e = build_file(&path, &registry(), &BuildOptions::default())
        .err()
        .expect("an error");
    assert!(e.to_string().contains("builtin/nothing.toml"), "{e}");
    assert!(e.at.line > 0, "{e}");
}

/// The same loopback as a GRC file with GNU Radio's own block ids
/// (`digital_ofdm_tx`, `digital_ofdm_rx`, GRC's quoting and its `()` for
/// "the default carriers"): the importer maps them onto the built-in
/// hierarchical blocks, and the BPSK payload comes back whole, as GNU
/// Radio's loopback gives it.
#[test]
fn gnu_radios_ofdm_block_ids_in_a_grc_file_decode_the_payload() {
    use common::grc_text::{block, grc};
    let dir = scratch("ofdm_hier_grc");
    let out = dir.join("decoded.u8");
    let data = payload()
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    // As in `ofdm_loopback.grc`, the receiver's length key differs from
    // the transmitter's (whose tags reach it through the channel).
    let ofdm = |name: &str, id: &str, key: &str| {
        block(
            name,
            id,
            &[
                ("fft_len", "64"),
                ("cp_len", "16"),
                ("packet_len_key", key),
                ("occupied_carriers", "()"),
                ("pilot_carriers", "()"),
                ("pilot_symbols", "()"),
                ("sync_word1", "()"),
                ("sync_word2", "()"),
                ("header_mod", "\"BPSK\""),
                ("payload_mod", "\"BPSK\""),
                ("rolloff", "0"),
                ("scramble_bits", "False"),
                ("log", "False"),
            ],
        )
    };
    // 802.11's 48 data carriers: 20-byte packets take 4 payload symbols.
    let samples = PACKETS * (3 + 4) * 80;
    let text = grc(
        &[
            block(
                "src",
                "blocks_vector_source_x",
                &[("type", "byte"), ("vector", &format!("[{data}]"))],
            ),
            block(
                "tagger",
                "blocks_stream_to_tagged_stream",
                &[
                    ("type", "byte"),
                    ("packet_len", &PACKET_LEN.to_string()),
                    ("len_tag_key", "\"len\""),
                ],
            ),
            ofdm("tx", "digital_ofdm_tx", "len"),
            block("zeros", "blocks_null_source", &[("type", "complex")]),
            block(
                "tail",
                "blocks_stream_mux",
                &[
                    ("type", "complex"),
                    ("lengths", &format!("({samples}, 4000)")),
                ],
            ),
            ofdm("rx", "digital_ofdm_rx", "\"rx_len\""),
            block(
                "snk",
                "blocks_file_sink",
                &[
                    ("type", "byte"),
                    ("file", out.to_str().unwrap()),
                    ("unbuffered", "False"),
                    ("append", "False"),
                ],
            ),
        ],
        &[
            ("src", "0", "tagger", "0"),
            ("tagger", "0", "tx", "0"),
            ("tx", "0", "tail", "0"),
            ("zeros", "0", "tail", "1"),
            ("tail", "0", "rx", "0"),
            ("rx", "0", "snk", "0"),
        ],
    );
    let path = write(&dir, "loopback.grc", &text);
    let built =
        build_file(&path, &registry(), &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    run_bounded(built.flowgraph, rfgraph::scheduler::Chain::new());
    assert_eq!(std::fs::read(&out).unwrap(), payload());
}
