//! Locality detection without any device API: blocks whose ports claim a
//! fake device domain (host rings underneath) must get exactly the transfer
//! blocks the topology needs, every item must arrive, and the transfers must
//! show up in the statistics.

mod common;

use common::RunBounded;
use rfgraph::buffer::{EdgeBuffer, EdgeSpec, MemoryDomain};
use rfgraph::port::{InputPort, OutputPort, StreamPort, Transfer};
use rfgraph::scheduler::{Single, Tpb};
use rfgraph::{
    Block, BoxError, Flowgraph, GraphError, ItemType, Map, Ports, RunError, StreamInput,
    StreamOutput, WorkIo,
};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::cell::Cell;
use std::sync::Arc;

fn fake(context: u64) -> MemoryDomain {
    MemoryDomain::Device {
        api: "fake",
        context,
    }
}

thread_local! {
    /// Transfer blocks built so far on this test's thread (the pass runs on
    /// the caller's thread), to check it builds no spare ones.
    static BUILT: Cell<usize> = const { Cell::new(0) };
}

/// A host port that claims to live in `domain` and offers a copying
/// transfer (when `transfers` is set).
macro_rules! fake_port {
    ($name:ident, $inner:ident, $trait:ident) => {
        struct $name {
            inner: $inner<f32>,
            domain: MemoryDomain,
            transfers: bool,
        }
        impl StreamPort for $name {
            fn name(&self) -> &str {
                self.inner.name()
            }
            fn item_type(&self) -> ItemType {
                ItemType::of::<f32>()
            }
            fn domain(&self) -> MemoryDomain {
                self.domain.clone()
            }
            fn transfer(&self) -> Option<Transfer> {
                self.transfers.then(|| {
                    BUILT.set(BUILT.get() + 1);
                    Transfer::new(Map::new(|x: f32| x))
                })
            }
        }
    };
}
fake_port!(FakeInput, StreamInput, InputPort);
fake_port!(FakeOutput, StreamOutput, OutputPort);

impl InputPort for FakeInput {
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>, reader: usize) -> Result<(), String> {
        self.inner.attach(edge, reader)
    }
}
impl OutputPort for FakeOutput {
    fn create_edge(&self, spec: EdgeSpec) -> Result<Arc<dyn EdgeBuffer>, GraphError> {
        self.inner.create_edge(spec)
    }
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>) -> Result<(), String> {
        self.inner.attach(edge)
    }
}

/// `y = 2x` on a fake device.
struct DeviceDouble {
    input: FakeInput,
    output: FakeOutput,
}

fn device_double(context: u64, transfers: bool) -> DeviceDouble {
    DeviceDouble {
        input: FakeInput {
            inner: StreamInput::new("in"),
            domain: fake(context),
            transfers,
        },
        output: FakeOutput {
            inner: StreamOutput::new("out"),
            domain: fake(context),
            transfers,
        },
    }
}

impl Block for DeviceDouble {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.inner.slice();
        let o = self.output.inner.slice();
        let n = i.len().min(o.len());
        for (o, i) in o[..n].iter_mut().zip(i) {
            *o = 2.0 * i;
        }
        self.input.inner.consume(n);
        self.output.inner.produce(n);
        Ok(())
    }
}

fn ramp(n: usize) -> Vec<f32> {
    (0..n).map(|i| i as f32).collect()
}

fn transfers(done: &rfgraph::Finished) -> Vec<rfgraph::BlockStats> {
    done.stats()
        .iter()
        .filter(|s| s.transfer)
        .cloned()
        .collect()
}

#[test]
fn host_device_device_host_inserts_two_transfers() -> Result<(), RunError> {
    let n = 100_003;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(ramp(n)));
    let a = fg.add(device_double(1, true));
    let b = fg.add(device_double(1, true));
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, a, b, snk])?;
    let done = fg.run_bounded(Tpb::new())?;
    let got = done.block::<VectorSink<f32>>(snk).unwrap().items();
    assert_eq!(got.len(), n);
    assert!(got.iter().enumerate().all(|(i, &y)| y == 4.0 * i as f32));
    let t = transfers(&done);
    assert_eq!(t.len(), 2, "one host→device and one device→host: {t:?}");
    assert!(t.iter().all(|s| s.items_consumed == n as u64));
    assert_eq!(done.stats().iter().filter(|s| !s.transfer).count(), 4);
    Ok(())
}

#[test]
fn two_device_contexts_go_through_host_once() -> Result<(), RunError> {
    let n = 4097;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(ramp(n)));
    let a = fg.add(device_double(1, true));
    let b = fg.add(device_double(2, true));
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, a, b, snk])?;
    let done = fg.run_bounded(Single::new())?;
    assert_eq!(done.block::<VectorSink<f32>>(snk).unwrap().items().len(), n);
    // host→1, 1→host, host→2, 2→host.
    assert_eq!(transfers(&done).len(), 4);
    Ok(())
}

#[test]
fn fan_out_shares_one_transfer_per_domain() -> Result<(), RunError> {
    let n = 10_000;
    let before = BUILT.get();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(ramp(n)));
    let dev = fg.add(device_double(7, true));
    let same_ctx = fg.add(device_double(7, true));
    let other_ctx_a = fg.add(device_double(8, true));
    let other_ctx_b = fg.add(device_double(8, true));
    let host_a = fg.add(VectorSink::<f32>::new());
    let host_b = fg.add(VectorSink::<f32>::new());
    let sinks: Vec<_> = (0..3).map(|_| fg.add(VectorSink::<f32>::new())).collect();
    fg.connect(src, "out", dev, "in")?;
    for (reader, sink) in [same_ctx, other_ctx_a, other_ctx_b].iter().zip(&sinks) {
        fg.connect(dev, "out", *reader, "in")?;
        fg.connect(*reader, "out", *sink, "in")?;
    }
    fg.connect(dev, "out", host_a, "in")?;
    fg.connect(dev, "out", host_b, "in")?;
    let done = fg.run_bounded(Tpb::new())?;
    // host→7 for `dev`; 7→host shared by the two host sinks and context 8;
    // host→8 shared by both context-8 readers; one 7→host and two 8→host
    // towards the three final sinks.
    assert_eq!(transfers(&done).len(), 1 + 1 + 1 + 3);
    assert_eq!(BUILT.get() - before, 6, "no spare transfers built");
    for s in [host_a, host_b] {
        let got = done.block::<VectorSink<f32>>(s).unwrap().items();
        assert!(got.iter().enumerate().all(|(i, &y)| y == 2.0 * i as f32));
        assert_eq!(got.len(), n);
    }
    for s in &sinks {
        let got = done.block::<VectorSink<f32>>(*s).unwrap().items();
        assert_eq!(got.len(), n);
        assert_eq!(got[n - 1], 4.0 * (n - 1) as f32);
    }
    Ok(())
}

#[test]
fn same_domain_needs_no_transfer() -> Result<(), RunError> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(ramp(10)));
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, snk])?;
    let done = fg.run_bounded(Single::new())?;
    assert!(transfers(&done).is_empty());
    Ok(())
}

#[test]
fn a_domain_without_transfers_is_rejected_with_both_ends_named() {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("src", VectorSource::new(ramp(10)));
    let dev = fg.add_named("dev", device_double(3, false));
    let snk = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, dev, snk]).unwrap();
    let err = fg
        .run_bounded(Single::new())
        .err()
        .expect("must be rejected")
        .to_string();
    assert!(
        err.contains("`src`.out") && err.contains("`dev`.in"),
        "{err}"
    );
    assert!(err.contains("fake context 3"), "{err}");
}
