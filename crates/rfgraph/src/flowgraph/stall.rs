//! The stall watch: turns blocks that wait on each other into an error
//! instead of a hang, on every scheduler, even while the rest of the
//! graph still moves.
//!
//! A finite ring can deadlock part of a graph (a diamond whose one branch
//! must read more than the other branch's rings can hold before the join
//! moves). Then those blocks idle, each waiting for items or room that
//! only another of them could provide, and nothing ever notifies them.
//! The watch runs beside the scheduler on a thread of its own and, a few
//! times a second, looks at what every runner last reported
//! ([`Activity`]) and at the edges' positions. It looks for a *stuck set*:
//!
//! - every block of the set is [`Activity::Waiting`]: its last call moved
//!   nothing, it asked for no timer and has no work in flight (a throttle,
//!   a device or a socket is therefore never stuck), it is not inside a
//!   call, and it has no notification or message pending;
//! - each waits on stream ports only, and on at least one: an input with
//!   fewer readable items than its `min_items` from a writer that has not
//!   finished, or an output with less room than its `min_items`. A block
//!   waiting for something else (a waker, messages from the handle) could
//!   still be woken from outside, so it is not stuck;
//! - whatever could wake a member is itself a member: the writer of every
//!   input it waits on, every unfinished reader of every output it waits
//!   on, and every unfinished block that posts messages to it;
//! - no position of the set's edges moved and no member handled a
//!   message between two looks, and the positions read before and after
//!   each look agree.
//!
//! The set is the largest that satisfies these rules: the candidates are
//! every waiting block, and a block whose waker lies outside the set
//! leaves it, until none does. Blocks outside it may run on (a timer
//! branch, a device): they cannot reach the set. Positions only grow, so
//! equal positions mean nothing moved. The watch then fails the run with
//! [`RunError::Stalled`], which names every member and the port it waits
//! on, and stops it.
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
    /// The blocks that post messages to it.
    pub(crate) message_writers: Vec<usize>,
}

/// The stall watch of one run (see the module doc).
pub(crate) struct StallWatch {
    pub(crate) blocks: Vec<WatchedBlock>,
}

/// One look that found a stuck set: its members, the positions and
/// message counts of their edges, and what each waits on.
struct Look {
    members: Vec<usize>,
    positions: Vec<u64>,
    stall: Stall,
}

impl StallWatch {
    /// Watches until the run is `done`, stopping, or stalled: then fails
    /// the run with the stall.
    pub(crate) fn run(self, control: Arc<RunControl>, done: &Completion) {
        let mut last: Option<Look> = None;
        loop {
            if done.wait_timeout(PERIOD) || control.is_stopping() {
                return;
            }
            match self.look() {
                Some(look)
                    if last.as_ref().is_some_and(|l| {
                        l.members == look.members && l.positions == look.positions
                    }) =>
                {
                    control.fail(RunError::Stalled(Box::new(look.stall)));
                    return;
                }
                other => last = other,
            }
        }
    }

