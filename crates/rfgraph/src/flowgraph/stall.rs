//! The stall watch: turns a flowgraph whose blocks all wait on each other
//! into an error instead of a hang, on every scheduler.
//!
//! A finite ring can deadlock a graph (a diamond whose one branch must
//! read more than the other branch's rings can hold before the join
//! moves). Then every unfinished block idles waiting for items or room
//! that only another idle block could provide, and nothing ever notifies
//! anyone. The watch runs beside the scheduler on a thread of its own and,
//! a few times a second, looks at what every runner last reported
//! ([`Activity`]) and at the edges' positions. It declares a stall only
//! when, at two looks in a row:
//!
//! - every unfinished block is [`Activity::Waiting`]: its last call moved
//!   nothing, it asked for no timer and has no work in flight (a throttle,
//!   a device or a socket is therefore never a stall), and blocks that may
//!   block on I/O are not inside a call;
//! - no block has a notification or a message pending;
//! - every unfinished block waits on a stream port: an input with fewer
//!   readable items than its `min_items` from a writer that has not
//!   finished, or an output with less room than its `min_items`. A block
//!   waiting for something else (messages from the handle or a timer-less
//!   waker) could still be woken from outside, so it is not stuck;
//! - no position moved and no message was handled in between, and the
//!   positions read before and after each look agree.
//!
//! Positions only grow, so equal positions mean nothing moved. The watch
//! then fails the run with [`RunError::Stalled`], which names every block
//! and the port it waits on, and stops it.
//!
//! The watch never touches a runner or a ring's memory; it reads only
//! atomics the runtime publishes anyway, and costs nothing on the hot
//! path.

use super::run::Completion;
use crate::buffer::EdgeBuffer;
use crate::control::RunControl;
use crate::error::{RunError, Stall, StalledBlock, StreamWait};
use crate::message::Inbox;
use crate::signal::{Activity, Signal};
use crate::stats::StatsCell;
use std::sync::Arc;
use std::time::Duration;

/// How often the watch looks. A stall is reported after two to three.
const PERIOD: Duration = Duration::from_millis(100);

/// One input of a watched block.
pub(crate) struct WatchedInput {
    pub(crate) port: String,
    pub(crate) edge: Arc<dyn EdgeBuffer>,
    pub(crate) reader: usize,
    pub(crate) min_items: u64,
    pub(crate) writer: usize,
}

/// One output of a watched block.
pub(crate) struct WatchedOutput {
    pub(crate) port: String,
    pub(crate) edge: Arc<dyn EdgeBuffer>,
    pub(crate) min_items: u64,
    pub(crate) readers: Vec<usize>,
}

/// What the watch reads of one block.
pub(crate) struct WatchedBlock {
    pub(crate) name: String,
    pub(crate) signal: Arc<Signal>,
    pub(crate) inbox: Arc<Inbox>,
    pub(crate) stats: Arc<StatsCell>,
    pub(crate) inputs: Vec<WatchedInput>,
    pub(crate) outputs: Vec<WatchedOutput>,
}

/// The stall watch of one run (see the module doc).
pub(crate) struct StallWatch {
    pub(crate) blocks: Vec<WatchedBlock>,
}

/// One look: the positions and message counts seen, and what each
/// unfinished block waits on.
struct Look {
    positions: Vec<u64>,
    stall: Stall,
}

impl StallWatch {
    /// Watches until the run is `done`, stopping, or stalled: then fails
    /// the run with the stall.
    pub(crate) fn run(self, control: Arc<RunControl>, done: &Completion) {
        let mut last: Option<Vec<u64>> = None;
        loop {
            if done.wait_timeout(PERIOD) || control.is_stopping() {
                return;
            }
            match self.look() {
                Some(look) if last.as_ref() == Some(&look.positions) => {
                    control.fail(RunError::Stalled(Box::new(look.stall)));
                    return;
                }
                Some(look) => last = Some(look.positions),
                None => last = None,
            }
        }
    }

