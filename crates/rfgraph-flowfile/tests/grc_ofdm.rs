//! GNU Radio's OFDM blocks imported from a `.grc` file through the
//! mapping table and run with the standard registry: the carriers and
//! pilots as GRC writes them (tuples of tuples built from `range`), an
//! equalizer object held by a variable (`digital.ofdm_equalizer_static(
//! ...)` used as `eq.base()`), string keys, and a loop from the carrier
//! allocator through the frame equalizer to the serializer that gives
//! back the symbols it was fed; the cyclic prefixer, the Schmidl & Cox
//! synchroniser and the channel estimator run beside it.

use common::grc_text::{self, block, c32s, grc};
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc::{self, LoadOptions};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

const WATCHDOG: Duration = Duration::from_secs(30);

fn scratch(name: &str) -> PathBuf {
    grc_text::scratch_file("grc-ofdm", name)
}

fn file_sink(name: &str, path: &Path) -> String {
    block(
        name,
        "blocks_file_sink",
        &[
            ("type", "complex"),
            ("file", path.to_str().unwrap()),
            ("append", "False"),
        ],
    )
}

#[test]
fn an_ofdm_flowgraph_imports_and_gives_its_symbols_back() {
    let looped = scratch("loop.c32");
    let prefixed = scratch("prefixed.c32");
    let symbols = "[1, -1, 1j, -1j, 0.5, -0.5] * 32";
    let text = grc(
        &[
            block("fft_len", "variable", &[("value", "64")]),
            block(
                "occupied_carriers",
                "variable",
                &[(
                    "value",
                    "(list(range(-26, -21)) + list(range(-20, -7)) + list(range(-6, 0)) + \
                     list(range(1, 7)) + list(range(8, 21)) + list(range(22, 27)),)",
                )],
            ),
            block(
                "pilot_carriers",
                "variable",
                &[("value", "((-21, -7, 7, 21,),)")],
            ),
            block(
                "pilot_symbols",
                "variable",
                &[("value", "((1, 1, 1, -1,),)")],
            ),
            block("length_tag_key", "variable", &[("value", "\"packet_len\"")]),
            block(
                "eq",
                "variable",
                &[(
                    "value",
                    "digital.ofdm_equalizer_static(fft_len, occupied_carriers, pilot_carriers, \
                     pilot_symbols)",
                )],
            ),
            block(
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "complex"),
                    ("vector", symbols),
                    ("repeat", "False"),
                ],
            ),
            block(
                "tagger",
                "blocks_stream_to_tagged_stream",
                &[
                    ("type", "complex"),
                    ("vlen", "1"),
                    ("packet_len", "96"),
                    ("len_tag_key", "length_tag_key"),
                ],
            ),
            block(
                "alloc",
                "digital_ofdm_carrier_allocator_cvc",
                &[
                    ("fft_len", "fft_len"),
                    ("occupied_carriers", "occupied_carriers"),
                    ("pilot_carriers", "pilot_carriers"),
                    ("pilot_symbols", "pilot_symbols"),
                    ("sync_words", "()"),
                    ("len_tag_key", "length_tag_key"),
                    ("output_is_shifted", "True"),
                ],
            ),
            block(
                "equalizer",
                "digital_ofdm_frame_equalizer_vcvc",
                &[
                    ("fft_len", "fft_len"),
                    ("cp_len", "fft_len//4"),
                    ("equalizer", "eq.base()"),
                    ("len_tag_key", "length_tag_key"),
                    ("propagate_channel_state", "False"),
                    ("fixed_frame_len", "0"),
                ],
            ),
            block(
                "serializer",
                "digital_ofdm_serializer_vcc",
                &[
                    ("fft_len", "fft_len"),
                    ("occupied_carriers", "occupied_carriers"),
                    ("len_tag_key", "length_tag_key"),
                    ("packet_len_tag_key", "\"\""),
                    ("symbols_skipped", "0"),
                    ("carr_offset_key", "\"\""),
                    ("input_is_shifted", "True"),
                ],
            ),
            file_sink("sink", &looped),
            block(
                "ifft",
                "fft_vxx",
                &[
                    ("type", "complex"),
                    ("fft_size", "fft_len"),
                    ("forward", "False"),
                    ("window", "()"),
                    ("shift", "True"),
                    ("nthreads", "1"),
                ],
            ),
            block(
                "cp",
                "digital_ofdm_cyclic_prefixer",
                &[
                    ("input_size", "fft_len"),
                    ("cp_len", "fft_len/4"),
                    ("rolloff", "2"),
                    ("tagname", "length_tag_key"),
                ],
            ),
            file_sink("cp_sink", &prefixed),
            block(
                "sync",
                "digital_ofdm_sync_sc_cfb",
                &[
                    ("fft_len", "fft_len"),
                    ("cp_len", "fft_len//4"),
                    ("use_even_carriers", "False"),
                    ("threshold", "0.9"),
                ],
            ),
            block("freq", "blocks_null_sink", &[("type", "float")]),
            block("detect", "blocks_null_sink", &[("type", "byte")]),
            block(
                "chanest",
                "digital_ofdm_chanest_vcvc",
                &[
                    ("sync_symbol1", "[0, 0] + [1, 0] * 30 + [0, 0]"),
                    ("sync_symbol2", "()"),
                    ("n_data_symbols", "1"),
                    ("eq_noise_red_len", "0"),
                    ("max_carr_offset", "-1"),
                    ("force_one_symbol", "False"),
                ],
            ),
            block("est", "blocks_null_sink", &[("type", "complex")]),
        ],
        &[
            ("src", "0", "tagger", "0"),
            ("tagger", "0", "alloc", "0"),
            ("alloc", "0", "equalizer", "0"),
            ("equalizer", "0", "serializer", "0"),
            ("serializer", "0", "sink", "0"),
            ("alloc", "0", "ifft", "0"),
            ("ifft", "0", "cp", "0"),
            ("cp", "0", "cp_sink", "0"),
            ("cp", "0", "sync", "0"),
            ("sync", "0", "freq", "0"),
            ("sync", "1", "detect", "0"),
            ("alloc", "0", "chanest", "0"),
            ("chanest", "0", "est", "0"),
        ],
    );
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(
        &text,
        Path::new("t.grc"),
        &registry,
        &LoadOptions::default(),
    )
    .unwrap();
    let equalizer = doc.blocks.iter().find(|b| b.name == "equalizer").unwrap();
    let kind = equalizer.params.iter().find(|p| p.name == "equalizer");
    assert!(
        matches!(kind.map(|p| &p.value), Some(rfgraph_flowfile::model::Value::Text(t)) if t == "static"),
        "{:?}",
        equalizer.params
    );
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    // Two frames of two OFDM symbols each carry the 192 symbols, and come
    // back unchanged: a channel of 1, no carrier offset.
    let got = c32s(&std::fs::read(&looped).unwrap());
    let want: Vec<(f32, f32)> = [
        (1.0, 0.0),
        (-1.0, 0.0),
        (0.0, 1.0),
        (0.0, -1.0),
        (0.5, 0.0),
        (-0.5, 0.0),
    ]
    .repeat(32);
    assert_eq!(got, want);
    // Each frame: two symbols of 64 + 16 items and the flank's 1-item tail.
    let prefixed = c32s(&std::fs::read(&prefixed).unwrap());
    assert_eq!(prefixed.len(), 2 * (2 * 80 + 1));
    let _ = std::fs::remove_dir_all(looped.parent().unwrap());
}

