//! The vectorised stages (`ComplexMagnitude`'s loop, the demodulator's
//! preamble tests) in their AVX2 and scalar builds give the same
//! messages on every scheduler, at both rates, as the scalar pieces run
//! directly over the whole input.

use crate::common::scene;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::scheduler::by_name;
use rfgraph_blocks::{SampleCodec, SampleFormat, VectorSource};
use rfgraph_dsp::Isa;
use rfgraph_radio::modes::{
    ComplexMagnitude, DemodRate, Demodulator, Message, ModesDecoder, ModesDemod, Tracker,
    complex_magnitudes,
};
use std::path::PathBuf;
use std::time::Duration;

const WATCHDOG: Duration = Duration::from_secs(60);

/// `cu8` bytes as complex samples.
fn complex(bytes: &[u8]) -> Vec<Complex32> {
    let mut z = vec![Complex32::new(0.0, 0.0); bytes.len() / 2];
    SampleCodec::new(SampleFormat::CU8).decode(bytes, &mut z);
    z
}

/// The scalar pieces over the whole input, without a runtime.
fn reference(z: &[Complex32], rate: f64) -> Vec<Message> {
    let mut m = vec![0u16; z.len()];
    complex_magnitudes(z, &mut m, Isa::Scalar);
    let mut d = Demodulator::new(DemodRate::from_hz(rate).expect("a rate")).with_isa(Isa::Scalar);
    let mut frames = Vec::new();
    d.push(&m, &mut frames);
    d.finish(&mut frames);
    let mut t = Tracker::new(rate);
    frames.iter().map(|f| t.process(f)).collect()
}

/// complex source → `ComplexMagnitude` → `ModesDemod` → decoder, the two
/// vectorised blocks built for `isa`, on `scheduler`.
fn run(z: &[Complex32], rate: f64, scheduler: &str, isa: Isa) -> Vec<Message> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(z.to_vec()));
    let mag = fg.add(ComplexMagnitude::new().with_isa(isa));
    let demod = fg.add(ModesDemod::new(rate).expect("a rate").with_isa(isa));
    let dec = fg.add(ModesDecoder::new(rate).keeping(usize::MAX));
    fg.chain(&[src, mag, demod, dec]).unwrap();
    let done = fg
        .start(by_name(scheduler).unwrap())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    done.block::<ModesDecoder>(dec).unwrap().messages().to_vec()
}

#[test]
fn both_builds_agree_on_every_scheduler() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/adsb/modes1-part1.cu8");
    let recording = std::fs::read(path).expect("the test recording");
    let (_, generated) = scene(2.4e6, 0.1);
    let generated = crate::common::cu8(&generated);
    for (bytes, rate, what) in [
        (recording, 2.0e6, "recording"),
        (generated, 2.4e6, "generated"),
    ] {
        let z = complex(&bytes);
        let want = reference(&z, rate);
        assert!(want.len() > 20, "{what}: {} messages", want.len());
        for scheduler in ["single", "pool", "chain", "tpb"] {
            for isa in [Isa::Scalar, Isa::Avx2Fma] {
                let got = run(&z, rate, scheduler, isa);
                assert_eq!(got, want, "{what} on {scheduler}, {}", isa.resolve().name());
            }
        }
    }
}
