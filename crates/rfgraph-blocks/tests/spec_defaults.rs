//! Every registry entry of this crate builds from its defaults alone, its
//! settable parameters are exactly the built block's settings, its names
//! are unique, and every parameter is documented.

use rfgraph::registry::Registry;
use std::collections::BTreeMap;

#[test]
fn every_spec_builds_from_its_defaults_with_matching_settings() {
    let specs = rfgraph_blocks::registry::specs();
    let mut names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    let all = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all, "a name is listed twice");
    let mut registry = Registry::new();
    registry.extend(specs.clone());
    for spec in &specs {
        assert!(!spec.summary.is_empty(), "{}: no summary", spec.name);
        let block = registry
            .build(spec.name, BTreeMap::new())
            .unwrap_or_else(|e| panic!("{} does not build from its defaults: {e}", spec.name));
        let mut settable: Vec<&str> = spec
            .params
            .iter()
            .filter(|p| p.settable)
            .map(|p| p.name)
            .collect();
        let mut settings: Vec<&str> = block.settings().iter().map(|i| i.name).collect();
        settable.sort();
        settings.sort();
        assert_eq!(
            settable, settings,
            "{}: settable parameters vs settings",
            spec.name
        );
        for p in &spec.params {
            assert!(
                !p.doc.is_empty(),
                "{}: parameter `{}` has no doc",
                spec.name,
                p.name
            );
        }
    }
}
