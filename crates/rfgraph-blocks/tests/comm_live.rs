//! The digital, analog and channel blocks follow GNU Radio's callbacks
//! while they run: each test changes one parameter through the running
//! flowgraph's handle (`call(block, "param", value)`), on every scheduler,
//! and checks that the output follows the old value up to one item and
//! the new value from that item on, as GNU Radio's setter would have it.

mod common;

use common::{WATCHDOG, every_scheduler, wait_within};
use num_complex::Complex32;
use rfgraph::{BlockId, Flowgraph, FlowgraphHandle, Item, Pmt};
use rfgraph_blocks::analog::{
    Agc2Params, FastNoiseKind, FastNoiseParams, FastNoiseSource, IirFilterParams, agc2, iir_filter,
};
use rfgraph_blocks::channels::{ChannelModel, ChannelModelParams};
use rfgraph_blocks::digital::{
    ChunksToSymbolsParams, ClockRecoveryMmParams, FllBandEdgeParams, PfbClockSyncParams,
    RepackBitsParams, chunks_to_symbols, clock_recovery_mm, fll_band_edge, pfb_clock_sync,
    repack_bits,
};
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_dsp::Kernel;
use rfgraph_dsp::digital::PfbClockSync;
use rfgraph_dsp::filter::DirectIir;
use std::time::{Duration, Instant};

const CALL: Duration = Duration::from_secs(20);
/// Items the sink sees before the change, and at least after it.
const WARMUP: u64 = 5_000;
const MORE: u64 = 30_000;

/// Waits until `sink` has consumed `n` items.
fn wait_for(handle: &FlowgraphHandle, sink: BlockId, n: u64) {
    let deadline = Instant::now() + WATCHDOG;
    while handle.stats()[sink.0].items_consumed < n {
        assert!(Instant::now() < deadline, "no progress to {n} items");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs the flowgraph `build` makes (it returns the block under test and
/// a `VectorSink<O>`), sets `param` of the block to `value` through the
/// handle once the sink has seen [`WARMUP`] items, lets [`MORE`] more
/// through and stops: the sink's items, and how many it had before the
/// call (every one of those was made before the change).
fn changed<O: Item>(
    scheduler: Box<dyn rfgraph::Scheduler>,
    build: impl FnOnce(&mut Flowgraph) -> (BlockId, BlockId),
    param: &str,
    value: Pmt,
) -> (Vec<O>, usize) {
    let mut fg = Flowgraph::new();
    // Small rings: few items are in flight when the change lands.
    fg.set_buffer_bytes(16 * 1024);
    let (dut, sink) = build(&mut fg);
    let running = fg.start(scheduler).unwrap();
    let handle = running.handle();
    wait_for(&handle, sink, WARMUP);
    let before = handle.stats()[sink.0].items_consumed;
    assert_eq!(handle.call(dut, param, value, CALL).unwrap(), Pmt::Null);
    let after = handle.stats()[sink.0].items_consumed;
    wait_for(&handle, sink, after + MORE);
    handle.stop();
    let done = wait_within(running, WATCHDOG).unwrap();
    let items = done.block::<VectorSink<O>>(sink).unwrap().items().to_vec();
    (items, before as usize)
}

/// `source → dut → VectorSink<O>`, for [`changed`].
fn chain<O: Item>(
    fg: &mut Flowgraph,
    source: impl rfgraph::Block,
    dut: impl rfgraph::Block,
) -> (BlockId, BlockId) {
    let src = fg.add(source);
    let dut = fg.add(dut);
    let sink = fg.add(VectorSink::<O>::new());
    fg.chain(&[src, dut, sink]).unwrap();
    (dut, sink)
}

/// Checks that `items` follow `old` up to one item `s` (at or after
/// `before`) and `new` from there on (`new(i, s)`), and returns `s`.
fn one_switch<T: PartialEq + std::fmt::Debug>(
    what: &str,
    items: &[T],
    before: usize,
    old: impl Fn(usize) -> T,
    new: impl Fn(usize, usize) -> T,
) -> usize {
    let s = (0..items.len())
        .find(|&i| items[i] != old(i))
        .unwrap_or_else(|| panic!("{what}: the output never changed"));
    assert!(
        s >= before,
        "{what}: changed at item {s}, before the call (the sink had {before})"
    );
    for (i, item) in items.iter().enumerate().skip(s) {
        assert_eq!(*item, new(i, s), "{what}: item {i} (changed at {s})");
    }
    s
}

#[test]
fn agc2_gain_restarts_the_loop_from_the_new_gain() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, before) = changed::<f32>(
            s,
            |fg| {
                let agc = agc2::<f32>(Agc2Params {
                    attack_rate: 0.0,
                    decay_rate: 0.0,
                    ..Default::default()
                })
                .unwrap();
                chain::<f32>(
                    fg,
                    VectorSource::new(vec![1.0f32; 1000]).repeat(u64::MAX),
                    agc,
                )
            },
            "gain",
            Pmt::F64(3.0),
        );
        one_switch(&name, &items, before, |_| 1.0, |_, _| 3.0);
    }
}

