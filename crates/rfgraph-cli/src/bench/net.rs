//! The `net` experiment: rfgraph-net's GNU Radio-compatible network
//! blocks over loopback, both ends in this process and in one flowgraph.
//!
//! | mode | rfgraph | GNU Radio (`gr_bench.py net`) |
//! |---|---|---|
//! | `zmq` | `NullSource` → `Head(N)` → `ZmqSink` (PUSH) ⇒ `ZmqSource` (PULL) → `Head(N)` → `NullSink` | `null_source` → `head(N)` → `zeromq.push_sink` ⇒ `zeromq.pull_source` → `head(N)` → `null_sink` |
//! | `zmq_tags` | the same with `pass_tags`, `TagsStrobe` (zeros, a tag every `--tag-interval` items) for the source and `TagDebug` for the sink | the same with `pass_tags`, `tags_strobe` and `tag_debug` (display off) |
//! | `udp` | `NullSource` → `Throttle(rate)` → `Head(N)` → `UdpSink` (seqnum header, `send_eof`) ⇒ `UdpSource` → `NullSink`, per rate of `--rates` | – |
//!
//! Items are `Complex32` (GNU Radio's `gr_complex`). The ZeroMQ address
//! is `tcp://127.0.0.1:PORT` with a port free when the run is built; the
//! sink binds and the source connects, on both sides.
//!
//! # What `seconds` covers
//!
//! rfgraph: [`setup::run_timed`]'s span, from just before the scheduler is
//! created until `Flowgraph::run` returned: the sink's bind and the
//! source's connect (both in `init`), the run, the pulling head's finish
//! reaching the `ZmqSource` (which never ends by itself), every `deinit`
//! and the joins. GNU Radio: its `pull_source` never notices that its
//! head finished, so `tb.run()` would never return; the script times from
//! just before `tb.start()` until its poll (every 0.5 ms) sees the N-th
//! item at the sink, and reports the `tb.stop()` + `tb.wait()` after that
//! as `stop_seconds`. GNU Radio's span thus leaves out its teardown while
//! rfgraph's holds it, which favours GNU Radio by a few milliseconds.
//!
//! `udp`: the span is the same; the run ends when the source sees the
//! sink's end-of-stream datagrams (`ended_by_eof`) or, should they be
//! lost, when a watchdog stops it a second after the sender took its last
//! item. What matters there is not the speed but whether every datagram
//! arrived: records add the source's counters (`datagrams`,
//! `datagrams_lost`, `datagrams_reordered`), the items sent, received and
//! missing, the kernel's UDP receive-buffer drops over the run
//! (`/proc/net/snmp`, `RcvbufErrors`: every process's, so a busy host adds
//! its own), `sent_seconds` (from the span's start until the sender had
//! taken every item, polled each millisecond), `achieved_rate` (items over
//! `sent_seconds`), `kept_up` (it reached 95 % of the rate) and
//! `zero_loss`. The socket's receive buffer is the kernel's default
//! (`net.core.rmem_default`, recorded): `UdpSource` has no parameter to
//! enlarge it.
//!
//! With `--gnuradio`, each repetition also runs `gr_bench.py net` for the
//! ZeroMQ modes (one child process per mode and run, interleaved with
//! rfgraph's); the ratios are printed on stderr at the end.

use super::setup::GraphOpts;
use super::{Record, Span, peer, setup};
use crate::console::{errln, outln};
use anyhow::{Context, bail};
use clap::Args;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::{BlockId, Finished, Flowgraph, Pmt};
use rfgraph_blocks::message::{TagDebug, TagDebugParams};
use rfgraph_blocks::stream::{TagsStrobe, TagsStrobeParams};
use rfgraph_blocks::{Head, NullSink, NullSource, Throttle, ThrottleParams};
use rfgraph_net::zmq::{SinkPattern, SourcePattern, StreamSocketParams, ZmqSink, ZmqSource};
use rfgraph_net::{HeaderType, UdpSink, UdpSinkParams, UdpSource, UdpSourceParams};
use serde_json::Value;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// Every mode, in the order `all` runs them.
pub const MODES: &[&str] = &["zmq", "zmq_tags", "udp"];

/// Modes GNU Radio has a topology for.
const GR_MODES: &[&str] = &["zmq", "zmq_tags"];

