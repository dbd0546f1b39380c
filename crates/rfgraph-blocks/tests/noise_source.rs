//! `NoiseSource` and `RandomBytes`: a seed gives one stream on every
//! scheduler and chunking; the values follow their distributions (moments,
//! histograms against the normal and uniform laws, a Kolmogorov–Smirnov
//! bound, no correlation between neighbours), checked with fixed seeds by
//! tests that a broken generator (wrong variance, correlated values, the
//! wrong law) fails, as the negative controls below show.

mod common;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph::{Block, BoxError, Flowgraph, Item, MessageOutput, Pmt, Ports, StreamInput, WorkIo};
use rfgraph_blocks::{CopyRand, NoiseKind, NoiseSource, RandomBytes, VectorSink};

/// Runs `source` (which must be limited) into a `VectorSink`, with random
/// chunk sizes in between when `shuffle` is set.
fn collect<T: Item, B: Block>(
    scheduler: Box<dyn rfgraph::Scheduler>,
    source: B,
    shuffle: bool,
) -> Vec<T> {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(4096);
    let src = fg.add(source);
    let sink = fg.add(VectorSink::<T>::new());
    if shuffle {
        let mid = fg.add(CopyRand::<T>::new(333, 17));
        fg.chain(&[src, mid, sink]).unwrap();
    } else {
        fg.connect(src, "out", sink, "in").unwrap();
    }
    let done = fg.run_bounded(scheduler).unwrap();
    done.block::<VectorSink<T>>(sink).unwrap().items().to_vec()
}

fn gaussian_f32(amplitude: f32, seed: i64, n: u64) -> Vec<f32> {
    let src = NoiseSource::<f32>::new(NoiseKind::Gaussian, amplitude, seed)
        .unwrap()
        .limit(n);
    collect(Box::new(Tpb::new()), src, false)
}

#[test]
fn a_seed_gives_the_same_stream_on_every_scheduler_and_chunking() {
    let n = 100_003;
    let reference = gaussian_f32(1.0, 1234, n);
    let complex: Vec<Complex32> = collect(
        Box::new(Tpb::new()),
        NoiseSource::<Complex32>::new(NoiseKind::Uniform, 1.0, 99)
            .unwrap()
            .limit(n),
        false,
    );
    let bytes: Vec<u8> = collect(Box::new(Tpb::new()), RandomBytes::new(5).limit(n), false);
    let dice: Vec<u8> = collect(
        Box::new(Tpb::new()),
        RandomBytes::new(5).range(1, 7).unwrap().limit(n),
        false,
    );
    for s in every_scheduler() {
        let name = s.name().to_string();
        let again = NoiseSource::<f32>::new(NoiseKind::Gaussian, 1.0, 1234)
            .unwrap()
            .limit(n);
        assert_eq!(collect::<f32, _>(s, again, true), reference, "{name}");
    }
    for s in every_scheduler() {
        let name = s.name().to_string();
        let again = NoiseSource::<Complex32>::new(NoiseKind::Uniform, 1.0, 99)
            .unwrap()
            .limit(n);
        assert_eq!(collect::<Complex32, _>(s, again, true), complex, "{name}");
    }
    for s in every_scheduler() {
        let name = s.name().to_string();
        assert_eq!(
            collect::<u8, _>(s, RandomBytes::new(5).limit(n), true),
            bytes,
            "{name}"
        );
    }
    for s in every_scheduler() {
        let name = s.name().to_string();
        let again = RandomBytes::new(5).range(1, 7).unwrap().limit(n);
        assert_eq!(collect::<u8, _>(s, again, true), dice, "{name}");
    }
    assert_eq!(reference.len(), n as usize);
    assert_ne!(
        gaussian_f32(1.0, 1235, 1000),
        reference[..1000],
        "another seed"
    );
    // The amplitude scales the same stream.
    let louder = gaussian_f32(4.0, 1234, 1000);
    for (a, b) in louder.iter().zip(&reference) {
        assert_eq!(*a, 4.0 * b);
    }
}

