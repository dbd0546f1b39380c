//! The shipped example's expected output, `examples/adsb/traffic.
//! expected.jsonl` and `traffic.table.txt`, is what rfgraph's tests
//! compare `rfgraph adsb` with (rfgraph-cli's `adsb_cli`, rfgraph-
//! registry's `examples`). rfgraph wrote those files, so here every fact
//! in them is established by sources other than rfgraph: pyModeS decodes
//! every frame (parity, address, every field, every position, and the
//! table's values from the same frames), and the generator's truth
//! (`traffic.truth.jsonl`) says each frame was sent, by whom, at what
//! level, encoding what, that every frame a receiver must decode is
//! there, and what the table's aircraft sent. `pymodes/example.py` says
//! exactly what is compared.

use crate::pymodes::{python, run_script};
use std::io::Write;
use std::path::Path;

#[test]
fn the_examples_expected_output_agrees_with_pymodes_and_the_truth() {
    let test = "the_examples_expected_output_agrees_with_pymodes_and_the_truth";
    let Some(py) = python(test) else {
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/adsb");
    let (ok, report) = run_script(&py, "example.py", &[dir.to_str().unwrap()]);
    assert!(ok, "the example's expected output disagrees:\n{report}");
    // Every kind of fact was compared, against both sources.
    for field in [
        "crc",
        "callsign",
        "squawk",
        "altitude_ft",
        "flight_status",
        "capability",
        "ground_speed_kt",
        "track_deg",
        "vertical_rate_fpm",
        "position (pair)",
        "position (local_receiver)",
        "position (pyModeS pairs)",
        "position (truth)",
        "level (truth)",
        "required",
        "callsign (truth)",
        "squawk (truth)",
        "flight_status (truth)",
        "capability (truth)",
        "ground_speed_kt (truth)",
        "vertical_rate_fpm (truth)",
        "table position",
        "table position (truth)",
        "table gs_kt (truth)",
        "table closing line",
    ] {
        assert!(
            report.contains(&format!("{field} ")),
            "{field} never compared: {report}"
        );
    }
    let _ = writeln!(std::io::stderr().lock(), "{report}");
}
