//! A flowgraph on two hosts, for real: two network namespaces joined by
//! a veth pair stand for two machines, and `rfgraph run FILE --host NAME`
//! runs each host's part in its own namespace. Items and tags must cross
//! end to end and both parts finish; a host killed mid-run makes the
//! other stop with an error naming it.
//!
//! Making namespaces needs root (CAP_NET_ADMIN) and iproute2's `ip`;
//! where that is not permitted the test says so and returns.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const WATCHDOG: Duration = Duration::from_secs(60);

/// Two namespaces joined by a veth pair, deleted when dropped.
struct TwoHosts {
    names: [String; 2],
    addresses: [String; 2],
}

impl TwoHosts {
    /// The pair, or why it cannot be made here.
    fn new(tag: &str) -> Result<Self, String> {
        let id = std::process::id() % 10_000;
        let names = [format!("rfg{id}{tag}a"), format!("rfg{id}{tag}b")];
        let subnet = 100 + (id % 100);
        let addresses = [format!("10.{subnet}.7.1"), format!("10.{subnet}.7.2")];
        let hosts = Self { names, addresses };
        let [a, b] = &hosts.names;
        let (veth_a, veth_b) = (format!("v{id}{tag}a"), format!("v{id}{tag}b"));
        ip(&["netns", "add", a])?;
        ip(&["netns", "add", b])?;
        ip(&[
            "link", "add", &veth_a, "type", "veth", "peer", "name", &veth_b,
        ])?;
        for (ns, veth, address) in [
            (a, &veth_a, &hosts.addresses[0]),
            (b, &veth_b, &hosts.addresses[1]),
        ] {
            ip(&["link", "set", veth, "netns", ns])?;
            ip(&[
                "-n",
                ns,
                "addr",
                "add",
                &format!("{address}/24"),
                "dev",
                veth,
            ])?;
            ip(&["-n", ns, "link", "set", veth, "up"])?;
            ip(&["-n", ns, "link", "set", "lo", "up"])?;
        }
        Ok(hosts)
    }

    /// `rfgraph ARGS` in host `i`'s namespace.
    fn rfgraph(&self, i: usize, args: &[&str], log: &Path) -> Child {
        Command::new("ip")
            .args([
                "netns",
                "exec",
                &self.names[i],
                env!("CARGO_BIN_EXE_rfgraph"),
            ])
            .args(args)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .expect("ip netns exec runs")
    }
}

