//! The JSON contract of `rfgraph bench control`: a short smoke run in
//! which every REST request is answered, every WebSocket client connects
//! and receives stats, and both throughputs and memory figures are
//! reported. No assertion on the ratio: a loaded machine decides it.

// `assert_rate` is for rates over `seconds`; this record has none.
#[allow(dead_code)]
mod common;

use common::{assert_span, bench};

#[test]
fn a_smoke_run_answers_every_request() {
    let (ok, lines, err) = bench(&["control", "--seconds", "1", "--clients", "2", "--rps", "10"]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let l = &lines[0];
    assert_eq!(l["experiment"], "control", "{l}");
    assert_eq!(l["scheduler"], "chain", "{l}");
    assert_span(l);
    let u = |k: &str| l[k].as_u64().unwrap_or_else(|| panic!("{k} in {l}"));
    assert!(u("requests_sent") > 0, "{l}");
    assert_eq!(u("requests_answered"), u("requests_sent"), "{l}");
    assert_eq!(u("requests_failed"), 0, "{l}");
    assert_eq!(u("ws_connected"), 2, "{l}");
    assert!(u("ws_messages") >= 2, "{l}");
    for k in ["items_per_s_alone", "items_per_s_loaded", "ratio"] {
        assert!(l[k].as_f64().is_some_and(|v| v > 0.0), "{k} in {l}");
    }
    for k in ["rss_peak_kb_alone", "rss_peak_kb_loaded"] {
        assert!(u(k) > 0, "{k} in {l}");
    }
    assert!(u("rss_peak_kb_loaded") >= u("rss_peak_kb_alone"), "{l}");
    assert!(err.contains("loaded / alone throughput"), "{err}");
}
