//! The registry specs of the digital, analog and channel blocks: each
//! builds from its defaults, its settable parameters are exactly the
//! built block's settings, and bad values are errors naming the
//! parameter, never panics.

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
fn every_block_builds_from_defaults_with_its_settings() {
    let r = registry();
    for name in NAMES {
        let spec = r.get(name).unwrap();
        let block = spec
            .build(BTreeMap::new())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut settable: Vec<&str> = spec
            .params
            .iter()
            .filter(|p| p.settable)
            .map(|p| p.name)
            .collect();
        let mut settings: Vec<String> = block
            .settings()
            .iter()
            .map(|i| i.name.to_string())
            .collect();
        settable.sort();
        settings.sort();
        assert_eq!(settable, settings, "{name}");
    }
}

#[test]
fn bad_values_are_errors_that_name_the_parameter() {
    let r = registry();
    let cases: [(&str, &str, Pmt); 12] = [
        ("repack_bits", "k", Pmt::U64(9)),
        ("unpack_k_bits", "k", Pmt::U64(0)),
        ("packed_to_unpacked", "endianness", Pmt::from("middle")),
        ("chunks_to_symbols", "dimension", Pmt::U64(0)),
        ("map", "map", Pmt::List(vec![Pmt::I64(300)])),
        ("diff_encoder", "modulus", Pmt::U64(1)),
        ("constellation_decoder", "constellation", Pmt::from("64qam")),
        ("costas_loop", "order", Pmt::U64(3)),
        ("clock_recovery_mm", "omega", Pmt::F64(0.5)),
        ("random_source", "max", Pmt::I64(0)),
        ("fastnoise_source", "samples", Pmt::U64(0)),
        ("single_pole_iir_filter", "alpha", Pmt::F64(2.0)),
    ];
    for (name, param, value) in cases {
        let given: BTreeMap<String, Pmt> = [(param.to_string(), value)].into_iter().collect();
        let e = r
            .build(name, given)
            .err()
            .unwrap_or_else(|| panic!("{name}.{param} accepted"));
        let text = e.to_string();
        assert!(text.contains(name), "{name}: {text}");
        assert!(
            text.contains(param) || text.contains("must") || text.contains("unknown"),
            "{name}.{param}: {text}"
        );
    }
}
