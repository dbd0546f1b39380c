//! The live stream, `GET /api/flowgraphs/{fg}/live?period_ms=500&frame_ms=100`:
//! a WebSocket on which the server pushes text JSON messages.
//!
//! - Every `period_ms` (clamped to 50..=10000, default 500) a `stats`
//!   message, the first at once (with zero rates):
//!   ```text
//!   {"type":"stats","time_s":1.5,"state":"running"|"stopping"|"finished",
//!    "blocks":[{"name","work_calls","items_consumed","items_produced",
//!               "messages_handled","work_ns","in_rate","out_rate",
//!               "work_share","status"}],
//!    "edges":[{"writer","output","reader","input","capacity","fill","fill_fraction"}],
//!    "cores":[{"core":0|null,"load","blocks":[0,1]}]}
//!   ```
//!   `time_s` counts from the connection's opening; `in_rate` and
//!   `out_rate` are items consumed and produced per second over the last
//!   period; `work_share` the fraction of it spent in `work`; an edge's
//!   `fill` its unread items; `cores` one per worker of the graph's
//!   placement (`[]` if the scheduler gives none), its `load` the sum of
//!   its blocks' `work_share`. A block's `status`, first rule that holds:
//!   `done` (the block or the graph finished), `blocked` (an output edge
//!   at least 90 % full), `starving` (it has stream inputs, all empty, it
//!   moved no item this period, and a block writing to it still runs),
//!   `idle` (it moved no item this period), else `ok`.
//! - For each display block (readings `display` and `frame`), at most
//!   every `frame_ms` (clamped to 33..=5000, default 100), its latest
//!   frame when it changed: `{"type":"frame","block":NAME,"frame":FRAME}`,
//!   the frame as plain JSON ([`crate::pmt_json::to_plain_json`]). Frames
//!   are read once per graph, not per client: one poller per graph reads
//!   every display's frame each 50 ms while a client is connected, and
//!   each client sends the latest when its `frame_ms` elapsed, so a slow
//!   client only skips frames.
//!
//! A client may send `{"period_ms": N}` or `{"frame_ms": N}` (clamped
//! likewise) to change its rates; anything else is ignored. The server
//! closes the socket (code 1001) when the graph stops being served or
//! the port shuts down, and ends when the client closes it.

pub(crate) mod frames;
pub(crate) mod stats;

use crate::error::ApiError;
use crate::graph::ServedGraph;
use crate::routes::{Graphs, graph};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::time::{Interval, MissedTickBehavior};

/// The `stats` period's bounds and default, in milliseconds.
pub const PERIOD_MS: (RangeInclusive<u64>, u64) = (50..=10_000, 500);
/// The frame period's bounds and default, in milliseconds.
pub const FRAME_MS: (RangeInclusive<u64>, u64) = (33..=5_000, 100);

/// What live streams need of their server: a signal that it is
/// shutting down, and a count of the streams open, which it waits (a
/// little) to see reach zero so every client gets its close frame.
#[derive(Clone)]
pub(crate) struct Shutdown {
    pub(crate) stopping: tokio::sync::watch::Receiver<bool>,
    pub(crate) open: Arc<AtomicUsize>,
}

/// One open stream, counted in [`Shutdown::open`] while it lives.
struct Open(Arc<AtomicUsize>);

impl Open {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Self(count.clone())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The query of a live request (and the messages a client may send).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Rates {
    period_ms: Option<u64>,
    frame_ms: Option<u64>,
}

/// `ms`, or the default, within the bounds.
fn clamp(ms: Option<u64>, (range, default): &(RangeInclusive<u64>, u64)) -> Duration {
    Duration::from_millis(ms.unwrap_or(*default).clamp(*range.start(), *range.end()))
}

/// A ticker every `period` that skips the ticks a slow client missed.
fn ticker(period: Duration) -> Interval {
    let mut t = tokio::time::interval(period);
    t.set_missed_tick_behavior(MissedTickBehavior::Skip);
    t
}

/// `GET /api/flowgraphs/{fg}/live`: upgrades to the live stream.
pub(crate) async fn live(
    State(graphs): State<Graphs>,
    Path(fg): Path<String>,
    Query(rates): Query<Rates>,
    axum::Extension(shutdown): axum::Extension<Shutdown>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let g = graph(&graphs, &fg)?;
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!("`/live` is a WebSocket; upgrade to it ({e})"))
    })?;
    Ok(upgrade
        .on_upgrade(move |socket| serve(socket, graphs, g, rates, shutdown))
        .into_response())
}

