//! [`Displays`]: a served graph's display blocks (those with readings
//! `display` and `frame`), their `display` readings (read once, kept),
//! and the one poller per graph that reads their `frame` readings while
//! any live client is connected, publishing each new frame (a new `seq`)
//! into a [`watch`] channel per display. Clients take the latest when
//! they are ready for one, so a slow client only skips frames and the
//! blocks are asked once per poll, however many clients watch.

use crate::pmt_json::to_plain_json;
use rfgraph::{BlockId, FlowgraphHandle, RunState};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// The reading that describes a display (axes, units, kind).
pub(crate) const DISPLAY: &str = "display";
/// The reading that holds a display's latest frame.
pub(crate) const FRAME: &str = "frame";
/// How often the poller reads frames while a client is connected.
pub(crate) const POLL: Duration = Duration::from_millis(50);
/// How long a read of a display's reading waits for the block.
const READ_TIMEOUT: Duration = Duration::from_secs(1);

/// The latest frame of one display, as plain JSON.
pub(crate) type Latest = Option<Arc<Value>>;

/// One display block.
pub(crate) struct Display {
    pub(crate) id: BlockId,
    pub(crate) name: String,
    frames: watch::Sender<Latest>,
}

/// Whether the poller runs, and for how many clients.
#[derive(Default)]
struct Poller {
    clients: usize,
    running: bool,
}

/// A served graph's displays; see the module docs.
pub(crate) struct Displays {
    pub(crate) list: Vec<Display>,
    /// `display` readings read so far, by block id.
    described: Mutex<HashMap<usize, Value>>,
    poller: Mutex<Poller>,
}

/// A live client's hold on the poller: it polls while any is held.
pub(crate) struct Watching(Arc<Displays>);

impl Drop for Watching {
    fn drop(&mut self) {
        let mut p = self.0.poller.lock().unwrap_or_else(|e| e.into_inner());
        p.clients = p.clients.saturating_sub(1);
    }
}

/// True when block `readings` make it a display.
pub(crate) fn is_display(readings: &[&str]) -> bool {
    readings.contains(&DISPLAY) && readings.contains(&FRAME)
}

impl Displays {
    /// The displays among `handle`'s blocks.
    pub(crate) fn of(handle: &FlowgraphHandle) -> Self {
        let list = handle
            .topology()
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| is_display(&b.readings))
            .map(|(i, b)| Display {
                id: BlockId(i),
                name: b.name.clone(),
                frames: watch::Sender::new(None),
            })
            .collect();
        Self {
            list,
            described: Mutex::default(),
            poller: Mutex::default(),
        }
    }

    /// Every display's `display` reading as plain JSON, by block id,
    /// read from the blocks the first time (waits on them: call on a
    /// blocking thread). A display that does not answer is left out, and
    /// asked again next time.
    pub(crate) fn descriptions(&self, handle: &FlowgraphHandle) -> HashMap<usize, Value> {
        let mut known = self.described.lock().unwrap_or_else(|e| e.into_inner());
        for d in &self.list {
            if !known.contains_key(&d.id.0)
                && let Ok(p) = handle.reading(d.id, DISPLAY, READ_TIMEOUT)
            {
                known.insert(d.id.0, to_plain_json(&p));
            }
        }
        known.clone()
    }

    /// Each display's name and a receiver of its frames; the latest
    /// frame, if any, counts as new.
    pub(crate) fn subscribe(&self) -> Vec<(String, watch::Receiver<Latest>)> {
        self.list
            .iter()
            .map(|d| {
                let mut rx = d.frames.subscribe();
                rx.mark_changed();
                (d.name.clone(), rx)
            })
            .collect()
    }

    /// Counts one more client, starting the poller (on the current Tokio
    /// runtime) if it is not running; it stops once no client is left.
    pub(crate) fn watch(self: &Arc<Self>, handle: &FlowgraphHandle) -> Watching {
        let mut p = self.poller.lock().unwrap_or_else(|e| e.into_inner());
        p.clients += 1;
        if !p.running && !self.list.is_empty() {
            p.running = true;
            tokio::spawn(poll(self.clone(), handle.clone()));
        }
        Watching(self.clone())
    }

    /// True while a client is connected; else marks the poller stopped.
    fn keep_polling(&self) -> bool {
        let mut p = self.poller.lock().unwrap_or_else(|e| e.into_inner());
        p.running = p.clients > 0;
        p.running
    }
}

/// What tells one frame from the next: its `seq`, or the whole frame if
/// it has none.
fn frame_key(frame: &Value) -> Value {
    frame.get("seq").cloned().unwrap_or_else(|| frame.clone())
}

/// Reads every display's frame each [`POLL`] while a client watches,
/// publishing those that changed.
async fn poll(displays: Arc<Displays>, handle: FlowgraphHandle) {
    let mut last: Vec<Option<Value>> = vec![None; displays.list.len()];
    let mut tick = tokio::time::interval(POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while displays.keep_polling() {
        tick.tick().await;
        if handle.state() == RunState::Finished {
            continue;
        }
        let ids: Vec<BlockId> = displays.list.iter().map(|d| d.id).collect();
        let h = handle.clone();
        let Ok(frames) = tokio::task::spawn_blocking(move || {
            ids.into_iter()
                .map(|id| h.reading(id, FRAME, READ_TIMEOUT).ok())
                .collect::<Vec<_>>()
        })
        .await
        else {
            continue;
        };
        for ((d, frame), last) in displays.list.iter().zip(frames).zip(&mut last) {
            let Some(frame) = frame else { continue };
            let frame = to_plain_json(&frame);
            let key = frame_key(&frame);
            if last.as_ref() != Some(&key) {
                *last = Some(key);
                d.frames.send_replace(Some(Arc::new(frame)));
            }
        }
    }
}
