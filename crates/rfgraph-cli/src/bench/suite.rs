//! `rfgraph bench suite`: the standard set of experiments on every available
//! scheduler, GNU Radio 3.10 beside them when it is installed. Writes
//! `results.jsonl`, one figure per experiment and `summary.md` into the
//! output folder, and prints the table.
//!
//! Every run is a child process (this binary, or GNU Radio's script), so
//! runs cannot disturb each other and both runtimes are timed the same way.

use super::peer::GR_PYTHON;
use super::plot::draw;
use super::summary::{Estimate, series_name};
use crate::console::{errln, out, outln};
use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rfgraph::scheduler::SCHEDULERS;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Options of `rfgraph bench suite`.
#[derive(Args, Debug, Clone)]
pub struct SuiteArgs {
    /// Small sizes and few repeats: finishes in under 2 minutes on 2 cores.
    #[arg(long)]
    pub quick: bool,
    /// Output folder.
    #[arg(short, long, default_value = "out")]
    pub output: PathBuf,
    /// GNU Radio's benchmark script (default: bench/gnuradio/gr_bench.py
    /// in the current folder or the source tree).
    #[arg(long)]
    pub gr_script: Option<PathBuf>,
    /// Skip GNU Radio even if it is installed.
    #[arg(long)]
    pub no_gnuradio: bool,
}

/// One child process to run.
struct Job {
    label: String,
    program: PathBuf,
    args: Vec<String>,
}