/// `erfc`, fractional error below 1.2e-7 (Numerical Recipes' Chebyshev
/// fit).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The standard normal CDF.
fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The 0.999 quantile of χ² with `dof` degrees of freedom
/// (Wilson–Hilferty).
fn chi2_limit(dof: usize) -> f64 {
    let k = dof as f64;
    let z = 3.090; // the normal's 0.999 quantile
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// χ² of `counts` against `expected` (same length).
fn chi2(counts: &[u64], expected: &[f64]) -> f64 {
    counts
        .iter()
        .zip(expected)
        .map(|(&c, &e)| (c as f64 - e).powi(2) / e)
        .sum()
}

/// Lag-1 autocorrelation of `x` about `mean`.
fn lag1(x: &[f64], mean: f64) -> f64 {
    let var: f64 = x.iter().map(|v| (v - mean).powi(2)).sum();
    let cov: f64 = x.windows(2).map(|w| (w[0] - mean) * (w[1] - mean)).sum();
    cov / var
}

/// Checks that `x` looks like N(0, σ²): mean, variance (each within 4.5
/// standard errors), χ² over 34 bins of width σ/4 with two tails, the
/// Kolmogorov–Smirnov distance, and the lag-1 autocorrelation (all at
/// p ≈ 0.001 or tighter).
fn normal_battery(x: &[f64], sigma: f64) -> Result<(), String> {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    if mean.abs() > 4.5 * sigma / n.sqrt() {
        return Err(format!("mean {mean}"));
    }
    if (var / (sigma * sigma) - 1.0).abs() > 4.5 * (2.0 / n).sqrt() {
        return Err(format!("variance {var}, expected {}", sigma * sigma));
    }
    // Edges −4σ … 4σ in steps of σ/4: 32 inner bins and two tails.
    let edges: Vec<f64> = (0..=32).map(|i| -4.0 + 0.25 * i as f64).collect();
    let mut counts = vec![0u64; 34];
    for &v in x {
        let z = v / sigma;
        let bin = edges.partition_point(|&e| e <= z);
        counts[bin] += 1;
    }
    let mut expected = Vec::with_capacity(34);
    expected.push(n * phi(edges[0]));
    for w in edges.windows(2) {
        expected.push(n * (phi(w[1]) - phi(w[0])));
    }
    expected.push(n * (1.0 - phi(edges[32])));
    let c2 = chi2(&counts, &expected);
    if c2 > chi2_limit(33) {
        return Err(format!("chi-square {c2} > {}", chi2_limit(33)));
    }
    let mut sorted = x.to_vec();
    sorted.sort_by(f64::total_cmp);
    let d = sorted
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let f = phi(v / sigma);
            (f - i as f64 / n).abs().max(((i + 1) as f64 / n - f).abs())
        })
        .fold(0.0, f64::max);
    if d > 1.95 / n.sqrt() {
        return Err(format!("Kolmogorov-Smirnov distance {d}"));
    }
    let r = lag1(x, mean);
    if r.abs() > 4.5 / n.sqrt() {
        return Err(format!("lag-1 autocorrelation {r}"));
    }
    Ok(())
}

/// Checks that `x` looks uniform on `(−bound, bound)`: range, mean,
/// variance, χ² over 64 equal bins, lag-1 autocorrelation.
fn uniform_battery(x: &[f64], bound: f64) -> Result<(), String> {
    let n = x.len() as f64;
    if let Some(v) = x.iter().find(|v| v.abs() >= bound) {
        return Err(format!("{v} outside (−{bound}, {bound})"));
    }
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let sd = bound / 3f64.sqrt();
    if mean.abs() > 4.5 * sd / n.sqrt() {
        return Err(format!("mean {mean}"));
    }
    // The variance of a uniform sample's variance: (μ4 − σ⁴)/n, μ4 = 9σ⁴/5.
    if (var / (sd * sd) - 1.0).abs() > 4.5 * (0.8 / n).sqrt() {
        return Err(format!("variance {var}, expected {}", sd * sd));
    }
    let mut counts = vec![0u64; 64];
    for &v in x {
        counts[(((v / bound + 1.0) * 32.0) as usize).min(63)] += 1;
    }
    let c2 = chi2(&counts, &[n / 64.0; 64]);
    if c2 > chi2_limit(63) {
        return Err(format!("chi-square {c2} > {}", chi2_limit(63)));
    }
    let r = lag1(x, mean);
    if r.abs() > 4.5 / n.sqrt() {
        return Err(format!("lag-1 autocorrelation {r}"));
    }
    Ok(())
}

const N: u64 = 1 << 20;

