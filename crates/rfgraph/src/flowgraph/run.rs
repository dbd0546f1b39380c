//! A started flowgraph ([`Running`]), its external [`FlowgraphHandle`], and
//! the [`Finished`] result with the blocks and their statistics.
//!
//! Owns the lifecycle order: `init` on all blocks → scheduler runs them →
//! `deinit` on all blocks, and turning the first failure into the error that
//! `wait` returns. Starts the run's stall watch (`flowgraph::stall`)
//! beside the scheduler.

use super::BlockId;
use super::build::{HandleEntry, Parts};
use crate::block::Block;
use crate::control::RunControl;
use crate::error::{HandleError, RunError};
use crate::message::Message;
use crate::pmt::Pmt;
use crate::runner::BlockRunner;
use crate::scheduler::Scheduler;
use crate::stats::BlockStats;
use std::any::Any;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Set once the run thread is done (blocks finished, `deinit` run), for
/// whoever waits with a deadline.
#[derive(Default)]
pub(crate) struct Completion {
    done: Mutex<bool>,
    changed: Condvar,
}

impl Completion {
    fn is_set(&self) -> bool {
        *self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.changed.notify_all();
    }

    /// Waits up to `timeout`; true once the run is done.
    pub(crate) fn wait_timeout(&self, timeout: Duration) -> bool {
        let done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        let (done, _) = self
            .changed
            .wait_timeout_while(done, timeout, |done| !*done)
            .unwrap_or_else(|e| e.into_inner());
        *done
    }
}

/// How long [`Running::wait_timeout`] gives a run it asked to stop.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub(crate) fn start(parts: Parts, scheduler: Box<dyn Scheduler>) -> Result<Running, RunError> {
    let Parts {
        mut runners,
        topology,
        live_edges,
        control,
        entries,
        watch,
        latency,
    } = parts;
    for i in 0..runners.len() {
        if let Err(e) = runners[i].init() {
            for r in &mut runners[..i] {
                let _ = r.deinit();
            }
            return Err(e);
        }
    }
    let scheduler_name = scheduler.name().to_string();
    let placement = scheduler.placement(&runners);
    let completion = Arc::new(Completion::default());
    let run_completion = completion.clone();
    let thread = std::thread::Builder::new()
        .name("rfgraph-run".into())
        .spawn(move || {
            let start = Instant::now();
            let mut runners = scheduler.execute(runners);
            let elapsed = start.elapsed();
            let mut deinit_error = None;
            for r in &mut runners {
                if let Err(e) = r.deinit() {
                    deinit_error.get_or_insert(e);
                }
            }
            run_completion.set();
            (runners, elapsed, deinit_error)
        })
        .map_err(|e| RunError::Scheduler(format!("cannot spawn the run thread: {e}")))?;
    let watch_control = control.clone();
    let watch_completion = completion.clone();
    // Without a watch a run still works; it only hangs where it stalls.
    let watch = std::thread::Builder::new()
        .name("rfgraph-watch".into())
        .spawn(move || watch.run(watch_control, &watch_completion))
        .ok();
    Ok(Running {
        thread,
        watch,
        completion: completion.clone(),
        handle: FlowgraphHandle {
            control,
            completion,
            scheduler: Arc::from(scheduler_name.as_str()),
            entries: Arc::new(entries),
            topology: Arc::new(topology),
            live_edges: Arc::new(live_edges),
            placement,
        },
        scheduler: scheduler_name,
        latency,
    })
}

type RunOutput = (Vec<BlockRunner>, Duration, Option<RunError>);

/// Where a run is (see [`FlowgraphHandle::state`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    /// Blocks are running.
    Running,
    /// A stop was asked for, or a block failed; blocks are finishing.
    Stopping,
    /// Every block is done.
    Finished,
}

/// A flowgraph running in the background.
pub struct Running {
    thread: JoinHandle<RunOutput>,
    /// The stall watch's thread, joined by `wait`.
    watch: Option<JoinHandle<()>>,
    completion: Arc<Completion>,
    handle: FlowgraphHandle,
    scheduler: String,
    latency: super::latency::LatencyReport,
}

impl Running {
    /// A handle for posting messages, stopping, and reading statistics.
    pub fn handle(&self) -> FlowgraphHandle {
        self.handle.clone()
    }

    /// True once every block is done.
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Waits until every block is done or `timeout` passed, whichever is
    /// first, leaving the run as it is; true once it is done. For callers
    /// that must look up now and then while they wait (a Python `wait`
    /// checking for Ctrl-C) yet see the end as soon as it comes.
    pub fn wait_finished(&self, timeout: Duration) -> bool {
        self.completion.wait_timeout(timeout)
    }

