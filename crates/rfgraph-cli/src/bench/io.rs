//! The `io` experiment: raw-file throughput of `FileSource` and `FileSink`
//! against GNU Radio 3.10 and against the page cache itself.
//!
//! | mode | rfgraph | GNU Radio (`gr_bench.py io`) |
//! |---|---|---|
//! | `source-cu8` | `FileSource<Complex32>` (cu8) → `NullSink` | `file_source(sizeof_char)` → `interleaved_char_to_complex` → `null_sink` |
//! | `source-cf32` | `FileSource<Complex32>` (cf32) → `NullSink` | `file_source(sizeof_gr_complex)` → `null_sink` |
//! | `sink-cf32` | `NullSource` → `Head(N)` → `FileSink<Complex32>` (cf32) | `null_source` → `head(N)` → `file_sink(sizeof_gr_complex)` |
//! | `cat` | – | – (`cat FILE > /dev/null`, the cf32 file) |
//! | `read` | – | – (this process reading the cf32 file with 1 MiB `read`s) |
//!
//! The two reference modes are the page-cache limit a file source can
//! reach: `cat` is what the issue compares with (GNU coreutils 9 reads
//! 128 KiB at a time and writes to /dev/null, which costs nothing; its
//! `seconds` include starting the process, about a millisecond), `read`
//! the same loop without the process.
//!
//! The files (`rfgraph-bench-io.cu8` and `.cf32` of `--mib` MiB each, and
//! the sink's output) live in `--dir`, by default `/dev/shm` (tmpfs: every
//! page stays in memory, so "in the page cache" holds by construction and
//! the sink's `sync_data` costs nothing) or the temporary folder. They are
//! generated once per invocation, read once before any timing, and
//! removed at the end unless `--keep`.
//!
//! `seconds` is [`setup::run_timed`]'s span for rfgraph (the source opens
//! and checks its file in its constructor, before the timer, as GNU
//! Radio's `file_source` does in its), `tb.run()` for GNU Radio, and
//! process start to exit for `cat`. `bytes_per_s` counts file bytes (read
//! or written); `items_per_s` `Complex32` items.
//!
//! Every rfgraph and reference record adds the CPU time the move cost:
//! `user_s` and `sys_s` (seconds), and `user_s_per_gb` and `sys_s_per_gb`
//! (per 10⁹ file bytes), from `getrusage`: `RUSAGE_SELF` before and after
//! the run for rfgraph and `read` (every thread of this process), and
//! `RUSAGE_CHILDREN` before and after `cat` was waited for. The summary
//! on stderr gives rfgraph's `source-cf32` per byte over `cat`'s (medians).
//! `--cores C` pins the process (and so `cat`) to the first C CPUs and
//! gives the scheduler C workers.
//!
//! With `--gnuradio`, each repetition also runs `gr_bench.py io` for the
//! same modes on the same files (one child process per mode and run,
//! interleaved with rfgraph's), so that every ratio comes from one run; the
//! ratios are printed on stderr at the end.

use super::setup::GraphOpts;
use super::{Record, Span, peer, setup};
use crate::console::{errln, outln};
use anyhow::{Context, bail};
use clap::Args;
use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph::stats::CpuTime;
use rfgraph_blocks::{FileSink, FileSource, Head, NullSink, NullSource, SampleFormat};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Every mode, in the order `all` runs them.
pub const MODES: &[&str] = &["cat", "read", "source-cf32", "source-cu8", "sink-cf32"];

/// Modes GNU Radio has a topology for.
const GR_MODES: &[&str] = &["source-cf32", "source-cu8", "sink-cf32"];

