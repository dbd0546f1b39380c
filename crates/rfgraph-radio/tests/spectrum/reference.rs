//! PowerSpectrum + Average against scipy's Welch spectra
//! (`reference/welch.txt`, written by `reference/generate.py`) for four
//! windows and both scalings.

use crate::common::run;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::scheduler::Single;
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_dsp::Window;
use rfgraph_radio::spectrum::{Average, PowerSpectrum, Scaling};

/// A line of the reference file: its `key=value` fields and numbers.
type Case = (Vec<(String, String)>, Vec<f64>);

/// Every line of the reference file.
fn cases() -> Vec<Case> {
    include_str!("reference/welch.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (head, nums) = l.split_once('|').expect("a `|` on every line");
            let fields = head
                .split_whitespace()
                .map(|f| {
                    let (k, v) = f.split_once('=').expect("key=value");
                    (k.to_string(), v.to_string())
                })
                .collect();
            let values = nums
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            (fields, values)
        })
        .collect()
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> &'a str {
    &fields.iter().find(|(k, _)| k == key).unwrap().1
}

#[test]
fn averaged_frames_match_scipy_welch() {
    let cases = cases();
    let (input_fields, input) = &cases[0];
    assert_eq!(field(input_fields, "kind"), "input");
    let size: usize = field(input_fields, "size").parse().unwrap();
    let frames: usize = field(input_fields, "frames").parse().unwrap();
    let fs: f64 = field(input_fields, "fs").parse().unwrap();
    let x: Vec<Complex32> = input
        .chunks_exact(2)
        .map(|c| Complex32::new(c[0] as f32, c[1] as f32))
        .collect();
    assert_eq!(x.len(), size * frames);
    let mut checked = 0;
    for (fields, want) in &cases[1..] {
        let window = match field(fields, "window") {
            "hann" => Window::Hann,
            "blackmanharris" => Window::BlackmanHarris,
            "boxcar" => Window::Rectangular,
            "hamming" => Window::Hamming,
            other => panic!("window {other}"),
        };
        let scaling = match field(fields, "scaling") {
            "density" => Scaling::Density,
            _ => Scaling::Spectrum,
        };
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(x.clone()));
        let power = fg.add(
            PowerSpectrum::new(size, window, scaling)
                .unwrap()
                .with_sample_rate(fs)
                .unwrap(),
        );
        let avg = fg.add(Average::new(size, frames).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, power, avg, sink]).unwrap();
        let done = run(fg, Single::new());
        let got = done.block::<VectorSink<f32>>(sink).unwrap().items();
        assert_eq!(got.len(), size);
        let peak = want.iter().copied().fold(0.0, f64::max);
        for (k, (&db, &p)) in got.iter().zip(want).enumerate() {
            let lin = 10f64.powf(db as f64 / 10.0);
            assert!(
                (lin - p).abs() <= 1e-4 * p + 1e-6 * peak,
                "{fields:?} bin {k}: {lin:e}, scipy {p:e}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 8);
}
