//! Live statistics of a block handling a long burst of messages count
//! them while the burst is still under way, not only once it is over:
//! `chain`'s refinement weighs blocks by their measured time in `work`
//! and handlers, and a monitor reads the same counters.

use rfgraph::scheduler::{Chain, Pool, Scheduler, Single, Tpb};
use rfgraph::{Block, BoxError, Flowgraph, Pmt, Ports, WorkIo};
use rfgraph_blocks::MessageBurst;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Far longer than the wait takes when the runtime is right
/// (microseconds); only statistics held back until the burst ends reach it.
const NEVER: Duration = Duration::from_secs(20);

/// Messages in the burst, and the one whose handler waits for the test.
const BURST: usize = 100;
const GATED: u64 = 40;

/// Handles messages; the handler of message [`GATED`] waits until the
/// test opens the gate.
struct Gate {
    open: Arc<(Mutex<bool>, Condvar)>,
    seen: u64,
}

impl Block for Gate {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        Ok(())
    }

    fn handle_message(&mut self, _: &str, _: Pmt, _: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.seen += 1;
        if self.seen == GATED {
            let (open, opened) = &*self.open;
            let mut open = open.lock().unwrap();
            while !*open {
                open = opened.wait(open).unwrap();
            }
        }
        Ok(Pmt::Null)
    }
}

fn counts_while_the_burst_runs(s: impl Scheduler) {
    let name = s.name().to_string();
    let mut fg = Flowgraph::new();
    let burst = fg.add(MessageBurst::new(Pmt::U64(1), BURST));
    let open = Arc::new((Mutex::new(false), Condvar::new()));
    let gate = fg.add(Gate {
        open: open.clone(),
        seen: 0,
    });
    fg.connect_message(burst, "out", gate, "in").unwrap();
    let running = fg.start(s).unwrap();
    let handle = running.handle();
    let start = Instant::now();
    let mut counted = 0;
    while start.elapsed() < NEVER {
        counted = handle.stats()[gate.0].messages_handled;
        if counted > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let (gate_open, opened) = &*open;
    *gate_open.lock().unwrap() = true;
    opened.notify_all();
    let done = running.wait().unwrap();
    assert!(
        counted > 0 && counted < GATED,
        "{name}: {counted} messages counted while message {GATED} waited"
    );
    assert_eq!(
        done.stats()[gate.0].messages_handled,
        BURST as u64,
        "{name}"
    );
}

#[test]
fn live_statistics_count_messages_during_a_long_burst() {
    counts_while_the_burst_runs(Tpb::new());
    counts_while_the_burst_runs(Single::new());
    counts_while_the_burst_runs(Pool::new());
    counts_while_the_burst_runs(Chain::new());
}