/// `digital_header_payload_demux` as `rx_ofdm.grc` sets it: item type by
/// GNU Radio's name, string keys, `()` special tags, the trigger input.
#[test]
fn the_header_payload_demux_imports_as_gnu_radio_sets_it() {
    let text = grc(
        &[
            block("fft_len", "variable", &[("value", "64")]),
            block("samp_rate", "variable", &[("value", "32000")]),
            block("length_tag_key", "variable", &[("value", "\"frame_len\"")]),
            block(
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "complex"),
                    ("vector", "[1j] * 1000"),
                    ("repeat", "False"),
                ],
            ),
            block(
                "trigger",
                "blocks_vector_source_x",
                &[
                    ("type", "byte"),
                    ("vector", "[0] * 1000"),
                    ("repeat", "False"),
                ],
            ),
            block(
                "hpd",
                "digital_header_payload_demux",
                &[
                    ("guard_interval", "fft_len//4"),
                    ("header_len", "3"),
                    ("header_padding", "0"),
                    ("items_per_symbol", "fft_len"),
                    ("length_tag_key", "length_tag_key"),
                    ("output_symbols", "True"),
                    ("samp_rate", "samp_rate"),
                    ("special_tags", "()"),
                    ("timing_tag_key", "\"rx_time\""),
                    ("trigger_tag_key", "\"\""),
                    ("type", "complex"),
                ],
            ),
            block("hdr", "blocks_null_sink", &[("type", "complex")]),
            block("pay", "blocks_null_sink", &[("type", "complex")]),
        ],
        &[
            ("src", "0", "hpd", "0"),
            ("trigger", "0", "hpd", "1"),
            ("hpd", "0", "hdr", "0"),
            ("hpd", "1", "pay", "0"),
        ],
    );
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(
        &text,
        Path::new("t.grc"),
        &registry,
        &LoadOptions::default(),
    )
    .unwrap();
    let hpd = doc.blocks.iter().find(|b| b.name == "hpd").unwrap();
    assert_eq!(hpd.kind, "header_payload_demux");
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
}
