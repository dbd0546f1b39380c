//! Idle parking: a flowgraph waiting on a slow throttled source must sleep,
//! not spin. Measured as process CPU time (getrusage) against wall time,
//! with a generous bound. This file holds a single test so that nothing
//! else runs in the process while it measures.

use rfgraph::Flowgraph;
use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph_blocks::{Copy, NullSink, NullSource, Throttle};
use std::time::{Duration, Instant};

fn process_cpu() -> Duration {
    // SAFETY: rusage is plain data that getrusage fills on success.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer to a rusage.
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) }, 0);
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

fn idle_fraction(scheduler: impl Scheduler) -> f64 {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<u32>::new());
    let throttle = fg.add(Throttle::<u32>::new(2_000.0).unwrap());
    let copy = fg.add(Copy::<u32>::new());
    let sink = fg.add(NullSink::<u32>::new());
    fg.chain(&[src, throttle, copy, sink]).unwrap();
    let running = fg.start(scheduler).unwrap();
    // Let start-up settle, then measure a quiet window.
    std::thread::sleep(Duration::from_millis(100));
    let (cpu0, wall0) = (process_cpu(), Instant::now());
    std::thread::sleep(Duration::from_millis(600));
    let fraction = (process_cpu() - cpu0).as_secs_f64() / wall0.elapsed().as_secs_f64();
    running.handle().stop();
    running.wait().unwrap();
    fraction
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
        let fraction = idle_fraction(scheduler);
        // A spinning scheduler would use about one core (1.0) or more.
        assert!(
            fraction < 0.3,
            "{name} used {:.0}% of a core while idle",
            fraction * 100.0
        );
    }
}