fn gr_script(args: &SuiteArgs) -> Option<PathBuf> {
    if args.no_gnuradio {
        errln!("GNU Radio skipped (--no-gnuradio)");
        return None;
    }
    let script = match super::peer::gr_script(args.gr_script.as_deref()) {
        Ok(script) => script,
        Err(e) => {
            errln!("GNU Radio skipped: {e}");
            return None;
        }
    };
    let importable = Command::new(GR_PYTHON)
        .args(["-c", "import gnuradio"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !importable {
        errln!(
            "GNU Radio skipped: `{GR_PYTHON} -c 'import gnuradio'` failed (install Debian's gnuradio)"
        );
        return None;
    }
    Some(script)
}

/// Sizes of the standard set.
struct Plan {
    repeat: usize,
    stream_sizes: Vec<usize>,
    stream_items: u64,
    msg_sizes: Vec<usize>,
    msg_burst: usize,
    chain_stages: Vec<usize>,
    chain_items: u64,
    saxpy: Vec<(usize, usize)>,
    saxpy_items: u64,
    load_amounts: Vec<u64>,
    load_duration: f64,
    dsp_items: u64,
    fm_items: u64,
    accel_sizes: &'static str,
    accel_buffers: u64,
    io_mib: u64,
    adsb_mib: u64,
    /// Frames in each `wlan` capture.
    wlan_frames: usize,
    latency_rates: Vec<f64>,
    latency_stages: Vec<usize>,
    latency_bursts: usize,
    /// Seconds of signal of the throttled `pacing` graph (its wall time).
    pacing_seconds: f64,
    /// Complex items through ZeroMQ per `net` run.
    net_items: u64,
    /// The `net` experiment's UDP rates, items per second.
    net_rates: &'static str,
    /// Seconds of signal per UDP rate.
    net_udp_seconds: f64,
    /// Items through `pyblock`'s `double` block, and its `empty` block.
    pyblock_items: (u64, u64),
    /// Whether `pyblock` may build its release venv (minutes) when it is
    /// missing; otherwise it runs only when the venv is there.
    pyblock_build: bool,
}

impl Plan {
    fn new(quick: bool) -> Self {
        if quick {
            Self {
                repeat: 3,
                stream_sizes: vec![2, 5, 10],
                stream_items: 5_000_000,
                msg_sizes: vec![2, 5, 10],
                msg_burst: 2_000,
                chain_stages: vec![5, 10, 20],
                chain_items: 5_000_000,
                saxpy: vec![(1, 1), (12, 1), (12, 2)],
                saxpy_items: 50_000_000,
                load_amounts: vec![200_000, 600_000, 1_000_000],
                load_duration: 0.5,
                dsp_items: 4_000_000,
                fm_items: 4_800_000,
                accel_sizes: "4,64,1024",
                accel_buffers: 200,
                io_mib: 64,
                adsb_mib: 32,
                wlan_frames: 200,
                latency_rates: vec![1e6, 20e6],
                latency_stages: vec![1, 10, 40],
                latency_bursts: 300,
                pacing_seconds: 0.5,
                net_items: 20_000_000,
                net_rates: "10e6,50e6",
                net_udp_seconds: 0.5,
                pyblock_items: (20_000_000, 500_000),
                pyblock_build: false,
            }
        } else {
            Self {
                repeat: 10,
                stream_sizes: vec![2, 4, 6, 8, 10],
                stream_items: 20_000_000,
                msg_sizes: vec![2, 4, 6, 8, 10],
                msg_burst: 20_000,
                chain_stages: vec![1, 5, 10, 15, 20],
                chain_items: 20_000_000,
                saxpy: vec![(1, 1), (2, 2), (6, 1), (6, 2), (12, 1), (12, 2)],
                saxpy_items: 100_000_000,
                load_amounts: vec![100_000, 300_000, 500_000, 700_000, 900_000, 1_100_000],
                load_duration: 2.0,
                dsp_items: 20_000_000,
                fm_items: 24_000_000,
                accel_sizes: "2,4,32,64,256,1024,4096",
                accel_buffers: 1000,
                io_mib: 256,
                adsb_mib: 256,
                wlan_frames: 2000,
                latency_rates: vec![1e6, 20e6],
                latency_stages: vec![1, 10, 20, 40],
                latency_bursts: 2000,
                pacing_seconds: 2.0,
                net_items: 100_000_000,
                net_rates: "10e6,25e6,50e6,100e6",
                net_udp_seconds: 1.0,
                pyblock_items: (100_000_000, 2_000_000),
                pyblock_build: true,
            }
        }
    }
}

/// Builds the job list: every experiment on every available scheduler (and
/// the fused rooflines), plus the same topology on GNU Radio when present.
struct JobList<'a> {
    me: PathBuf,
    gr: Option<&'a Path>,
    repeat: String,
    jobs: Vec<Job>,
}

impl JobList<'_> {
    fn rfgraph(&mut self, label: String, args: &[String]) {
        let mut full = vec!["bench".to_string()];
        full.extend_from_slice(args);
        full.extend(["--repeat".to_string(), self.repeat.clone()]);
        self.jobs.push(Job {
            label,
            program: self.me.clone(),
            args: full,
        });
    }

    fn gnuradio(&mut self, label: String, args: &[String]) {
        if let Some(script) = self.gr {
            let mut full = vec![script.display().to_string()];
            full.extend_from_slice(args);
            full.extend(["--repeat".to_string(), self.repeat.clone()]);
            self.jobs.push(Job {
                label: format!("{label} [GNU Radio]"),
                program: PathBuf::from(GR_PYTHON),
                args: full,
            });
        }
    }

    /// `experiment` with `params` on every scheduler, optionally fused, and
    /// on GNU Radio when `gnuradio` is set.
    fn everywhere(
        &mut self,
        label: &str,
        experiment: &str,
        params: &[String],
        fused: bool,
        gnuradio: bool,
    ) {
        let mut variants: Vec<Vec<String>> = SCHEDULERS
            .iter()
            .map(|s| vec!["--scheduler".to_string(), s.to_string()])
            .collect();
        if fused {
            variants.push(vec!["--fused".to_string()]);
        }
        for v in variants {
            let mut args = vec![experiment.to_string()];
            args.extend(v.iter().cloned());
            args.extend_from_slice(params);
            self.rfgraph(
                format!("{label} {}", v.last().cloned().unwrap_or_default()),
                &args,
            );
        }
        if gnuradio {
            let mut args = vec![experiment.to_string()];
            args.extend_from_slice(params);
            self.gnuradio(label.to_string(), &args);
        }
    }
}