/// The tag key of `zmq_tags` (GNU Radio's `tags_strobe` default).
const TAG_KEY: &str = "strobe";

/// The share of the rate a UDP sender must reach to have kept up.
const KEPT_UP: f64 = 0.95;

/// Options of `rfgraph bench net`.
#[derive(Args, Debug, Clone)]
pub struct NetArgs {
    /// Modes, comma-separated: zmq, zmq_tags, udp, or all.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub mode: Vec<String>,
    /// Fewer items, rates and seconds (what `bench suite --quick` runs).
    #[arg(long)]
    pub quick: bool,
    /// Complex items through ZeroMQ per run (default 100 M; 20 M with
    /// `--quick`).
    #[arg(long)]
    pub items: Option<u64>,
    /// `zmq_tags`: items from one tag to the next.
    #[arg(long, default_value_t = 1000)]
    pub tag_interval: u64,
    /// `udp`: the sender's rates, items per second, comma-separated
    /// (default 10e6,25e6,50e6,100e6; 10e6,50e6 with `--quick`).
    #[arg(long, value_delimiter = ',')]
    pub rates: Option<Vec<f64>>,
    /// `udp`: seconds of signal per rate (default 1; 0.5 with `--quick`).
    #[arg(long)]
    pub udp_seconds: Option<f64>,
    /// `udp`: bytes of every datagram, the 8-byte header included (GNU
    /// Radio's default 1472 fills an Ethernet frame); 8 + a multiple of 8.
    #[arg(long, default_value_t = 1472)]
    pub payload: usize,
    /// `udp`: the throttle's `chunk`, seconds of items released at once
    /// (the block's default, 1 ms, when not given): the sender's bursts.
    #[arg(long)]
    pub chunk: Option<f64>,
    /// Also run GNU Radio's ZeroMQ topologies (`gr_bench.py net`) in the
    /// same run.
    #[arg(long)]
    pub gnuradio: bool,
    /// GNU Radio's benchmark script (default: bench/gnuradio/gr_bench.py).
    #[arg(long)]
    pub gr_script: Option<std::path::PathBuf>,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

impl NetArgs {
    fn items(&self) -> u64 {
        self.items
            .unwrap_or(if self.quick { 20_000_000 } else { 100_000_000 })
    }

    fn rates(&self) -> Vec<f64> {
        self.rates.clone().unwrap_or_else(|| {
            if self.quick {
                vec![10e6, 50e6]
            } else {
                vec![10e6, 25e6, 50e6, 100e6]
            }
        })
    }

    fn udp_seconds(&self) -> f64 {
        self.udp_seconds
            .unwrap_or(if self.quick { 0.5 } else { 1.0 })
    }
}

/// A TCP (`udp` false) or UDP port on 127.0.0.1 free right now.
fn free_port(udp: bool) -> anyhow::Result<u16> {
    let port = if udp {
        std::net::UdpSocket::bind("127.0.0.1:0")?
            .local_addr()?
            .port()
    } else {
        std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port()
    };
    Ok(port)
}

/// How [`run_watched`] watches a run.
struct Watch {
    /// Stop the run if it has not finished by then.
    limit: Duration,
    /// A sending block and the items it must take: once it has them all
    /// (seen by polling the statistics every millisecond), the run has
    /// [`SENT_GRACE`] more to finish.
    sender: Option<(BlockId, u64)>,
}

/// How long a run may go on once its sender has sent everything: the
/// receiver has only its socket buffer left to drain, so a longer wait
/// means the end-of-stream mark was lost.
const SENT_GRACE: Duration = Duration::from_secs(1);

/// What [`run_watched`] saw besides the run.
struct Watched {
    /// The watchdog stopped the run.
    stopped: bool,
    /// Seconds from the span's start until the sender had taken all its
    /// items (to the millisecond), when there is a sender.
    sent_seconds: Option<f64>,
}

/// Runs `fg` as [`setup::run_timed`] does, asking it to stop if it
/// outlasts `watch` (a lost last frame would leave a network source
/// waiting for ever).
fn run_watched(
    fg: Flowgraph,
    args: &NetArgs,
    watch: Watch,
    what: &str,
) -> anyhow::Result<(Finished, Span, Watched)> {
    let (start, running) = setup::start_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, None, &[], args.run.explain),
        what,
    )?;
    let handle = running.handle();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let poll = if watch.sender.is_some() {
            Duration::from_millis(1)
        } else {
            watch.limit
        };
        let mut sent: Option<Duration> = None;
        while let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(poll) {
            let now = start.elapsed();
            if let Some((id, items)) = watch.sender
                && sent.is_none()
                && handle
                    .stats()
                    .get(id.0)
                    .is_some_and(|s| s.items_consumed >= items)
            {
                sent = Some(now);
            }
            let late = sent.is_some_and(|at| now > at + SENT_GRACE);
            if late || now > watch.limit {
                handle.stop();
                return (true, sent);
            }
        }
        (false, sent)
    });
    let result = setup::wait_timed(running, start, what);
    let _ = done_tx.send(());
    let (stopped, sent) = watchdog.join().unwrap_or((true, None));
    let (done, span) = result?;
    let watched = Watched {
        stopped,
        sent_seconds: sent.map(|d| d.as_secs_f64()),
    };
    Ok((done, span, watched))
}

