//! Blocks and helpers shared by the live-stream and OpenAPI tests: a
//! throttled source, a display block (readings `display` and `frame`,
//! the frame a map whose `seq` rises), and a WebSocket client.

#![allow(dead_code)]

use futures_util::StreamExt;
use rfgraph::{Block, BoxError, Flowgraph, Pmt, Ports, StreamInput, StreamOutput, WorkIo};
use serde_json::Value;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// How long any one test may take before it fails instead of hanging.
pub const WATCHDOG: Duration = Duration::from_secs(60);

/// Writes up to 64 ones per call, then sleeps a millisecond: a source
/// throttled to some ten thousand items a second.
pub struct TickSource(StreamOutput<f32>);

impl TickSource {
    pub fn new() -> Self {
        Self(StreamOutput::new("out"))
    }
}

impl Block for TickSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.0)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.0.slice();
        let n = out.len().min(64);
        out[..n].fill(1.0);
        self.0.produce(n);
        std::thread::sleep(Duration::from_millis(1));
        Ok(())
    }
}

/// A display: consumes its input; its `display` reading says what it
/// draws, its `frame` reading is `{seq, items}`, `seq` one more after
/// each call that consumed items.
pub struct Scope {
    input: StreamInput<f32>,
    seq: u64,
    items: u64,
}

impl Scope {
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            seq: 0,
            items: 0,
        }
    }
}

impl Block for Scope {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        if n > 0 {
            self.seq += 1;
            self.items += n as u64;
        }
        Ok(())
    }
    fn readings(&self) -> &'static [&'static str] {
        &["display", "frame"]
    }
    fn reading(&mut self, name: &str) -> Option<Pmt> {
        match name {
            "display" => Some(Pmt::Map(
                [
                    ("kind".to_string(), Pmt::from("scope")),
                    ("y_range".to_string(), Pmt::VecF32(vec![-1.0, 1.0])),
                ]
                .into(),
            )),
            "frame" => Some(Pmt::Map(
                [
                    ("seq".to_string(), Pmt::U64(self.seq)),
                    ("items".to_string(), Pmt::U64(self.items)),
                    ("points".to_string(), Pmt::VecF32(vec![0.5, f32::NAN])),
                ]
                .into(),
            )),
            _ => None,
        }
    }
}

/// Writes `left` ones, then finishes.
pub struct CountSource(StreamOutput<f32>, u64);

impl Block for CountSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.0)
    }
    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.0.slice();
        let n = out.len().min(usize::try_from(self.1).unwrap_or(usize::MAX));
        out[..n].fill(1.0);
        self.0.produce(n);
        self.1 -= n as u64;
        if self.1 == 0 {
            io.finish();
        }
        Ok(())
    }
}

/// `src` (`items` ones, then done) → `scope` (a [`Scope`]).
pub fn finite_graph(items: u64) -> Flowgraph {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("src", CountSource(StreamOutput::new("out"), items));
    let scope = fg.add_named("scope", Scope::new());
    fg.connect(src, "out", scope, "in").unwrap();
    fg
}

/// `src` (a [`TickSource`]) → `scope` (a [`Scope`]).
pub fn scope_graph() -> Flowgraph {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("src", TickSource::new());
    let scope = fg.add_named("scope", Scope::new());
    fg.connect(src, "out", scope, "in").unwrap();
    fg
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Connects to `url` (ws://...); the HTTP status if the server refused.
pub async fn connect(url: &str) -> Result<Socket, u16> {
    match tokio_tungstenite::connect_async(url).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("cannot connect to {url}: {e}"),
    }
}

/// The next text message as JSON; `None` once the server closed.
pub async fn next_json(socket: &mut Socket) -> Option<Value> {
    loop {
        match socket.next().await? {
            Ok(Message::Text(t)) => return Some(serde_json::from_str(&t).expect("JSON text")),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// The next message of `kind` (`stats`, `frame`), skipping others.
pub async fn next_of(socket: &mut Socket, kind: &str) -> Option<Value> {
    loop {
        let m = next_json(socket).await?;
        if m["type"] == kind {
            return Some(m);
        }
    }
}
