//! `rfgraph check` must refuse what `rfgraph run` refuses, and neither may
//! panic or abort on the numbers an untrusted file gives. For every
//! registered block and every parameter, in turn, this gives extreme
//! values (0, −1, 1e−30, 1e12, 1e300, 300, a fraction, empty and long
//! vectors, unknown text) with the other parameters at their defaults,
//! and compares what the spec's check says with what building says.
//!
//! `RFGRAPH_CHECK_BLOCKS=sig_source,head` limits the run to those blocks
//! (one block's failures at a time, when another aborts the process).

use rfgraph::Pmt;
use rfgraph::params::ParamType;
use rfgraph::registry::BlockSpec;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The values tried for a parameter of type `ty`.
fn extremes(ty: ParamType) -> Vec<Pmt> {
    let numbers = [0.0, -1.0, 1e-30, 1e12, 1e300, 300.0, 0.5, -300.0, 4.0];
    match ty {
        ParamType::Int | ParamType::UInt | ParamType::Float | ParamType::Complex => {
            numbers.iter().map(|&v| Pmt::F64(v)).collect()
        }
        ParamType::Bool => vec![Pmt::Bool(true), Pmt::Bool(false)],
        ParamType::String => vec![Pmt::from(""), Pmt::from("nonsense")],
        ParamType::FloatVec | ParamType::ComplexVec => vec![
            Pmt::VecF32(vec![]),
            Pmt::VecF32(vec![1e30; 3]),
            Pmt::VecF32(vec![0.0; 5]),
        ],
        ParamType::IntVec => vec![
            Pmt::List(vec![]),
            Pmt::List(vec![Pmt::I64(-1)]),
            Pmt::List(vec![Pmt::I64(0); 3]),
        ],
        ParamType::Any => vec![Pmt::Null, Pmt::F64(1e12), Pmt::from("x")],
    }
}

/// Values every build needs: a scratch path for required paths.
fn base(spec: &BlockSpec, dir: &std::path::Path) -> BTreeMap<String, Pmt> {
    spec.params
        .iter()
        .filter(|p| p.default.is_none() && p.ty == ParamType::String)
        .map(|p| {
            let path = dir.join(format!("{}-{}.raw", spec.name, p.name));
            (
                p.name.to_string(),
                Pmt::from(path.to_string_lossy().as_ref()),
            )
        })
        .collect()
}

#[test]
fn check_refuses_exactly_what_building_refuses_and_neither_panics() {
    let dir = std::env::temp_dir().join(format!("rfgraph-check-is-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let registry = rfgraph_flowfile::standard::registry();
    let only: Option<Vec<String>> = std::env::var("RFGRAPH_CHECK_BLOCKS")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    // The panics are caught and reported below; their messages would only
    // bury the report.
    std::panic::set_hook(Box::new(|_| {}));
    let (mut tried, mut failures) = (0, Vec::new());
    for spec in registry.specs() {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|n| n == spec.name))
        {
            continue;
        }
        let base = base(spec, &dir);
        for param in &spec.params {
            for value in extremes(param.ty) {
                let mut given = base.clone();
                given.insert(param.name.to_string(), value.clone());
                let case = format!("{}.{} = {value:?}", spec.name, param.name);
                tried += 1;
                let checked = catch_unwind(AssertUnwindSafe(|| spec.check(given.clone())));
                let Ok(checked) = checked else {
                    failures.push(format!("{case}: check panicked"));
                    continue;
                };
                if checked.is_err() {
                    // Building runs the same checks first.
                    continue;
                }
                match catch_unwind(AssertUnwindSafe(|| spec.build(given))) {
                    Err(_) => failures.push(format!("{case}: building panicked")),
                    Ok(Err(e)) => {
                        failures.push(format!("{case}: check says ok, building says: {e}"))
                    }
                    Ok(Ok(_)) => {}
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::panic::take_hook();
    assert!(tried > 1000 || only.is_some(), "{tried}");
    assert!(
        failures.is_empty(),
        "{} of {tried} cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
