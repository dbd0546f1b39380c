//! The declarations of the recording, generator and DSP blocks refuse, by
//! parameter, what cannot work on any machine (before anything is built),
//! and leave to the run what depends on the machine (a file that is not
//! there): building from parameters touches no file.

mod common;

use common::RunBounded;
use num_complex::Complex32;
use rfgraph::Pmt;
use rfgraph::params::BuildError;
use rfgraph::registry::BlockSpec;
use rfgraph_blocks::{VectorSink, VectorSource};
use std::collections::BTreeMap;

fn spec(name: &str) -> BlockSpec {
    rfgraph_blocks::registry::specs()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no block `{name}`"))
}

fn given(params: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
    params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// What `check` says of `params` for block `name`; building says the same.
fn refused(name: &str, params: &[(&str, Pmt)]) -> BuildError {
    let spec = spec(name);
    let e = spec
        .check(given(params))
        .expect_err(&format!("{name}: the check must refuse {params:?}"));
    assert_eq!(
        spec.build(given(params)).err().map(|b| b.to_string()),
        Some(e.to_string()),
        "building refuses the same"
    );
    e
}

fn assert_refused(name: &str, params: &[(&str, Pmt)], param: &str, words: &str) {
    let e = refused(name, params);
    assert_eq!(e.param(), Some(param), "{name}: {e}");
    assert!(e.to_string().contains(words), "{name}: {e}");
}

#[test]
fn file_blocks_refuse_what_no_file_can_fix_and_build_without_touching_files() {
    let dir = std::env::temp_dir().join(format!("rfgraph-io-params-{}", std::process::id()));
    let missing = dir.join("not/there.cu8");
    let path = Pmt::from(missing.to_string_lossy().as_ref());
    // Building opens nothing: a missing file is the run's business.
    for name in ["file_source", "file_sink", "sigmf_source", "sigmf_sink"] {
        spec(name)
            .build(given(&[("path", path.clone())]))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    spec("wavfile_source")
        .build(given(&[("path", path.clone()), ("nchan", Pmt::U64(2))]))
        .unwrap();
    assert!(!dir.exists(), "building created {}", dir.display());

    for name in ["file_source", "file_sink"] {
        assert_refused(name, &[("path", Pmt::from(" "))], "path", "names no file");
        // A complex format gives complex items, not real ones.
        assert_refused(
            name,
            &[
                ("path", path.clone()),
                ("type", Pmt::from("f32")),
                ("format", Pmt::from("cu8")),
            ],
            "format",
            "complex",
        );
        assert_refused(
            name,
            &[("path", path.clone()), ("format", Pmt::from("cs17"))],
            "format",
            "not one of",
        );
        assert_refused(
            name,
            &[("path", path.clone()), ("scale", Pmt::F64(0.0))],
            "scale",
            "out of range",
        );
    }
    // Every name the sample formats parse, in any case; bytes take any.
    spec("file_source")
        .check(given(&[
            ("path", path.clone()),
            ("format", Pmt::from("RI16_BE")),
            ("type", Pmt::from("u8")),
        ]))
        .unwrap();
    assert_refused(
        "file_source",
        &[("path", path.clone()), ("throttle", Pmt::F64(-1.0))],
        "throttle",
        "out of range",
    );
    for name in ["sigmf_source", "sigmf_sink"] {
        assert_refused(name, &[("path", Pmt::from("x.sigmf"))], "path", "archives");
    }
    assert_refused(
        "sigmf_sink",
        &[("path", path.clone()), ("datetime", Pmt::from("yesterday"))],
        "datetime",
        "ISO-8601",
    );
    assert_refused(
        "sigmf_sink",
        &[("path", path.clone()), ("sample_rate", Pmt::F64(0.0))],
        "sample_rate",
        "out of range",
    );
    assert_refused(
        "wavfile_sink",
        &[("path", path.clone()), ("nchan", Pmt::U64(5000))],
        "channels",
        "out of range",
    );
    assert_refused(
        "wavfile_sink",
        &[("path", path.clone()), ("format", Pmt::from("pcm24"))],
        "format",
        "pcm16, float32",
    );
    assert_refused(
        "wavfile_source",
        &[("path", path.clone()), ("channels", Pmt::U64(0))],
        "channels",
        "out of range",
    );
}

#[test]
fn generators_and_dsp_blocks_refuse_by_parameter() {
    assert_refused(
        "random_uniform_source",
        &[("minimum", Pmt::U64(7)), ("maximum", Pmt::U64(7))],
        "maximum",
        "empty",
    );
    assert_refused(
        "random_uniform_source",
        &[("maximum", Pmt::U64(300))],
        "maximum",
        "out of range",
    );
    assert_refused(
        "noise_source",
        &[("noise_type", Pmt::from("laplacian"))],
        "kind",
        "uniform or gaussian",
    );
    // 0.9999999999 is 1 as a 32-bit float: no blocker at all.
    assert_refused(
        "iir_dc_blocker",
        &[("pole", Pmt::F64(0.999_999_999_9))],
        "pole",
        "32-bit",
    );
    assert_refused(
        "am_demod",
        &[("dc_pole", Pmt::F64(1.0))],
        "dc_pole",
        "out of range",
    );
    assert_refused(
        "fm_deemph",
        &[("sample_rate", Pmt::F64(8000.0)), ("tau", Pmt::F64(1e-6))],
        "tau",
        "sample_rate",
    );
    assert_refused(
        "moving_average",
        &[("length", Pmt::U64(1 << 30))],
        "length",
        "out of range",
    );
    assert_refused(
        "fft",
        &[("size", Pmt::U64(1 << 23))],
        "size",
        "out of range",
    );
    assert_refused(
        "fft",
        &[("window", Pmt::from("hamm"))],
        "window",
        "not one of",
    );
    assert_refused(
        "fft",
        &[("window", Pmt::from("kaiser")), ("beta", Pmt::F64(-1.0))],
        "beta",
        "Kaiser",
    );
    assert_refused(
        "fft",
        &[
            ("size", Pmt::U64(4)),
            ("window", Pmt::VecF32(vec![1.0, f32::NAN, 1.0, 1.0])),
        ],
        "window",
        "not finite",
    );
    assert_refused(
        "rational_resampler",
        &[
            ("type", Pmt::from("f32")),
            ("taps", Pmt::VecComplexF32(vec![[1.0, 1.0]])),
        ],
        "taps",
        "complex items",
    );
    // The default design for 1/2^20 needs far more taps than allowed.
    assert_refused(
        "rational_resampler",
        &[("decimation", Pmt::U64(1 << 20))],
        "interpolation",
        "taps",
    );
    assert_refused(
        "rational_resampler",
        &[("fractional_bw", Pmt::F64(0.5))],
        "fractional_bw",
        "out of range",
    );
    assert_refused(
        "pfb_arb_resampler",
        &[("rate", Pmt::F64(1e6))],
        "rate",
        "out of range",
    );
    assert_refused(
        "pfb_arb_resampler",
        &[("nfilts", Pmt::U64(1 << 20))],
        "filters",
        "taps",
    );
}

/// GNU Radio 3.10 designs its default taps with a pass band of 0.4 when
/// `fractional_bw` is 0 or less (GRC writes 0 for "not set").
#[test]
fn a_fractional_bandwidth_of_zero_is_gnu_radios_default() {
    let input: Vec<Complex32> = (0..2000)
        .map(|n| Complex32::from_polar(1.0, 0.05 * n as f32))
        .collect();
    let run = |bw: f64| -> Vec<Complex32> {
        let block = spec("rational_resampler")
            .build(given(&[
                ("interpolation", Pmt::U64(3)),
                ("decimation", Pmt::U64(2)),
                ("fractional_bw", Pmt::F64(bw)),
                ("type", Pmt::from("c32")),
            ]))
            .unwrap();
        let mut fg = rfgraph::Flowgraph::new();
        let src = fg.add(VectorSource::new(input.clone()));
        let id = fg.add_boxed("resampler", "rational_resampler", block);
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.chain(&[src, id, sink]).unwrap();
        let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
        done.block::<VectorSink<Complex32>>(sink)
            .unwrap()
            .items()
            .to_vec()
    };
    let default = run(0.4);
    assert_eq!(default.len(), 3000);
    assert_eq!(run(0.0), default);
    assert_eq!(run(-1.0), default);
    assert_ne!(run(0.3), default);
}
