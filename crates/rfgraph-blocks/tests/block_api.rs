//! The block API's guard rails: run-time settings bound to message inputs,
//! constructors that reject bad parameters with errors, tags moved by a DSP
//! kernel's own ratio, and `chain`'s error for blocks without `out`/`in`.

mod common;

use common::{every_scheduler, wait_within};
use rfgraph::{
    Block, BlockId, BoxError, FixedRateBlock, FixedRateKernel, Flowgraph, FlowgraphHandle,
    GraphError, HandleError, Item, MapParams, ParamType, Pmt, Ports, StreamInput, Tag, WorkIo,
};
use rfgraph_blocks::{DspBlock, NullSink, Throttle, VectorSink, VectorSource};
use rfgraph_dsp::{Ccf, Fff, FreqXlatingFir, RationalResampler};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const CALL_TIMEOUT: Duration = Duration::from_secs(20);

/// Waits until `block` produced more than `items` items.
fn wait_for_output(handle: &FlowgraphHandle, block: BlockId, items: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while handle.stats()[block.0].items_produced <= items {
        assert!(Instant::now() < deadline, "the graph made no progress");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A sink whose items the test reads while the graph runs.
struct SharedSink<T: Item> {
    input: StreamInput<T>,
    items: Arc<Mutex<Vec<T>>>,
}

impl<T: Item> SharedSink<T> {
    fn new() -> (Self, Arc<Mutex<Vec<T>>>) {
        let items = Arc::new(Mutex::new(Vec::new()));
        let sink = Self {
            input: StreamInput::new("in"),
            items: items.clone(),
        };
        (sink, items)
    }
}

impl<T: Item> Block for SharedSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        self.items.lock().unwrap().extend_from_slice(i);
        let n = i.len();
        self.input.consume(n);
        Ok(())
    }
}

/// Waits until `done` holds for the items the sink has received so far.
fn wait_for_items<T: Item>(items: &Mutex<Vec<T>>, done: impl Fn(&[T]) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(&items.lock().unwrap()) {
        assert!(Instant::now() < deadline, "the items never arrived");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The parameter of a gain block.
#[derive(rfgraph::ParamSet, Clone, Debug)]
struct Gain {
    /// linear gain
    #[param(default = 1.0, settable)]
    gain: f32,
}

/// The parameter of a channel selector.
#[derive(rfgraph::ParamSet, Clone, Debug)]
struct Center {
    /// frequency moved to DC
    #[param(default = 0.0, unit = "cycles/sample", settable)]
    center: f64,
}

#[test]
fn a_parameter_changes_a_map_between_two_calls_on_every_scheduler() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        eprintln!("scheduler {name}");
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![1.0f32; 4096]).repeat(u64::MAX / 8192));
        let throttle = fg.add(Throttle::<f32>::new(2e6).unwrap());
        let gain = fg.add(MapParams::new(Gain { gain: 1.0 }, |g: &Gain, x: f32| {
            g.gain * x
        }));
        let (sink, received) = SharedSink::<f32>::new();
        let sink = fg.add(sink);
        fg.chain(&[src, throttle, gain, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        wait_for_output(&handle, gain, 0);
        let reply = handle.call(gain, "gain", 3.0f64, CALL_TIMEOUT).unwrap();
        assert_eq!(reply, Pmt::Null);
        wait_for_items(&received, |items| {
            items.iter().filter(|&&x| x != 1.0).count() >= 1000
        });
        handle.stop();
        let done = wait_within(running, Duration::from_secs(60)).unwrap();
        let items = received.lock().unwrap().clone();
        let switch = items
            .iter()
            .position(|&x| x != 1.0)
            .expect("gain never changed");
        assert!(switch > 0, "{name}: the change landed before any item");
        assert!(
            items[switch..].iter().all(|&x| x == 3.0),
            "{name}: an item after the change was not scaled by the new gain"
        );
        let infos = &done.stats()[gain.0];
        assert!(infos.items_produced >= switch as u64);
    }
}

#[test]
fn a_wrongly_typed_value_is_refused_with_both_types_and_changes_nothing() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1.0f32; 4096]).repeat(u64::MAX / 8192));
    let throttle = fg.add(Throttle::<f32>::new(1e6).unwrap());
    let gain = fg.add(MapParams::new(Gain { gain: 2.0 }, |g: &Gain, x: f32| {
        g.gain * x
    }));
    let (sink, received) = SharedSink::<f32>::new();
    let sink = fg.add(sink);
    fg.chain(&[src, throttle, gain, sink]).unwrap();
    let running = fg.start(rfgraph::scheduler::Pool::new()).unwrap();
    let handle = running.handle();
    wait_for_output(&handle, gain, 0);
    match handle.call(gain, "gain", "loud", CALL_TIMEOUT) {
        Err(HandleError::Handler { cause, .. }) => assert_eq!(
            cause,
            "parameter `gain`: expected float, found string \"loud\""
        ),
        other => panic!("expected a handler error, got {other:?}"),
    }
    // Everything the sink receives from now on was scaled after the
    // refused message.
    let before = received.lock().unwrap().len();
    wait_for_items(&received, |items| items.len() >= before + 1000);
    handle.stop();
    wait_within(running, Duration::from_secs(60)).unwrap();
    let items = received.lock().unwrap();
    assert!(items.iter().all(|&x| x == 2.0));
}