#[test]
fn gaussian_f32_is_normal_with_the_amplitude_as_standard_deviation() {
    let sigma = 2.5;
    let x: Vec<f64> = gaussian_f32(sigma as f32, 2024, N)
        .iter()
        .map(|&v| v as f64)
        .collect();
    normal_battery(&x, sigma).unwrap();
    assert!(
        x.iter().all(|v| v.abs() < 6.67 * sigma),
        "the documented bound"
    );

    // Negative controls: the same battery rejects a wrong variance, values
    // correlated with their neighbours (normal marginals, so only the
    // autocorrelation can tell), and a uniform law of the right variance.
    let wide: Vec<f64> = x.iter().map(|v| 1.02 * v).collect();
    assert!(normal_battery(&wide, sigma).is_err(), "2% too wide passed");
    let smooth: Vec<f64> = x
        .windows(2)
        .map(|w| (w[0] + w[1]) / std::f64::consts::SQRT_2)
        .collect();
    let e = normal_battery(&smooth, sigma).unwrap_err();
    assert!(e.contains("autocorrelation"), "{e}");
    let flat: Vec<f64> = (0..x.len())
        .map(|i| {
            (((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11) as f64 / (1u64 << 53) as f64
                * 2.0
                - 1.0)
                * sigma
                * 3f64.sqrt()
        })
        .collect();
    assert!(
        normal_battery(&flat, sigma).is_err(),
        "a uniform law passed"
    );
}

#[test]
fn complex_gaussian_has_the_amplitude_squared_as_total_power() {
    let a = 0.3f32;
    let z: Vec<Complex32> = collect(
        Box::new(Tpb::new()),
        NoiseSource::<Complex32>::new(NoiseKind::Gaussian, a, 77)
            .unwrap()
            .limit(N),
        false,
    );
    let re: Vec<f64> = z.iter().map(|v| v.re as f64).collect();
    let im: Vec<f64> = z.iter().map(|v| v.im as f64).collect();
    let sigma = a as f64 / std::f64::consts::SQRT_2;
    normal_battery(&re, sigma).unwrap();
    normal_battery(&im, sigma).unwrap();
    let n = z.len() as f64;
    let power = z.iter().map(|v| v.norm_sqr() as f64).sum::<f64>() / n;
    let a2 = (a * a) as f64;
    assert!((power / a2 - 1.0).abs() < 4.5 / n.sqrt(), "power {power}");
    let cross = re.iter().zip(&im).map(|(r, i)| r * i).sum::<f64>() / n / (sigma * sigma);
    assert!(cross.abs() < 4.5 / n.sqrt(), "re/im correlation {cross}");
    // A real and an imaginary part that were the same draw would fail.
    assert!(
        normal_battery(&re, a as f64).is_err(),
        "per-component σ is a/√2"
    );
}

#[test]
fn uniform_noise_fills_the_open_interval_evenly() {
    let a = 0.75f32;
    let x: Vec<f64> = collect::<f32, _>(
        Box::new(Tpb::new()),
        NoiseSource::<f32>::new(NoiseKind::Uniform, a, 31)
            .unwrap()
            .limit(N),
        false,
    )
    .iter()
    .map(|&v| v as f64)
    .collect();
    uniform_battery(&x, a as f64).unwrap();
    let tilted: Vec<f64> = x.iter().map(|v| v + 0.01 * v * v).collect();
    assert!(
        uniform_battery(&tilted, 0.76).is_err(),
        "a tilted law passed"
    );

    let z: Vec<Complex32> = collect(
        Box::new(Tpb::new()),
        NoiseSource::<Complex32>::new(NoiseKind::Uniform, a, 32)
            .unwrap()
            .limit(N),
        false,
    );
    let bound = a as f64 / std::f64::consts::SQRT_2;
    uniform_battery(&z.iter().map(|v| v.re as f64).collect::<Vec<_>>(), bound).unwrap();
    uniform_battery(&z.iter().map(|v| v.im as f64).collect::<Vec<_>>(), bound).unwrap();
}

#[test]
fn random_bytes_are_uniform_over_every_value_or_the_range() {
    let x: Vec<u8> = collect(Box::new(Tpb::new()), RandomBytes::new(8).limit(N), false);
    let mut counts = vec![0u64; 256];
    for &b in &x {
        counts[b as usize] += 1;
    }
    let c2 = chi2(&counts, &[N as f64 / 256.0; 256]);
    assert!(c2 < chi2_limit(255), "chi-square {c2}");
    // Neighbouring bytes are independent: χ² of pairs of nibbles.
    let mut pairs = vec![0u64; 256];
    for w in x.windows(2) {
        pairs[((w[0] >> 4) as usize) << 4 | (w[1] >> 4) as usize] += 1;
    }
    let c2 = chi2(&pairs, &[(N - 1) as f64 / 256.0; 256]);
    assert!(c2 < chi2_limit(255), "pair chi-square {c2}");

    let x: Vec<u8> = collect(
        Box::new(Tpb::new()),
        RandomBytes::new(8).range(3, 10).unwrap().limit(N),
        false,
    );
    let mut counts = vec![0u64; 7];
    for &b in &x {
        assert!((3..10).contains(&b), "{b} outside [3, 10)");
        counts[(b - 3) as usize] += 1;
    }
    let c2 = chi2(&counts, &[N as f64 / 7.0; 7]);
    assert!(c2 < chi2_limit(6), "chi-square {c2}");
    // The extremes of the range are reachable.
    let all: Vec<u8> = collect(
        Box::new(Tpb::new()),
        RandomBytes::new(1).range(255, 256).unwrap().limit(10),
        false,
    );
    assert_eq!(all, vec![255; 10]);

    for (lo, hi) in [(5, 5), (6, 5), (0, 257)] {
        let e = RandomBytes::new(1).range(lo, hi).err().unwrap();
        assert!(e.to_string().contains("range"), "{e}");
    }
}

/// `kind` and `amplitude` (and GNU Radio's names for them, `noise_type`
/// and `amp`) are settable parameters: typed, checked, refused with
/// nothing changed.
#[test]
fn amplitude_and_kind_parameters_apply_and_reject_bad_values() {
    use rfgraph::params::{apply, setting_inputs};
    let mut src = NoiseSource::<f32>::new(NoiseKind::Gaussian, 1.0, 3).unwrap();
    let params = src.params().unwrap();
    let inputs: Vec<_> = setting_inputs(params).into_iter().map(|(i, _)| i).collect();
    assert_eq!(inputs, ["kind", "noise_type", "amplitude", "amp"]);
    apply(&mut src, "amplitude", Pmt::F64(0.5)).unwrap();
    assert_eq!(src.amplitude(), 0.5);
    apply(&mut src, "kind", Pmt::from("UNIFORM")).unwrap();
    assert_eq!(src.kind(), NoiseKind::Uniform);
    let e = apply(&mut src, "kind", Pmt::from("pink")).unwrap_err();
    assert!(e.to_string().contains("pink"), "{e}");
    let e = apply(&mut src, "amplitude", Pmt::F64(f64::INFINITY)).unwrap_err();
    assert!(e.to_string().contains("amplitude"), "{e}");
    assert_eq!(src.amplitude(), 0.5);
    assert!(src.set_amplitude(f32::NAN).is_err());
    assert_eq!(src.amplitude(), 0.5);
    let e = NoiseSource::<Complex32>::new(NoiseKind::Uniform, f32::NAN, 0)
        .err()
        .unwrap();
    assert!(e.to_string().contains("amplitude"), "{e}");
    assert_eq!("Normal".parse::<NoiseKind>(), Ok(NoiseKind::Gaussian));
    assert_eq!("GR_UNIFORM".parse::<NoiseKind>(), Ok(NoiseKind::Uniform));
}

/// Keeps every item; once it holds `after`, posts `msg` on `out` (once).
struct PostAfter {
    input: StreamInput<f32>,
    out: MessageOutput,
    after: usize,
    msg: Option<Pmt>,
    items: Vec<f32>,
}

impl Block for PostAfter {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.out)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let n = i.len();
        self.items.extend_from_slice(i);
        self.input.consume(n);
        if self.items.len() >= self.after
            && let Some(msg) = self.msg.take()
        {
            self.out.post(msg);
        }
        Ok(())
    }
}

