//! Runs the README's example (kept in `examples/readme.rs`) so the README
//! cannot drift from the API.

#![allow(dead_code)]

include!("../examples/readme.rs");

#[test]
fn readme_example_runs() {
    main().expect("the README example runs");
}
