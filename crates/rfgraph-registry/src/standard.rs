//! The standard registry: every block of the library crates.

use rfgraph::registry::Registry;

/// A registry of every library block.
pub fn registry() -> Registry {
    Registry::new()
}
