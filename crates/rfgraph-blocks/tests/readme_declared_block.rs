//! Runs the README's declared block (kept in `examples/declared_block.rs`)
//! so the README cannot drift from the declaration API.

#![allow(dead_code)]

include!("../examples/declared_block.rs");

#[test]
fn the_readme_block_declares_builds_runs_and_changes() {
    main().expect("the README's block works as it says");
}