/// The counter `name` of block `id` in the run's statistics (0 if absent).
fn counter(done: &Finished, id: BlockId, name: &str) -> u64 {
    done.stats()
        .get(id.0)
        .and_then(|s| s.counters.get(name).copied())
        .unwrap_or(0)
}

/// Items consumed by block `id`.
fn consumed(done: &Finished, id: BlockId) -> u64 {
    done.stats().get(id.0).map_or(0, |s| s.items_consumed)
}

fn measure_zmq(mode: &str, args: &NetArgs, run: usize) -> anyhow::Result<Record> {
    let items = args.items();
    let tags = mode == "zmq_tags";
    let address = format!("tcp://127.0.0.1:{}", free_port(false)?);
    let socket = StreamSocketParams {
        pass_tags: tags,
        ..StreamSocketParams::new(ItemKind::C32, &address)
    };
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    // The sending side first: its sink binds in `init`, before the
    // source's first connect.
    let src = if tags {
        fg.add(TagsStrobe::<Complex32>::new(TagsStrobeParams {
            value: Pmt::I64(1),
            interval: args.tag_interval,
            key: TAG_KEY.into(),
            ..Default::default()
        })?)
    } else {
        fg.add(NullSource::<Complex32>::new())
    };
    let head_tx = fg.add(Head::<Complex32>::new(items));
    let push = fg.add(ZmqSink::<Complex32>::new(SinkPattern::Push, socket.clone()));
    fg.chain(&[src, head_tx, push])?;
    let pull = fg.add(ZmqSource::<Complex32>::new(SourcePattern::Pull, socket));
    let head_rx = fg.add(Head::<Complex32>::new(items));
    let sink = if tags {
        fg.add(TagDebug::<Complex32>::new(TagDebugParams {
            name: "net".into(),
            filter: TAG_KEY.into(),
            display: false,
            ..Default::default()
        })?)
    } else {
        fg.add(NullSink::<Complex32>::new())
    };
    fg.chain(&[pull, head_rx, sink])?;
    let what = format!("net {mode} run {run}");
    // Far longer than any healthy run: 20 M items/s, plus 10 s.
    let watch = Watch {
        limit: Duration::from_secs_f64(items as f64 / 20e6 + 10.0),
        sender: None,
    };
    let (done, span, watched) = run_watched(fg, args, watch, &what)?;
    let stopped = watched.stopped;
    let arrived = consumed(&done, sink);
    if stopped || arrived != items {
        bail!(
            "{what}: {arrived} of {items} items arrived{}",
            if stopped {
                " before the watchdog stopped the run"
            } else {
                ""
            }
        );
    }
    let tags_received = if tags {
        let debug = done
            .block::<TagDebug<Complex32>>(sink)
            .context("the tag sink is not a TagDebug")?;
        let interval = args.tag_interval;
        let misplaced = debug
            .tags()
            .iter()
            .filter(|t| t.index == 0 || !t.index.is_multiple_of(interval))
            .count();
        let got = debug.tags().len() as u64;
        let expected = (items - 1) / interval;
        if got != expected || misplaced > 0 {
            bail!(
                "{what}: {got} tags arrived ({misplaced} off the multiples of {interval}), \
                 expected {expected}"
            );
        }
        Value::from(got)
    } else {
        Value::Null
    };
    if args.run.stats {
        setup::print_block_stats(&done, "net", &args.run.scheduler, run);
    }
    let frames = counter(&done, push, "frames_sent");
    let seconds = span.seconds;
    Ok(Record::new("net", &args.run.scheduler, run, span)
        .field("mode", mode)
        .field("items", items)
        .field("pass_tags", tags)
        .field(
            "tag_interval",
            if tags {
                Value::from(args.tag_interval)
            } else {
                Value::Null
            },
        )
        .field("tags", tags_received)
        .field("frames", frames)
        .field("frames_received", counter(&done, pull, "frames_received"))
        .field("frame_items", items as f64 / frames.max(1) as f64)
        .field("items_per_s", items as f64 / seconds)
        .field("block_items_per_s", items as f64 / seconds)
        .field("bytes_per_s", (items * 8) as f64 / seconds))
}

