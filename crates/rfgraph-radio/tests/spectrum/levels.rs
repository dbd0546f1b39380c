//! Levels and frequencies against theory: a tone in its bin at its
//! frequency and power, white noise at its density whatever the window,
//! and averaging that divides the variance by the frames averaged.

use crate::common::*;
use num_complex::Complex32;
use rfgraph::scheduler::Single;
use rfgraph::{Flowgraph, Tag};
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_dsp::Window;
use rfgraph_radio::spectrum::{Average, FrameMeta, PowerSpectrum, Scaling};

/// `samples` → power (`size`, `window`, `scaling`) → average of `n` →
/// the dB frames and their sink's tags.
fn averaged(
    samples: Vec<Complex32>,
    tags: Vec<Tag>,
    power: PowerSpectrum,
    n: usize,
) -> (Vec<f32>, Vec<Tag>) {
    let size = power.size();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(samples).with_tags(tags));
    let power = fg.add(power);
    let avg = fg.add(Average::new(size, n).unwrap());
    let sink = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, power, avg, sink]).unwrap();
    let done = run(fg, Single::new());
    let sink = done.block::<VectorSink<f32>>(sink).unwrap();
    (sink.items().to_vec(), sink.tags().to_vec())
}

fn peak(bins: &[f32]) -> usize {
    (0..bins.len())
        .max_by(|&a, &b| bins[a].total_cmp(&bins[b]))
        .unwrap()
}

#[test]
fn a_tone_peaks_in_its_bin_at_its_frequency_and_power() {
    let (size, rate, centre) = (1024, 1e6, 100e6);
    let bin_hz = rate / size as f64;
    let n = size * 8;
    // +128 bins at half scale, -300 bins at a twentieth.
    let mut x = tone(n, 0.5, 128.0 * bin_hz, rate);
    for (a, b) in x.iter_mut().zip(tone(n, 0.05, -300.0 * bin_hz, rate)) {
        *a += b;
    }
    let tags = vec![
        Tag::new(0, "core:frequency", centre),
        Tag::new(0, "core:sample_rate", rate),
    ];
    for window in [Window::Hann, Window::BlackmanHarris, Window::Rectangular] {
        let power = PowerSpectrum::new(size, window, Scaling::Spectrum).unwrap();
        let (bins, out_tags) = averaged(x.clone(), tags.clone(), power, 8);
        assert_eq!(bins.len(), size, "{window:?}: one averaged frame");
        let mut meta = FrameMeta::default();
        for t in out_tags.iter().filter(|t| t.index == 0) {
            meta.absorb(t);
        }
        assert_eq!(meta.frame_samples, n as u64, "{window:?}");
        let k = peak(&bins);
        assert_eq!(k, size / 2 + 128, "{window:?}");
        assert_eq!(meta.bin_frequency(size, k), Some(centre + 125_000.0));
        assert!(
            (bins[k] - 20.0 * 0.5f32.log10()).abs() < 0.01,
            "{window:?}: {}",
            bins[k]
        );
        let k2 = size / 2 - 300;
        assert!(
            (bins[k2] - 20.0 * 0.05f32.log10()).abs() < 0.05,
            "{window:?}: {}",
            bins[k2]
        );
        assert_eq!(
            meta.bin_frequency(size, k2),
            Some(centre - 300.0 * bin_hz),
            "{window:?}"
        );
        // Between the tones, far from both: well below the weaker one.
        assert!(
            bins[size / 2] < bins[k2] - 40.0,
            "{window:?}: {}",
            bins[size / 2]
        );
    }
}

#[test]
fn white_noise_reads_its_density_whatever_the_window() {
    let (size, rate, power) = (256usize, 2e6f64, 0.01f64);
    // −20 dBFS spread over 2 MHz: −83.01 dBFS/Hz.
    let expected = 10.0 * (power / rate).log10();
    let x = noise(size * 256, power, 7);
    for window in [Window::Hann, Window::Rectangular, Window::BlackmanHarris] {
        let block = PowerSpectrum::new(size, window, Scaling::Density)
            .unwrap()
            .with_sample_rate(rate)
            .unwrap();
        let (bins, tags) = averaged(x.clone(), Vec::new(), block, 256);
        assert_eq!(bins.len(), size);
        let linear: Vec<f64> = bins.iter().map(|&d| 10f64.powf(d as f64 / 10.0)).collect();
        let level = 10.0 * mean(&linear).log10();
        assert!(
            (level - expected).abs() < 0.1,
            "{window:?}: {level:.3} dBFS/Hz, expected {expected:.3}"
        );
        // Each bin averages 256 frames: within ±2 dB (7 standard deviations).
        for (k, &b) in bins.iter().enumerate() {
            assert!(
                (b as f64 - expected).abs() < 2.0,
                "{window:?}: bin {k} reads {b}"
            );
        }
        // The default rate labels the frames.
        assert!(
            tags.iter()
                .any(|t| t.key == "core:sample_rate" && t.value.as_f64() == Some(rate))
        );
    }
}

#[test]
fn averaging_n_frames_divides_the_variance_by_n() {
    let size = 128;
    let frames_out = 64;
    for n in [1usize, 4, 16] {
        let x = noise(size * n * frames_out, 1.0, 11 + n as u64);
        let block = PowerSpectrum::new(size, Window::Hann, Scaling::Density).unwrap();
        let (bins, _) = averaged(x, Vec::new(), block, n);
        assert_eq!(bins.len(), size * frames_out);
        let linear: Vec<f64> = bins.iter().map(|&d| 10f64.powf(d as f64 / 10.0)).collect();
        // A periodogram bin of Gaussian noise is exponential (variance =
        // mean²); the mean of n independent ones has variance mean² / n.
        let relative = variance(&linear) / mean(&linear).powi(2);
        let want = 1.0 / n as f64;
        assert!(
            (relative / want - 1.0).abs() < 0.2,
            "n = {n}: relative variance {relative:.4}, expected {want:.4}"
        );
    }
}