impl Drop for TwoHosts {
    fn drop(&mut self) {
        for ns in &self.names {
            let _ = ip(&["netns", "del", ns]);
        }
    }
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run `ip` ({e}); apt-get install iproute2"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`ip {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The two hosts, or a SKIPPED line when this machine does not let the
/// test make them.
fn hosts(test: &str, tag: &str) -> Option<TwoHosts> {
    match TwoHosts::new(tag) {
        Ok(hosts) => Some(hosts),
        Err(why) => {
            eprintln!("SKIPPED {test}: network namespaces need root and iproute2 here: {why}");
            None
        }
    }
}

/// Waits for `child` at most the watchdog; its exit status.
fn wait(child: &mut Child, what: &str) -> std::process::ExitStatus {
    let deadline = Instant::now() + WATCHDOG;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The flowgraph file: `source` (blocks `src` and `first`) on `radio`,
/// cut into tagged packets of 10,000 items there, recorded as SigMF on
/// `dsp`.
fn flowgraph(dir: &Path, hosts: &TwoHosts, source: &str) -> PathBuf {
    let text = format!(
        r#"format = 1
connections = ["src -> first -> packets -> out"]

[hosts.radio]
address = "{radio}"

[hosts.dsp]
address = "{dsp}"

[links]
on_loss = "stop"
peer_timeout = "2s"
window = 262144

{source}
options = {{ host = "radio" }}

[blocks.packets]
kind = "stream_to_tagged_stream"
type = "c32"
packet_len = 10000
len_tag_key = "core:global_index"
options = {{ host = "radio" }}

[blocks.out]
kind = "sigmf_sink"
path = {{ text = "{out}" }}
sample_rate = 1e6
options = {{ host = "dsp" }}
"#,
        radio = hosts.addresses[0],
        dsp = hosts.addresses[1],
        out = dir.join("received").display(),
    );
    let path = dir.join("two_hosts.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rfgraph-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn items_and_tags_cross_from_one_host_to_the_other() {
    let Some(hosts) = hosts("two hosts", "x") else {
        return;
    };
    let dir = temp_dir("two-hosts");
    let source = r#"[blocks.src]
kind = "vector_source"
type = "c32"
values = "[1-1j, 2+0.5j, 3+0.25j, 4]"
repeat = true
options = { host = "radio" }

[blocks.first]
kind = "head"
type = "c32"
items = 200000"#;
    let file = flowgraph(&dir, &hosts, source);
    let file = file.to_str().unwrap();
    let mut dsp = hosts.rfgraph(1, &["run", file, "--host", "dsp"], &dir.join("dsp.log"));
    let mut radio = hosts.rfgraph(0, &["run", file, "--host", "radio"], &dir.join("radio.log"));
    let radio_ok = wait(&mut radio, "the radio host").success();
    let dsp_ok = wait(&mut dsp, "the dsp host").success();
    let logs = || {
        format!(
            "radio: {}\ndsp: {}",
            std::fs::read_to_string(dir.join("radio.log")).unwrap_or_default(),
            std::fs::read_to_string(dir.join("dsp.log")).unwrap_or_default()
        )
    };
    assert!(radio_ok && dsp_ok, "{}", logs());

    // Every item, in order.
    let data = std::fs::read(dir.join("received.sigmf-data")).unwrap();
    let items: Vec<[f32; 2]> = data
        .chunks_exact(8)
        .map(|c| {
            let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
            [f(&c[..4]), f(&c[4..])]
        })
        .collect();
    assert_eq!(items.len(), 200_000, "{}", logs());
    let want = [[1.0, -1.0], [2.0, 0.5], [3.0, 0.25], [4.0, 0.0]];
    assert!(items.iter().enumerate().all(|(i, x)| *x == want[i % 4]));
    // Every tag, on its item: one capture per packet of 10,000.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("received.sigmf-meta")).unwrap())
            .unwrap();
    let starts: Vec<u64> = meta["captures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["core:sample_start"].as_u64().unwrap())
        .collect();
    assert_eq!(starts, (0..20).map(|i| i * 10_000).collect::<Vec<u64>>());
}

#[test]
fn a_killed_host_makes_the_other_stop_naming_it() {
    let Some(hosts) = hosts("host killed", "k") else {
        return;
    };
    let dir = temp_dir("host-killed");
    let source = r#"[blocks.src]
kind = "sig_source"
type = "c32"
sample_rate = 1e6
frequency = 1e3
options = { host = "radio" }

[blocks.first]
kind = "throttle"
type = "c32"
sample_rate = 1e6"#;
    let file = flowgraph(&dir, &hosts, source);
    let file = file.to_str().unwrap();
    let mut dsp = hosts.rfgraph(1, &["run", file, "--host", "dsp"], &dir.join("dsp.log"));
    let mut radio = hosts.rfgraph(0, &["run", file, "--host", "radio"], &dir.join("radio.log"));
    // Once items flow, the radio host dies without a word.
    let data = dir.join("received.sigmf-data");
    let deadline = Instant::now() + WATCHDOG;
    while std::fs::metadata(&data).map_or(0, |m| m.len()) == 0 {
        assert!(Instant::now() < deadline, "no items reached the dsp host");
        std::thread::sleep(Duration::from_millis(20));
    }
    radio.kill().unwrap();
    let _ = radio.wait();
    let status = wait(&mut dsp, "the dsp host");
    let log = std::fs::read_to_string(dir.join("dsp.log")).unwrap();
    assert!(!status.success(), "{log}");
    assert!(log.contains("host `radio`"), "{log}");
}
