//! The JSON contract of `rfgraph bench net`: one record per ZeroMQ run
//! (plain and tagged) with every item and every tag arrived (the command
//! fails otherwise), and one per UDP rate with the source's loss counters
//! consistent with the items that arrived. No timing: a loaded machine
//! may lose datagrams or fall behind, so loss is checked for consistency,
//! never required to be zero.

mod common;

use common::{assert_rate, assert_span, bench};
use serde_json::Value;

fn u(l: &Value, k: &str) -> u64 {
    l[k].as_u64().unwrap_or_else(|| panic!("{k} in {l}"))
}

#[test]
fn zmq_records_count_every_item_and_tag() {
    let (ok, lines, err) = bench(&[
        "net",
        "--mode",
        "zmq,zmq_tags",
        "--items",
        "1000000",
        "--tag-interval",
        "1000",
        "--repeat",
        "2",
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    let modes: Vec<&str> = lines.iter().map(|l| l["mode"].as_str().unwrap()).collect();
    assert_eq!(modes, ["zmq", "zmq_tags", "zmq", "zmq_tags"]);
    for l in &lines {
        assert_eq!(l["experiment"], "net", "{l}");
        assert_eq!(l["runtime"], "rfgraph", "{l}");
        assert_eq!(u(l, "items"), 1_000_000, "{l}");
        assert_span(l);
        assert_rate(l, "items_per_s", 1e6);
        assert_rate(l, "bytes_per_s", 8e6);
        // Every frame sent was received, and frames carried items.
        let frames = u(l, "frames");
        assert!(frames >= 1, "{l}");
        assert_eq!(u(l, "frames_received"), frames, "{l}");
        if l["mode"] == "zmq_tags" {
            assert_eq!(l["pass_tags"], true, "{l}");
            assert_eq!(u(l, "tag_interval"), 1000, "{l}");
            // Tags at 1000, 2000, …, 999 000: every one arrived.
            assert_eq!(u(l, "tags"), 999, "{l}");
        } else {
            assert_eq!(l["pass_tags"], false, "{l}");
            assert!(l["tags"].is_null(), "{l}");
        }
    }
    assert!(err.contains("tagged/untagged"), "{err}");
}

#[test]
fn udp_records_account_for_every_datagram() {
    let (ok, lines, err) = bench(&[
        "net",
        "--mode",
        "udp",
        "--rates",
        "1e6,4e6",
        "--udp-seconds",
        "0.1",
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (l, rate) in lines.iter().zip([1e6, 4e6]) {
        assert_eq!(l["experiment"], "net", "{l}");
        assert_eq!(l["mode"], "udp", "{l}");
        assert_eq!(l["rate"].as_f64(), Some(rate), "{l}");
        assert_span(l);
        let items = u(l, "items");
        assert_eq!(items as f64, rate * 0.1, "{l}");
        // The sender took every item; what arrived is what was sent less
        // what went missing.
        assert_eq!(u(l, "items_sent"), items, "{l}");
        let received = u(l, "items_received");
        assert!(received > 0, "no item arrived: {l}");
        assert_eq!(received + u(l, "items_missing"), items, "{l}");
        assert_rate(l, "items_per_s", received as f64);
        // 1472-byte datagrams: an 8-byte sequence number, 183 items.
        assert_eq!(u(l, "payloadsize"), 1472, "{l}");
        let datagrams = u(l, "datagrams_sent");
        assert_eq!(datagrams, items.div_ceil(183), "{l}");
        // Whatever arrived was counted, and the source's gap count
        // never exceeds what never came.
        let arrived = u(l, "datagrams");
        let lost = u(l, "datagrams_lost");
        assert!(arrived + lost <= datagrams, "{l}");
        assert_eq!(
            l["zero_loss"],
            lost == 0 && u(l, "datagrams_reordered") == 0 && received == items,
            "{l}"
        );
        assert!(
            l["kept_up"].is_boolean() && l["ended_by_eof"].is_boolean(),
            "{l}"
        );
        assert!(l["achieved_rate"].as_f64().is_some_and(|r| r > 0.0), "{l}");
    }
    assert!(err.contains("udp highest rate with zero loss"), "{err}");
}
