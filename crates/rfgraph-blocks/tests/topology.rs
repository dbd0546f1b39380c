//! A running flowgraph seen from outside, on every scheduler: the handle
//! lists its blocks with their ports and item types, its stream edges
//! (one per reader) and message edges, and each stream edge's fill, which
//! rises while a reader holds back and drains when it reads again.

mod common;

use common::{every_scheduler, wait_within};
use num_complex::Complex32;
use rfgraph::{Block, BoxError, Flowgraph, Pmt, Ports, StreamInput, WorkIo};
use rfgraph_blocks::{Copy, MessageBurst, MessageSink, VectorSource};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Reads nothing until `open`, then everything.
struct Gate {
    input: StreamInput<Complex32>,
    open: Arc<AtomicBool>,
}

impl Block for Gate {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if !self.open.load(Ordering::Acquire) {
            // Asked again soon: nothing notifies it when the gate opens.
            io.call_again_at(Instant::now() + Duration::from_millis(1));
            return Ok(());
        }
        let n = self.input.slice().len();
        self.input.consume(n);
        Ok(())
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn the_handle_shows_blocks_ports_edges_and_fill() {
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        let src = fg.add_named(
            "src",
            VectorSource::new(vec![Complex32::new(1.0, 0.0); 1000]).repeat(1000),
        );
        let copy = fg.add_named("copy", Copy::<Complex32>::new());
        let open = Arc::new(AtomicBool::new(false));
        let gate = fg.add_named(
            "gate",
            Gate {
                input: StreamInput::new("in"),
                open: open.clone(),
            },
        );
        let also = fg.add_named(
            "also",
            Gate {
                input: StreamInput::new("in"),
                open: Arc::new(AtomicBool::new(true)),
            },
        );
        let burst = fg.add_named("burst", MessageBurst::new(Pmt::U64(1), 3));
        let msgs = fg.add_named("msgs", MessageSink::new());
        fg.connect(src, "out", copy, "in").unwrap();
        fg.connect(copy, "out", gate, "in").unwrap();
        fg.connect(copy, "out", also, "in").unwrap();
        fg.connect_message(burst, "out", msgs, "in").unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        let topo = handle.topology().clone();

        let names: Vec<&str> = topo.blocks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            ["src", "copy", "gate", "also", "burst", "msgs"],
            "{name}"
        );
        let c = &topo.blocks[copy.0];
        assert_eq!(c.inputs.len(), 1);
        assert_eq!(c.inputs[0].name, "in");
        assert_eq!(c.outputs[0].item_size, 8, "{name}");
        assert!(
            c.outputs[0].item.contains("Complex"),
            "{}",
            c.outputs[0].item
        );
        assert_eq!(topo.blocks[msgs.0].message_inputs, ["in"]);
        assert_eq!(topo.blocks[burst.0].message_outputs, ["out"]);

        // One stream edge per reader: src→copy, copy→gate, copy→also.
        let edges: Vec<(usize, &str, usize, &str)> = topo
            .streams
            .iter()
            .map(|e| {
                let e = &e.edge;
                (e.writer, e.output.as_str(), e.reader, e.input.as_str())
            })
            .collect();
        assert_eq!(edges.len(), 3, "{name}: {edges:?}");
        for want in [
            (src.0, "out", copy.0, "in"),
            (copy.0, "out", gate.0, "in"),
            (copy.0, "out", also.0, "in"),
        ] {
            assert!(edges.contains(&want), "{name}: {want:?} in {edges:?}");
        }
        assert_eq!(topo.messages.len(), 1);
        assert_eq!(
            (topo.messages[0].writer, topo.messages[0].reader),
            (burst.0, msgs.0)
        );
        let json = serde_json::to_value(&topo).unwrap();
        assert_eq!(json["streams"][0]["output"], "out", "{json}");

        // The held-back reader's edge fills up; the other one's does not
        // stay full: it reads what the copy writes.
        let at = |w: usize, r: usize| {
            topo.streams
                .iter()
                .position(|e| e.edge.writer == w && e.edge.reader == r)
                .unwrap()
        };
        let (held, free) = (at(copy.0, gate.0), at(copy.0, also.0));
        wait_for(&format!("{name}: the held edge never filled"), || {
            let f = handle.edge_fill()[held];
            f.unread > 0 && f.unread as usize <= f.capacity
        });
        let fill = handle.edge_fill();
        assert_eq!(fill[held].capacity, topo.streams[held].capacity);
        assert!(fill[free].unread <= fill[held].unread, "{name}: {fill:?}");
        open.store(true, Ordering::Release);
        let done = wait_within(running, Duration::from_secs(60)).unwrap();
        let fill = handle.edge_fill();
        assert!(fill.iter().all(|f| f.unread == 0), "{name}: {fill:?}");
        let _ = done;
    }
}
