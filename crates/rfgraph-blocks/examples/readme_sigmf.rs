// The README's SigMF example, compiled and run by the test suite
// (`tests/readme_sigmf_example.rs` also checks the README shows it as is).
// Run it on a recording: cargo run --example readme_sigmf -- capture.sigmf-meta

use num_complex::Complex32;
use rfgraph::{Flowgraph, scheduler::Tpb};
use rfgraph_blocks::VectorSink;
use rfgraph_blocks::sigmf::{SigmfSource, tag_keys};

fn read(path: &str) -> Result<usize, Box<dyn std::error::Error>> {
    let source = SigmfSource::<Complex32>::open(path)?; // any complex datatype
    let rate = source.recording().and_then(|r| r.meta().global.sample_rate);
    println!("{rate:?} samples/s");
    let mut fg = Flowgraph::new();
    let src = fg.add(source);
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.chain(&[src, sink])?;
    let done = fg.run(Tpb::new())?;
    let sink = done.block::<VectorSink<Complex32>>(sink).unwrap();
    // Captures and annotations arrive as tags on their samples.
    for tag in sink.tags() {
        if tag.key == tag_keys::FREQUENCY {
            println!("from sample {}: centre {:?} Hz", tag.index, tag.value);
        }
    }
    Ok(sink.items().len())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: readme_sigmf FILE.sigmf-meta")?;
    println!("{} samples", read(&path)?);
    Ok(())
}
