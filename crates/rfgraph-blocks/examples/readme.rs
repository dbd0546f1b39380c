// The README's example, compiled and run by the test suite.

use rfgraph::{Flowgraph, Map, scheduler::Tpb};
use rfgraph_blocks::{Head, NullSource, VectorSink};

fn main() -> Result<(), rfgraph::RunError> {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let head = fg.add(Head::<f32>::new(1_000_000));
    let offset = fg.add(Map::new(|x: f32| x + 1.5));
    let sink = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, head, offset, sink])?;
    let done = fg.run(Tpb::new())?; // or Single::new()
    let items = done.block::<VectorSink<f32>>(sink).unwrap().items();
    assert!(items.len() == 1_000_000 && items.iter().all(|&x| x == 1.5));
    println!("{}", done.stats_json());
    Ok(())
}