/// Bit `i` of the stream the bytes `0xdb 0x6d 0xb6` repeat: `110` over
/// and over, never two zeros, so a pair never reads as the bit it
/// starts with.
fn bit(i: usize) -> u8 {
    [1, 1, 0][i % 3]
}

#[test]
fn repack_bits_takes_new_widths_from_the_next_bits() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, before) = changed::<u8>(
            s,
            |fg| {
                let source = VectorSource::new(vec![0xdbu8, 0x6d, 0xb6]).repeat(u64::MAX);
                let repack = repack_bits(RepackBitsParams {
                    k: 8,
                    l: 1,
                    ..Default::default()
                })
                .unwrap();
                chain::<u8>(fg, source, repack)
            },
            "l",
            Pmt::U64(2),
        );
        // One bit per byte, then the bits still to come two per byte.
        one_switch(&name, &items, before, bit, |i, s| {
            let j = s + 2 * (i - s);
            2 * bit(j) + bit(j + 1)
        });
    }
}

#[test]
fn chunks_to_symbols_maps_with_the_new_table_from_the_next_index() {
    let table = |base: f32| -> Vec<Complex32> {
        (0..4)
            .map(|k| Complex32::new(base + k as f32, -(k as f32)))
            .collect()
    };
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, before) = changed::<Complex32>(
            s,
            |fg| {
                let source = VectorSource::new(vec![0u8, 1, 2, 3, 3, 1]).repeat(u64::MAX);
                let map = chunks_to_symbols::<u8, Complex32>(ChunksToSymbolsParams {
                    symbol_table: table(1.0),
                    ..Default::default()
                })
                .unwrap();
                chain::<Complex32>(fg, source, map)
            },
            "symbol_table",
            Pmt::VecComplexF32(table(10.0).iter().map(|c| [c.re, c.im]).collect()),
        );
        let index = |i: usize| [0usize, 1, 2, 3, 3, 1][i % 6];
        one_switch(
            &name,
            &items,
            before,
            |i| table(1.0)[index(i)],
            |i, _| table(10.0)[index(i)],
        );
    }
}

#[test]
fn clock_recovery_mm_steps_by_the_new_omega() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        // A ramp: each output is its own position, so the steps between
        // outputs are the samples per symbol (no loop: gains of zero).
        let ramp: Vec<f32> = (0..256).map(|n| n as f32).collect();
        let (items, before) = changed::<f32>(
            s,
            |fg| {
                let mm = clock_recovery_mm::<f32>(ClockRecoveryMmParams {
                    omega: 2.0,
                    gain_omega: 0.0,
                    gain_mu: 0.0,
                    item: rfgraph::params::ItemKind::F32,
                    ..Default::default()
                })
                .unwrap();
                chain::<f32>(fg, VectorSource::new(ramp).repeat(u64::MAX), mm)
            },
            "omega",
            Pmt::F64(4.0),
        );
        // Steps away from the ramp's wrap, where the interpolator's window
        // mixes both ends and the values fall.
        let steps: Vec<(usize, f32)> = items
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w.iter().all(|&y| (8.0..=247.0).contains(&y)))
            .map(|(k, w)| (k, w[1] - w[0]))
            .filter(|&(_, d)| d > 0.0 && d < 10.0)
            .collect();
        let switch = steps
            .iter()
            .position(|&(_, d)| (d - 2.0).abs() > 0.05)
            .unwrap_or_else(|| panic!("{name}: omega never changed"));
        assert!(
            steps[switch].0 + 1 >= before,
            "{name}: changed before the call ({before}): {:?} {:?}",
            &steps[switch.saturating_sub(3)..switch + 3],
            &items[steps[switch].0.saturating_sub(3)..steps[switch].0 + 4]
        );
        for &(k, d) in &steps[switch..] {
            assert!((d - 4.0).abs() < 0.05, "{name}: step {k} is {d}");
        }
        assert!(steps.len() - switch > 1000, "{name}: too few steps after");
    }
}

