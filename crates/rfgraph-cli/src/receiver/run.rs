//! Running a receiver's flowgraph the same way in every receiver command:
//! the scheduler options ([`RunArgs`]: `--scheduler`, `--stats`,
//! `--quiet`), the progress line on stderr, Ctrl-C, and the statistics at
//! the end ([`run`]).
//!
//! This module owns the run loop around [`Flowgraph::start`]: it watches
//! the graph from outside (statistics snapshots, a few times a second) and
//! never touches a block. A first Ctrl-C stops the graph cleanly (every
//! block's `finishing` runs, so sinks flush and the command still writes
//! its output); a second one exits at once.

use super::input::Source;
use super::progress::Progress;
use crate::console::{errln, outln};
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rfgraph::scheduler::{SCHEDULERS, by_name};
use rfgraph::{Finished, Flowgraph};
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often the loop looks at the graph (Ctrl-C, the end).
const POLL: Duration = Duration::from_millis(20);
/// How often the progress line changes.
const REDRAW: Duration = Duration::from_millis(250);

/// The run options of every receiver command. Flatten it into a
/// command's arguments (`#[command(flatten)] run: RunArgs`).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Run")]
pub struct RunArgs {
    /// How the blocks are run: `tpb` (a thread per block), `single` (one
    /// thread), `pool` (work-stealing workers) or `chain` (pinned cores,
    /// cache-sized chunks).
    #[arg(long, value_name = "NAME", default_value = "chain", value_parser = scheduler_name)]
    pub scheduler: String,
    /// Print every block's statistics (work calls, items, time in work)
    /// as JSON when the run ends: one line on stdout, or into FILE with
    /// `--stats=FILE`.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "-"
    )]
    pub stats: Option<PathBuf>,
    /// No progress line and no summary on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// The command's product is its standard output (the ADS-B frames):
    /// when nobody reads it any more (`| head -1`), the run stops quietly.
    /// Otherwise (a WAV file) the run goes on without printing.
    #[arg(skip)]
    pub stdout_is_product: bool,
    /// The control port to serve the running graph on (`--control`, see
    /// [`ControlArgs`](super::ControlArgs)).
    #[arg(skip)]
    pub control: Option<super::control::Control>,
}

impl Default for RunArgs {
    fn default() -> Self {
        Self {
            scheduler: "chain".into(),
            stats: None,
            quiet: false,
            stdout_is_product: false,
            control: None,
        }
    }
}

/// `--scheduler`'s check: one of [`SCHEDULERS`].
fn scheduler_name(name: &str) -> Result<String, String> {
    if SCHEDULERS.contains(&name) {
        Ok(name.to_string())
    } else {
        Err(format!("available: {}", SCHEDULERS.join(", ")))
    }
}

/// Set by Ctrl-C; a second Ctrl-C exits. Installed once per process.
fn interrupt_flag() -> &'static AtomicBool {
    static FLAG: AtomicBool = AtomicBool::new(false);
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Fails only if another handler is installed: Ctrl-C then does
        // what that one does.
        let _ = ctrlc::set_handler(|| {
            if FLAG.swap(true, Ordering::SeqCst) {
                errln!("\nrfgraph: interrupted again, exiting without finishing");
                std::process::exit(130);
            }
        });
    });
    &FLAG
}

/// How a run ended, besides its blocks.
pub struct Outcome {
    /// The finished graph: read sinks with `block`/`block_mut`.
    pub finished: Finished,
    /// True when Ctrl-C stopped the run before its input ended.
    pub interrupted: bool,
    /// Samples the source delivered.
    pub samples: u64,
}

/// Runs `fg` on the scheduler `args` names until its input ends (files,
/// limited devices) or Ctrl-C; shows the progress of `source` on stderr
/// (unless `--quiet`) and a summary at the end; prints the statistics if
/// `--stats` asks; serves the graph on a control port while it runs if
/// `args.control` asks.
///
/// Errors: the graph is invalid or fails (the runtime's error names the
/// block), the control port cannot listen, or the statistics cannot be
/// written.
pub fn run(fg: Flowgraph, source: &Source, args: &RunArgs) -> anyhow::Result<Outcome> {
    run_within(fg, source, args, None)
}

/// [`run`] with a watchdog: after `watchdog` the graph is stopped and the
/// run fails (tests).
pub(crate) fn run_within(
    fg: Flowgraph,
    source: &Source,
    args: &RunArgs,
    watchdog: Option<Duration>,
) -> anyhow::Result<Outcome> {
    let scheduler = by_name(&args.scheduler)
        .map_err(anyhow::Error::msg)
        .context("--scheduler")?;
    let stop = interrupt_flag();
    stop.store(false, Ordering::SeqCst);
    // Kept until the run ends: dropping it stops the port.
    let port = match &args.control {
        Some(control) => Some((control, control.start().context("--control")?)),
        None => None,
    };
    let started = Instant::now();
    let running = fg.start(scheduler).context("the flowgraph cannot start")?;
    let handle = running.handle();
    if let Some((control, port)) = &port {
        control.serve(port, &handle);
    }
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let progress = |samples: u64| Progress {
        samples,
        total: source.total,
        rate: source.rate,
        elapsed: started.elapsed(),
    };
    let count = |stats: &[rfgraph::BlockStats]| {
        stats
            .iter()
            .find(|s| s.block == source.name)
            .map_or(0, |s| s.items_produced / source.items_per_sample)
    };
    let mut interrupted = false;
    let mut drawn = started;
    while !running.is_finished() && watchdog.is_none_or(|w| started.elapsed() < w) {
        if !interrupted && stop.load(Ordering::SeqCst) {
            interrupted = true;
            bar.println("stopping (Ctrl-C again to exit at once)");
            handle.stop();
        }
        if !interrupted && args.stdout_is_product && crate::console::stdout_closed() {
            // Nobody reads the output any more: end quietly, as `head`
            // expects.
            interrupted = true;
            handle.stop();
        }
        if drawn.elapsed() >= REDRAW {
            drawn = Instant::now();
            bar.set_message(progress(count(&handle.stats())).line());
        }
        std::thread::sleep(POLL);
    }
    bar.finish_and_clear();
    let finished = match watchdog {
        Some(w) => running.wait_timeout(w.saturating_sub(started.elapsed())),
        None => running.wait(),
    }
    .context("the flowgraph failed")?;
    let samples = count(finished.stats());
    if !args.quiet {
        errln!("{}", progress(samples).summary(interrupted));
    }
    if let Some(path) = &args.stats {
        let json = finished.stats_json();
        if path.as_os_str() == "-" {
            outln!("{json}");
        } else {
            let text = serde_json::to_string_pretty(&json)?;
            std::fs::write(path, text + "\n")
                .with_context(|| format!("--stats: cannot write {}", path.display()))?;
        }
    }
    Ok(Outcome {
        finished,
        interrupted,
        samples,
    })
}
