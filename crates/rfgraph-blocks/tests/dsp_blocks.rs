//! DSP kernels inside flowgraphs: results equal the kernel run on its own,
//! whatever the scheduler splits, and tags scale through rate changes.

mod common;
use common::RunBounded;

use common::every_scheduler;
use num_complex::Complex32;
use rfgraph::scheduler::Pool;
use rfgraph::{Flowgraph, Pmt, Scheduler, Tag};
use rfgraph_blocks::{CopyRand, DspBlock, Head, NcoSource, VectorSink, VectorSource};
use rfgraph_dsp::{DecimatingFir, Fff, Fir, QuadratureDemod};

fn input(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 500.0 - 1.0)
        .collect()
}

fn taps() -> Vec<f32> {
    (0..31).map(|i| 1.0 / (1 + i) as f32).collect()
}

fn through_graph(s: impl Scheduler, decim: usize) -> (Vec<f32>, Vec<Tag>) {
    let x = input(50_000);
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let tags = vec![
        Tag::new(1000, "k", Pmt::U64(1)),
        Tag::new(40_000, "k", Pmt::U64(2)),
    ];
    let src = fg.add(VectorSource::new(x).with_tags(tags));
    let shuffle = fg.add(CopyRand::<f32>::new(777, 5));
    let fir = fg.add(DspBlock::new(
        DecimatingFir::<Fff>::new(&taps(), decim).unwrap(),
    ));
    let sink = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, shuffle, fir, sink]).unwrap();
    let done = fg.run_bounded(s).unwrap();
    let sink = done.block::<VectorSink<f32>>(sink).unwrap();
    (sink.items().to_vec(), sink.tags().to_vec())
}

#[test]
fn decimating_fir_in_a_graph_equals_the_kernel_alone() {
    let decim = 4;
    let mut reference = vec![0f32; 50_000 / decim + 1];
    let (_, produced) = DecimatingFir::<Fff>::new(&taps(), decim)
        .unwrap()
        .process(&input(50_000), &mut reference);
    reference.truncate(produced);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, tags) = through_graph(s, decim);
        assert_eq!(items.len(), reference.len(), "{name}");
        for (i, (a, b)) in items.iter().zip(&reference).enumerate() {
            assert!(
                (a - b).abs() <= 1e-5 * b.abs().max(1.0),
                "{name} item {i}: {a} vs {b}"
            );
        }
        let indices: Vec<u64> = tags.iter().map(|t| t.index).collect();
        assert_eq!(indices, vec![250, 10_000], "{name}");
    }
}

#[test]
fn fm_chain_from_nco_source() {
    // A constant-frequency complex tone demodulates to a constant.
    let f = 0.01;
    let mut fg = Flowgraph::new();
    let src = fg.add(NcoSource::new(f).unwrap().limit(10_000));
    let demod = fg.add(DspBlock::new(QuadratureDemod::new(1.0).unwrap()));
    let head = fg.add(Head::<f32>::new(5_000));
    let sink = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, demod, head, sink]).unwrap();
    let done = fg.run_bounded(Pool::new()).unwrap();
    let out = done.block::<VectorSink<f32>>(sink).unwrap().items();
    assert_eq!(out.len(), 5_000);
    let expected = 2.0 * std::f32::consts::PI * f as f32;
    assert!(out[10..].iter().all(|&y| (y - expected).abs() < 1e-4));
}

#[test]
fn complex_fir_block_types_check() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 100]));
    let fir = fg.add(DspBlock::new(
        Fir::<rfgraph_dsp::Ccf>::new(&[0.5, 0.5]).unwrap(),
    ));
    let sink = fg.add(VectorSink::<f32>::new());
    fg.connect(src, "out", fir, "in").unwrap();
    assert!(
        fg.connect(fir, "out", sink, "in").is_err(),
        "complex → f32 must be rejected"
    );
}

/// An FFT frame (4096 complex items, 32 KiB) larger than the rings the
/// cache-aware schedulers and a small user size pick: the frame minimum the
/// block declares must still size its rings, or the graph would stall.
#[test]
fn frames_larger_than_the_default_ring_still_flow() {
    let size = 4096;
    let frames = 5;
    let x: Vec<Complex32> = (0..size * frames)
        .map(|i| Complex32::new((i % 17) as f32, -((i % 5) as f32)))
        .collect();
    let mut reference = vec![Complex32::default(); x.len()];
    let mut fft = rfgraph_dsp::Fft::new(size, rfgraph_dsp::FftDirection::Forward).unwrap();
    assert_eq!(fft.process(&x, &mut reference), (x.len(), x.len()));
    for user_bytes in [None, Some(4096)] {
        for s in every_scheduler() {
            let name = s.name().to_string();
            let mut fg = Flowgraph::new();
            if let Some(b) = user_bytes {
                fg.set_buffer_bytes(b);
            }
            let src = fg.add(VectorSource::new(x.clone()));
            let block = fg.add(DspBlock::new(
                rfgraph_dsp::Fft::new(size, rfgraph_dsp::FftDirection::Forward).unwrap(),
            ));
            let sink = fg.add(VectorSink::<Complex32>::new());
            fg.chain(&[src, block, sink]).unwrap();
            let done = fg.run_bounded(s).unwrap();
            let got = done.block::<VectorSink<Complex32>>(sink).unwrap().items();
            assert_eq!(got.len(), x.len(), "{name} {user_bytes:?}");
            assert!(
                got.iter()
                    .zip(&reference)
                    .all(|(a, b)| (a - b).norm() < 1e-3),
                "{name} {user_bytes:?}: output differs from the kernel alone"
            );
        }
    }
}
