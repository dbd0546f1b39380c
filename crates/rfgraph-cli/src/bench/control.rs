//! The `control` experiment: what serving a running graph costs it. A
//! CPU-bound, steady graph (cosine source → 132-tap low-pass FIR →
//! multiply by a constant → null sink, unthrottled) runs for `--seconds`
//! alone, then again as long while `--clients` WebSocket clients follow
//! its live stream (stats every 100 ms) and `--rps` REST requests a
//! second (a mix of `/stats`, `/blocks/lpf`, and two parameter reads) hit
//! its control port. Both throughputs, their ratio, the requests
//! answered and failed, the WebSocket messages received and the
//! process's peak resident memory after each phase are printed: one JSON
//! record on stdout, a table on stderr.
//!
//! # What the timers cover
//!
//! `seconds` is the loaded phase's [`setup::start_timed`] …
//! [`setup::wait_timed`] span (scheduler, start, the port, the clients,
//! the window, the stop and `wait`). The throughputs are measured over a
//! window inside each phase, after half a second of warm-up (and, loaded,
//! once every client is connected and the requests flow): the sink's
//! items consumed between two snapshots of the runtime's statistics,
//! divided by the window's length. The clients run in this process, on
//! the same cores as the graph, so the loaded figure includes their cost
//! too: it is the cost of a UI on the same machine, an upper bound of the
//! server's alone.

use super::{Record, Span, setup};
use crate::console::errln;
use anyhow::{Context, bail};
use clap::Args;
use rfgraph::{BlockId, FlowgraphHandle};
use rfgraph_control::{ControlOptions, ControlPort, ServedGraph};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Options of `rfgraph bench control`.
#[derive(Args, Debug, Clone)]
pub struct ControlArgs {
    /// Seconds of each phase's measuring window.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// WebSocket clients on the live stream in the loaded phase.
    #[arg(long, default_value_t = 50)]
    pub clients: usize,
    /// REST requests per second in the loaded phase.
    #[arg(long, default_value_t = 200.0)]
    pub rps: f64,
    /// Scheduler: tpb, single, pool or chain.
    #[arg(long, default_value = "chain")]
    pub scheduler: String,
}

/// The served graph's name.
const NAME: &str = "bench";

/// The graph, as a flowgraph file.
const GRAPH: &str = r#"format = 1
connections = ["src -> lpf -> gain -> sink"]

[blocks.src]
kind = "sig_source"
type = "f32"
waveform = "cosine"
sample_rate = 1e6
frequency = 1e3
amplitude = 0.5

[blocks.lpf]
kind = "low_pass_filter"
type = "f32"
sample_rate = 1e6
cutoff = 1e5
transition = 2.5e4
window = "hamming"

[blocks.gain]
kind = "multiply_const"
type = "f32"
constant = 2.0

[blocks.sink]
kind = "null_sink"
type = "f32"
"#;

/// The REST requests, in turn.
const REQUESTS: [&str; 4] = [
    "/stats",
    "/blocks/lpf",
    "/blocks/src/params/frequency",
    "/blocks/gain/params/constant",
];

/// Warm-up before a window.
const WARMUP: Duration = Duration::from_millis(500);

/// What one phase measured.
#[derive(Debug, Default)]
struct Phase {
    items_per_s: f64,
    window_seconds: f64,
    requests_sent: u64,
    requests_answered: u64,
    requests_failed: u64,
    ws_connected: u64,
    ws_messages: u64,
    rss_peak_kb: u64,
    rss_max_sampled_kb: u64,
}

/// `field` (`VmHWM`, `VmRSS`) of /proc/self/status, in kB (0 if unknown).
fn proc_status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Samples `VmRSS` every 100 ms until `stop`; returns the largest.
fn sample_rss(stop: Arc<AtomicBool>) -> JoinHandle<u64> {
    std::thread::spawn(move || {
        let mut max = 0;
        while !stop.load(Ordering::Relaxed) {
            max = max.max(proc_status_kb("VmRSS"));
            std::thread::sleep(Duration::from_millis(100));
        }
        max.max(proc_status_kb("VmRSS"))
    })
}

