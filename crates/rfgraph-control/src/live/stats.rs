//! The `stats` message of the live stream: every block's counters and
//! rates over the last period with a one-word status, every stream
//! edge's fill, every core's load, built from two snapshots of a running
//! graph's statistics.
//!
//! A block's status, first rule that holds:
//!
//! | status | when |
//! |---|---|
//! | `done` | the block (or the whole graph) finished |
//! | `blocked` | one of its output edges is at least 90 % full |
//! | `starving` | it has stream inputs, all of them are empty, it moved no item this period, and a block writing to it still runs |
//! | `idle` | it moved no item this period |
//! | `ok` | otherwise |

use rfgraph::flowgraph::topology::{EdgeFill, Topology};
use rfgraph::scheduler::Placement;
use rfgraph::{BlockId, BlockStats, FlowgraphHandle, RunState};
use serde_json::{Value, json};
use std::time::Instant;

/// An output edge at least this full blocks its writer.
const BLOCKED_FILL: f64 = 0.9;

/// Every block's statistics at one instant.
pub(crate) struct Snapshot {
    at: Instant,
    stats: Vec<BlockStats>,
}

impl Snapshot {
    /// The statistics of `handle`'s blocks now.
    pub(crate) fn now(handle: &FlowgraphHandle) -> Self {
        Self {
            at: Instant::now(),
            stats: handle.stats(),
        }
    }
}

/// What one `stats` message says, besides the snapshots.
pub(crate) struct Frame<'a> {
    pub(crate) time_s: f64,
    pub(crate) state: RunState,
    pub(crate) topology: &'a Topology,
    pub(crate) fill: &'a [EdgeFill],
    /// Per block: finished.
    pub(crate) finished: &'a [bool],
    pub(crate) placement: Option<Placement>,
}

