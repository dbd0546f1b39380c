//! The standard registry: every block of the library crates, collected
//! from each crate's `registry::specs()`.

use rfgraph::registry::Registry;

/// A registry of every library block.
///
/// # Panics
/// If two crates register the same name (a programming error the tests
/// catch).
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .extend(rfgraph_blocks::registry::specs())
        .extend(rfgraph_radio::registry::specs())
        .extend(rfgraph_hw::registry::specs())
        .extend(rfgraph_net::registry::specs());
    registry
}
