//! Blocks' tagged modes against GNU Radio 3.10, the two that kept
//! `tx_ofdm.grc` and `rx_ofdm.grc` from decoding: `repack_bits` in
//! tagged-stream mode and `channel_model`'s `block_tags`. The script
//! `gr_tagged_modes/reference.py` (run by `/usr/bin/python3`) runs GNU
//! Radio's `repack_bits_bb` with a length tag key on random packets, and
//! its `channel_model` on a tagged stream, and writes inputs and outputs;
//! each case builds rfgraph's block **through the registry**, runs it on
//! the same tagged input and compares items and tags exactly. A proptest feeds random packets and
//! parameters (it must never panic, and each packet's output length must
//! follow GNU Radio's rule). Without GNU Radio the comparison skips with
//! one line, except under `CI=true`, where it fails.

mod common;

use common::cases::{param_map, registry};
use common::flow::run_block;
use common::gr_reference::gr_reference;

use num_complex::Complex32;
use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph::{Pmt, Tag};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const LEN: &str = "packet_len";

/// GNU Radio's outputs, written once per test process by
/// `gr_tagged_modes/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_tagged_modes", "gnuradio.blocks")
}

/// Tags as the script writes them (offset, key, integer value); length
/// tags as rfgraph writes them (`U64`).
fn load_tags(path: &Path) -> Vec<Tag> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let value: i64 = f[2].parse().unwrap();
            let value = if f[1] == LEN {
                Pmt::U64(value as u64)
            } else {
                Pmt::from(value)
            };
            Tag::new(f[0].parse().unwrap(), f[1], value)
        })
        .collect()
}

/// Tags as comparable rows (index, key, integer value), sorted.
fn rows(tags: &[Tag]) -> Vec<(u64, String, Option<u64>)> {
    let mut rows: Vec<_> = tags
        .iter()
        .map(|t| (t.index, t.key.clone(), t.value.as_u64()))
        .collect();
    rows.sort();
    rows
}

/// Runs the registry's `repack_bits` in tagged mode on `input` with `tags`.
fn run(
    k: u32,
    l: u32,
    order: &str,
    align: bool,
    input: Vec<u8>,
    tags: Vec<Tag>,
) -> (Vec<u8>, Vec<Tag>) {
    let params = [
        ("k", Pmt::U64(k.into())),
        ("l", Pmt::U64(l.into())),
        ("endianness", Pmt::from(order)),
        ("align_output", Pmt::Bool(align)),
        ("len_tag_key", Pmt::from(LEN)),
    ];
    let block = registry()
        .build("repack_bits", param_map(&params))
        .expect("repack_bits");
    run_block(block, input, tags)
}

#[test]
fn tagged_repack_bits_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    let cases = [
        ("k8_l2_lsb", 8, 2, "lsb", false),
        ("k2_l8_lsb_aligned", 2, 8, "lsb", true),
        ("k2_l8_lsb", 2, 8, "lsb", false),
        ("k8_l3_msb", 8, 3, "msb", false),
        ("k3_l8_msb_aligned", 3, 8, "msb", true),
        ("k3_l8_lsb", 3, 8, "lsb", false),
        ("k1_l8_msb", 1, 8, "msb", false),
        ("k8_l1_lsb", 8, 1, "lsb", false),
    ];
    for (case, k, l, order, align) in cases {
        let input = std::fs::read(dir.join(format!("{case}.in"))).unwrap();
        let tags = load_tags(&dir.join(format!("{case}.in_tags")));
        let want = std::fs::read(dir.join(format!("{case}.out"))).unwrap();
        let want_tags = load_tags(&dir.join(format!("{case}.out_tags")));
        assert!(!want.is_empty(), "{case}: GNU Radio wrote nothing");
        let (got, got_tags) = run(k, l, order, align, input, tags);
        assert_eq!(got, want, "{case}: items");
        assert_eq!(rows(&got_tags), rows(&want_tags), "{case}: tags");
    }
}

/// `channel_model` passes its input's tags on, or none with `block_tags`,
/// as GNU Radio's.
#[test]
fn channel_model_block_tags_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    for (case, block) in [("channel_tags", false), ("channel_block_tags", true)] {
        let tags = load_tags(&dir.join(format!("{case}.in_tags")));
        let want_tags = load_tags(&dir.join(format!("{case}.out_tags")));
        let mut r = Registry::new();
        r.extend(rfgraph_blocks::registry::specs());
        let params: BTreeMap<String, Pmt> = [
            ("taps", Pmt::VecComplexF32(vec![[1.0, 1.0]])),
            ("block_tags", Pmt::Bool(block)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let dut = r.build("channel_model", params).expect("channel_model");
        let (_, got_tags) =
            run_block::<_, Complex32>(dut, vec![Complex32::new(0.5, 0.0); 64], tags);
        assert_eq!(rows(&got_tags), rows(&want_tags), "{case}: tags");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random packets, widths and orders: no panic, and every packet's
    /// length tag says what GNU Radio's rule gives (the bits over `l`,
    /// rounded up unless aligned; a first packet has no carried bits).
    #[test]
    fn random_packets_never_panic(
        k in 1u32..=8,
        l in 1u32..=8,
        msb in any::<bool>(),
        align in any::<bool>(),
        packets in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 1..40), 1..6),
        junk in proptest::collection::vec(any::<u8>(), 0..5),
    ) {
        let mut input = junk.clone();
        let mut tags = Vec::new();
        for p in &packets {
            tags.push(Tag::new(input.len() as u64, LEN, Pmt::U64(p.len() as u64)));
            input.extend_from_slice(p);
        }
        let order = if msb { "msb" } else { "lsb" };
        let (got, got_tags) = run(k, l, order, align, input, tags);
        let lens: Vec<u64> = got_tags
            .iter()
            .filter(|t| t.key == LEN)
            .map(|t| t.value.as_u64().unwrap())
            .collect();
        prop_assert_eq!(lens.iter().sum::<u64>(), got.len() as u64);
        let bits = packets[0].len() as u64 * u64::from(k);
        let first = if align { bits / u64::from(l) } else { bits.div_ceil(u64::from(l)) };
        if first > 0 {
            prop_assert_eq!(lens[0], first);
        }
        let mask = if l == 8 { 0xFF } else { (1u16 << l) as u8 - 1 };
        prop_assert!(got.iter().all(|&b| b & !mask == 0));
    }
}
