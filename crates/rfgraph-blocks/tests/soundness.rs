//! No undefined behaviour from safe code: ports written outside the crate
//! cannot become a second writer of an edge, take another reader's place,
//! or pass on in place items their input has not consumed. Each attempt is
//! refused when the graph is built (a graph error naming the port) or when
//! it happens (a panic that fails the run), never left to corrupt memory.
//! (The grant that lets an input work in place cannot be forged at all: see
//! the `compile_fail` examples of `rfgraph::port::InPlaceGrant`.)

mod common;

use common::{RunBounded, every_scheduler};
use rfgraph::buffer::circular::{CircularBuffer, CircularReader, CircularWriter};
use rfgraph::buffer::positions::WriteCursor;
use rfgraph::buffer::{ClaimError, EdgeBuffer, downcast_edge};
use rfgraph::port::{InputPort, OutputPort, StreamPort};
use rfgraph::{
    Block, BoxError, Flowgraph, GraphError, ItemType, Ports, RunError, StreamInput, StreamOutput,
    WorkIo,
};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::sync::Arc;

/// The ring behind a host edge.
fn host_ring(edge: &Arc<dyn EdgeBuffer>) -> Arc<CircularBuffer> {
    downcast_edge::<CircularBuffer>(edge.clone()).expect("a host ring")
}

/// How a rogue port tries to get a second view of its edge.
#[derive(Clone, Copy, Debug)]
enum Grab {
    /// A typed writer view (`&mut` slices of the ring).
    Writer,
    /// A bare writer cursor (moves the write position).
    Cursor,
    /// Reader 1's place (the port is reader 0).
    OtherReader,
}

impl Grab {
    fn on(self, ring: Arc<CircularBuffer>) -> Result<(), ClaimError> {
        match self {
            Grab::Writer => CircularWriter::<f32>::new(ring).map(drop),
            Grab::Cursor => WriteCursor::new(ring).map(drop),
            Grab::OtherReader => CircularReader::<f32>::new(ring, 1).map(drop),
        }
    }
}

/// An output port that attaches like `StreamOutput`, then tries to make a
/// second writer of the same edge.
struct TwoWriters {
    inner: StreamOutput<f32>,
    grab: Grab,
}

impl StreamPort for TwoWriters {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn item_type(&self) -> ItemType {
        self.inner.item_type()
    }
}

impl OutputPort for TwoWriters {
    fn create_edge(
        &self,
        spec: rfgraph::buffer::EdgeSpec,
    ) -> Result<Arc<dyn EdgeBuffer>, GraphError> {
        self.inner.create_edge(spec)
    }
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>) -> Result<(), String> {
        self.inner.attach(edge.clone())?;
        self.grab.on(host_ring(&edge)).map_err(|e| e.to_string())
    }
}

/// An input port that attaches like `StreamInput`, then tries to take a
/// place on its edge that is not its own.
struct Grabbing {
    inner: StreamInput<f32>,
    grab: Grab,
}

impl StreamPort for Grabbing {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn item_type(&self) -> ItemType {
        self.inner.item_type()
    }
}

impl InputPort for Grabbing {
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>, reader: usize) -> Result<(), String> {
        self.inner.attach(edge.clone(), reader)?;
        self.grab.on(host_ring(&edge)).map_err(|e| e.to_string())
    }
}

/// A source of `f32` items whose output is a [`TwoWriters`].
struct RogueSource {
    out: TwoWriters,
}

impl Block for RogueSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.out)
    }
    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        io.finish();
        Ok(())
    }
}

/// A sink whose input is a [`Grabbing`].
struct RogueSink {
    input: Grabbing,
}

impl Block for RogueSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.inner.available();
        self.input.inner.consume(n);
        Ok(())
    }
}

/// The attach error of a run, as (block, port, cause).
fn attach_error(result: Result<rfgraph::Finished, RunError>) -> (String, String, String) {
    match result {
        Err(RunError::Graph(GraphError::Attach { block, port, cause })) => (block, port, cause),
        Err(other) => panic!("wrong error: {other}"),
        Ok(_) => panic!("the graph ran"),
    }
}

