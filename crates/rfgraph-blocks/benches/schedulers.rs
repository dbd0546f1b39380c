//! Regression guard: a 4-stage copy chain (null source → head → 4 copies →
//! null sink) on every scheduler. Not run in CI.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rfgraph::Flowgraph;
use rfgraph::scheduler::{Scheduler, by_name};
use rfgraph_blocks::{Copy, Head, NullSink, NullSource};

const ITEMS: u64 = 2_000_000;

fn chain_of_four(scheduler: Box<dyn Scheduler>) {
    let mut fg = Flowgraph::new();
    let mut ids = vec![
        fg.add(NullSource::<f32>::new()),
        fg.add(Head::<f32>::new(ITEMS)),
    ];
    for _ in 0..4 {
        ids.push(fg.add(Copy::<f32>::new()));
    }
    ids.push(fg.add(NullSink::<f32>::new()));
    fg.chain(&ids).expect("valid chain");
    fg.run(scheduler).expect("run");
}

fn schedulers(c: &mut Criterion) {
    let mut group = c.benchmark_group("four_stage_chain");
    group.throughput(Throughput::Elements(ITEMS));
    group.sample_size(20);
    for name in rfgraph::scheduler::SCHEDULERS {
        group.bench_function(*name, |b| {
            b.iter(|| chain_of_four(by_name(name).expect("known scheduler")))
        });
    }
    group.finish();
}

criterion_group!(benches, schedulers);
criterion_main!(benches);