/// True while `g` is still served (not removed, nor replaced).
fn served(graphs: &Graphs, g: &ServedGraph) -> bool {
    graph(graphs, &g.name).is_ok_and(|now| Arc::ptr_eq(&now.displays, &g.displays))
}

/// Closes the socket with code 1001 (going away) and `why`.
async fn close(socket: &mut WebSocket, why: &'static str) {
    let frame = CloseFrame {
        code: close_code::AWAY,
        reason: why.into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Sends `v` as a text message; false once the client is gone.
async fn send(socket: &mut WebSocket, v: &Value) -> bool {
    socket.send(Message::text(v.to_string())).await.is_ok()
}

/// One client's stream, until it closes or the graph is removed.
async fn serve(
    mut socket: WebSocket,
    graphs: Graphs,
    g: ServedGraph,
    rates: Rates,
    shutdown: Shutdown,
) {
    let _open = Open::new(&shutdown.open);
    let mut stopping = shutdown.stopping;
    let opened = Instant::now();
    let mut period = ticker(clamp(rates.period_ms, &PERIOD_MS));
    let mut frame = ticker(clamp(rates.frame_ms, &FRAME_MS));
    let mut frames = g.displays.subscribe();
    let _watching = g.displays.watch(&g.handle);
    let mut prev: Option<stats::Snapshot> = None;
    loop {
        tokio::select! {
            _ = period.tick() => {
                if !served(&graphs, &g) {
                    close(&mut socket, "the flowgraph is no longer served").await;
                    break;
                }
                let now = stats::Snapshot::now(&g.handle);
                let time_s = opened.elapsed().as_secs_f64();
                let msg = stats::Frame::build(&g.handle, time_s, prev.as_ref(), &now);
                prev = Some(now);
                if !send(&mut socket, &msg).await {
                    break;
                }
            }
            _ = frame.tick() => {
                for (name, rx) in &mut frames {
                    if !rx.has_changed().unwrap_or(false) {
                        continue;
                    }
                    let latest = rx.borrow_and_update().clone();
                    if let Some(f) = latest {
                        let msg = json!({ "type": "frame", "block": name, "frame": *f });
                        if !send(&mut socket, &msg).await {
                            return;
                        }
                    }
                }
            }
            _ = stopping.changed() => {
                close(&mut socket, "the control port is shutting down").await;
                break;
            }
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(text))) => {
                    if let Ok(asked) = serde_json::from_str::<Rates>(&text) {
                        if asked.period_ms.is_some() {
                            period = ticker(clamp(asked.period_ms, &PERIOD_MS));
                        }
                        if asked.frame_ms.is_some() {
                            frame = ticker(clamp(asked.frame_ms, &FRAME_MS));
                        }
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_clamped_and_defaulted() {
        assert_eq!(clamp(None, &PERIOD_MS), Duration::from_millis(500));
        assert_eq!(clamp(Some(1), &PERIOD_MS), Duration::from_millis(50));
        assert_eq!(clamp(Some(u64::MAX), &PERIOD_MS), Duration::from_secs(10));
        assert_eq!(clamp(None, &FRAME_MS), Duration::from_millis(100));
        assert_eq!(clamp(Some(0), &FRAME_MS), Duration::from_millis(33));
        for text in [
            "",
            "nonsense",
            "[1]",
            "{\"period_ms\": -3}",
            "{\"frame_ms\": \"x\"}",
        ] {
            assert!(serde_json::from_str::<Rates>(text).is_err(), "{text}");
        }
        let r: Rates = serde_json::from_str("{\"frame_ms\": 40, \"other\": 1}").unwrap();
        assert_eq!((r.period_ms, r.frame_ms), (None, Some(40)));
    }
}

#[cfg(test)]
mod mutated {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever text a client sends is a change of rates within the
        /// bounds, or nothing; never a panic.
        #[test]
        fn any_client_text_is_rates_or_ignored(
            text in prop_oneof![
                any::<String>(),
                "\\{\"(period|frame)_ms\": ?-?[0-9e.]{0,24}\\}",
            ]
        ) {
            if let Ok(r) = serde_json::from_str::<Rates>(&text) {
                let p = clamp(r.period_ms, &PERIOD_MS);
                let f = clamp(r.frame_ms, &FRAME_MS);
                prop_assert!(p >= Duration::from_millis(50) && p <= Duration::from_secs(10));
                prop_assert!(f >= Duration::from_millis(33) && f <= Duration::from_secs(5));
            }
        }
    }
}