/// The kernel's UDP receive-buffer drops so far, every socket's
/// (`RcvbufErrors` of `/proc/net/snmp`); `None` where it cannot be read.
fn rcvbuf_errors() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/net/snmp").ok()?;
    let mut udp = text.lines().filter(|l| l.starts_with("Udp:"));
    let (names, values) = (udp.next()?, udp.next()?);
    let at = names.split_whitespace().position(|n| n == "RcvbufErrors")?;
    values.split_whitespace().nth(at)?.parse().ok()
}

/// The kernel's default socket receive buffer, bytes.
fn rmem_default() -> Option<u64> {
    std::fs::read_to_string("/proc/sys/net/core/rmem_default")
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn measure_udp(rate: f64, args: &NetArgs, run: usize) -> anyhow::Result<Record> {
    let seconds_of_signal = args.udp_seconds();
    let items = (rate * seconds_of_signal).round() as u64;
    if items == 0 {
        bail!("--rates · --udp-seconds must be at least one item");
    }
    let port = free_port(true)?;
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    let sink_params = UdpSinkParams {
        header: HeaderType::Seqnum,
        payloadsize: args.payload,
        send_eof: true,
        ..UdpSinkParams::new(ItemKind::C32, "127.0.0.1", port)
    };
    let source_params = UdpSourceParams {
        header: HeaderType::Seqnum,
        payloadsize: args.payload,
        ..UdpSourceParams::new(ItemKind::C32, port)
    };
    // The receiving side first: its socket must be bound before the
    // first datagram goes out.
    let udp_rx = fg.add(UdpSource::<Complex32>::new(source_params)?);
    let sink = fg.add(NullSink::<Complex32>::new());
    fg.chain(&[udp_rx, sink])?;
    let src = fg.add(NullSource::<Complex32>::new());
    let mut pace = ThrottleParams {
        sample_rate: rate,
        ..Default::default()
    };
    if let Some(chunk) = args.chunk {
        pace.chunk = chunk;
    }
    let throttle = fg.add(Throttle::<Complex32>::from_params(pace)?);
    let head = fg.add(Head::<Complex32>::new(items));
    let udp_tx = fg.add(UdpSink::<Complex32>::new(sink_params)?);
    fg.chain(&[src, throttle, head, udp_tx])?;
    let what = format!("net udp {} MS/s run {run}", rate / 1e6);
    // A sender that keeps up takes `seconds_of_signal`; one at a tenth
    // of the rate, ten times that.
    let watch = Watch {
        limit: Duration::from_secs_f64(10.0 * seconds_of_signal + 5.0),
        sender: Some((udp_tx, items)),
    };
    let before = rcvbuf_errors();
    let (done, span, watched) = run_watched(fg, args, watch, &what)?;
    let kernel_drops = before
        .zip(rcvbuf_errors())
        .map_or(Value::Null, |(a, b)| Value::from(b.saturating_sub(a)));
    let sent = consumed(&done, udp_tx);
    if sent != items {
        bail!("{what}: the UDP sink took {sent} items, expected {items}");
    }
    let received = consumed(&done, sink);
    let lost = counter(&done, udp_rx, "datagrams_lost");
    let reordered = counter(&done, udp_rx, "datagrams_reordered");
    // The sender's pace: its items over the time it took to take them
    // all (from the span's start, so the start-up counts against it).
    let sent_seconds = watched.sent_seconds.unwrap_or(span.seconds);
    let achieved = sent as f64 / sent_seconds;
    let kept_up = achieved >= KEPT_UP * rate;
    let zero_loss = lost == 0 && reordered == 0 && received == sent;
    if args.run.stats {
        setup::print_block_stats(&done, "net", &args.run.scheduler, run);
    }
    let seconds = span.seconds;
    Ok(Record::new("net", &args.run.scheduler, run, span)
        .field("mode", "udp")
        .field("rate", rate)
        .field("items", items)
        .field("signal_seconds", seconds_of_signal)
        .field("payloadsize", args.payload)
        .field("chunk", args.chunk.map_or(Value::Null, Value::from))
        .field("items_sent", sent)
        .field("items_received", received)
        .field("items_missing", sent - received.min(sent))
        .field("datagrams_sent", counter(&done, udp_tx, "datagrams_sent"))
        .field("datagrams", counter(&done, udp_rx, "datagrams"))
        .field("datagrams_lost", lost)
        .field("datagrams_reordered", reordered)
        .field("frames_dropped", counter(&done, udp_rx, "frames_dropped"))
        .field("kernel_rcvbuf_errors", kernel_drops)
        .field(
            "rmem_default",
            rmem_default().map_or(Value::Null, Value::from),
        )
        .field("ended_by_eof", !watched.stopped)
        .field("sent_seconds", sent_seconds)
        .field("achieved_rate", achieved)
        .field("kept_up", kept_up)
        .field("zero_loss", zero_loss)
        .field("items_per_s", received as f64 / seconds)
        .field("block_items_per_s", received as f64 / seconds)
        .field("bytes_per_s", (received * 8) as f64 / seconds))
}

fn measure_gnuradio(
    script: &Path,
    mode: &str,
    args: &NetArgs,
    run: usize,
) -> anyhow::Result<Value> {
    let gr_args: Vec<String> = [
        "net",
        "--mode",
        mode,
        "--items",
        &args.items().to_string(),
        "--tag-interval",
        &args.tag_interval.to_string(),
        "--repeat",
        "1",
        "--run",
        &run.to_string(),
    ]
    .map(String::from)
    .to_vec();
    Ok(peer::gr_records(script, &gr_args)?.swap_remove(0))
}

/// Mean of `field` over the records of `runtime` (a prefix) in `mode`.
fn mean(records: &[Value], runtime_prefix: &str, mode: &str, field: &str) -> Option<f64> {
    setup::mean(&setup::values_of(records, runtime_prefix, mode, |r| {
        r[field].as_f64()
    }))
}

fn print_summary(records: &[Value]) {
    let rate = |rt: &str, mode: &str| mean(records, rt, mode, "items_per_s");
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
        _ => "–".to_string(),
    };
    let ms = |r: Option<f64>| r.map_or("–".into(), |r| format!("{:.1} M items/s", r / 1e6));
    errln!("net summary (complex items over loopback, mean over runs):");
    for mode in ["zmq", "zmq_tags"] {
        if rate("rfgraph", mode).is_none() {
            continue;
        }
        errln!(
            "  {mode:9} rfgraph {} | GNU Radio {} | rfgraph/GNU Radio {} (target ≥ 2×)",
            ms(rate("rfgraph", mode)),
            ms(rate("gnuradio", mode)),
            ratio(rate("rfgraph", mode), rate("gnuradio", mode)),
        );
    }
    if rate("rfgraph", "zmq_tags").is_some() && rate("rfgraph", "zmq").is_some() {
        errln!(
            "  tagged/untagged: rfgraph {} (target ≥ 0.8) | GNU Radio {}",
            ratio(rate("rfgraph", "zmq_tags"), rate("rfgraph", "zmq")),
            ratio(rate("gnuradio", "zmq_tags"), rate("gnuradio", "zmq")),
        );
    }
    let udp: Vec<&Value> = records
        .iter()
        .filter(|r| r["mode"] == "udp" && r["runtime"] == "rfgraph")
        .collect();
    if udp.is_empty() {
        return;
    }
    let mut rates: Vec<f64> = udp.iter().filter_map(|r| r["rate"].as_f64()).collect();
    rates.sort_by(f64::total_cmp);
    rates.dedup();
    let mut best = None;
    let mut buffer_limited = false;
    for &r in &rates {
        let runs: Vec<&&Value> = udp.iter().filter(|x| x["rate"] == r).collect();
        let all = |k: &str| runs.iter().all(|x| x[k] == true);
        let sum = |k: &str| runs.iter().filter_map(|x| x[k].as_u64()).sum::<u64>();
        let achieved = runs
            .iter()
            .filter_map(|x| x["achieved_rate"].as_f64())
            .sum::<f64>()
            / runs.len() as f64;
        let (lost, kernel) = (sum("datagrams_lost"), sum("kernel_rcvbuf_errors"));
        buffer_limited |= kernel > 0;
        errln!(
            "  udp {:6.1} MS/s: sent at {:6.1} MS/s ({}), {lost} datagrams lost, {} items \
             missing, {kernel} kernel receive-buffer drops over {} run(s)",
            r / 1e6,
            achieved / 1e6,
            if all("kept_up") {
                "kept up"
            } else {
                "fell behind"
            },
            sum("items_missing"),
            runs.len(),
        );
        if all("zero_loss") && all("kept_up") {
            best = Some(r);
        }
    }
    errln!(
        "  udp highest rate with zero loss (sender kept up): {} (target 50 MS/s)",
        best.map_or("none".to_string(), |r| format!("{} MS/s", r / 1e6))
    );
    if buffer_limited {
        errln!(
            "  udp losses were the kernel's receive buffer overflowing (RcvbufErrors; \
             net.core.rmem_default = {} bytes): UdpSource has no parameter to enlarge \
             SO_RCVBUF",
            rmem_default().map_or("?".into(), |b| b.to_string())
        );
    }
}

