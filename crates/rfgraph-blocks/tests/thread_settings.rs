//! Scheduler thread settings: CPU pinning and real-time priority must never
//! make a run fail; when the OS refuses, the run goes on with a warning.

mod common;

use common::RunBounded;
use rfgraph::scheduler::{Chain, Pool, RealtimePriority, RtPolicy, Single, Tpb};
use rfgraph::{Block, BoxError, Flowgraph, Ports, StreamInput, StreamOutput, WorkIo};
use rfgraph_blocks::{Copy, Head, NullSource, VectorSink, VectorSource};
use std::sync::{Arc, Mutex};

fn graph() -> (Flowgraph, rfgraph::BlockId, rfgraph::BlockId) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u16>::new());
    let head = fg.add(Head::<u16>::new(10_000));
    let copy = fg.add(Copy::<u16>::new());
    let sink = fg.add(VectorSink::<u16>::new());
    fg.chain(&[src, head, copy, sink]).unwrap();
    (fg, copy, sink)
}

/// The CPUs the calling thread may run on.
fn thread_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity fills it for the
    // calling thread (pid 0) and we pass its true size.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    assert_eq!(unsafe { libc::sched_getaffinity(0, size, &mut set) }, 0);
    // SAFETY: `set` was filled above; CPU_ISSET only reads it.
    (0..libc::CPU_SETSIZE as usize)
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect()
}

/// The distinct CPU sets a probe's `work` ran with.
type SeenCpus = Arc<Mutex<Vec<Vec<usize>>>>;

/// Passes `u16` items through and records the CPU set of the thread its
/// `work` ran on.
struct AffinityProbe {
    input: StreamInput<u16>,
    output: StreamOutput<u16>,
    seen: SeenCpus,
}

impl Block for AffinityProbe {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let cpus = thread_cpus();
        let mut seen = self.seen.lock().unwrap();
        if !seen.contains(&cpus) {
            seen.push(cpus);
        }
        drop(seen);
        let (i, o) = (self.input.slice(), self.output.slice());
        let n = i.len().min(o.len());
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

#[test]
fn tpb_pins_each_block_to_its_cpus_and_survives_a_refused_priority() {
    // The first and last CPU this process may use (both the same on one).
    let allowed = thread_cpus();
    let (first, last) = (allowed[0], *allowed.last().unwrap());
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u16>::new());
    let head = fg.add(Head::<u16>::new(10_000));
    let probes: Vec<(rfgraph::BlockId, SeenCpus)> = (0..2)
        .map(|_| {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let probe = fg.add(AffinityProbe {
                input: StreamInput::new("in"),
                output: StreamOutput::new("out"),
                seen: seen.clone(),
            });
            (probe, seen)
        })
        .collect();
    let sink = fg.add(VectorSink::<u16>::new());
    fg.chain(&[src, head, probes[0].0, probes[1].0, sink])
        .unwrap();
    // Priority 10 is refused without CAP_SYS_NICE, which must only warn.
    let tpb = Tpb::new()
        .pin(probes[0].0, &[first])
        .pin(probes[1].0, &[last])
        .realtime_priority(10);
    let done = fg.run_bounded(tpb).unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
    assert_eq!(*probes[0].1.lock().unwrap(), vec![vec![first]]);
    assert_eq!(*probes[1].1.lock().unwrap(), vec![vec![last]]);
}

#[test]
fn impossible_pinning_only_warns() {
    let (fg, copy, sink) = graph();
    let tpb = Tpb::new().pin(copy, &[100_000]);
    let done = fg.run_bounded(tpb).unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
}

#[test]
fn single_with_settings_completes() {
    let (fg, _, sink) = graph();
    let done = fg
        .run_bounded(Single::new().pin(&[0]).realtime_priority(5))
        .unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
}

#[test]
fn pool_and_chain_take_cpu_sets_and_round_robin_priority() {
    let rr = RealtimePriority {
        policy: RtPolicy::RoundRobin,
        priority: 3,
    };
    let (fg, _, sink) = graph();
    let done = fg
        .run_bounded(Pool::new().workers(2).pinned().realtime_priority(rr))
        .unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
    let (fg, _, sink) = graph();
    let done = fg
        .run_bounded(Chain::new().on_cores(&[1, 0]).realtime_priority(rr))
        .unwrap();
    assert_eq!(
        done.block::<VectorSink<u16>>(sink).unwrap().items().len(),
        10_000
    );
}

#[test]
fn chain_on_no_cores_fails_the_run() {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..1000u32).collect()));
    let sink = fg.add(VectorSink::<u32>::new());
    fg.connect(src, "out", sink, "in").unwrap();
    match fg.run_bounded(Chain::new().on_cores(&[])) {
        Err(rfgraph::RunError::Scheduler(message)) => {
            assert!(message.contains("no cores"), "{message}")
        }
        Err(other) => panic!("unexpected error: {other}"),
        Ok(_) => panic!("a run on no cores reported success"),
    }
}