#[test]
fn a_dsp_block_lists_its_parameters_and_retunes_its_kernel() {
    let taps = vec![1.0f32];
    let xlate = FreqXlatingFir::<Ccf>::new(&taps, 1, 0.0).unwrap();
    let mut block = DspBlock::tuned(xlate, Center { center: 0.0 }, |k, p, _| {
        Ok(k.set_center(p.center)?)
    });
    let infos = Block::params(&mut block).unwrap().describe();
    assert_eq!(infos.len(), 1);
    assert_eq!(
        (infos[0].name, infos[0].ty, infos[0].unit, infos[0].settable),
        ("center", ParamType::Float, "cycles/sample", true)
    );

    // A tone at 0.25 cycles/sample becomes DC once the filter is tuned to it.
    let n = 1 << 14;
    let quarter = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let tone: Vec<_> = (0..n)
        .map(|i| num_complex::Complex32::new(quarter[i % 4].0, quarter[i % 4].1))
        .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(tone).repeat(u64::MAX / (2 * n as u64)));
    let throttle = fg.add(Throttle::<num_complex::Complex32>::new(2e6).unwrap());
    let xlate = fg.add(block);
    let (sink, received) = SharedSink::<num_complex::Complex32>::new();
    let sink = fg.add(sink);
    fg.chain(&[src, throttle, xlate, sink]).unwrap();
    let running = fg.start(rfgraph::scheduler::Tpb::new()).unwrap();
    let handle = running.handle();
    wait_for_output(&handle, xlate, 0);
    handle.call(xlate, "center", 0.25, CALL_TIMEOUT).unwrap();
    match handle.call(xlate, "center", f64::NAN, CALL_TIMEOUT) {
        Err(HandleError::Handler { cause, .. }) => assert!(cause.starts_with("parameter `center`")),
        other => panic!("a NaN centre must be refused, got {other:?}"),
    }
    // The tone reaches DC: a run of 4096 items with a constant phase.
    let at_dc = |w: &[num_complex::Complex32]| (w[1] * w[0].conj()).arg().abs() < 1e-3;
    wait_for_items(&received, |items| {
        items.len() > 4096 && items[items.len() - 4096..].windows(2).all(at_dc)
    });
    handle.stop();
    wait_within(running, Duration::from_secs(60)).unwrap();
    let items = received.lock().unwrap();
    assert!(
        !items[..1024].windows(2).all(at_dc),
        "the first items, before the retune, are not at DC"
    );
}

#[test]
fn tags_move_by_the_kernels_own_ratio() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![0.5f32; 6000]).with_tags(vec![
            Tag::new(0, "a", Pmt::U64(1)),
            Tag::new(3000, "b", Pmt::U64(2)),
        ]));
        let up = fg.add(DspBlock::new(RationalResampler::<Fff>::new(3, 2).unwrap()));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, up, sink]).unwrap();
        let done = wait_within(fg.start(s).unwrap(), Duration::from_secs(60)).unwrap();
        let tags = done.block::<VectorSink<f32>>(sink).unwrap().tags();
        let indices: Vec<_> = tags.iter().map(|t| (t.key.as_str(), t.index)).collect();
        assert_eq!(indices, [("a", 0), ("b", 4500)], "{name}");
    }
}

struct ZeroRate;

impl FixedRateKernel for ZeroRate {
    type In = f32;
    type Out = f32;
    fn decimation(&self) -> usize {
        0
    }
    fn process(&mut self, _input: &[f32], _output: &mut [f32]) {}
}

#[test]
fn constructors_reject_bad_parameters_with_errors() {
    let e = FixedRateBlock::new(ZeroRate)
        .err()
        .expect("zero decimation");
    assert_eq!(e.param, "decimation");
    // A rate no timer can follow is refused too (1e-30: one item in
    // 3·10²² years).
    for rate in [0.0, -5.0, f64::NAN, f64::INFINITY, 1e-30] {
        let e = Throttle::<f32>::new(rate).err().expect("bad rate");
        assert_eq!(e.param, "sample_rate", "{e}");
    }
}

#[test]
fn chain_names_the_block_without_out_or_in() {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("recording", VectorSource::new(vec![0.0f32; 8]));
    let sink = fg.add_named("speaker", NullSink::<f32>::new());
    let more = fg.add(NullSink::<f32>::new());
    let error = fg.chain(&[src, sink, more]).unwrap_err();
    let message = error.to_string();
    match error {
        GraphError::ChainPort { block, port, .. } => {
            assert_eq!((block.as_str(), port.as_str()), ("speaker", "out"))
        }
        other => panic!("expected a chain port error, got {other:?}"),
    }
    assert!(
        message.contains("`speaker`") && message.contains("Flowgraph::connect"),
        "{message}"
    );
}
