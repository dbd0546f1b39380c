//! Runs the README's declared block (kept in `examples/declared_block.rs`)
//! so the README cannot drift from the declaration API.

#![allow(dead_code)]

include!("../examples/declared_block.rs");

#[test]
fn the_readme_block_declares_builds_runs_and_changes() {
    main().expect("the README's block works as it says");
}

/// The block as the README and `docs/architecture.md` show it: the
/// example up to its `main`.
fn shown_block() -> String {
    let example = include_str!("../examples/declared_block.rs");
    let start = example.find("use rfgraph::registry").unwrap();
    let end = example.find("fn main()").unwrap();
    example[start..end].trim_end().to_string()
}

#[test]
fn the_readme_and_the_architecture_show_the_block_as_it_is() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for doc in ["README.md", "docs/architecture.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(
            text.contains(&shown_block()),
            "{doc} does not show examples/declared_block.rs as it is (copy it up to `fn main`)"
        );
    }
}
