//! Idle parking: a flowgraph waiting on a slow throttled source must sleep,
//! not spin. Measured with getrusage over a quiet window: the process's CPU
//! time against wall time, and its CPU time per voluntary context switch
//! (a sleeping thread gives up its core at every wait; a spinning one keeps
//! it). A spinning scheduler fails both bounds whatever the machine's load;
//! a parked one passes at least the second even when a loaded machine makes
//! each wake-up dearer. This file holds a single test so that nothing else
//! runs in the process while it measures.

use rfgraph::Flowgraph;
use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph_blocks::{Copy, NullSink, NullSource, Throttle};
use std::time::{Duration, Instant};

/// The process's CPU time and voluntary context switches so far.
fn process_usage() -> (Duration, u64) {
    // SAFETY: rusage is plain data that getrusage fills on success.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer to a rusage.
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) }, 0);
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (tv(ru.ru_utime) + tv(ru.ru_stime), ru.ru_nvcsw as u64)
}

/// Over a quiet window: the share of a core used, and the CPU time per
/// voluntary context switch.
fn idle_usage(scheduler: impl Scheduler) -> (f64, Duration) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let throttle = fg.add(Throttle::<u32>::new(2_000.0).unwrap());
    let copy = fg.add(Copy::<u32>::new());
    let sink = fg.add(NullSink::<u32>::new());
    fg.chain(&[src, throttle, copy, sink]).unwrap();
    let running = fg.start(scheduler).unwrap();
    // Let start-up settle, then measure a quiet window.
    std::thread::sleep(Duration::from_millis(100));
    let ((cpu0, switches0), wall0) = (process_usage(), Instant::now());
    std::thread::sleep(Duration::from_millis(600));
    let (cpu1, switches1) = process_usage();
    let cpu = cpu1 - cpu0;
    let fraction = cpu.as_secs_f64() / wall0.elapsed().as_secs_f64();
    let per_switch = cpu / (switches1 - switches0).max(1) as u32;
    running.handle().stop();
    running.wait_timeout(Duration::from_secs(60)).unwrap();
    (fraction, per_switch)
}

#[test]
fn waiting_on_a_throttled_source_uses_little_cpu() {
    let cases: Vec<(&str, Box<dyn Scheduler>)> = vec![
        ("tpb", Box::new(Tpb::new())),
        ("single", Box::new(Single::new())),
        ("pool", Box::new(Pool::new())),
        ("chain", Box::new(Chain::new())),
    ];
    for (name, scheduler) in cases {
        let (fraction, per_switch) = idle_usage(scheduler);
        // A spinning scheduler would use about one core (1.0) or more,
        // and keep it for tens of milliseconds between voluntary switches.
        assert!(
            fraction < 0.3 || per_switch < Duration::from_micros(500),
            "{name} used {:.0}% of a core while idle, {per_switch:?} of CPU per wait",
            fraction * 100.0
        );
    }
}