/// Items the sink consumed so far.
fn sunk(handle: &FlowgraphHandle, sink: BlockId) -> u64 {
    handle.stats()[sink.0].items_consumed
}

/// Counters shared with the load threads.
#[derive(Default)]
struct Counters {
    sent: AtomicU64,
    answered: AtomicU64,
    failed: AtomicU64,
    connected: AtomicU64,
    refused: AtomicU64,
    messages: AtomicU64,
}

/// A WebSocket client on `url` counting the messages it receives until
/// `stop`.
fn ws_client(url: String, stop: Arc<AtomicBool>, counters: Arc<Counters>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let Ok((mut ws, _)) = tungstenite::connect(url.as_str()) else {
            counters.refused.fetch_add(1, Ordering::Relaxed);
            return;
        };
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
            // To see `stop` while no message comes.
            let _ = s.set_read_timeout(Some(Duration::from_millis(200)));
        }
        counters.connected.fetch_add(1, Ordering::Relaxed);
        while !stop.load(Ordering::Relaxed) {
            match ws.read() {
                Ok(tungstenite::Message::Text(_)) => {
                    counters.messages.fetch_add(1, Ordering::Relaxed);
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(_) => return,
            }
        }
        let _ = ws.close(None);
        let _ = ws.flush();
    })
}

/// Sends `rate` requests a second to `base` (in turn from [`REQUESTS`],
/// starting at `first`) until `stop`.
fn rest_client(
    base: String,
    rate: f64,
    first: usize,
    stop: Arc<AtomicBool>,
    counters: Arc<Counters>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(10)))
            .build()
            .into();
        let start = Instant::now();
        for k in 0u64.. {
            let due = start + Duration::from_secs_f64(k as f64 / rate);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let path = REQUESTS[(first + k as usize) % REQUESTS.len()];
            counters.sent.fetch_add(1, Ordering::Relaxed);
            let ok = agent
                .get(&format!("{base}{path}"))
                .call()
                .is_ok_and(|r| r.status().as_u16() == 200);
            let counter = if ok {
                &counters.answered
            } else {
                &counters.failed
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
    })
}

