//! The standard registry: every block of the library crates, collected
//! from each crate's `registry::specs()`, and GNU Radio's block ids as
//! other names of the blocks that stand for them (from the GRC mapping),
//! so that `analog_sig_source_x` finds `sig_source`.

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
        .extend(rfgraph_wlan::block::specs())
        .extend(rfgraph_hw::registry::specs())
        .extend(rfgraph_net::registry::specs())
        .extend([
            crate::lambda::spec(),
            crate::var_requests::unbound_spec(),
            crate::python::spec(),
        ]);
    for m in crate::grc::mapping::all() {
        registry.alias(m.gr, m.rf);
    }
    registry
}
