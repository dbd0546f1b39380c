//! `rfgraph run FILE`: builds the file, runs it with a one-line live
//! status on stderr (a progress bar when its sources are finite files or
//! bounded, else each sink's rate), stops cleanly on Ctrl-C (sinks flush,
//! SigMF metadata is written: the graph stops through its handle, as
//! `rfgraph record` does), and exits non-zero when the run fails. With
//! `--control-stdin` it reads lines `name=value` from stdin while the graph
//! runs and sets those settable variables through the builder's
//! `Controller`, one line on stderr for each (what changed, or why not).
//! With `--control [ADDR]` a control port (`rfgraph_control`) serves the
//! running graph over HTTP, its variables through the same `Controller`.
//! A file with Python blocks runs in Python instead (see `python`).

use super::FileArgs;
use super::status::{sink_line, stats_table};
use crate::console::{errln, out};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `rfgraph run` arguments.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub file: FileArgs,
    /// Prints every block's statistics when the run ends.
    #[arg(long)]
    pub stats: bool,
    /// Stops the run after this many seconds (a device source never ends
    /// by itself).
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Reads lines `name=value` from stdin while the graph runs and sets
    /// those settable variables (their block settings change at once); one
    /// line on stderr says what each did. Empty lines and `#` comments are
    /// skipped.
    #[arg(long)]
    pub control_stdin: bool,
    /// Serves the running graph on a control port (HTTP and JSON, see the
    /// README): its blocks, counters, parameters, messages and variables.
    /// Listens on ADDR, `127.0.0.1:1337` when none is given.
    #[arg(long, value_name = "ADDR", num_args = 0..=1,
          default_missing_value = rfgraph_control::DEFAULT_ADDR)]
    pub control: Option<std::net::SocketAddr>,
    /// The token control-port requests must carry. Without one, a port on
    /// any address but loopback generates one and prints it.
    #[arg(long, value_name = "TOKEN", requires = "control")]
    pub token: Option<String>,
}

/// Lines of stdin, read on their own thread (stdin blocks).
fn stdin_lines() -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Set by Ctrl-C.
fn interrupted() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = flag.clone();
    let _ = ctrlc::set_handler(move || set.store(true, Ordering::SeqCst));
    flag
}

/// The variables' controller, shared by stdin, probes, message
/// requests and the control port.
fn lock(
    control: &std::sync::Mutex<rfgraph_flowfile::build::Controller>,
) -> std::sync::MutexGuard<'_, rfgraph_flowfile::build::Controller> {
    control.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts a control port on `addr` serving the graph behind `handle`,
/// named after its file, and says where on stderr (with the token, when
/// one guards it).
fn serve(
    addr: std::net::SocketAddr,
    token: Option<String>,
    args: &RunArgs,
    handle: &rfgraph::FlowgraphHandle,
    control: &Arc<std::sync::Mutex<rfgraph_flowfile::build::Controller>>,
) -> anyhow::Result<rfgraph_control::ControlPort> {
    let port =
        rfgraph_control::ControlPort::start(rfgraph_control::ControlOptions { addr, token })?;
    let name = args
        .file
        .file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("flowgraph")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect::<String>();
    port.serve(
        rfgraph_control::ServedGraph::new(name.clone(), handle.clone())
            .with_variables(control.clone()),
    );
    let at = format!("http://{}/api/flowgraphs/{name}", port.local_addr());
    match port.token() {
        Some(t) => errln!("rfgraph: control port: {at} (token {t})"),
        None => errln!("rfgraph: control port: {at}"),
    }
    errln!("rfgraph: web UI: {}", port.ui_url(&name));
    Ok(port)
}

/// A file with Python blocks runs in Python (`python -m rfgraph run`):
/// the options that mean the same there, and the ones refused.
fn run_in_python(args: &RunArgs) -> anyhow::Result<Option<i32>> {
    let mut extra = Vec::new();
    if let Some(s) = &args.file.scheduler {
        extra.extend(["--scheduler".to_string(), s.clone()]);
    }
    if let Some(c) = args.file.cores {
        extra.extend(["--cores".to_string(), c.to_string()]);
    }
    if let Some(d) = args.duration {
        extra.extend(["--duration".to_string(), d.to_string()]);
    }
    if args.stats {
        extra.push("--stats".into());
    }
    if let Some(addr) = args.control {
        extra.extend(["--control".to_string(), addr.to_string()]);
    }
    if let Some(t) = &args.token {
        extra.extend(["--token".to_string(), t.clone()]);
    }
    let mut refused = Vec::new();
    if args.control_stdin {
        refused.push("--control-stdin");
    }
    super::python::delegate(&args.file, "run", &extra, &refused)
}

