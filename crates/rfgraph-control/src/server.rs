//! [`ControlPort`]: the HTTP server, on a Tokio runtime of its own (two
//! worker threads, so a slow client never holds up the flowgraph's), its
//! address and token rules, and the graphs it serves.
//!
//! It binds to `127.0.0.1:1337` unless told otherwise. On a loopback
//! address a token is optional; on any other one it is required: the one
//! given, or one generated at start ([`ControlPort::token`], which the
//! CLI prints). Every request must then carry it, as `Authorization:
//! Bearer TOKEN` or `?token=TOKEN` (for a browser's first page load).
//! Bodies above [`MAX_BODY`] are refused.

use crate::error::ApiError;
use crate::graph::ServedGraph;
use crate::routes::{Graphs, router};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::hash::{BuildHasher, Hasher};
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

/// The address a control port binds to by default.
pub const DEFAULT_ADDR: &str = "127.0.0.1:1337";

/// How long a stopping port waits for its live streams to close.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// How to start a [`ControlPort`].
#[derive(Clone, Debug)]
pub struct ControlOptions {
    /// Where to listen (port 0: any free port).
    pub addr: SocketAddr,
    /// The token requests must carry; `None` generates one when `addr`
    /// is not a loopback address, and requires none otherwise.
    pub token: Option<String>,
}

impl Default for ControlOptions {
    fn default() -> Self {
        Self {
            addr: DEFAULT_ADDR.parse().expect("a valid default address"),
            token: None,
        }
    }
}

/// Why a control port could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The runtime or its thread could not start.
    #[error("cannot start the control port: {0}")]
    Runtime(std::io::Error),
}

/// A running control port. Dropping it (or [`shutdown`](Self::shutdown))
/// stops the server; the flowgraphs it served run on.
pub struct ControlPort {
    addr: SocketAddr,
    token: Option<String>,
    graphs: Graphs,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ControlPort {
    /// Binds and starts serving (no graph yet: see [`serve`](Self::serve)).
    ///
    /// Errors: an address that cannot be bound, a runtime that cannot
    /// start.
    pub fn start(options: ControlOptions) -> Result<Self, StartError> {
        let token = options
            .token
            .clone()
            .or_else(|| (!options.addr.ip().is_loopback()).then(generate_token));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("rfgraph-control")
            .enable_all()
            .build()
            .map_err(StartError::Runtime)?;
        // Bound without `block_on`, so that a port starts from async code
        // too (a caller's own runtime).
        let bind_error = |source| StartError::Bind {
            addr: options.addr,
            source,
        };
        let std_listener = std::net::TcpListener::bind(options.addr).map_err(bind_error)?;
        std_listener.set_nonblocking(true).map_err(bind_error)?;
        let listener = {
            let _inside = runtime.enter();
            tokio::net::TcpListener::from_std(std_listener).map_err(bind_error)?
        };
        let addr = listener.local_addr().map_err(StartError::Runtime)?;
        let graphs: Graphs = Arc::new(RwLock::new(Vec::new()));
        let (stopping_tx, stopping) = tokio::sync::watch::channel(false);
        let open = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let shutdown = crate::live::Shutdown {
            stopping,
            open: open.clone(),
        };
        let app = router(graphs.clone())
            .merge(crate::ui::router())
            .layer(axum::Extension(shutdown))
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(token.clone()),
                require_token,
            ))
            .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
            .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_BODY));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("rfgraph-control".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let _ = axum::serve(listener, app)
                        .with_graceful_shutdown(async move {
                            let _ = stopped.await;
                            let _ = stopping_tx.send(true);
                        })
                        .await;
                    // Live streams outlive their HTTP connection: give
                    // them a moment to send their close frames.
                    let deadline = tokio::time::Instant::now() + CLOSE_GRACE;
                    while open.load(std::sync::atomic::Ordering::SeqCst) > 0
                        && tokio::time::Instant::now() < deadline
                    {
                        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                    }
                });
            })
            .map_err(StartError::Runtime)?;
        Ok(Self {
            addr,
            token,
            graphs,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The token requests must carry, if any.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The address of the web UI showing graph `name`, with the token
    /// when one is required (what to open in a browser).
    pub fn ui_url(&self, name: &str) -> String {
        let mut url = format!("http://{}/?fg={}", self.addr, query_escape(name));
        if let Some(t) = &self.token {
            url.push_str("&token=");
            url.push_str(&query_escape(t));
        }
        url
    }

    /// Serves `graph` too, replacing one of the same name.
    pub fn serve(&self, graph: ServedGraph) {
        let mut graphs = self.graphs.write().unwrap_or_else(|e| e.into_inner());
        graphs.retain(|g| g.name != graph.name);
        graphs.push(graph);
    }

    /// Stops serving the graph called `name` (its live clients are
    /// closed within a period); false if none was served so.
    pub fn unserve(&self, name: &str) -> bool {
        let mut graphs = self.graphs.write().unwrap_or_else(|e| e.into_inner());
        let before = graphs.len();
        graphs.retain(|g| g.name != name);
        graphs.len() != before
    }

    /// Stops the server and waits for it.
    pub fn shutdown(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ControlPort {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// `text` for a URL's query: RFC 3986's unreserved characters as they
/// are, every other byte percent-encoded.
fn query_escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// 128 random bits as hex, from the OS-seeded keys of std's hasher.
fn generate_token() -> String {
    let half = || {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.finish()
    };
    format!("{:016x}{:016x}", half(), half())
}

/// Lets a request through when no token is required or it carries the
/// token.
async fn require_token(
    State(token): State<Arc<Option<String>>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(token) = token.as_deref() else {
        return next.run(request).await;
    };
    let bearer = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let query = request
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("token=")));
    if bearer.or(query).is_some_and(|t| constant_time_eq(t, token)) {
        next.run(request).await
    } else {
        ApiError::Unauthorized.into_response()
    }
}

/// Compares without stopping at the first difference.
fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_differ() {
        let (a, b) = (generate_token(), generate_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(constant_time_eq(&a, &a));
        assert!(!constant_time_eq(&a, &b));
        assert!(!constant_time_eq(&a, &a[1..]));
    }

    #[test]
    fn query_values_are_escaped() {
        assert_eq!(query_escape("fm_1-a.b~"), "fm_1-a.b~");
        assert_eq!(query_escape("a&b=c d/é"), "a%26b%3Dc%20d%2F%C3%A9");
    }
}
