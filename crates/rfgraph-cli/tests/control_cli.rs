//! `rfgraph run FILE --control ADDR`: the running graph on a control
//! port. A real HTTP client finds the graph where the CLI says it is,
//! sets a variable (the block's product changes in the file it writes),
//! and stops the run, which then ends cleanly; the README's example
//! (`examples/flowgraphs/tone_control.toml`) answers as it says.

use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const GRAPH: &str = r#"format = 1
connections = ["src -> thr -> mul -> snk"]
[variables]
gain = { value = 0, settable = true }
[blocks.src]
kind = "const_source"
type = "f32"
constant = 2.0
[blocks.thr]
kind = "throttle"
type = "f32"
sample_rate = 200000
[blocks.mul]
kind = "multiply_const"
type = "f32"
constant = "10 ** (gain / 20)"
[blocks.snk]
kind = "file_sink"
type = "f32"
path = "out.f32"
"#;

fn written(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[path = "common/served.rs"]
mod served;

use served::Served;

/// `rfgraph run FILE --control 127.0.0.1:0` in `dir`, serving graph
/// `name`, which it names in the URL it prints.
fn start(dir: &Path, file: &str, name: &str) -> Served {
    let run = Served::start(dir, &["run", file, "--control", "127.0.0.1:0"], name, None);
    run.check(|r| {
        assert!(
            r.printed.ends_with(&format!("/api/flowgraphs/{name}")),
            "{}",
            r.printed
        )
    });
    run
}

#[test]
fn the_control_port_serves_sets_and_stops_a_run() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("control_cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ctl.toml"), GRAPH).unwrap();
    let run = start(&dir, "ctl.toml", "ctl");
    run.check(|r| {
        let graph = r.get("");
        assert_eq!(graph["blocks"].as_array().unwrap().len(), 4, "{graph}");
        assert_eq!(
            r.get("/variables"),
            json!([{"name": "gain", "value": "0", "label": null, "widget": null}])
        );
        let out = dir.join("out.f32");
        let wait_for = |value: f32| {
            let deadline = Instant::now() + Duration::from_secs(30);
            while !written(&out).contains(&value) {
                assert!(Instant::now() < deadline, "no {value} written in time");
                std::thread::sleep(Duration::from_millis(20));
            }
        };
        wait_for(2.0);
        let (code, change) = r.send(true, "/variables/gain", "20");
        assert_eq!(code, 200, "{change}");
        assert_eq!(change["applied"][0]["name"], "mul.constant", "{change}");
        wait_for(20.0);
    });
    run.stop();
}

#[test]
fn the_readme_example_answers_as_it_says() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let run = start(
        &dir,
        "examples/flowgraphs/tone_control.toml",
        "tone_control",
    );
    run.check(|r| {
        let names: Vec<String> = r
            .get("/variables")
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["freq", "amplitude", "level"]);
        let (code, change) = r.send(true, "/variables/amplitude", "0.25");
        assert_eq!(code, 200, "{change}");
        assert_eq!(
            change["applied"],
            json!([{"name": "tone.amplitude", "value": "0.25"}])
        );
        let a = r.get("/blocks/tone/params/amplitude");
        assert_eq!(a["value"]["value"], 0.25, "{a}");
        // The probe's level is a sample of the tone, which never leaves
        // its amplitude once the new one has reached the probe.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let level = r.get("/blocks/probe/readings/level");
            let v = level["value"]["value"].as_f64().unwrap_or(f64::NAN);
            assert!(v.abs() <= 0.5 + 1e-6, "{level}");
            let stats = r.get("/stats");
            assert!(
                stats["blocks"][2]["items_consumed"].as_u64().is_some(),
                "{stats}"
            );
            if v != 0.0 && v.abs() <= 0.25 + 1e-6 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the level never followed: {level}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    run.stop();
}