impl Frame<'_> {
    /// The frame of `handle` now, `time_s` into the connection.
    pub(crate) fn build(
        handle: &FlowgraphHandle,
        time_s: f64,
        prev: Option<&Snapshot>,
        now: &Snapshot,
    ) -> Value {
        let topology = handle.topology();
        let fill = handle.edge_fill();
        let finished: Vec<bool> = (0..topology.blocks.len())
            .map(|b| handle.block_finished(BlockId(b)))
            .collect();
        Frame {
            time_s,
            state: handle.state(),
            topology,
            fill: &fill,
            finished: &finished,
            placement: handle.placement(),
        }
        .message(prev, now)
    }

    /// The `stats` message for the period from `prev` (none: since the
    /// start, with zero rates) to `now`.
    pub(crate) fn message(&self, prev: Option<&Snapshot>, now: &Snapshot) -> Value {
        let seconds = prev.map_or(0.0, |p| now.at.duration_since(p.at).as_secs_f64());
        let per_second = |n: u64| {
            if seconds > 0.0 {
                n as f64 / seconds
            } else {
                0.0
            }
        };
        let fraction = |e: &EdgeFill| {
            if e.capacity == 0 {
                0.0
            } else {
                e.unread as f64 / e.capacity as f64
            }
        };
        let mut shares = Vec::with_capacity(now.stats.len());
        let blocks: Vec<Value> = now
            .stats
            .iter()
            .enumerate()
            .map(|(b, s)| {
                let before = prev.and_then(|p| p.stats.get(b));
                let delta = |f: fn(&BlockStats) -> u64| f(s).saturating_sub(before.map_or(0, f));
                let (consumed, produced) =
                    (delta(|s| s.items_consumed), delta(|s| s.items_produced));
                let work_share = if seconds > 0.0 {
                    delta(|s| s.work_ns) as f64 / 1e9 / seconds
                } else {
                    0.0
                };
                shares.push(work_share);
                let edges = self.topology.streams.iter().zip(self.fill);
                let blocked = edges
                    .clone()
                    .any(|(e, f)| e.edge.writer == b && fraction(f) >= BLOCKED_FILL);
                let mut inputs = edges.filter(|(e, _)| e.edge.reader == b).peekable();
                let has_inputs = inputs.peek().is_some();
                let (mut all_empty, mut upstream_runs) = (true, false);
                for (e, f) in inputs {
                    all_empty &= f.unread == 0;
                    upstream_runs |= !self.finished.get(e.edge.writer).copied().unwrap_or(true);
                }
                let moved = consumed + produced > 0;
                let status = if self.state == RunState::Finished
                    || self.finished.get(b).copied().unwrap_or(false)
                {
                    "done"
                } else if blocked {
                    "blocked"
                } else if has_inputs && all_empty && !moved && upstream_runs {
                    "starving"
                } else if !moved {
                    "idle"
                } else {
                    "ok"
                };
                json!({
                    "name": s.block,
                    "work_calls": s.work_calls,
                    "items_consumed": s.items_consumed,
                    "items_produced": s.items_produced,
                    "messages_handled": s.messages_handled,
                    "work_ns": s.work_ns,
                    "in_rate": per_second(consumed),
                    "out_rate": per_second(produced),
                    "work_share": work_share,
                    "status": status,
                })
            })
            .collect();
        let edges: Vec<Value> = self
            .topology
            .streams
            .iter()
            .zip(self.fill)
            .map(|(e, f)| {
                json!({
                    "writer": e.edge.writer,
                    "output": e.edge.output,
                    "reader": e.edge.reader,
                    "input": e.edge.input,
                    "capacity": f.capacity,
                    "fill": f.unread,
                    "fill_fraction": fraction(f),
                })
            })
            .collect();
        let cores: Vec<Value> = self
            .placement
            .iter()
            .flat_map(|p| &p.workers)
            .map(|w| {
                let load: f64 = w.blocks.iter().filter_map(|&b| shares.get(b)).sum();
                json!({ "core": w.core, "load": load, "blocks": w.blocks })
            })
            .collect();
        json!({
            "type": "stats",
            "time_s": self.time_s,
            "state": self.state,
            "blocks": blocks,
            "edges": edges,
            "cores": cores,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph::flowgraph::topology::{BlockInfo, EdgeInfo, StreamEdgeInfo};
    use rfgraph::scheduler::Worker;
    use std::time::Duration;

    fn block(name: &str) -> BlockInfo {
        BlockInfo {
            name: name.into(),
            type_name: "T".into(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            message_inputs: Vec::new(),
            message_outputs: Vec::new(),
            readings: Vec::new(),
            transfer: false,
        }
    }

    fn edge(writer: usize, reader: usize) -> StreamEdgeInfo {
        StreamEdgeInfo {
            edge: EdgeInfo {
                writer,
                output: "out".into(),
                reader,
                input: "in".into(),
            },
            capacity: 100,
        }
    }

    fn stats(name: &str, consumed: u64, produced: u64, work_ns: u64) -> BlockStats {
        BlockStats {
            block: name.into(),
            items_consumed: consumed,
            items_produced: produced,
            work_ns,
            ..BlockStats::default()
        }
    }

    /// src → mid → sink, and a lone tail: src filled its edge, mid moved
    /// items, sink waits on an empty input, tail did nothing.
    #[test]
    fn statuses_rates_and_loads_follow_the_rules() {
        let topology = Topology {
            blocks: vec![block("src"), block("mid"), block("sink"), block("tail")],
            streams: vec![edge(0, 1), edge(1, 2)],
            messages: Vec::new(),
        };
        let t0 = Instant::now();
        let prev = Snapshot {
            at: t0,
            stats: vec![
                stats("src", 0, 1000, 0),
                stats("mid", 0, 0, 0),
                stats("sink", 0, 0, 0),
                stats("tail", 0, 0, 0),
            ],
        };
        let now = Snapshot {
            at: t0 + Duration::from_millis(500),
            stats: vec![
                stats("src", 0, 2000, 250_000_000),
                stats("mid", 500, 0, 100_000_000),
                stats("sink", 0, 0, 0),
                stats("tail", 0, 0, 0),
            ],
        };
        let fill = [
            EdgeFill {
                unread: 95,
                capacity: 100,
            },
            EdgeFill {
                unread: 0,
                capacity: 100,
            },
        ];
        let frame = Frame {
            time_s: 1.5,
            state: RunState::Running,
            topology: &topology,
            fill: &fill,
            finished: &[false, false, false, false],
            placement: Some(Placement {
                workers: vec![
                    Worker {
                        core: Some(0),
                        blocks: vec![0, 1],
                    },
                    Worker {
                        core: None,
                        blocks: vec![2, 3],
                    },
                ],
                parallel_segments: Vec::new(),
            }),
        };
        let m = frame.message(Some(&prev), &now);
        assert_eq!(m["type"], "stats");
        assert_eq!(m["state"], "running");
        let status: Vec<&str> = (0..4)
            .map(|b| m["blocks"][b]["status"].as_str().unwrap())
            .collect();
        assert_eq!(status, ["blocked", "ok", "starving", "idle"]);
        assert_eq!(m["blocks"][0]["out_rate"], 2000.0);
        assert_eq!(m["blocks"][1]["in_rate"], 1000.0);
        assert_eq!(m["blocks"][0]["work_share"], 0.5);
        assert_eq!(m["edges"][0]["fill_fraction"], 0.95);
        assert_eq!(m["cores"][0]["load"], 0.7);
        assert_eq!(m["cores"][1]["core"], Value::Null);

        // Without a previous snapshot: zero rates. Once mid finished, sink
        // is idle rather than starving; once the graph did, all are done.
        let done = Frame {
            finished: &[false, true, false, false],
            fill: &[EdgeFill {
                unread: 0,
                capacity: 100,
            }; 2],
            ..frame
        };
        let m = done.message(None, &prev);
        assert_eq!(m["blocks"][0]["out_rate"], 0.0);
        assert_eq!(m["blocks"][1]["status"], "done");
        assert_eq!(m["blocks"][2]["status"], "idle");
        let over = Frame {
            state: RunState::Finished,
            ..done
        };
        assert_eq!(over.message(None, &prev)["blocks"][0]["status"], "done");
    }
}