/// Runs the experiment: every mode once per repetition, interleaved.
pub fn run(args: &NetArgs) -> anyhow::Result<()> {
    let modes: Vec<&str> = if args.mode.iter().any(|m| m == "all") {
        MODES.to_vec()
    } else {
        args.mode.iter().map(String::as_str).collect()
    };
    for m in &modes {
        if !MODES.contains(m) {
            bail!("unknown net mode `{m}`; known: {}, all", MODES.join(", "));
        }
    }
    if args.items() == 0 || args.tag_interval == 0 {
        bail!("--items and --tag-interval must be positive");
    }
    let rates = args.rates();
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if !rates.iter().all(|&r| positive(r)) || !positive(args.udp_seconds()) {
        bail!("--rates and --udp-seconds must be positive");
    }
    let script = if args.gnuradio {
        Some(peer::gr_script(args.gr_script.as_deref())?)
    } else {
        None
    };
    let mut records = Vec::new();
    for run in 0..args.run.repeat {
        for &mode in &modes {
            let mut measured = Vec::new();
            if mode == "udp" {
                for &rate in &rates {
                    measured.push(measure_udp(rate, args, run)?);
                }
            } else {
                measured.push(measure_zmq(mode, args, run)?);
            }
            for record in measured {
                record.print();
                summarize(&record);
                records.push(record.value());
            }
            if let Some(script) = &script
                && GR_MODES.contains(&mode)
            {
                let gr = measure_gnuradio(script, mode, args, run)?;
                outln!("{gr}");
                records.push(gr);
            }
        }
    }
    print_summary(&records);
    Ok(())
}

