//! Declared parameters in a running flowgraph, on every scheduler: each
//! settable parameter (and alias) is a message input, a change lands
//! between two `work` calls, a wrong value is refused with a typed error
//! and the run goes on, a block that cannot follow a change undoes it,
//! and the handle lists the declarations and reads current values.

mod common;

use common::{every_scheduler, wait_within};
use rfgraph::{
    Block, BoxError, Flowgraph, HandleError, ParamError, ParamSet, Pmt, Ports, StreamInput,
    StreamOutput, WorkIo,
};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::time::{Duration, Instant};

const CALL: Duration = Duration::from_secs(20);

/// The parameters of [`Scale`].
#[derive(ParamSet, Clone, Debug)]
struct ScaleParams {
    /// the factor every item is multiplied by
    #[param(default = 1.0, min = 0.0, alias = "k", settable)]
    gain: f32,
    /// a value the block refuses to follow when it is 13
    #[param(default = 0, settable)]
    unlucky: i64,
    /// fixed once built
    #[param(default = 1, min = 1)]
    vlen: usize,
}

/// Multiplies by `gain`; counts its calls so the test can tell that a
/// change landed between two of them.
struct Scale {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    params: ScaleParams,
}

impl Scale {
    fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params: ScaleParams::default(),
        }
    }
}

impl Block for Scale {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "unlucky" && self.params.unlucky == 13 {
            return Err("13 cannot be followed".into());
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let (i, o) = (self.input.slice(), self.output.slice());
        let n = i.len().min(o.len()).min(64);
        for (o, i) in o[..n].iter_mut().zip(i) {
            *o = self.params.gain * i;
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

#[test]
fn settable_parameters_are_message_inputs_that_land_between_calls() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::<f32>::new(vec![1.0; 1000]).repeat(u64::MAX));
        let scale = fg.add(Scale::new());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, scale, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();

        let specs = handle.param_specs(scale).unwrap();
        assert_eq!(specs.len(), 3, "{name}");
        assert_eq!(specs[0].name, "gain");
        assert_eq!(handle.param(scale, "gain", CALL).unwrap(), Pmt::F64(1.0));

        assert_eq!(handle.call(scale, "gain", 3.0f64, CALL).unwrap(), Pmt::Null);
        assert_eq!(handle.param(scale, "gain", CALL).unwrap(), Pmt::F64(3.0));
        // The alias is an input of its own; an integer sets a float.
        handle.call(scale, "k", Pmt::I64(2), CALL).unwrap();
        assert_eq!(handle.param(scale, "gain", CALL).unwrap(), Pmt::F64(2.0));

        // Refusals go back to the caller; the run goes on, unchanged.
        let e = handle.call(scale, "gain", "loud", CALL).unwrap_err();
        assert!(
            matches!(&e, HandleError::Handler { cause, .. }
                if cause == "parameter `gain`: expected float, found string \"loud\""),
            "{name}: {e}"
        );
        let e = handle.call(scale, "gain", -1.0f64, CALL).unwrap_err();
        assert!(e.to_string().contains("out of range"), "{name}: {e}");
        let e = handle
            .call(scale, "unlucky", Pmt::I64(13), CALL)
            .unwrap_err();
        assert!(
            e.to_string().contains("13 cannot be followed"),
            "{name}: {e}"
        );
        assert_eq!(
            handle.param(scale, "unlucky", CALL).unwrap(),
            Pmt::I64(0),
            "{name}: undone"
        );
        handle.call(scale, "unlucky", Pmt::I64(7), CALL).unwrap();
        assert!(matches!(
            handle.call(scale, "vlen", Pmt::I64(2), CALL),
            Err(HandleError::UnknownPort { .. })
        ));
        assert_eq!(handle.param(scale, "gain", CALL).unwrap(), Pmt::F64(2.0));
        assert!(handle.param(scale, "nope", CALL).is_err());

        // Items processed after the last change reach the sink.
        let seen = handle.stats()[scale.0].items_produced;
        let deadline = Instant::now() + Duration::from_secs(30);
        while handle.stats()[sink.0].items_consumed < seen + 50_000 {
            assert!(Instant::now() < deadline, "{name}: no progress");
            std::thread::sleep(Duration::from_millis(1));
        }
        handle.stop();
        let done = wait_within(running, Duration::from_secs(60)).unwrap();
        let items = done.block::<VectorSink<f32>>(sink).unwrap().items();
        // Every item saw one gain: 1, then 3, then 2, never a mix.
        let mut phases: Vec<f32> = items.to_vec();
        phases.dedup();
        assert!(
            phases.iter().all(|v| [1.0, 3.0, 2.0].contains(v)),
            "{name}: {phases:?}"
        );
        assert_eq!(*items.last().unwrap(), 2.0, "{name}: {phases:?}");
    }
}

#[test]
fn a_rust_constructor_meets_the_same_rules_as_a_file() {
    let bad = ScaleParams {
        gain: -2.0,
        ..Default::default()
    };
    let e: ParamError = bad.validate().unwrap_err();
    assert_eq!(e.param, "gain");
    assert!(e.reason.contains("out of range"), "{e}");
    let values = [("k".to_string(), Pmt::F64(0.5))].into_iter().collect();
    assert_eq!(ScaleParams::resolve("scale", values).unwrap().gain, 0.5);
}

/// Counts the items it reads: a reading, and a fixed parameter, on a
/// block with no message inputs at all.
struct Counter {
    input: StreamInput<f32>,
    params: CounterParams,
    seen: u64,
}

/// The parameters of [`Counter`].
#[derive(ParamSet, Clone, Debug)]
struct CounterParams {
    /// fixed once built
    #[param(default = 4)]
    width: usize,
}

impl Block for Counter {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn readings(&self) -> &'static [&'static str] {
        &["seen"]
    }

    fn reading(&mut self, name: &str) -> Option<Pmt> {
        (name == "seen").then_some(Pmt::U64(self.seen))
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        self.seen += n as u64;
        self.input.consume(n);
        Ok(())
    }
}

#[test]
fn readings_and_fixed_parameters_answer_on_blocks_without_message_inputs() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::<f32>::new(vec![1.0; 1000]).repeat(u64::MAX));
        let counter = fg.add(Counter {
            input: StreamInput::new("in"),
            params: CounterParams::default(),
            seen: 0,
        });
        fg.connect(src, "out", counter, "in").unwrap();
        assert_eq!(fg.readings(counter), ["seen"]);
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        assert_eq!(handle.readings(counter).unwrap(), ["seen"]);
        // The block keeps working (the steady path of every scheduler),
        // and still answers: the count only grows.
        let mut last = 0;
        for _ in 0..5 {
            let seen = handle.reading(counter, "seen", CALL).unwrap().as_u64();
            let seen = seen.unwrap_or_else(|| panic!("{name}: not a count"));
            assert!(seen >= last, "{name}: {seen} after {last}");
            last = seen;
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(
            handle.param(counter, "width", CALL).unwrap(),
            Pmt::U64(4),
            "{name}"
        );
        let e = handle.reading(counter, "level", CALL).unwrap_err();
        assert!(
            e.to_string().contains("no reading `level` (it has seen)"),
            "{name}: {e}"
        );
        let e = handle.reading(src, "seen", CALL).unwrap_err();
        assert!(e.to_string().contains("the block has none"), "{name}: {e}");
        handle.stop();
        wait_within(running, Duration::from_secs(60)).unwrap();
    }
}