/// A custom output that makes a second writer of its own edge, as a typed
/// view or as a bare cursor: the graph is refused before anything runs,
/// naming the port (two writers would hand out overlapping `&mut` slices).
#[test]
fn a_second_writer_on_an_edge_is_a_graph_error_naming_the_port() {
    for grab in [Grab::Writer, Grab::Cursor] {
        let mut fg = Flowgraph::new();
        let src = fg.add_named(
            "rogue",
            RogueSource {
                out: TwoWriters {
                    inner: StreamOutput::new("out"),
                    grab,
                },
            },
        );
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", sink, "in").unwrap();
        let (block, port, cause) = attach_error(fg.run_bounded(rfgraph::scheduler::Tpb::new()));
        assert_eq!(
            (block.as_str(), port.as_str()),
            ("rogue", "out"),
            "{grab:?}"
        );
        assert!(cause.contains("already has a writer"), "{grab:?}: {cause}");
        let shown = GraphError::Attach { block, port, cause }.to_string();
        assert!(shown.contains("`rogue`.out"), "{shown}");
    }
}

/// A custom input that makes itself a writer of the edge it reads: the
/// edge's writer attached first, so the input's attach fails and the
/// error names it.
#[test]
fn a_reader_cannot_become_its_edges_writer() {
    for grab in [Grab::Writer, Grab::Cursor] {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![1.0f32; 100]));
        let sink = fg.add_named(
            "rogue",
            RogueSink {
                input: Grabbing {
                    inner: StreamInput::new("in"),
                    grab,
                },
            },
        );
        fg.connect(src, "out", sink, "in").unwrap();
        let (block, port, cause) = attach_error(fg.run_bounded(rfgraph::scheduler::Tpb::new()));
        assert_eq!((block.as_str(), port.as_str()), ("rogue", "in"), "{grab:?}");
        assert!(cause.contains("already has a writer"), "{grab:?}: {cause}");
    }
}

/// A custom input that takes the place of the edge's other reader: that
/// reader's own attach then fails, and the error names it, instead of two
/// views moving one read position.
#[test]
fn a_reader_cannot_take_another_readers_place() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1.0f32; 100]));
    let rogue = fg.add_named(
        "rogue",
        RogueSink {
            input: Grabbing {
                inner: StreamInput::new("in"),
                grab: Grab::OtherReader,
            },
        },
    );
    let honest = fg.add_named("honest", VectorSink::<f32>::new());
    // Reader 0, then reader 1.
    fg.connect(src, "out", rogue, "in").unwrap();
    fg.connect(src, "out", honest, "in").unwrap();
    let (block, port, cause) = attach_error(fg.run_bounded(rfgraph::scheduler::Tpb::new()));
    assert_eq!((block.as_str(), port.as_str()), ("honest", "in"));
    assert!(
        cause.contains("reader 1 of the edge is already attached"),
        "{cause}"
    );
}

/// Works in place, but passes on one item more per call than it consumed.
struct Overpass {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
}

impl Block for Overpass {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let data = self
            .input
            .slice_in_place()
            .expect("the only reader of its input, so in place");
        let n = data.len();
        if n > 1 {
            data.iter_mut().for_each(|x| *x += 1.0);
            self.input.consume(n - 1);
            self.output.produce_in_place(n);
        }
        Ok(())
    }
}

/// Passing on in place more items than the input consumed would show the
/// next block items this block still holds as `&mut` (or the source's
/// free space): the output panics instead, and the run fails naming the
/// block, on every scheduler.
#[test]
fn passing_on_unconsumed_items_in_place_fails_the_run() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(4096);
        let src = fg.add(VectorSource::new(vec![1.0f32; 50_000]));
        let over = fg.add_named(
            "overpass",
            Overpass {
                input: StreamInput::new("in"),
                output: StreamOutput::new("out").in_place_of(0),
            },
        );
        let sink = fg.add(VectorSink::<f32>::new());
        fg.chain(&[src, over, sink]).unwrap();
        match fg.run_bounded(s) {
            Err(RunError::BlockPanicked { block, message }) => {
                assert_eq!(block, "overpass", "{name}");
                assert!(message.contains("has not consumed"), "{name}: {message}");
            }
            Err(other) => panic!("{name}: wrong error {other}"),
            Ok(_) => panic!("{name}: the run succeeded"),
        }
    }
}