    /// Waits until every block is done, but no longer than `timeout`: a
    /// watchdog for runs that must end (tests, batch jobs). On time, the
    /// same as [`wait`](Self::wait). Out of time, it asks the flowgraph to
    /// stop, gives it a few seconds to do so, and returns
    /// [`RunError::Timeout`] naming the blocks that had not finished; a
    /// run that does not stop even then is left to end on its own thread.
    pub fn wait_timeout(self, timeout: Duration) -> Result<Finished, RunError> {
        if self.completion.wait_timeout(timeout) {
            return self.wait();
        }
        let unfinished: Vec<String> = self
            .handle
            .entries
            .iter()
            .filter(|e| !e.inbox.is_closed())
            .map(|e| format!("`{}`", e.name))
            .collect();
        self.handle.stop();
        let stopped = self.completion.wait_timeout(STOP_GRACE);
        Err(RunError::Timeout {
            timeout,
            stopped,
            unfinished: if unfinished.is_empty() {
                "none".into()
            } else {
                unfinished.join(", ")
            },
        })
    }

    /// Waits until every block is done. Returns the first block failure, if any.
    pub fn wait(self) -> Result<Finished, RunError> {
        if let Some(watch) = self.watch {
            // It ends as soon as the run does.
            let _ = watch.join();
        }
        let (runners, elapsed, deinit_error) = self
            .thread
            .join()
            .map_err(|_| RunError::Scheduler(format!("scheduler `{}` panicked", self.scheduler)))?;
        if let Some(e) = self.handle.control.take_error() {
            return Err(e);
        }
        if let Some(e) = deinit_error {
            return Err(e);
        }
        let mut runners = runners;
        runners.sort_by_key(|r| r.index);
        let stats = self.handle.stats();
        Ok(Finished {
            blocks: runners.into_iter().map(|r| r.block).collect(),
            latency: self.latency.with_timers(&stats),
            stats,
            elapsed,
        })
    }
}

/// Addresses a running flowgraph from outside: post messages, await
/// replies, stop it, read statistics. Cheap to clone, usable from any thread.
#[derive(Clone)]
pub struct FlowgraphHandle {
    control: Arc<RunControl>,
    completion: Arc<Completion>,
    scheduler: Arc<str>,
    entries: Arc<Vec<HandleEntry>>,
    topology: Arc<super::topology::Topology>,
    live_edges: Arc<Vec<super::topology::LiveEdge>>,
    placement: Option<crate::scheduler::PlacementView>,
}

impl FlowgraphHandle {
    fn entry(&self, block: BlockId) -> Result<&HandleEntry, HandleError> {
        self.entries
            .get(block.0)
            .ok_or_else(|| HandleError::UnknownBlock(format!("#{}", block.0)))
    }

    /// Where the run is: running, stopping (asked to stop, or failed),
    /// or finished (every block done, `deinit` run).
    pub fn state(&self) -> RunState {
        if self.completion.is_set() {
            RunState::Finished
        } else if self.control.is_stopping() {
            RunState::Stopping
        } else {
            RunState::Running
        }
    }

    /// Which worker thread (pinned to which core) runs which block now,
    /// as the scheduler places them (the latest partition when it
    /// refines one mid-run); `None` for a scheduler without a fixed
    /// placement (`pool`'s work stealing). See
    /// [`Placement`](crate::scheduler::Placement).
    pub fn placement(&self) -> Option<crate::scheduler::Placement> {
        self.placement.as_ref().map(|v| v.get())
    }

    /// True once `block` finished (it takes no more messages); an
    /// unknown block counts as finished.
    pub fn block_finished(&self, block: BlockId) -> bool {
        self.entries
            .get(block.0)
            .is_none_or(|e| e.inbox.is_closed())
    }

    /// The name of the scheduler running the graph.
    pub fn scheduler(&self) -> &str {
        &self.scheduler
    }

    /// The graph's blocks with their ports, and its stream and message
    /// edges, as they were when it started.
    pub fn topology(&self) -> &super::topology::Topology {
        &self.topology
    }

    /// How full each stream edge is now, in the order of
    /// [`topology`](Self::topology)'s `streams`.
    pub fn edge_fill(&self) -> Vec<super::topology::EdgeFill> {
        self.live_edges.iter().map(|e| e.fill()).collect()
    }

    /// The id of the block with instance name `name`.
    pub fn block_id(&self, name: &str) -> Option<BlockId> {
        self.entries
            .iter()
            .position(|e| e.name == name)
            .map(BlockId)
    }

    fn deliver(
        &self,
        block: BlockId,
        port: &str,
        data: Pmt,
        reply: Option<crate::message::ReplyTo>,
    ) -> Result<(), HandleError> {
        let entry = self.entry(block)?;
        let port = entry
            .message_inputs
            .iter()
            .position(|p| *p == port)
            .ok_or_else(|| HandleError::UnknownPort {
                block: entry.name.clone(),
                port: port.to_string(),
                available: entry.message_inputs.join(", "),
            })?;
        if entry.inbox.post(Message { port, data, reply }) {
            Ok(())
        } else {
            Err(HandleError::Finished(entry.name.clone()))
        }
    }