    /// Every position and message count, in a fixed order.
    fn positions(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for b in &self.blocks {
            out.push(b.stats.messages());
            for o in &b.outputs {
                out.push(o.edge.written());
            }
            for i in &b.inputs {
                out.push(i.edge.read_by(i.reader));
            }
        }
        out
    }

    /// True when every unfinished block idles with nothing pending that
    /// could move it, and at least one is unfinished.
    fn all_waiting(&self) -> bool {
        let mut live = 0;
        for b in &self.blocks {
            match b.signal.activity() {
                Activity::Done => continue,
                Activity::Waiting => live += 1,
                _ => return false,
            }
            if b.signal.is_pending() || !b.inbox.is_empty() {
                return false;
            }
        }
        live > 0
    }

    /// A look that finds the run stuck, or `None`.
    fn look(&self) -> Option<Look> {
        if !self.all_waiting() {
            return None;
        }
        let positions = self.positions();
        let mut stall = Stall {
            blocks: Vec::new(),
            grow: Vec::new(),
        };
        for b in &self.blocks {
            if b.signal.activity() == Activity::Done {
                continue;
            }
            let waits = self.waits_of(b);
            if waits.is_empty() {
                // Waits for something the watch cannot see: not stuck.
                return None;
            }
            stall.blocks.push(StalledBlock {
                block: b.name.clone(),
                waits,
            });
        }
        stall.grow = self.edges_to_grow();
        // Nothing moved or woke while we looked.
        if !self.all_waiting() || self.positions() != positions {
            return None;
        }
        Some(Look { positions, stall })
    }

    /// The stream ports `b` waits on.
    fn waits_of(&self, b: &WatchedBlock) -> Vec<StreamWait> {
        let mut waits = Vec::new();
        for i in &b.inputs {
            let available = i.edge.written() - i.edge.read_by(i.reader);
            if available < i.min_items && !i.edge.writer_finished() {
                waits.push(StreamWait::Input {
                    port: i.port.clone(),
                    writer: self.blocks[i.writer].name.clone(),
                    available,
                    needed: i.min_items,
                });
            }
        }
        for o in &b.outputs {
            let free = room(o);
            if free < o.min_items {
                waits.push(StreamWait::Room {
                    port: o.port.clone(),
                    readers: o
                        .readers
                        .iter()
                        .map(|&r| self.blocks[r].name.clone())
                        .collect(),
                    free,
                    needed: o.min_items,
                    capacity: o.edge.capacity() as u64,
                });
            }
        }
        waits
    }

    /// Edges `writer.port -> reader.port` whose writer lacks room while a
    /// reader holding that room waits for input on another port: the
    /// edges whose growth lets the graph move.
    fn edges_to_grow(&self) -> Vec<String> {
        let mut grow = Vec::new();
        for (writer, b) in self.blocks.iter().enumerate() {
            for o in &b.outputs {
                if room(o) >= o.min_items {
                    continue;
                }
                for &r in &o.readers {
                    let reader = &self.blocks[r];
                    let Some(on_this) = reader
                        .inputs
                        .iter()
                        .find(|i| i.writer == writer && i.reads(o))
                    else {
                        continue;
                    };
                    let starved_elsewhere = reader.inputs.iter().any(|i| {
                        !std::ptr::eq(i, on_this)
                            && i.edge.written() - i.edge.read_by(i.reader) < i.min_items
                            && !i.edge.writer_finished()
                    });
                    if starved_elsewhere {
                        grow.push(format!(
                            "`{}`.{} -> `{}`.{} (a ring of {} items)",
                            b.name,
                            o.port,
                            reader.name,
                            on_this.port,
                            o.edge.capacity()
                        ));
                    }
                }
            }
        }
        grow
    }
}

impl WatchedInput {
    /// True when this input reads output `o`'s edge.
    fn reads(&self, o: &WatchedOutput) -> bool {
        std::ptr::addr_eq(Arc::as_ptr(&self.edge), Arc::as_ptr(&o.edge))
    }
}

/// Free items on output `o`, as its writer would see them.
fn room(o: &WatchedOutput) -> u64 {
    (o.edge.capacity() as u64).saturating_sub(o.edge.unread())
}
