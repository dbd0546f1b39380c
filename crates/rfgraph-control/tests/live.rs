//! The live stream (`/api/flowgraphs/{fg}/live`) against a real server
//! on an ephemeral localhost port, with a real WebSocket client: stats
//! messages keep coming with rising counters, rates, statuses, edges and
//! cores; a display block's frames arrive with rising `seq`; the token
//! is enforced on the upgrade; bad queries are refused or clamped; what
//! a client sends never breaks the stream; removing the graph or
//! shutting the port down closes it with a close frame.

mod common;

use common::{WATCHDOG, connect, next_json, next_of, scope_graph};
use futures_util::SinkExt;
use rfgraph::scheduler::Tpb;
use rfgraph_control::{ControlOptions, ControlPort, ServedGraph};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

fn options(token: Option<&str>) -> ControlOptions {
    ControlOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: token.map(str::to_string),
    }
}

/// Runs `body` under the watchdog, so a hang fails the test.
async fn watchdog(body: impl std::future::Future<Output = ()>) {
    tokio::time::timeout(WATCHDOG, body)
        .await
        .expect("the test hung");
}

fn live_url(port: &ControlPort, query: &str) -> String {
    format!("ws://{}/api/flowgraphs/g/live?{query}", port.local_addr())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_and_frames_stream_while_the_graph_runs() {
    let running = scope_graph().start(Tpb::new()).unwrap();
    let port = ControlPort::start(options(None)).unwrap();
    port.serve(ServedGraph::new("g", running.handle()));
    watchdog(async {
        let mut ws = connect(&live_url(&port, "period_ms=100&frame_ms=50"))
            .await
            .expect("the upgrade");
        let mut stats: Vec<Value> = Vec::new();
        let mut seqs: Vec<u64> = Vec::new();
        while stats.len() < 4 || seqs.len() < 3 {
            let m = next_json(&mut ws).await.expect("the stream ended");
            match m["type"].as_str() {
                Some("stats") => stats.push(m),
                Some("frame") => {
                    assert_eq!(m["block"], "scope", "{m}");
                    assert_eq!(m["frame"]["points"], serde_json::json!([0.5, null]));
                    seqs.push(m["frame"]["seq"].as_u64().unwrap());
                }
                _ => panic!("an unknown message: {m}"),
            }
        }
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
        let produced: Vec<u64> = stats
            .iter()
            .map(|s| s["blocks"][0]["items_produced"].as_u64().unwrap())
            .collect();
        assert!(produced.windows(2).all(|w| w[0] < w[1]), "{produced:?}");
        for s in &stats[1..] {
            assert_eq!(s["state"], "running");
            assert!(s["time_s"].as_f64().unwrap() > 0.0);
            let src = &s["blocks"][0];
            assert_eq!(src["name"], "src");
            assert!(src["out_rate"].as_f64().unwrap() > 0.0, "{s}");
            assert!(s["blocks"][1]["in_rate"].as_f64().unwrap() >= 0.0);
            for b in s["blocks"].as_array().unwrap() {
                let status = b["status"].as_str().unwrap();
                assert!(
                    ["ok", "starving", "blocked", "idle", "done"].contains(&status),
                    "{b}"
                );
                assert!(b["work_share"].as_f64().unwrap() >= 0.0);
                for key in [
                    "work_calls",
                    "items_consumed",
                    "messages_handled",
                    "work_ns",
                ] {
                    assert!(b[key].is_u64(), "{key} in {b}");
                }
            }
            let edge = &s["edges"][0];
            assert_eq!(
                (edge["writer"].as_u64(), edge["reader"].as_u64()),
                (Some(0), Some(1))
            );
            assert_eq!(
                (edge["output"].as_str(), edge["input"].as_str()),
                (Some("out"), Some("in"))
            );
            assert!(edge["capacity"].as_u64().unwrap() > 0);
            assert!(edge["fill"].as_u64().unwrap() <= edge["capacity"].as_u64().unwrap());
            assert!(edge["fill_fraction"].as_f64().unwrap() <= 1.0);
            // tpb: a worker per block.
            let cores = s["cores"].as_array().unwrap();
            assert_eq!(cores.len(), 2, "{s}");
            assert_eq!(cores[1]["blocks"], serde_json::json!([1]));
            assert!(cores[0]["load"].as_f64().unwrap() >= 0.0);
        }
        ws.close(None).await.unwrap();
    })
    .await;

    // The description has the display's `display` reading and the
    // placement.
    let url = format!("http://{}/api/flowgraphs/g", port.local_addr());
    let g: Value = tokio::task::spawn_blocking(move || {
        ureq::get(&url)
            .call()
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap()
    })
    .await
    .unwrap();
    assert_eq!(g["blocks"][0]["display"], Value::Null);
    assert_eq!(
        g["blocks"][1]["display"],
        serde_json::json!({"kind": "scope", "y_range": [-1.0, 1.0]})
    );
    assert_eq!(
        g["placement"]["workers"][0]["blocks"],
        serde_json::json!([0])
    );
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_guards_the_websocket() {
    let running = scope_graph().start(Tpb::new()).unwrap();
    let port = ControlPort::start(options(Some("s3cret"))).unwrap();
    port.serve(ServedGraph::new("g", running.handle()));
    watchdog(async {
        assert_eq!(connect(&live_url(&port, "")).await.err(), Some(401));
        assert_eq!(
            connect(&live_url(&port, "token=wrong")).await.err(),
            Some(401)
        );
        let mut ws = connect(&live_url(&port, "token=s3cret&period_ms=50"))
            .await
            .expect("the upgrade with the token");
        assert!(next_of(&mut ws, "stats").await.is_some());
    })
    .await;
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_queries_are_refused_or_clamped_and_client_noise_is_ignored() {
    let running = scope_graph().start(Tpb::new()).unwrap();
    let port = ControlPort::start(options(None)).unwrap();
    port.serve(ServedGraph::new("g", running.handle()));
    watchdog(async {
        for bad in ["period_ms=abc", "frame_ms=-5", "period_ms=1e99"] {
            assert_eq!(
                connect(&live_url(&port, bad)).await.err(),
                Some(400),
                "{bad}"
            );
        }
        let missing = format!("ws://{}/api/flowgraphs/nope/live", port.local_addr());
        assert_eq!(connect(&missing).await.err(), Some(404));
        // Out of range: clamped, and the stream runs.
        let mut ws = connect(&live_url(&port, "period_ms=1&frame_ms=999999999"))
            .await
            .expect("a clamped upgrade");
        assert!(next_of(&mut ws, "stats").await.is_some());
        for noise in [
            Message::text("not json"),
            Message::text("{\"period_ms\": \"fast\"}"),
            Message::text("[1, 2]"),
            Message::text("{\"period_ms\": -1}"),
            Message::binary(vec![0u8, 159, 146, 150]),
            Message::Ping(vec![1u8].into()),
            Message::text("{\"period_ms\": 50, \"frame_ms\": 0}"),
        ] {
            ws.send(noise).await.unwrap();
        }
        for _ in 0..3 {
            assert!(next_of(&mut ws, "stats").await.is_some());
        }
    })
    .await;
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
}

/// Reads until the server's close frame; its code (`None` if the stream
/// ended without one).
async fn close_code(ws: &mut common::Socket) -> Option<u16> {
    use futures_util::StreamExt;
    while let Some(m) = ws.next().await {
        match m {
            Ok(Message::Close(frame)) => return frame.map(|f| f.code.into()),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_end_with_a_close_frame() {
    let running = scope_graph().start(Tpb::new()).unwrap();
    let port = ControlPort::start(options(None)).unwrap();
    port.serve(ServedGraph::new("g", running.handle()));
    let port2 = ControlPort::start(options(None)).unwrap();
    port2.serve(ServedGraph::new("g", running.handle()));
    watchdog(async {
        // The graph removed: 1001.
        let mut ws = connect(&live_url(&port, "period_ms=50")).await.unwrap();
        assert!(next_of(&mut ws, "stats").await.is_some());
        assert!(port.unserve("g"));
        assert_eq!(close_code(&mut ws).await, Some(1001));

        // The port shut down: 1001 too.
        let mut ws = connect(&live_url(&port2, "period_ms=5000")).await.unwrap();
        assert!(next_of(&mut ws, "stats").await.is_some());
        tokio::task::spawn_blocking(move || port2.shutdown())
            .await
            .unwrap();
        assert_eq!(close_code(&mut ws).await, Some(1001));
    })
    .await;
    running.handle().stop();
    running.wait_timeout(WATCHDOG).unwrap();
}