    /// The positions and message counts of `members` and their edges, in
    /// a fixed order.
    fn positions(&self, members: &[usize]) -> Vec<u64> {
        let mut out = Vec::new();
        for &m in members {
            let b = &self.blocks[m];
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

    /// True when block `b` idles with nothing pending that could move it.
    fn idle(&self, b: usize) -> bool {
        let block = &self.blocks[b];
        block.signal.activity() == Activity::Waiting
            && !block.signal.is_pending()
            && block.inbox.is_empty()
    }

    /// True when block `b` has finished.
    fn done(&self, b: usize) -> bool {
        self.blocks[b].signal.activity() == Activity::Done
    }

    /// The largest stuck set (see the module doc), in block order; empty
    /// when there is none.
    fn stuck_set(&self) -> Vec<usize> {
        let mut member: Vec<bool> = (0..self.blocks.len())
            .map(|b| self.idle(b) && !self.waits_of(&self.blocks[b]).is_empty())
            .collect();
        loop {
            let mut changed = false;
            for b in 0..self.blocks.len() {
                if member[b] && !self.woken_only_by(b, &member) {
                    member[b] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        (0..self.blocks.len()).filter(|&b| member[b]).collect()
    }

    /// True when everything that could wake block `b` is in `member`:
    /// the writers of the inputs it waits on, the unfinished readers of the
    /// outputs it waits on, and the unfinished blocks posting to it.
    fn woken_only_by(&self, b: usize, member: &[bool]) -> bool {
        let block = &self.blocks[b];
        let inside = |other: usize| member[other] || self.done(other);
        let inputs = block
            .inputs
            .iter()
            .filter(|i| i.starved())
            .all(|i| member[i.writer]);
        let outputs = block
            .outputs
            .iter()
            .filter(|o| room(o) < o.min_items)
            .all(|o| o.readers.iter().all(|&r| inside(r)));
        inputs && outputs && block.message_writers.iter().all(|&w| inside(w))
    }

    /// A look that finds a stuck set, or `None`.
    fn look(&self) -> Option<Look> {
        let members = self.stuck_set();
        if members.is_empty() {
            return None;
        }
        let positions = self.positions(&members);
        let stall = Stall {
            blocks: members
                .iter()
                .map(|&m| StalledBlock {
                    block: self.blocks[m].name.clone(),
                    waits: self.waits_of(&self.blocks[m]),
                })
                .collect(),
            grow: self.edges_to_grow(&members),
        };
        // Nothing moved or woke while we looked.
        if self.stuck_set() != members || self.positions(&members) != positions {
            return None;
        }
        Some(Look {
            members,
            positions,
            stall,
        })
    }

    /// The stream ports `b` waits on.
    fn waits_of(&self, b: &WatchedBlock) -> Vec<StreamWait> {
        let mut waits = Vec::new();
        for i in b.inputs.iter().filter(|i| i.starved()) {
            waits.push(StreamWait::Input {
                port: i.port.clone(),
                writer: self.blocks[i.writer].name.clone(),
                available: i.available(),
                needed: i.min_items,
            });
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
                    capacity: o.edge.control_words().fill_items() as u64,
                });
            }
        }
        waits
    }

    /// Edges `writer.port -> reader.port` among `members` whose writer
    /// lacks room while a reader holding that room waits for input on
    /// another port: the edges whose growth lets the set move.
    fn edges_to_grow(&self, members: &[usize]) -> Vec<String> {
        let mut grow = Vec::new();
        for &writer in members {
            let b = &self.blocks[writer];
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
                            && i.available() < i.min_items
                            && !i.edge.writer_finished()
                    });
                    if starved_elsewhere {
                        grow.push(format!(
                            "`{}`.{} -> `{}`.{} (a ring of {} items)",
                            b.name,
                            o.port,
                            reader.name,
                            on_this.port,
                            o.edge.control_words().fill_items()
                        ));
                    }
                }
            }
        }
        grow
    }
}

impl WatchedInput {
    /// True when fewer items are readable than the port needs, from a
    /// writer that has not finished.
    fn starved(&self) -> bool {
        self.available() < self.min_items && !self.edge.writer_finished()
    }

    /// Items readable now. The reader's position is loaded first: read
    /// after it, `written` is at least as far (the reader runs on while
    /// the watch looks, and loaded the other way round the two could
    /// cross).
    fn available(&self) -> u64 {
        let read = self.edge.read_by(self.reader);
        self.edge.written().saturating_sub(read)
    }

    /// True when this input reads output `o`'s edge.
    fn reads(&self, o: &WatchedOutput) -> bool {
        std::ptr::addr_eq(Arc::as_ptr(&self.edge), Arc::as_ptr(&o.edge))
    }
}

/// Free items on output `o`, as its writer would see them.
fn room(o: &WatchedOutput) -> u64 {
    (o.edge.control_words().fill_items() as u64).saturating_sub(o.edge.unread())
}
