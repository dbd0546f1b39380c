//! Regression guard for the ring buffer hot path: one writer and one
//! reader moving chunks through a `CircularBuffer` on one thread (slice,
//! produce, publish, slice, consume, publish). Not run in CI.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rfgraph::buffer::EdgeSpec;
use rfgraph::buffer::circular::{CircularBuffer, CircularReader, CircularWriter};
use rfgraph::signal::Signal;
use std::hint::black_box;

fn hot_path(c: &mut Criterion) {
    let mut group = c.benchmark_group("circular_buffer");
    for chunk in [64usize, 1024, 4096] {
        let buf = CircularBuffer::new(EdgeSpec {
            item_size: 4,
            min_bytes: 64 * 1024,
            writer_signal: Signal::new(),
            reader_signals: vec![Signal::new()],
        })
        .expect("mmap");
        let mut w = CircularWriter::<f32>::new(buf.clone()).expect("the only writer");
        let mut r = CircularReader::<f32>::new(buf, 0).expect("the only reader 0");
        group.throughput(Throughput::Elements(chunk as u64));
        group.bench_function(format!("produce_consume_{chunk}"), |b| {
            b.iter(|| {
                let out = w.slice();
                out[..chunk].fill(1.0);
                w.produce(chunk);
                w.publish();
                let input = r.slice();
                black_box(input[chunk - 1]);
                r.consume(chunk);
                r.publish();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hot_path);
criterion_main!(benches);