/// `e^{2πj·7n/1000}`, periodic in 1000 samples.
fn tone() -> Vec<Complex32> {
    (0..1000)
        .map(|n| Complex32::from_polar(1.0, std::f32::consts::TAU * 7.0 * n as f32 / 1000.0))
        .collect()
}

#[test]
fn fll_band_edge_starts_tracking_when_its_loop_opens() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let x = tone();
        let input = x.clone();
        // A closed loop (bandwidth 0) passes the tone after 44 zeros;
        // GNU Radio's `w` opens it.
        let (items, before) = changed::<Complex32>(
            s,
            move |fg| {
                let fll = fll_band_edge(FllBandEdgeParams {
                    sps: 4.0,
                    loop_bw: 0.0,
                    ..Default::default()
                })
                .unwrap();
                chain::<Complex32>(fg, VectorSource::new(input).repeat(u64::MAX), fll)
            },
            "w",
            Pmt::F64(0.05),
        );
        let passed = |i: usize| {
            if i < 44 {
                Complex32::new(0.0, 0.0)
            } else {
                x[(i - 44) % 1000]
            }
        };
        let s = (0..items.len())
            .find(|&i| items[i] != passed(i))
            .unwrap_or_else(|| panic!("{name}: the loop never moved"));
        assert!(
            s >= before,
            "{name}: moved at {s}, before the call ({before})"
        );
        let tail = &items[items.len() - 1000..];
        let start = items.len() - 1000;
        let moved = (0..1000).filter(|&k| tail[k] != passed(start + k)).count();
        assert!(moved > 900, "{name}: only {moved} of the last 1000 moved");
    }
}

/// A periodic complex input of 1000 samples.
fn wobble() -> Vec<Complex32> {
    (0..1000)
        .map(|n| {
            Complex32::new(
                ((n * 37) % 11) as f32 - 5.0,
                ((n * 13 + n / 7) % 5) as f32 - 2.0,
            )
        })
        .collect()
}

#[test]
fn pfb_clock_sync_filters_with_new_taps_from_the_next_symbol() {
    let bank =
        rfgraph_dsp::firdes::root_raised_cosine(32.0, 128.0, 1.0, 0.35, 11 * 4 * 32).unwrap();
    let doubled: Vec<f32> = bank.iter().map(|t| 2.0 * t).collect();
    let x = wobble();
    for s in every_scheduler() {
        let name = s.name().to_string();
        // A loop of bandwidth 0 stays on one arm, so doubled taps double
        // every output from the change on.
        let params = PfbClockSyncParams {
            sps: 4.0,
            loop_bw: 0.0,
            taps: bank.clone(),
            ..Default::default()
        };
        let input = x.clone();
        let p = params.clone();
        let (items, before) = changed::<Complex32>(
            s,
            move |fg| {
                let sync = pfb_clock_sync::<Complex32>(p).unwrap();
                chain::<Complex32>(fg, VectorSource::new(input).repeat(u64::MAX), sync)
            },
            "taps",
            Pmt::VecF32(doubled.clone()),
        );
        // The same kernel without the change, on the same input.
        let mut kernel = PfbClockSync::<Complex32>::new(4.0, 0.0, &bank, 32, 16.0, 1.5).unwrap();
        let mut plain = vec![Complex32::new(0.0, 0.0); items.len() + 64];
        let mut made = 0;
        let mut at = 0;
        while made < items.len() {
            let chunk: Vec<Complex32> = (0..777).map(|k| x[(at + k) % 1000]).collect();
            let mut rest = &chunk[..];
            while !rest.is_empty() {
                let (n, m) = kernel.process(rest, &mut plain[made..]);
                made += m;
                rest = &rest[n..];
            }
            at += chunk.len();
        }
        one_switch(&name, &items, before, |i| plain[i], |i, _| plain[i] * 2.0);
    }
}