/// Changing the kind mid-stream through the flowgraph: Gaussian values
/// (beyond the uniform bound a third of the time) stop at one item, after
/// the message was sent, and never come back.
#[test]
fn a_kind_message_switches_the_distribution_while_running() {
    let (after, total) = (50_000, 400_000);
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(
            NoiseSource::<f32>::new(NoiseKind::Gaussian, 1.0, 12)
                .unwrap()
                .limit(total),
        );
        let sink = fg.add(PostAfter {
            input: StreamInput::new("in"),
            out: MessageOutput::new("out"),
            after,
            msg: Some(Pmt::from("uniform")),
            items: Vec::new(),
        });
        fg.connect(src, "out", sink, "in").unwrap();
        fg.connect_message(sink, "out", src, "kind").unwrap();
        let done = fg.run_bounded(s).unwrap();
        let x = &done.block::<PostAfter>(sink).unwrap().items;
        assert_eq!(x.len(), total as usize, "{name}");
        let switch = x.iter().rposition(|v| v.abs() >= 1.0).map_or(0, |p| p + 1);
        assert!(
            switch >= after,
            "{name}: uniform before the message ({switch})"
        );
        // The source runs at most a ring (1024 items) ahead of the sink.
        assert!(switch < after + 20_000, "{name}: switched late ({switch})");
        let wide = x[..after].iter().filter(|v| v.abs() >= 1.0).count();
        assert!(
            (wide as f64 / after as f64 - 0.3173).abs() < 0.01,
            "{name}: {wide}"
        );
    }
}