/// One line on stderr for a record.
fn summarize(record: &Record) {
    let r = record.value();
    if r["mode"] == "udp" {
        errln!(
            "net udp [{}] run {}: {} MS/s: sent at {:.1} MS/s, {} datagrams lost, {} \
             reordered, {} of {} items arrived, {} kernel receive-buffer drops",
            r["scheduler"].as_str().unwrap_or("?"),
            r["run"],
            r["rate"].as_f64().unwrap_or(0.0) / 1e6,
            r["achieved_rate"].as_f64().unwrap_or(0.0) / 1e6,
            r["datagrams_lost"],
            r["datagrams_reordered"],
            r["items_received"],
            r["items_sent"],
            r["kernel_rcvbuf_errors"],
        );
    } else {
        errln!(
            "net {} [{}] run {}: {} items in {:.3} s (run phase {:.3} s): {:.1} M items/s, \
             {} frames{}",
            r["mode"].as_str().unwrap_or("?"),
            r["scheduler"].as_str().unwrap_or("?"),
            r["run"],
            r["items"],
            record.seconds(),
            r["run_seconds"].as_f64().unwrap_or(0.0),
            r["items_per_s"].as_f64().unwrap_or(0.0) / 1e6,
            r["frames"],
            if r["tags"].is_null() {
                String::new()
            } else {
                format!(", {} tags", r["tags"])
            }
        );
    }
}
