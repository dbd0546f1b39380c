//! Blocks built by name from the registry give the same output, bit for
//! bit, as the same blocks built in Rust, on every scheduler; and the
//! registry's own `fft` (with GNU Radio's shift) puts a tone where GNU
//! Radio does.

mod common;

use common::RunBounded;
use num_complex::Complex32;
use rfgraph::{Block, Flowgraph, Item, Pmt, Scheduler};
use rfgraph_blocks::{
    DspBlock, SignalSource, SignalSourceParams, VectorSink, VectorSource, Waveform,
};
use rfgraph_dsp::firdes::{self, WinType};
use rfgraph_dsp::{Ccf, DecimatingFir, FreqXlatingFir};
use std::collections::BTreeMap;

fn params(pairs: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn build(name: &str, pairs: &[(&str, Pmt)]) -> Box<dyn Block> {
    rfgraph_flowfile::standard::registry()
        .build(name, params(pairs))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `blocks` in a chain into a `VectorSink<T>` and returns its items.
fn run<T: Item>(blocks: Vec<Box<dyn Block>>, scheduler: Box<dyn Scheduler>) -> Vec<T> {
    let mut fg = Flowgraph::new();
    let mut ids: Vec<_> = blocks
        .into_iter()
        .enumerate()
        .map(|(i, b)| fg.add_boxed(format!("b{i}"), "test", b))
        .collect();
    let sink = fg.add(VectorSink::<T>::new());
    ids.push(sink);
    fg.chain(&ids).unwrap();
    let done = fg.run_bounded(scheduler).unwrap();
    done.block::<VectorSink<T>>(sink).unwrap().items().to_vec()
}

#[test]
fn a_low_pass_chain_from_the_registry_equals_the_rust_one() {
    for (make_a, make_b) in common::every_scheduler()
        .into_iter()
        .zip(common::every_scheduler())
    {
        let registry = run::<Complex32>(
            vec![
                build(
                    "sig_source",
                    &[
                        ("sample_rate", Pmt::F64(48e3)),
                        ("frequency", Pmt::F64(3e3)),
                        ("amplitude", Pmt::F64(0.5)),
                        ("items", Pmt::U64(10_000)),
                    ],
                ),
                build(
                    "low_pass_filter",
                    &[
                        ("type", Pmt::from("c32")),
                        ("decimation", Pmt::U64(2)),
                        ("sample_rate", Pmt::F64(48e3)),
                        ("cutoff", Pmt::F64(5e3)),
                        ("transition", Pmt::F64(2e3)),
                    ],
                ),
            ],
            make_a,
        );
        let taps = firdes::low_pass(1.0, 48e3, 5e3, 2e3, WinType::Hamming, 6.76).unwrap();
        let rust = run::<Complex32>(
            vec![
                Box::new(
                    SignalSource::<Complex32>::new(SignalSourceParams {
                        sample_rate: 48e3,
                        waveform: Waveform::Cosine,
                        frequency: 3e3,
                        amplitude: 0.5,
                        items: Some(10_000),
                        ..Default::default()
                    })
                    .unwrap(),
                ),
                Box::new(DspBlock::new(DecimatingFir::<Ccf>::new(&taps, 2).unwrap())),
            ],
            make_b,
        );
        assert_eq!(registry.len(), 5_000);
        assert_eq!(registry, rust);
        assert!(registry[4000].norm() > 0.45, "the tone passes");
    }
}

#[test]
fn a_frequency_translating_filter_from_the_registry_equals_the_rust_one() {
    let input: Vec<Complex32> = (0..4000)
        .map(|n| Complex32::from_polar(1.0, 0.3 * n as f32))
        .collect();
    let taps = firdes::low_pass(1.0, 1e6, 50e3, 20e3, WinType::Hamming, 6.76).unwrap();
    for scheduler in common::every_scheduler() {
        let registry = run::<Complex32>(
            vec![
                Box::new(VectorSource::new(input.clone())),
                build(
                    "freq_xlating_fir_filter",
                    &[
                        ("decimation", Pmt::U64(4)),
                        ("taps", Pmt::VecF32(taps.clone())),
                        ("center", Pmt::F64(100e3)),
                        ("sample_rate", Pmt::F64(1e6)),
                    ],
                ),
            ],
            scheduler,
        );
        let rust = run::<Complex32>(
            vec![
                Box::new(VectorSource::new(input.clone())),
                Box::new(DspBlock::new(
                    FreqXlatingFir::<Ccf>::new(&taps, 4, 0.1).unwrap(),
                )),
            ],
            Box::new(rfgraph::scheduler::Tpb::new()),
        );
        assert_eq!(registry.len(), 1000);
        assert_eq!(registry, rust);
    }
}

#[test]
fn fft_shift_puts_zero_hertz_in_the_middle_and_reverses() {
    let size = 8;
    // A tone on bin 1, two frames.
    let tone: Vec<Complex32> = (0..2 * size)
        .map(|n| Complex32::from_polar(1.0, std::f32::consts::TAU * n as f32 / size as f32))
        .collect();
    let fft = |forward: bool| {
        build(
            "fft",
            &[
                ("size", Pmt::U64(size as u64)),
                ("forward", Pmt::Bool(forward)),
                ("window", Pmt::from("rectangular")),
                ("shift", Pmt::Bool(true)),
            ],
        )
    };
    for scheduler in common::every_scheduler() {
        let spectrum = run::<Complex32>(
            vec![Box::new(VectorSource::new(tone.clone())), fft(true)],
            scheduler,
        );
        assert_eq!(spectrum.len(), 2 * size);
        for frame in spectrum.chunks(size) {
            let peak = (0..size).max_by(|&a, &b| frame[a].norm().total_cmp(&frame[b].norm()));
            assert_eq!(peak, Some(size / 2 + 1), "bin 1 sits right of the middle");
            assert!((frame[size / 2 + 1].norm() - size as f32).abs() < 1e-4);
        }
    }
    let back = run::<Complex32>(
        vec![
            Box::new(VectorSource::new(tone.clone())),
            fft(true),
            fft(false),
        ],
        Box::new(rfgraph::scheduler::Tpb::new()),
    );
    for (x, y) in tone.iter().zip(&back) {
        assert!((x * size as f32 - y).norm() < 1e-4, "{x} {y}");
    }
}

#[test]
fn settable_parameters_reach_the_kernels() {
    use rfgraph::params::apply;
    use rfgraph_blocks::dsp_params::{FreqXlatingParams, QuadratureDemodParams, RotatorParams};
    use rfgraph_dsp::{QuadratureDemod, Rotator};
    use std::any::Any;

    let mut demod = build("quadrature_demod", &[("gain", Pmt::F64(1.5))]);
    apply(demod.as_mut(), "gain", Pmt::F64(2.5)).unwrap();
    assert!(apply(demod.as_mut(), "gain", Pmt::F64(f64::NAN)).is_err());
    let any: &dyn Any = demod.as_ref();
    let kernel = any
        .downcast_ref::<DspBlock<QuadratureDemod, QuadratureDemodParams>>()
        .unwrap()
        .kernel();
    assert_eq!(kernel.gain(), 2.5);

    let mut rotator = build("rotator", &[("phase_inc", Pmt::F64(0.1))]);
    apply(
        rotator.as_mut(),
        "phase_inc",
        Pmt::F64(std::f64::consts::PI / 2.0),
    )
    .unwrap();
    let any: &dyn Any = rotator.as_ref();
    let frequency = any
        .downcast_ref::<DspBlock<Rotator, RotatorParams>>()
        .unwrap()
        .kernel()
        .frequency();
    assert!((frequency - 0.25).abs() < 1e-12, "{frequency}");

    let mut xlating = build(
        "freq_xlating_fir_filter",
        &[("sample_rate", Pmt::F64(1e6)), ("center", Pmt::F64(1e3))],
    );
    apply(xlating.as_mut(), "center", Pmt::F64(-250e3)).unwrap();
    let any: &dyn Any = xlating.as_ref();
    let kernel = any
        .downcast_ref::<DspBlock<FreqXlatingFir<Ccf>, FreqXlatingParams>>()
        .unwrap()
        .kernel();
    assert!(
        (kernel.center() + 0.25).abs() < 1e-12,
        "{}",
        kernel.center()
    );
}

#[test]
fn fft_takes_a_window_by_name_or_as_coefficients() {
    let input: Vec<Complex32> = (0..64)
        .map(|n| Complex32::new((0.37 * n as f32).sin(), (0.11 * n as f32).cos()))
        .collect();
    let fft = |window: Pmt| {
        rfgraph_flowfile::standard::registry()
            .build("fft", params(&[("size", Pmt::U64(16)), ("window", window)]))
    };
    let spectrum = |window: Pmt| {
        run::<Complex32>(
            vec![
                Box::new(VectorSource::new(input.clone())),
                fft(window).unwrap(),
            ],
            Box::new(rfgraph::scheduler::Tpb::new()),
        )
    };
    let hann = firdes::window(WinType::Hann, 16, 6.76).unwrap();
    assert_eq!(spectrum(Pmt::from("hann")), spectrum(Pmt::VecF32(hann)));
    assert_eq!(
        spectrum(Pmt::from("rectangular")),
        spectrum(Pmt::VecF32(Vec::new()))
    );
    assert_ne!(
        spectrum(Pmt::from("hann")),
        spectrum(Pmt::from("rectangular"))
    );
    let e = fft(Pmt::VecF32(vec![1.0; 15])).err().unwrap();
    assert!(
        e.to_string().contains("15 coefficients for frames of 16"),
        "{e}"
    );
}

#[test]
fn a_registry_vector_sink_is_read_back_as_the_rust_type() {
    let mut fg = Flowgraph::new();
    let src = fg.add_boxed(
        "src",
        "vector_source",
        build(
            "vector_source",
            &[
                ("type", Pmt::from("i16")),
                ("values", Pmt::VecF32(vec![1.0, -2.0, 3.0])),
            ],
        ),
    );
    let sink = fg.add_boxed(
        "sink",
        "vector_sink",
        build("vector_sink", &[("type", Pmt::from("short"))]),
    );
    fg.connect(src, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    assert_eq!(
        done.block::<VectorSink<i16>>(sink).unwrap().items(),
        &[1, -2, 3]
    );
}