/// Options of `rfgraph bench io`.
#[derive(Args, Debug, Clone)]
pub struct IoArgs {
    /// Modes, comma-separated: source-cu8, source-cf32, sink-cf32, cat,
    /// read, or all.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub mode: Vec<String>,
    /// Size of each test file, MiB.
    #[arg(long, default_value_t = 256)]
    pub mib: u64,
    /// Folder for the files (default: /dev/shm, else the temporary folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Keep the files afterwards (they are reused if their size fits).
    #[arg(long)]
    pub keep: bool,
    /// Pin the process (and `cat`) to the first C CPUs, with C scheduler
    /// workers.
    #[arg(long)]
    pub cores: Option<usize>,
    /// Also run GNU Radio's topologies (`gr_bench.py io`) in the same run.
    #[arg(long)]
    pub gnuradio: bool,
    /// GNU Radio's benchmark script (default: bench/gnuradio/gr_bench.py).
    #[arg(long)]
    pub gr_script: Option<PathBuf>,
    /// Scheduler, repeats, buffers, statistics.
    #[command(flatten)]
    pub run: GraphOpts,
}

/// The files one invocation works on.
struct Files {
    cu8: PathBuf,
    cf32: PathBuf,
    out: PathBuf,
    bytes: u64,
}

impl Files {
    fn new(args: &IoArgs) -> anyhow::Result<Self> {
        let dir = args.dir.clone().unwrap_or_else(|| {
            let shm = PathBuf::from("/dev/shm");
            if shm.is_dir() {
                shm
            } else {
                std::env::temp_dir()
            }
        });
        let bytes = args
            .mib
            .checked_mul(1 << 20)
            .context("--mib is too large")?;
        if bytes == 0 {
            bail!("--mib must be positive");
        }
        Ok(Self {
            cu8: dir.join("rfgraph-bench-io.cu8"),
            cf32: dir.join("rfgraph-bench-io.cf32"),
            out: dir.join("rfgraph-bench-io-out.cf32"),
            bytes,
        })
    }

    /// Writes both input files (pseudo-random bytes) unless they exist
    /// with the right size, then reads each once to warm the cache.
    fn prepare(&self) -> anyhow::Result<()> {
        for path in [&self.cu8, &self.cf32] {
            let fits = std::fs::metadata(path).is_ok_and(|m| m.len() == self.bytes);
            if !fits {
                generate(path, self.bytes)?;
            }
            read_all(path, &mut vec![0u8; 1 << 20])?;
        }
        Ok(())
    }

    fn remove(&self) {
        for p in [&self.cu8, &self.cf32, &self.out] {
            let _ = std::fs::remove_file(p);
        }
    }
}

fn generate(path: &Path, bytes: u64) -> anyhow::Result<()> {
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
    );
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut chunk = vec![0u8; 1 << 20];
    let mut left = bytes;
    while left > 0 {
        for w in chunk.chunks_exact_mut(8) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            w.copy_from_slice(&state.to_le_bytes());
        }
        // Keep cf32 values finite: clear each float's top exponent bit.
        if path.extension().is_some_and(|e| e == "cf32") {
            for w in chunk.chunks_exact_mut(4) {
                w[3] &= 0xBF;
            }
        }
        let n = left.min(chunk.len() as u64) as usize;
        f.write_all(&chunk[..n])?;
        left -= n as u64;
    }
    f.flush()?;
    Ok(())
}

