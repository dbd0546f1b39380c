//! The JSON contract of `rfgraph bench pacing`: one record per run of the
//! throttled graph, with the exact item count the file sink wrote (the
//! command fails otherwise), the process's CPU time and the throttle's
//! work calls. No timing: CPU and calls are checked for consistency,
//! never for size (a throttle that starts late releases what is due at
//! once, so even the number of pieces depends on the machine).

mod common;

use common::{assert_rate, assert_span, bench};

#[test]
fn pacing_reports_cpu_and_throttle_calls_for_an_exact_run() {
    for scheduler in ["tpb", "single", "pool", "chain"] {
        let (ok, lines, err) = bench(&[
            "pacing",
            "--seconds",
            "0.05",
            "--rate",
            "32000",
            "--scheduler",
            scheduler,
            "--repeat",
            "2",
        ]);
        assert!(ok, "{scheduler}: {err}");
        assert_eq!(lines.len(), 2, "{scheduler}: {lines:?}");
        for l in &lines {
            assert_eq!(l["experiment"], "pacing", "{l}");
            assert_eq!(l["items"], 1600, "{l}");
            assert_span(l);
            let f = |k: &str| l[k].as_f64().unwrap_or_else(|| panic!("{k} in {l}"));
            let (user, system) = (f("cpu_user_seconds"), f("cpu_system_seconds"));
            assert!(user >= 0.0 && system >= 0.0, "{l}");
            assert!((f("cpu_seconds") - (user + system)).abs() < 1e-9, "{l}");
            // CPU seconds per wall second of the run.
            assert_rate(l, "cpu_share", f("cpu_seconds"));
            // The throttle's own count, among every block's.
            let calls = f("throttle_work_calls");
            assert!(calls >= 1.0, "{l}");
            assert_eq!(l["work_calls"]["throttle"].as_f64(), Some(calls), "{l}");
            // A number, or null when the run was too short to show the
            // retune past the filter's start-up.
            let reaction = &l["reaction_seconds"];
            assert!(reaction.is_number() || reaction.is_null(), "{l}");
        }
    }
}