#[test]
fn iir_filter_restarts_from_zero_with_new_taps() {
    // The outputs of a filter from a zero state for constant input 1.
    let run = |ff: &[f64], n: usize| -> Vec<f32> {
        let mut k = DirectIir::<f32>::new(ff, &[1.0, 0.5], true).unwrap();
        (0..n).map(|_| k.step(1.0)).collect()
    };
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, before) = changed::<f32>(
            s,
            |fg| {
                let iir = iir_filter::<f32>(IirFilterParams {
                    feedforward: vec![0.5],
                    feedback: vec![1.0, 0.5],
                    ..Default::default()
                })
                .unwrap();
                chain::<f32>(
                    fg,
                    VectorSource::new(vec![1.0f32; 1000]).repeat(u64::MAX),
                    iir,
                )
            },
            // GNU Radio's name.
            "fftaps",
            Pmt::VecF32(vec![0.25]),
        );
        let old = run(&[0.5], items.len());
        let new = run(&[0.25], items.len());
        one_switch(&name, &items, before, |i| old[i], |i, s| new[i - s]);
    }
}

#[test]
fn channel_model_filters_with_new_taps_from_the_next_sample() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, before) = changed::<Complex32>(
            s,
            |fg| {
                let channel = ChannelModel::new(ChannelModelParams::default()).unwrap();
                let ones = VectorSource::new(vec![Complex32::new(1.0, 0.0); 1000]);
                chain::<Complex32>(fg, ones.repeat(u64::MAX), channel)
            },
            "taps",
            Pmt::VecComplexF32(vec![[2.0, 0.0]]),
        );
        // The resampler's constant output, then twice it.
        let v = items[0];
        one_switch(&name, &items, before, |_| v, |_, _| v * 2.0);
    }
}

#[test]
fn fastnoise_amplitude_rescales_the_pool_from_the_next_item() {
    let params = FastNoiseParams {
        seed: 3,
        ..Default::default()
    };
    for s in every_scheduler() {
        let name = s.name().to_string();
        let p = params.clone();
        let (items, before) = changed::<f32>(
            s,
            move |fg| {
                let noise = fg.add(FastNoiseSource::<f32>::new(p).unwrap());
                let sink = fg.add(VectorSink::<f32>::new());
                fg.connect(noise, "out", sink, "in").unwrap();
                (noise, sink)
            },
            // GNU Radio's name.
            "amp",
            Pmt::F64(2.0),
        );
        // The same source without the change: the same picks.
        let mut fg = Flowgraph::new();
        let plain = FastNoiseSource::<f32>::new(FastNoiseParams {
            items: Some(items.len() as u64),
            ..params.clone()
        })
        .unwrap();
        let noise = fg.add(plain);
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(noise, "out", sink, "in").unwrap();
        let done =
            wait_within(fg.start(rfgraph::scheduler::Tpb::new()).unwrap(), WATCHDOG).unwrap();
        let plain = done
            .block::<VectorSink<f32>>(sink)
            .unwrap()
            .items()
            .to_vec();
        one_switch(&name, &items, before, |i| plain[i], |i, _| 2.0 * plain[i]);
    }
}

#[test]
fn fastnoise_kind_draws_a_new_pool() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let (items, _) = changed::<f32>(
            s,
            |fg| {
                let gaussian = FastNoiseParams {
                    kind: FastNoiseKind::Gaussian,
                    ..Default::default()
                };
                let noise = fg.add(FastNoiseSource::<f32>::new(gaussian).unwrap());
                let sink = fg.add(VectorSink::<f32>::new());
                fg.connect(noise, "out", sink, "in").unwrap();
                (noise, sink)
            },
            "kind",
            Pmt::from("uniform"),
        );
        // Gaussian at first (a third beyond ±1), uniform in (−1, 1) at the end.
        let beyond = items[..WARMUP as usize]
            .iter()
            .filter(|x| x.abs() > 1.0)
            .count();
        assert!(
            beyond > 1000,
            "{name}: {beyond} of the first items beyond ±1"
        );
        let tail = &items[items.len() - 10_000..];
        assert!(
            tail.iter().all(|x| x.abs() <= 1.0),
            "{name}: not uniform at the end"
        );
    }
}
