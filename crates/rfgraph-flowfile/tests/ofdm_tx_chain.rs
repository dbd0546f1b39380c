//! `tx_ofdm.grc`'s explicit transmitter chain, as GNU Radio 3.10 runs it
//! (`ofdm_tx_chain/reference.py`, by `/usr/bin/python3`: tagged
//! `repack_bits`, `packet_header_ofdm`, the file's sync words and single
//! pilot set, a channel of tap 1+1j that blocks tags): rfgraph's built-in
//! `digital_ofdm_rx` decodes from its samples, on every scheduler, exactly
//! the bytes GNU Radio's receiver decodes (every packet). Without GNU
//! Radio the test skips with one line, except under `CI=true`.

mod common;

use common::{every_scheduler, run_bounded, scratch, write};
use rfgraph_blocks::VectorSink;
use rfgraph_flowfile::build::{BuildOptions, build_file};
use rfgraph_flowfile::standard::registry;

const PACKET_LEN: usize = 96;
const PACKETS: usize = 12;

const OCCUPIED: &str = "(list(range(-26, -21)) + list(range(-20, -7)) + list(range(-6, 0)) \
                        + list(range(1, 7)) + list(range(8, 21)) + list(range(22, 27)),)";

/// The receiver flowgraph: GNU Radio's samples through the same channel
/// into the built-in receiver with `tx_ofdm.grc`'s parameters.
fn receiver(samples: &std::path::Path) -> String {
    format!(
        r#"format = 1
title = "tx_ofdm.grc's receiver"
connections = ["src -> channel -> rx -> snk"]

[variables]
sync_word1 = "[0., 0., 0., 0., 0., 0., 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., -1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., -1.41421356, 0., -1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 0., 0., 0., 0., 0.]"
sync_word2 = "[0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 1, 1, -1, -1, -1, 1, -1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, 1, -1, -1, 1, -1, 0, 1, -1, 1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, 1, -1, 1, -1, -1, -1, 1, -1, 1, -1, -1, -1, -1, 0, 0, 0, 0, 0]"

[blocks.src]
kind = "file_source"
type = "c32"
path = "{}"

[blocks.channel]
kind = "channel_model"
taps = "[1.0 + 1.0j]"
block_tags = true

[blocks.rx]
kind = "builtin/digital_ofdm_rx.toml"
fft_len = 64
cp_len = 16
packet_len_key = "'length'"
occupied_carriers = "{OCCUPIED}"
pilot_carriers = "((-21, -7, 7, 21,),)"
pilot_symbols = "((1, 1, 1, -1,),)"
sync_word1 = "sync_word1"
sync_word2 = "sync_word2"
header_mod = "'BPSK'"
payload_mod = "'QPSK'"

[blocks.snk]
kind = "vector_sink"
type = "u8"
"#,
        samples.display()
    )
}

#[test]
fn gnu_radios_explicit_ofdm_tx_chain_decodes_as_in_gnu_radio() {
    if !rfgraph_testkit::gnuradio("ofdm_tx_chain", "gnuradio.digital, gnuradio.channels") {
        return;
    }
    let dir = scratch("ofdm_tx_chain");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ofdm_tx_chain/reference.py");
    let out = std::process::Command::new(rfgraph_testkit::GNURADIO_PYTHON)
        .arg(&script)
        .arg(&dir)
        .arg(PACKET_LEN.to_string())
        .arg(PACKETS.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read(dir.join("rx.u8")).unwrap();
    let payload: Vec<u8> = (0..PACKET_LEN * PACKETS)
        .map(|i| ((i * 37 + i / 7) % 256) as u8)
        .collect();
    assert_eq!(want, payload, "GNU Radio's own receiver");
    let path = write(&dir, "rx.toml", &receiver(&dir.join("tx.c64")));
    for scheduler in every_scheduler() {
        let built = build_file(&path, &registry(), &BuildOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let id = built.blocks.iter().find(|b| b.name == "snk").unwrap().id;
        let done = run_bounded(built.flowgraph, scheduler);
        let got = done.block::<VectorSink<u8>>(id).unwrap().items().to_vec();
        assert_eq!(got, want);
    }
}