/// Reads `path` to the end with `buf`-sized `read`s; returns the bytes.
fn read_all(path: &Path, buf: &mut [u8]) -> anyhow::Result<u64> {
    let mut f =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut total = 0u64;
    loop {
        match f.read(buf) {
            Ok(0) => return Ok(total),
            Ok(n) => total += n as u64,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }
}

/// User and system CPU time of this process's waited-for children so far
/// (`getrusage(RUSAGE_CHILDREN)`; zero if the call fails, which it does
/// not for `RUSAGE_CHILDREN`).
pub(super) fn children_cpu() -> CpuTime {
    // SAFETY: `rusage` is plain data (integers and timevals), for which
    // all-zero bytes are a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable `rusage` for the whole call;
    // getrusage writes only into it.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) } != 0 {
        return CpuTime::default();
    }
    let tv = |t: libc::timeval| {
        std::time::Duration::from_secs(t.tv_sec.max(0) as u64)
            + std::time::Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    CpuTime {
        user: tv(ru.ru_utime),
        system: tv(ru.ru_stime),
    }
}

/// `record` with the CPU time `cpu` that moving `bytes` cost: seconds and
/// seconds per 10⁹ bytes, user and system.
fn with_cpu(record: Record, cpu: CpuTime, bytes: u64) -> Record {
    let gb = bytes as f64 / 1e9;
    let (user, sys) = (cpu.user.as_secs_f64(), cpu.system.as_secs_f64());
    record
        .field("user_s", user)
        .field("sys_s", sys)
        .field("user_s_per_gb", user / gb)
        .field("sys_s_per_gb", sys / gb)
}

fn reference_record(runtime: &str, mode: &str, run: usize, seconds: f64, files: &Files) -> Record {
    let items = files.bytes / 8;
    Record::new("io", "-", run, Span::whole(seconds))
        .field("runtime", runtime)
        .field("mode", mode)
        .field("format", "cf32")
        .field("file_bytes", files.bytes)
        .field("items", items)
        .field("items_per_s", items as f64 / seconds)
        .field("block_items_per_s", items as f64 / seconds)
        .field("bytes_per_s", files.bytes as f64 / seconds)
}

fn measure_cat(files: &Files, run: usize) -> anyhow::Result<Record> {
    let null = std::fs::File::create("/dev/null")?;
    let before = children_cpu();
    let start = Instant::now();
    let status = Command::new("cat")
        .arg(&files.cf32)
        .stdout(null)
        .status()
        .context("cannot run `cat`")?;
    let seconds = start.elapsed().as_secs_f64();
    let cpu = children_cpu().since(before);
    if !status.success() {
        bail!("`cat {}` failed: {status}", files.cf32.display());
    }
    let record = reference_record("cat", "cat", run, seconds, files);
    Ok(with_cpu(record, cpu, files.bytes))
}

fn measure_read(files: &Files, run: usize) -> anyhow::Result<Record> {
    let mut buf = vec![0u8; 1 << 20];
    let before = CpuTime::now();
    let start = Instant::now();
    let got = read_all(&files.cf32, &mut buf)?;
    let seconds = start.elapsed().as_secs_f64();
    let cpu = CpuTime::now().since(before);
    if got != files.bytes {
        bail!(
            "read {got} bytes of {}, expected {}",
            files.cf32.display(),
            files.bytes
        );
    }
    let record = reference_record("rust-read", "read", run, seconds, files);
    Ok(with_cpu(record, cpu, files.bytes))
}

fn measure_graph(mode: &str, files: &Files, args: &IoArgs, run: usize) -> anyhow::Result<Record> {
    let mut fg = Flowgraph::new();
    if let Some(b) = args.run.buffer_bytes {
        fg.set_buffer_bytes(b);
    }
    let (format, items) = match mode {
        "source-cu8" | "source-cf32" => {
            let (path, format) = if mode == "source-cu8" {
                (&files.cu8, SampleFormat::CU8)
            } else {
                (&files.cf32, SampleFormat::CF32)
            };
            let src = fg.add(FileSource::<Complex32>::new(path, format)?);
            let sink = fg.add(NullSink::<Complex32>::new());
            fg.chain(&[src, sink])?;
            (format, files.bytes / format.bytes_per_item() as u64)
        }
        "sink-cf32" => {
            let items = files.bytes / 8;
            let src = fg.add(NullSource::<Complex32>::new());
            let head = fg.add(Head::<Complex32>::new(items));
            let sink = fg.add(FileSink::<Complex32>::create(
                &files.out,
                SampleFormat::CF32,
            )?);
            fg.chain(&[src, head, sink])?;
            (SampleFormat::CF32, items)
        }
        other => bail!(
            "unknown io mode `{other}`; known: {}, all",
            MODES.join(", ")
        ),
    };
    let before = CpuTime::now();
    let (done, span) = setup::run_timed(
        fg,
        || setup::scheduler(&args.run.scheduler, args.cores, &[], args.run.explain),
        &format!("io {mode} run {run}"),
    )?;
    let cpu = CpuTime::now().since(before);
    let moved = if mode == "sink-cf32" {
        let len = std::fs::metadata(&files.out)?.len();
        if len != files.bytes {
            bail!("the sink wrote {len} bytes, expected {}", files.bytes);
        }
        setup::consumed_by(&done, "FileSink")
    } else {
        setup::consumed_by(&done, "NullSink")
    };
    if moved != items {
        bail!("io {mode}: {moved} items arrived, expected {items}");
    }
    if args.run.stats {
        setup::print_block_stats(&done, "io", &args.run.scheduler, run);
    }
    let seconds = span.seconds;
    let record = Record::new("io", &args.run.scheduler, run, span)
        .field("mode", mode)
        .field("cores", args.cores.map_or(Value::Null, Into::into))
        .field("format", format.raw_name().unwrap_or(format.sigmf_name()))
        .field("file_bytes", files.bytes)
        .field("items", items)
        .field("items_per_s", items as f64 / seconds)
        .field("block_items_per_s", items as f64 / seconds)
        .field("bytes_per_s", files.bytes as f64 / seconds)
        .field(
            "buffer_bytes",
            args.run.buffer_bytes.map_or(Value::Null, Into::into),
        );
    Ok(with_cpu(record, cpu, files.bytes))
}

fn measure_gnuradio(script: &Path, mode: &str, files: &Files, run: usize) -> anyhow::Result<Value> {
    let path = if mode == "source-cu8" {
        &files.cu8
    } else {
        &files.cf32
    };
    let mut args: Vec<String> = ["io", "--mode", mode, "--file"].map(String::from).to_vec();
    args.push(path.display().to_string());
    args.extend([
        "--repeat".into(),
        "1".into(),
        "--run".into(),
        run.to_string(),
    ]);
    if mode == "sink-cf32" {
        args.extend(["--out".into(), files.out.display().to_string()]);
        args.extend(["--items".into(), (files.bytes / 8).to_string()]);
    }
    Ok(peer::gr_records(script, &args)?.swap_remove(0))
}

/// Mean `bytes_per_s` of the records of `runtime` in `mode`.
fn mean_rate(records: &[Value], runtime_prefix: &str, mode: &str) -> Option<f64> {
    setup::mean(&setup::values_of(records, runtime_prefix, mode, |r| {
        r["bytes_per_s"].as_f64()
    }))
}

fn print_ratios(records: &[Value]) {
    let rate = |rt: &str, mode: &str| mean_rate(records, rt, mode);
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
        _ => "–".to_string(),
    };
    let gib = |r: Option<f64>| {
        r.map_or("–".into(), |r| {
            format!("{:.2} GiB/s", r / (1u64 << 30) as f64)
        })
    };
    let mut lines = BTreeMap::new();
    for mode in ["source-cu8", "source-cf32", "sink-cf32"] {
        if rate("rfgraph", mode).is_none() {
            continue;
        }
        lines.insert(
            mode,
            format!(
                "rfgraph {} | GNU Radio {} | rfgraph/GNU Radio {}",
                gib(rate("rfgraph", mode)),
                gib(rate("gnuradio", mode)),
                ratio(rate("rfgraph", mode), rate("gnuradio", mode)),
            ),
        );
    }
    errln!("io ratios (file bytes per second, mean over runs):");
    for (mode, line) in &lines {
        errln!("  {mode:12} {line}");
    }
    if rate("rfgraph", "source-cf32").is_none() {
        return;
    }
    errln!(
        "  source-cf32 vs cat {} ({}), vs read {} ({})",
        ratio(rate("rfgraph", "source-cf32"), rate("cat", "cat")),
        gib(rate("cat", "cat")),
        ratio(rate("rfgraph", "source-cf32"), rate("rust-read", "read")),
        gib(rate("rust-read", "read")),
    );
    let cpu = |rt: &str, mode: &str, key: &str| median_field(records, rt, mode, key);
    let secs = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:.3}"));
    errln!("io CPU seconds per GB (median over runs): user | system");
    for (rt, mode) in [
        ("rfgraph", "source-cf32"),
        ("cat", "cat"),
        ("rust-read", "read"),
    ] {
        if cpu(rt, mode, "sys_s_per_gb").is_some() {
            errln!(
                "  {mode:12} {} | {}",
                secs(cpu(rt, mode, "user_s_per_gb")),
                secs(cpu(rt, mode, "sys_s_per_gb")),
            );
        }
    }
    errln!(
        "  source-cf32/cat system {}, user + system {}",
        ratio(
            cpu("rfgraph", "source-cf32", "sys_s_per_gb"),
            cpu("cat", "cat", "sys_s_per_gb")
        ),
        ratio(
            cpu("rfgraph", "source-cf32", "cpu_s_per_gb"),
            cpu("cat", "cat", "cpu_s_per_gb")
        ),
    );
}

