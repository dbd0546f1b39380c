//! The registry specs of the digital, analog and channel blocks: each
//! builds from its defaults and carries the very declaration the registry
//! lists (its settable parameters are its message inputs), and bad values
//! are errors naming the parameter, refused by `rfgraph check` as by
//! building, never panics.

use rfgraph::Pmt;
use rfgraph::registry::Registry;
use std::collections::BTreeMap;

const NAMES: [&str; 26] = [
    "agc2",
    "binary_slicer",
    "channel_model",
    "chunks_to_symbols",
    "clock_recovery_mm",
    "constellation_decoder",
    "constellation_modulator",
    "costas_loop",
    "diff_decoder",
    "diff_encoder",
    "fastnoise_source",
    "fll_band_edge",
    "fm_preemph",
    "frequency_modulator",
    "iir_filter",
    "map",
    "meas_evm",
    "pack_k_bits",
    "packed_to_unpacked",
    "pfb_clock_sync",
    "random_source",
    "repack_bits",
    "single_pole_iir_filter",
    "unpack_k_bits",
    "unpacked_to_packed",
    "vco",
];

fn registry() -> Registry {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r
}

#[test]
fn every_block_builds_from_defaults_with_its_declaration() {
    let r = registry();
    for name in NAMES {
        let spec = r.get(name).unwrap();
        let mut block = spec
            .build(BTreeMap::new())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        match block.params() {
            Some(params) => assert_eq!(params.describe(), spec.params, "{name}"),
            None => assert!(spec.params.is_empty(), "{name}: no declaration"),
        }
    }
}

#[test]
fn bad_values_are_errors_that_name_the_parameter() {
    let r = registry();
    let cases: Vec<(&str, &str, Pmt)> = vec![
        ("repack_bits", "k", Pmt::U64(9)),
        ("repack_bits", "endianness", Pmt::from("middle")),
        ("unpack_k_bits", "k", Pmt::U64(0)),
        ("pack_k_bits", "k", Pmt::U64(9)),
        ("packed_to_unpacked", "endianness", Pmt::from("middle")),
        ("packed_to_unpacked", "bits_per_chunk", Pmt::U64(9)),
        ("unpacked_to_packed", "bits_per_chunk", Pmt::U64(0)),
        ("chunks_to_symbols", "dimension", Pmt::U64(0)),
        ("chunks_to_symbols", "dimension", Pmt::U64(3)),
        ("chunks_to_symbols", "symbol_table", Pmt::VecF32(vec![])),
        ("chunks_to_symbols", "output_type", Pmt::from("i16")),
        ("map", "map", Pmt::List(vec![Pmt::I64(0); 257])),
        ("diff_encoder", "modulus", Pmt::U64(1)),
        ("diff_decoder", "coding", Pmt::from("manchester")),
        ("constellation_decoder", "constellation", Pmt::from("64qam")),
        (
            "constellation_modulator",
            "constellation",
            Pmt::from("64qam"),
        ),
        // Custom without points.
        (
            "constellation_decoder",
            "constellation",
            Pmt::from("custom"),
        ),
        ("meas_evm", "constellation", Pmt::from("custom")),
        ("constellation_decoder", "dimensionality", Pmt::U64(2)),
        ("constellation_modulator", "sps", Pmt::U64(0)),
        ("constellation_modulator", "sps", Pmt::U64(1)),
        ("constellation_modulator", "excess_bw", Pmt::F64(0.0)),
        ("meas_evm", "mode", Pmt::from("loud")),
        ("costas_loop", "order", Pmt::U64(3)),
        ("costas_loop", "loop_bw", Pmt::F64(-0.1)),
        ("clock_recovery_mm", "omega", Pmt::F64(0.5)),
        ("clock_recovery_mm", "mu", Pmt::F64(1.0)),
        ("clock_recovery_mm", "omega", Pmt::F64(1e12)),
        ("fll_band_edge", "sps", Pmt::F64(0.0)),
        ("fll_band_edge", "filter_size", Pmt::U64(1 << 20)),
        ("pfb_clock_sync", "osps", Pmt::U64(0)),
        ("pfb_clock_sync", "sps", Pmt::F64(0.0)),
        ("pfb_clock_sync", "taps", Pmt::VecF32(vec![1.0; 3])),
        ("pfb_clock_sync", "max_rate_deviation", Pmt::F64(-1.0)),
        ("pfb_clock_sync", "filter_size", Pmt::U64(4097)),
        ("channel_model", "taps", Pmt::VecF32(vec![])),
        ("channel_model", "noise_voltage", Pmt::F64(-1.0)),
        ("channel_model", "epsilon", Pmt::F64(0.0)),
        ("iir_filter", "feedforward", Pmt::VecF32(vec![])),
        ("random_source", "max", Pmt::I64(0)),
        ("random_source", "min", Pmt::I64(-1)),
        ("fastnoise_source", "samples", Pmt::U64(0)),
        ("fastnoise_source", "kind", Pmt::from("pink")),
        ("single_pole_iir_filter", "alpha", Pmt::F64(2.0)),
        ("single_pole_iir_filter", "vlen", Pmt::U64(2)),
        ("fm_preemph", "tau", Pmt::F64(0.0)),
        ("vco", "sample_rate", Pmt::F64(0.0)),
        ("agc2", "max_gain", Pmt::F64(-1.0)),
    ];
    for (name, param, value) in cases {
        let given: BTreeMap<String, Pmt> = [(param.to_string(), value)].into_iter().collect();
        let spec = r.get(name).unwrap();
        let checked = spec.check(given.clone()).err();
        assert!(
            checked.is_some(),
            "{name}.{param}: rfgraph check accepts it"
        );
        let e = r
            .build(name, given)
            .err()
            .unwrap_or_else(|| panic!("{name}.{param} accepted"));
        let text = e.to_string();
        assert!(text.contains(name), "{name}: {text}");
        assert!(
            text.contains(&format!("`{param}`")),
            "{name}.{param}: {text}"
        );
    }
}