/// Runs the flowgraph file.
pub fn run(args: RunArgs) -> anyhow::Result<()> {
    match run_in_python(&args)? {
        Some(0) => return Ok(()),
        Some(code) => std::process::exit(code),
        None => {}
    }
    let built = args.file.build(false)?;
    for n in &built.notices {
        errln!("rfgraph: note: {n}");
    }
    let scheduler = built.scheduler.scheduler().map_err(anyhow::Error::msg)?;
    let sinks = built.sinks.clone();
    let sources = built.sources.clone();
    let total: u64 = sources.iter().map(|s| s.total_items).sum();
    let stop = interrupted();
    let control = Arc::new(std::sync::Mutex::new(built.control));
    let requests = built.variable_requests;
    let mut probes = built.variable_probes;
    let commands = if args.control_stdin {
        let names: Vec<String> = lock(&control)
            .settable()
            .iter()
            .map(|s| s.to_string())
            .collect();
        if names.is_empty() {
            errln!("rfgraph: note: --control-stdin: this graph has no settable variables");
        } else {
            errln!(
                "rfgraph: settable (name=value on stdin): {}",
                names.join(", ")
            );
        }
        Some(stdin_lines())
    } else {
        None
    };
    let started = Instant::now();
    let running = built.flowgraph.start(scheduler)?;
    let handle = running.handle();
    let _port = match args.control {
        Some(addr) => Some(serve(addr, args.token.clone(), &args, &handle, &control)?),
        None => None,
    };
    let bar = if sources.is_empty() {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar
    } else {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {percent:>3}%  {eta} left  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let mut last: Vec<(String, u64, u64)> = sinks.iter().map(|s| (s.clone(), 0, 0)).collect();
    let mut last_at = Instant::now();
    let mut stopping = false;
    while !running.is_finished() {
        let too_long = args
            .duration
            .is_some_and(|d| started.elapsed().as_secs_f64() >= d);
        if !stopping && (stop.load(Ordering::SeqCst) || too_long) {
            stopping = true;
            bar.set_message("stopping...");
            handle.stop();
        }
        // Wakes for the next probe that is due, at least ten times a second.
        let tick = Duration::from_millis(100);
        std::thread::sleep(
            probes
                .next_in()
                .map_or(tick, |d| d.clamp(Duration::from_millis(1), tick)),
        );
        if let Some(lines) = &commands {
            for line in lines.try_iter() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') || stopping {
                    continue;
                }
                let said = match lock(&control).set_line(&handle, line) {
                    Ok(change) => format!("rfgraph: set {change}"),
                    Err(e) => format!("rfgraph: error: {e}"),
                };
                // Above the live line, which stays.
                bar.suspend(|| errln!("{said}"));
            }
        }
        // Variables the graph's `msgpair_to_var` blocks set, and those
        // that probe a block (polled at most as often as this loop runs).
        if !stopping {
            for said in requests.apply(&mut lock(&control), &handle) {
                bar.suspend(|| errln!("rfgraph: {said}"));
            }
            for said in probes.poll(&mut lock(&control), &handle) {
                bar.suspend(|| errln!("rfgraph: {said}"));
            }
        }
        if last_at.elapsed() >= Duration::from_millis(500) && !stopping {
            let stats = handle.stats();
            for entry in &mut last {
                entry.1 = entry.2;
                entry.2 = stats
                    .iter()
                    .find(|s| s.block == entry.0)
                    .map_or(0, |s| s.items_consumed);
            }
            if !sources.is_empty() {
                let done: u64 = sources
                    .iter()
                    .map(|src| stats.get(src.id.0).map_or(0, |s| s.items_produced))
                    .sum();
                bar.set_position(done.min(total));
            }
            bar.set_message(sink_line(&last, last_at.elapsed()));
            last_at = Instant::now();
        }
    }
    bar.finish_and_clear();
    let finished = running.wait()?;
    let consumed: Vec<String> = finished
        .stats()
        .iter()
        .filter(|s| sinks.contains(&s.block))
        .map(|s| format!("{} {} items", s.block, s.items_consumed))
        .collect();
    errln!(
        "rfgraph: {} in {:.2} s{}{}",
        if stopping { "stopped" } else { "done" },
        started.elapsed().as_secs_f64(),
        if consumed.is_empty() { "" } else { ": " },
        consumed.join(", ")
    );
    let latency = finished.latency();
    if latency.exceeded() {
        errln!("rfgraph: the latency budget was exceeded\n{latency}");
    }
    if args.stats {
        out!("{}", stats_table(finished.stats(), finished.run_time()));
        if latency.budget.is_some() {
            out!("{latency}");
        }
    }
    Ok(())
}