/// Starts the graph, loads it as `load` says (clients, requests/s), and
/// measures a window of `seconds`.
fn phase(args: &ControlArgs, load: Option<(usize, f64)>) -> anyhow::Result<(Phase, Span)> {
    let doc = rfgraph_flowfile::toml::parse(GRAPH, Arc::new("control.toml".into()))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let built = rfgraph_flowfile::build::build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &Default::default(),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let what = if load.is_some() { "loaded" } else { "alone" };
    let rss_stop = Arc::new(AtomicBool::new(false));
    let rss = sample_rss(rss_stop.clone());
    let (start, running) = setup::start_timed(
        built.flowgraph,
        || setup::scheduler(&args.scheduler, None, &[], false),
        what,
    )?;
    let handle = running.handle();
    let sink = handle
        .block_id("sink")
        .context("the graph has no block `sink`")?;
    let counters = Arc::new(Counters::default());
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    let mut port = None;
    if let Some((clients, rps)) = load {
        let p = ControlPort::start(ControlOptions {
            addr: "127.0.0.1:0".parse()?,
            token: None,
        })?;
        p.serve(ServedGraph::new(NAME, handle.clone()));
        let addr = p.local_addr();
        for _ in 0..clients {
            let url = format!("ws://{addr}/api/flowgraphs/{NAME}/live?period_ms=100");
            threads.push(ws_client(url, stop.clone(), counters.clone()));
        }
        // Every client connected (or refused) before the window.
        let deadline = Instant::now() + Duration::from_secs(30);
        while counters.connected.load(Ordering::Relaxed) + counters.refused.load(Ordering::Relaxed)
            < clients as u64
        {
            if Instant::now() > deadline {
                bail!("the WebSocket clients did not connect within 30 s");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if rps > 0.0 {
            // One thread per 50 requests a second, so a slow answer
            // delays only its own thread's next requests.
            let n = (rps / 50.0).ceil().max(1.0) as usize;
            for t in 0..n {
                let base = format!("http://{addr}/api/flowgraphs/{NAME}");
                threads.push(rest_client(
                    base,
                    rps / n as f64,
                    t,
                    stop.clone(),
                    counters.clone(),
                ));
            }
        }
        port = Some(p);
    }
    std::thread::sleep(WARMUP);
    let (t0, before) = (Instant::now(), sunk(&handle, sink));
    std::thread::sleep(Duration::from_secs_f64(args.seconds));
    let (window, after) = (t0.elapsed().as_secs_f64(), sunk(&handle, sink));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    if let Some(p) = port {
        p.shutdown();
    }
    handle.stop();
    let (_, span) = setup::wait_timed(running, start, what)?;
    rss_stop.store(true, Ordering::Relaxed);
    let rss_max_sampled_kb = rss.join().unwrap_or(0);
    let c = &counters;
    let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
    Ok((
        Phase {
            items_per_s: after.saturating_sub(before) as f64 / window,
            window_seconds: window,
            requests_sent: get(&c.sent),
            requests_answered: get(&c.answered),
            requests_failed: get(&c.failed),
            ws_connected: get(&c.connected),
            ws_messages: get(&c.messages),
            rss_peak_kb: proc_status_kb("VmHWM"),
            rss_max_sampled_kb,
        },
        span,
    ))
}

/// Runs the experiment.
pub fn run(args: &ControlArgs) -> anyhow::Result<()> {
    if args.seconds.is_nan() || args.seconds <= 0.0 || args.rps < 0.0 || !args.rps.is_finite() {
        bail!("--seconds must be positive and --rps not negative");
    }
    let (alone, _) = phase(args, None)?;
    let (loaded, span) = phase(args, Some((args.clients, args.rps)))?;
    let ratio = if alone.items_per_s > 0.0 {
        loaded.items_per_s / alone.items_per_s
    } else {
        0.0
    };
    Record::new("control", &args.scheduler, 0, span)
        .field("window_seconds", args.seconds)
        .field("clients", args.clients)
        .field("rps", args.rps)
        .field("items_per_s_alone", alone.items_per_s)
        .field("items_per_s_loaded", loaded.items_per_s)
        .field("ratio", ratio)
        .field("requests_sent", loaded.requests_sent)
        .field("requests_answered", loaded.requests_answered)
        .field("requests_failed", loaded.requests_failed)
        .field("ws_connected", loaded.ws_connected)
        .field("ws_messages", loaded.ws_messages)
        .field("rss_peak_kb_alone", alone.rss_peak_kb)
        .field("rss_peak_kb_loaded", loaded.rss_peak_kb)
        .field("rss_sampled_max_kb_alone", alone.rss_max_sampled_kb)
        .field("rss_sampled_max_kb_loaded", loaded.rss_max_sampled_kb)
        .print();
    errln!(
        "control [{}] {} s windows, {} WebSocket clients (100 ms), {} requests/s",
        args.scheduler,
        args.seconds,
        args.clients,
        args.rps
    );
    errln!(
        "| phase  | items/s    | window s | requests ok/failed | WS msgs | peak RSS kB | max sampled RSS kB |"
    );
    errln!(
        "|--------|------------|----------|--------------------|---------|-------------|--------------------|"
    );
    for (name, p) in [("alone", &alone), ("loaded", &loaded)] {
        errln!(
            "| {name:<6} | {:>10.4e} | {:>8.2} | {:>9}/{:<8} | {:>7} | {:>11} | {:>18} |",
            p.items_per_s,
            p.window_seconds,
            p.requests_answered,
            p.requests_failed,
            p.ws_messages,
            p.rss_peak_kb,
            p.rss_max_sampled_kb
        );
    }
    errln!("loaded / alone throughput: {ratio:.3}");
    Ok(())
}