    /// Posts `msg` to message input `port` of `block` without waiting.
    pub fn post(&self, block: BlockId, port: &str, msg: impl Into<Pmt>) -> Result<(), HandleError> {
        self.deliver(block, port, msg.into(), None)
    }

    /// Posts `msg` and waits up to `timeout` for the handler's reply.
    pub fn call(
        &self,
        block: BlockId,
        port: &str,
        msg: impl Into<Pmt>,
        timeout: Duration,
    ) -> Result<Pmt, HandleError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.deliver(block, port, msg.into(), Some(tx))?;
        let name = self.entry(block)?.name.clone();
        match rx.recv_timeout(timeout) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(cause)) if cause == "block finished" => Err(HandleError::Finished(name)),
            Ok(Err(cause)) => Err(HandleError::Handler { block: name, cause }),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(HandleError::Timeout(name)),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(HandleError::Finished(name))
            }
        }
    }

    /// The parameter declarations of `block` (see [`params`](crate::params)):
    /// names, types, units, ranges, and which may change while it runs
    /// (through the message input of the same name).
    pub fn param_specs(&self, block: BlockId) -> Result<&[crate::params::ParamSpec], HandleError> {
        Ok(&self.entry(block)?.params)
    }

    /// The current value of parameter `name` of `block`, read between two
    /// of its `work` calls; waits up to `timeout`.
    pub fn param(&self, block: BlockId, name: &str, timeout: Duration) -> Result<Pmt, HandleError> {
        self.query(block, crate::runner::PARAM_QUERY, name, timeout)
    }

    /// The names of the readings of `block` (see
    /// [`Block::readings`]).
    pub fn readings(&self, block: BlockId) -> Result<&'static [&'static str], HandleError> {
        Ok(self.entry(block)?.readings)
    }

    /// The current value of reading `name` of `block` (a probe's level),
    /// read between two of its `work` calls; waits up to `timeout`.
    pub fn reading(
        &self,
        block: BlockId,
        name: &str,
        timeout: Duration,
    ) -> Result<Pmt, HandleError> {
        self.query(block, crate::runner::READING_QUERY, name, timeout)
    }

    /// Asks `block` for the value `name` on the query port `port` and
    /// waits up to `timeout` for it.
    fn query(
        &self,
        block: BlockId,
        port: usize,
        name: &str,
        timeout: Duration,
    ) -> Result<Pmt, HandleError> {
        let entry = self.entry(block)?;
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let query = Message {
            port,
            data: Pmt::from(name),
            reply: Some(tx),
        };
        if !entry.inbox.post(query) {
            return Err(HandleError::Finished(entry.name.clone()));
        }
        let block_name = entry.name.clone();
        match rx.recv_timeout(timeout) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(cause)) => Err(HandleError::Handler {
                block: block_name,
                cause,
            }),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                Err(HandleError::Timeout(block_name))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(HandleError::Finished(block_name))
            }
        }
    }

    /// Asks every block to finish as soon as possible.
    pub fn stop(&self) {
        self.control.request_stop();
    }

    /// A snapshot of every block's statistics, in block order.
    pub fn stats(&self) -> Vec<BlockStats> {
        self.entries.iter().map(|e| e.stats.snapshot()).collect()
    }
}

/// A flowgraph that ran to completion.
pub struct Finished {
    blocks: Vec<Box<dyn Block>>,
    stats: Vec<BlockStats>,
    elapsed: Duration,
    latency: super::latency::LatencyReport,
}

impl Finished {
    /// What the run says about its latency budget: the caps it set, and
    /// where the budget did not hold (see
    /// [`Flowgraph::set_max_latency`](super::Flowgraph::set_max_latency)).
    pub fn latency(&self) -> &super::latency::LatencyReport {
        &self.latency
    }

    /// The block with id `id`, if it has type `B` (e.g. to read a sink).
    pub fn block<B: Block>(&self, id: BlockId) -> Option<&B> {
        let any: &dyn Any = self.blocks.get(id.0)?.as_ref();
        any.downcast_ref::<B>()
    }

    /// Mutable access to a finished block (e.g. to take a sink's data).
    pub fn block_mut<B: Block>(&mut self, id: BlockId) -> Option<&mut B> {
        let any: &mut dyn Any = self.blocks.get_mut(id.0)?.as_mut();
        any.downcast_mut::<B>()
    }

    /// Every block's statistics, in block order.
    pub fn stats(&self) -> &[BlockStats] {
        &self.stats
    }

    /// The statistics as a JSON array.
    pub fn stats_json(&self) -> serde_json::Value {
        serde_json::Value::Array(self.stats.iter().map(BlockStats::to_json).collect())
    }

    /// Wall time of the run phase (from the scheduler's start until every
    /// block was done), excluding graph construction, `init` and `deinit`.
    pub fn run_time(&self) -> Duration {
        self.elapsed
    }
}
