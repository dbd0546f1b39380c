//! GNU Radio's wide-band FM hier blocks in rfgraph, against GNU Radio
//! 3.10's own (the script
//! `gr_wfm/reference.py`, run by `/usr/bin/python3`):
//!
//! - the `wfm_tx` block (`analog.wfm_tx`: optfir interpolation,
//!   pre-emphasis, frequency modulation) gives GNU Radio's samples, for
//!   interpolations 8 and 4 and none;
//! - `builtin/analog_wfm_rcv_pll.toml` (`analog.wfm_rcv_pll` on rfgraph's
//!   own stereo decoder, which does not match GNU Radio sample for
//!   sample) separates a stereo test tone into the side it was sent on,
//!   at GNU Radio's level, the other side silent, as GNU Radio's does.
//!
//! Without GNU Radio the test skips with one line, except under
//! `CI=true`.

mod common;

use common::{run_bounded, scratch, write};
use num_complex::Complex32;
use rfgraph_blocks::VectorSink;
use rfgraph_flowfile::build::{BuildOptions, build_file};
use rfgraph_flowfile::standard::registry;
use rfgraph_testkit::read_items as load;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process.
fn reference() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        rfgraph_testkit::gnuradio_reference(
            "gr_wfm",
            "gnuradio.analog",
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gr_wfm/reference.py"),
            &Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_wfm"),
        )
    })
    .clone()
}

/// A file source of `input` (`ty` items) → block `kind` with `params`
/// → vector sinks on its outputs `outs`; gives the sinks' items.
fn run_hier<T: rfgraph::Item + Clone>(
    name: &str,
    input: &Path,
    ty: &str,
    kind: &str,
    params: &str,
    outs: &[&str],
    out_ty: &str,
) -> Vec<Vec<T>> {
    let dir = scratch(name);
    let mut text = format!(
        "format = 1\ntitle = \"{name}\"\nconnections = [{}]\n\n[blocks.src]\nkind = \"file_source\"\ntype = \"{ty}\"\npath = {{ text = \"{}\" }}\n\n[blocks.dut]\nkind = \"{kind}\"\n{params}\n",
        std::iter::once("\"src -> dut\"".to_string())
            .chain(
                outs.iter()
                    .enumerate()
                    .map(|(i, o)| format!("\"dut.{o} -> snk{i}\""))
            )
            .collect::<Vec<_>>()
            .join(", "),
        input.display()
    );
    for i in 0..outs.len() {
        text.push_str(&format!(
            "\n[blocks.snk{i}]\nkind = \"vector_sink\"\ntype = \"{out_ty}\"\n"
        ));
    }
    let path = write(&dir, "hier.toml", &text);
    let built = build_file(&path, &registry(), &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let ids: Vec<_> = (0..outs.len())
        .map(|i| {
            let n = format!("snk{i}");
            built.blocks.iter().find(|b| b.name == n).unwrap().id
        })
        .collect();
    let done = run_bounded(built.flowgraph, rfgraph::scheduler::Tpb::new());
    ids.into_iter()
        .map(|id| done.block::<VectorSink<T>>(id).unwrap().items().to_vec())
        .collect()
}

#[test]
fn wfm_tx_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    for (audio, quad) in [(50000, 400000), (48000, 192000), (48000, 48000)] {
        let case = format!("tx_{audio}_{quad}");
        let want: Vec<Complex32> = load(&dir.join(format!("{case}.out")));
        let got = run_hier::<Complex32>(
            &case,
            &dir.join(format!("{case}.in")),
            "f32",
            "wfm_tx",
            &format!(
                "audio_rate = {audio}\nquad_rate = {quad}\ntau = 75e-6\nmax_dev = 75e3\nfh = -1.0"
            ),
            &["out"],
            "c32",
        )
        .remove(0);
        assert!(want.len() >= 4000, "{case}: GNU Radio wrote {}", want.len());
        assert_eq!(got.len(), want.len(), "{case}: length");
        // The phase accumulates float roundings of each sample's step.
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!(
                (a - b).norm() < 2e-3,
                "{case}[{i}]: ours {a}, GNU Radio {b}"
            );
        }
    }
}

/// The amplitude of the `freq` Hz component of the second half of `x`
/// (at 48 kHz): the PLLs have locked there.
fn level(x: &[f32], freq: f64) -> f64 {
    let x = &x[x.len() / 2..];
    let (mut re, mut im) = (0.0, 0.0);
    for (n, &v) in x.iter().enumerate() {
        let w = std::f64::consts::TAU * freq * n as f64 / 48000.0;
        re += v as f64 * w.cos();
        im -= v as f64 * w.sin();
    }
    2.0 * (re * re + im * im).sqrt() / x.len() as f64
}

#[test]
fn wfm_rcv_pll_separates_a_stereo_tone_as_gnu_radio_does() {
    let Some(dir) = reference() else { return };
    for side in ["left", "right"] {
        let case = format!("stereo_{side}");
        let got = run_hier::<f32>(
            &case,
            &dir.join(format!("{case}.in")),
            "c32",
            "builtin/analog_wfm_rcv_pll.toml",
            "quad_rate = 384000\naudio_decimation = 8\ndeemph_tau = 75e-6",
            &["left", "right"],
            "f32",
        );
        let want: Vec<Vec<f32>> = ["left", "right"]
            .iter()
            .map(|o| load(&dir.join(format!("{case}.{o}"))))
            .collect();
        let on = usize::from(side == "right");
        let gr_level = level(&want[on], 1000.0);
        assert!(gr_level > 0.5, "GNU Radio's {side}: {gr_level}");
        assert!(level(&want[1 - on], 1000.0) < 0.01 * gr_level);
        for (k, out) in got.iter().enumerate() {
            assert!(
                out.len().abs_diff(want[k].len()) < 400,
                "{case}: {} items, GNU Radio {}",
                out.len(),
                want[k].len()
            );
        }
        let ours = level(&got[on], 1000.0);
        let other = level(&got[1 - on], 1000.0);
        assert!(
            (ours / gr_level - 1.0).abs() < 0.1,
            "{case}: tone {ours}, GNU Radio's {gr_level}"
        );
        assert!(
            other < 0.01 * ours,
            "{case}: the other side carries {other} of {ours}"
        );
    }
}