fn strings(v: &[&dyn ToString]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn jobs(plan: &Plan, gr: Option<&Path>) -> anyhow::Result<Vec<Job>> {
    let mut list = JobList {
        me: std::env::current_exe().context("cannot find the rfgraph binary")?,
        gr,
        repeat: plan.repeat.to_string(),
        jobs: Vec::new(),
    };
    for &n in &plan.stream_sizes {
        let p = strings(&[
            &"--pipes",
            &n,
            &"--stages",
            &n,
            &"--items",
            &plan.stream_items,
        ]);
        list.everywhere(&format!("stream {n}x{n}"), "stream", &p, false, true);
    }
    for &n in &plan.msg_sizes {
        let p = strings(&[&"--pipes", &n, &"--stages", &n, &"--burst", &plan.msg_burst]);
        list.everywhere(&format!("msg {n}x{n}"), "msg", &p, false, true);
    }
    for &stages in &plan.chain_stages {
        let p = strings(&[
            &"--branches",
            &4,
            &"--stages",
            &stages,
            &"--items",
            &plan.chain_items,
        ]);
        list.everywhere(&format!("chain 4x{stages}"), "chain", &p, true, true);
    }
    let saxpy_params = |blocks: usize, cores: usize| {
        strings(&[
            &"--blocks",
            &blocks,
            &"--cores",
            &cores,
            &"--items",
            &plan.saxpy_items,
        ])
    };
    for &(blocks, cores) in &plan.saxpy {
        let p = saxpy_params(blocks, cores);
        // qsdr's flowgraph (the source writes nothing) on every scheduler
        // and fused; GNU Radio's `null_source` writes zeros, so it runs
        // beside the `--fill` workload below.
        list.everywhere(&format!("saxpy {blocks}@{cores}"), "saxpy", &p, true, false);
        if cores == 1 {
            // What calling blocks at all costs: the same flowgraph on a
            // runtime with no per-call duties (see `bench/bare.rs`).
            let mut args = vec!["saxpy".to_string(), "--bare".to_string()];
            args.extend(p.iter().cloned());
            list.rfgraph(format!("saxpy {blocks}@{cores} --bare"), &args);
        }
        if cores > 1 {
            // The ablation: the same steps as stateful `Map`s, which
            // `chain` cuts between cores instead of running data-parallel.
            let mut args: Vec<String> = ["saxpy", "--scheduler", "chain", "--stateful"]
                .map(String::from)
                .to_vec();
            args.extend(p.iter().cloned());
            list.rfgraph(format!("saxpy {blocks}@{cores} chain --stateful"), &args);
        }
        // The heavier workload: the source writes every item, and the
        // fused loop fills every chunk.
        for variant in [&["--scheduler", "chain"][..], &["--fused"]] {
            let mut args = vec!["saxpy".to_string(), "--fill".to_string()];
            args.extend(variant.iter().map(|s| s.to_string()));
            args.extend(p.iter().cloned());
            let name = variant.last().copied().unwrap_or_default();
            list.rfgraph(format!("saxpy {blocks}@{cores} --fill {name}"), &args);
        }
        let mut args = vec!["saxpy".to_string()];
        args.extend(p);
        list.gnuradio(format!("saxpy {blocks}@{cores}"), &args);
    }
    for kernel in super::dsp::KERNELS {
        let p = strings(&[&"--kernel", kernel, &"--items", &plan.dsp_items]);
        let mut args = vec!["dsp".to_string(), "--scheduler".into(), "tpb".into()];
        args.extend(p.iter().cloned());
        list.rfgraph(format!("dsp {kernel}"), &args);
        let mut args = vec!["dsp".to_string()];
        args.extend(p);
        list.gnuradio(format!("dsp {kernel}"), &args);
    }
    // A throttled simulation: its CPU time, not its speed (the throttle
    // sets the wall time), on every scheduler and GNU Radio.
    let p = strings(&[&"--seconds", &plan.pacing_seconds]);
    list.everywhere(
        &format!("pacing {} s", plan.pacing_seconds),
        "pacing",
        &p,
        false,
        true,
    );
    // Raw files: one job makes the files and runs every mode, GNU Radio's
    // topologies interleaved on the same files (see `bench/io.rs`).
    let mut io = strings(&[
        &"io",
        &"--mode",
        &"all",
        &"--mib",
        &plan.io_mib,
        &"--scheduler",
        &"tpb",
    ]);
    if let Some(script) = gr {
        io.extend(["--gnuradio".to_string(), "--gr-script".to_string()]);
        io.push(script.display().to_string());
    }
    list.rfgraph("io".to_string(), &io);
    // Network blocks over loopback: one job runs ZeroMQ (tags or not) and
    // the UDP rate sweep, GNU Radio's ZeroMQ graphs interleaved (see
    // `bench/net.rs`).
    let mut net = strings(&[
        &"net",
        &"--mode",
        &"all",
        &"--items",
        &plan.net_items,
        &"--rates",
        &plan.net_rates,
        &"--udp-seconds",
        &plan.net_udp_seconds,
        &"--scheduler",
        &"tpb",
    ]);
    if let Some(script) = gr {
        net.extend(["--gnuradio".to_string(), "--gr-script".to_string()]);
        net.push(script.display().to_string());
    }
    list.rfgraph("net".to_string(), &net);
    // The FM receiver on one and two cores, GNU Radio's stock chain
    // interleaved on the same recording and cores (see `bench/fm.rs`).
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    for cores in [1usize, 2].into_iter().filter(|&c| c <= available) {
        let mut fm = strings(&[
            &"fm",
            &"--items",
            &plan.fm_items,
            &"--scheduler",
            &"chain",
            &"--cores",
            &cores,
        ]);
        if let Some(script) = gr {
            fm.extend(["--gnuradio".to_string(), "--gr-script".to_string()]);
            fm.push(script.display().to_string());
        }
        list.rfgraph(format!("fm stereo {cores} core(s)"), &fm);
    }
    // ADS-B: one job makes the files and runs rfgraph's receiver at 2 and
    // 2.4 MS/s and dump1090-mutability (when installed) on the same
    // recording, interleaved, on 1 core then 2 (see `bench/adsb/`; the
    // table's ratio is to dump1090-mutability, so the other peers are
    // left to `bench adsb` itself).
    let adsb = strings(&[
        &"adsb",
        &"--mib",
        &plan.adsb_mib,
        &"--scheduler",
        &"chain",
        &"--mode",
        &"rfgraph-2000,rfgraph-2400,dump1090-mutability",
    ]);
    list.rfgraph("adsb".to_string(), &adsb);
    // 802.11a/g: the receiver on 2 cores and 1 on a generated capture,
    // and the frames decoded at 25, 15 and 10 dB (see `bench/wlan.rs`);
    // `pool` spreads the decoders best.
    let wlan = strings(&[
        &"wlan",
        &"--frames",
        &plan.wlan_frames,
        &"--scheduler",
        &"pool",
    ]);
    list.rfgraph("wlan".to_string(), &wlan);
    // A Python block against GNU Radio's `gr.sync_block`, interleaved in
    // one job (see `bench/pyblock.rs`).
    if plan.pyblock_build || super::pyblock::default_python().exists() {
        let mut py = strings(&[
            &"pyblock",
            &"--items",
            &plan.pyblock_items.0,
            &"--empty-items",
            &plan.pyblock_items.1,
        ]);
        if gr.is_some() {
            py.push("--gnuradio".to_string());
        }
        list.rfgraph("pyblock".to_string(), &py);
    } else {
        errln!("pyblock skipped: no release venv yet (`rfgraph bench pyblock` makes it)");
    }
    if rfgraph_opencl::devices().is_ok_and(|d| !d.is_empty()) {
        let args = strings(&[
            &"accel",
            &"--sizes",
            &plan.accel_sizes,
            &"--buffers",
            &plan.accel_buffers,
            &"--mode",
            &"both",
        ]);
        list.rfgraph("accel".to_string(), &args);
    } else {
        errln!("no OpenCL device: the accel experiment is skipped");
    }
    // Paced bursts (1 ms apart) through N copies: latency, not throughput.
    for &rate in &plan.latency_rates {
        for &stages in &plan.latency_stages {
            let p = strings(&[
                &"--rate",
                &rate,
                &"--stages",
                &stages,
                &"--bursts",
                &plan.latency_bursts,
            ]);
            let label = format!("latency {} MS/s N={stages}", rate / 1e6);
            list.everywhere(&label, "latency", &p, false, true);
        }
    }
    // A light graph under a 2 ms latency budget: its p99 against the
    // budget, on every scheduler.
    let p = strings(&[
        &"--rate",
        &1e6,
        &"--stages",
        &10,
        &"--bursts",
        &plan.latency_bursts,
        &"--max-latency",
        &"2ms",
    ]);
    list.everywhere(
        "latency 1 MS/s N=10 budget 2ms",
        "latency",
        &p,
        false,
        false,
    );
    for &amount in &plan.load_amounts {
        for mode in ["intra", "inter"] {
            let p = strings(&[
                &"--workload",
                &"fpdiv",
                &"--amount",
                &amount,
                &"--threads",
                &2,
                &"--mode",
                &mode,
                &"--rate",
                &1_000_000,
                &"--duration",
                &plan.load_duration,
            ]);
            list.everywhere(
                &format!("load fpdiv {amount} {mode}"),
                "load",
                &p,
                false,
                false,
            );
        }
    }
    Ok(list.jobs)
}

fn run_job(job: &Job) -> anyhow::Result<Vec<Value>> {
    let out = Command::new(&job.program)
        .args(&job.args)
        .output()
        .with_context(|| format!("cannot start {}", job.program.display()))?;
    if !out.status.success() {
        bail!(
            "`{}` failed:\n{}",
            job.label,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str(l)
                .with_context(|| format!("`{}` printed non-JSON: {l}", job.label))
        })
        .collect()
}

/// Parameters that identify a table row. The `adsb` experiment's modes
/// (rfgraph at 2 and 2.4 MS/s, dump1090) decode one recording: one row
/// per core count.
fn row_key(r: &Value) -> String {
    if r["experiment"] == "adsb" {
        return format!("modes1 recording, cores={}", r["cores"]);
    }
    let keys = [
        "kernel", "taps", "pipes", "branches", "stages", "blocks", "cores", "items", "burst",
        "workload", "amount", "mode", "size_kb", "stateful", "fill", "rate", "chunk", "snr_db",
    ];
    keys.iter()
        .filter_map(|k| {
            r.get(*k)
                .map(|v| format!("{k}={}", v.as_str().map_or(v.to_string(), str::to_string)))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn rate_field(experiment: &str) -> &'static str {
    match experiment {
        "msg" => "messages_per_s",
        "load" => "quality",
        "accel" => "buffers_per_s",
        "io" => "bytes_per_s",
        "net" | "pyblock" => "items_per_s",
        "adsb" | "wlan" => "samples_per_s",
        // Wall time is the throttle's: what differs is the CPU it takes.
        "pacing" => "cpu_seconds",
        _ => "block_items_per_s",
    }
}

/// The markdown table: one row per experiment, parameters and series.
pub fn table(records: &[Value]) -> String {
    type Cell = (Vec<f64>, Vec<f64>);
    let mut rows: BTreeMap<(String, String), BTreeMap<String, Cell>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.get("record").is_none()) {
        let Some(experiment) = r["experiment"].as_str() else {
            continue;
        };
        if experiment == "latency" {
            // Percentiles, not a rate: its own table below.
            continue;
        }
        let cell = rows
            .entry((experiment.to_string(), row_key(r)))
            .or_default()
            .entry(series_name(
                r,
                if experiment == "adsb" { &["mode"] } else { &[] },
            ))
            .or_default();
        cell.0.push(r["seconds"].as_f64().unwrap_or(f64::NAN));
        cell.1
            .push(r[rate_field(experiment)].as_f64().unwrap_or(f64::NAN));
    }
    let mut md = if rows.is_empty() {
        String::new()
    } else {
        String::from(
            "| experiment | parameters | runtime/scheduler | seconds (mean ± 95% CI) | rate (mean; pacing: CPU seconds) | × GNU Radio (adsb: × dump1090) |\n|---|---|---|---|---|---|\n",
        )
    };
    for ((experiment, params), series) in &rows {
        let peer = |name: &str| name.starts_with("gnuradio") || name.starts_with("dump1090");
        let gr = series
            .iter()
            .find(|(name, _)| peer(name))
            .map(|(_, c)| Estimate::of(&c.1).mean);
        for (name, (secs, rates)) in series {
            let s = Estimate::of(secs);
            let rate = Estimate::of(rates).mean;
            let ratio = match gr {
                Some(g) if g > 0.0 && !peer(name) => format!("{:.2}", rate / g),
                _ => "–".to_string(),
            };
            let _ = writeln!(
                md,
                "| {experiment} | {params} | {name} | {:.4} ± {:.4} | {rate:.3e} {} | {ratio} |",
                s.mean,
                s.ci95,
                rate_field(experiment).replace("_per_s", "/s")
            );
        }
    }
    let latency = super::latency::table::table(records);
    if !latency.is_empty() {
        let _ = write!(
            md,
            "\nBurst latency (arrival − due time; mean over runs of each run's percentile):\n\n{latency}"
        );
    }
    md
}

/// Options of `rfgraph bench table`.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// JSONL result files.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
}

/// Runs `rfgraph bench table`: the suite's markdown table from any results.
pub fn run_table(args: &TableArgs) -> anyhow::Result<()> {
    let records = super::plot::read_records(&args.results)?;
    out!("{}", table(&records));
    Ok(())
}

/// Runs `rfgraph bench suite`.
pub fn run(args: &SuiteArgs) -> anyhow::Result<()> {
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("cannot create {}", args.output.display()))?;
    let gr = gr_script(args);
    let plan = Plan::new(args.quick);
    let jobs = jobs(&plan, gr.as_deref())?;
    let results_path = args.output.join("results.jsonl");
    let mut results = std::fs::File::create(&results_path)?;
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut records = Vec::new();
    for job in &jobs {
        bar.set_message(job.label.clone());
        let lines = run_job(job)?;
        for l in &lines {
            writeln!(results, "{l}")?;
        }
        records.extend(lines);
        bar.inc(1);
    }
    bar.finish_with_message("done");
    let figures: [(&str, &str, &str, &[&str]); 5] = [
        ("stream", "blocks", "seconds", &[]),
        ("msg", "blocks", "seconds", &[]),
        ("chain", "stages", "seconds", &[]),
        (
            "saxpy",
            "blocks",
            "block_items_per_s",
            &["cores", "fill", "stateful"],
        ),
        ("load", "amount", "quality", &["mode"]),
    ];
    for (experiment, x, y, split) in figures {
        let path = args.output.join(format!("{experiment}.png"));
        draw(&records, experiment, x, y, split, &path)?;
        errln!("wrote {}", path.display());
    }
    for path in super::latency::table::figures(&records, &args.output)? {
        errln!("wrote {}", path.display());
    }
    let mut md = table(&records);
    if records.iter().any(|r| r["experiment"] == "accel") {
        let _ = write!(
            md,
            "\nOpenCL device-resident chain (SCA/OpenCL paper Table 1), mean µs per buffer:\n\n{}",
            super::accel::ratio_table(&records)
        );
    }
    let summary = format!(
        "# rfgraph bench suite{}\n\nMachine: {} cores. GNU Radio: {}.\n\n{md}",
        if args.quick { " --quick" } else { "" },
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        if gr.is_some() {
            "3.10 (Debian)"
        } else {
            "skipped"
        },
    );
    std::fs::write(args.output.join("summary.md"), &summary)?;
    errln!(
        "wrote {} and {}",
        results_path.display(),
        args.output.join("summary.md").display()
    );
    outln!("{summary}");
    Ok(())
}