/// Median of `key` over the records of `runtime` (a prefix) in `mode`;
/// `cpu_s_per_gb` is user plus system.
fn median_field(records: &[Value], runtime_prefix: &str, mode: &str, key: &str) -> Option<f64> {
    setup::median(setup::values_of(
        records,
        runtime_prefix,
        mode,
        |r| match key {
            "cpu_s_per_gb" => Some(r["user_s_per_gb"].as_f64()? + r["sys_s_per_gb"].as_f64()?),
            _ => r[key].as_f64(),
        },
    ))
}

/// Runs the experiment: every mode once per repetition, interleaved.
pub fn run(args: &IoArgs) -> anyhow::Result<()> {
    let modes: Vec<&str> = if args.mode.iter().any(|m| m == "all") {
        MODES.to_vec()
    } else {
        args.mode.iter().map(String::as_str).collect()
    };
    for m in &modes {
        if !MODES.contains(m) {
            bail!("unknown io mode `{m}`; known: {}, all", MODES.join(", "));
        }
    }
    if let Some(cores) = args.cores {
        let available = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cores == 0 || cores > available {
            bail!("--cores must be 1 to {available}");
        }
        let cpus: Vec<usize> = (0..cores).collect();
        rfgraph::scheduler::thread::set_affinity(&cpus).context("--cores: pinning the process")?;
    }
    let script = if args.gnuradio {
        Some(peer::gr_script(args.gr_script.as_deref())?)
    } else {
        None
    };
    let files = Files::new(args)?;
    files.prepare()?;
    let result = (|| {
        let mut records = Vec::new();
        for run in 0..args.run.repeat {
            for &mode in &modes {
                let record = match mode {
                    "cat" => measure_cat(&files, run)?,
                    "read" => measure_read(&files, run)?,
                    _ => measure_graph(mode, &files, args, run)?,
                };
                record.print();
                record.summary();
                records.push(record.value());
                if let Some(script) = &script
                    && GR_MODES.contains(&mode)
                {
                    let gr = measure_gnuradio(script, mode, &files, run)?;
                    outln!("{gr}");
                    records.push(gr);
                }
            }
        }
        print_ratios(&records);
        anyhow::Ok(())
    })();
    if !args.keep {
        files.remove();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_cpu_counts_a_waited_child() {
        let before = children_cpu();
        // A child that burns CPU until the clock moves: a bound on
        // progress, not a measurement.
        let status = Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let used = children_cpu().since(before);
        assert!(used.total() > std::time::Duration::ZERO, "{used:?}");
        assert!(children_cpu() >= before);
    }
}
