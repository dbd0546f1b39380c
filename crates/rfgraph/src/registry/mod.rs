//! The block registry: every library block under a stable name, with
//! typed parameters, ports, documentation and a constructor, so that
//! flowgraph files, GNU Radio Companion import, the command line, the
//! control port and Python all build blocks the same way.
//!
//! Block crates describe each block with a [`BlockSpec`] written next to
//! the block (its parameters are a [`ParamSet`](crate::params::ParamSet),
//! see [`BlockSpec::of`]) and hand the runtime's [`Registry`] their list;
//! the flowgraph-file crate collects every crate's list and adds the file
//! formats. This module owns the description types and the lookup; it
//! knows no block and no file format.

mod spec;
pub mod suggest;

pub use crate::params::{BuildError, ItemKind, ParamSpec};
pub use spec::{BlockSpec, PortItem, PortSpec};

use crate::block::Block;
use crate::pmt::Pmt;
use std::collections::BTreeMap;

/// A name the registry does not know.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("no block named `{name}`{}", .suggest.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
pub struct UnknownBlock {
    /// The name asked for.
    pub name: String,
    /// The closest registered name, if one is close.
    pub suggest: Option<String>,
}

/// Registered blocks by name.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    specs: BTreeMap<&'static str, BlockSpec>,
    /// Other names for registered blocks (GNU Radio's block ids).
    aliases: BTreeMap<&'static str, &'static str>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `spec`.
    ///
    /// # Panics
    /// If a block of that name is registered already: two blocks under
    /// one stable name are a programming error of the block crates.
    pub fn add(&mut self, spec: BlockSpec) -> &mut Self {
        let name = spec.name;
        assert!(
            self.specs.insert(name, spec).is_none(),
            "two blocks registered as `{name}`"
        );
        self
    }

    /// Registers every spec of `specs`.
    pub fn extend(&mut self, specs: impl IntoIterator<Item = BlockSpec>) -> &mut Self {
        for spec in specs {
            self.add(spec);
        }
        self
    }

    /// Makes `alias` (a GNU Radio block id such as `analog_sig_source_x`)
    /// another name of the registered block `name`; ignored when `name`
    /// is not registered or `alias` is a block's own name.
    pub fn alias(&mut self, alias: &'static str, name: &'static str) -> &mut Self {
        if self.specs.contains_key(name) && !self.specs.contains_key(alias) {
            self.aliases.insert(alias, name);
        }
        self
    }

    /// The registered name `alias` stands for, when it is an alias.
    pub fn alias_of(&self, alias: &str) -> Option<&'static str> {
        self.aliases.get(alias).copied()
    }

    /// The block called `name` (or a name [`alias`](Self::alias)ed to it).
    pub fn get(&self, name: &str) -> Result<&BlockSpec, UnknownBlock> {
        let name = self.alias_of(name).unwrap_or(name);
        self.specs.get(name).ok_or_else(|| UnknownBlock {
            name: name.to_string(),
            suggest: suggest::closest(name, self.specs.keys().copied()).map(str::to_string),
        })
    }

    /// Every block, by category then name.
    pub fn specs(&self) -> Vec<&BlockSpec> {
        let mut all: Vec<&BlockSpec> = self.specs.values().collect();
        all.sort_by_key(|s| (s.category, s.name));
        all
    }

    /// Number of registered blocks.
    pub fn len(&self) -> usize {
        self.specs.len()
    }

    /// True when nothing is registered.
    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// Builds the block `name` from `params`.
    pub fn build(
        &self,
        name: &str,
        params: BTreeMap<String, Pmt>,
    ) -> Result<Box<dyn Block>, BuildError> {
        let spec = self.get(name).map_err(|e| BuildError::Block {
            block: name.to_string(),
            reason: e.to_string(),
        })?;
        spec.build(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::WorkIo;
    use crate::error::BoxError;
    use crate::port::Ports;
    use crate::port::stream::StreamOutput;
    use crate::{Flowgraph, Item};

    /// Writes `value` `count` times.
    struct Fill<T: Item> {
        output: StreamOutput<T>,
        value: T,
        left: u64,
    }

    impl<T: Item> Block for Fill<T> {
        fn ports(&mut self) -> Ports<'_> {
            Ports::new().output(&mut self.output)
        }
        fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
            let o = self.output.slice();
            let n = o.len().min(self.left as usize);
            o[..n].fill(self.value);
            self.output.produce(n);
            self.left -= n as u64;
            if self.left == 0 {
                io.finish();
            }
            Ok(())
        }
    }

    /// The parameters of `fill`.
    #[derive(crate::ParamSet, Clone, Debug)]
    struct FillParams {
        /// items
        count: u64,
        /// the value written
        #[param(default = 0.0)]
        value: f64,
        /// stream item type
        #[param(name = "type", kinds(F32, F64, I16))]
        item: ItemKind,
    }

    fn fill_spec() -> BlockSpec {
        BlockSpec::of::<FillParams>("fill", "Sources", "Writes one value N times.", |p| {
            crate::for_item_kinds!(p.item, { F32 => f32, F64 => f64, I16 => i16 } as T
                => Fill::<T> { output: StreamOutput::new("out"), value: p.value as T, left: p.count })
        })
        .output(PortSpec::new("out", PortItem::OfType))
    }

    fn params(pairs: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn a_registered_block_is_built_by_name_for_its_item_type() {
        let mut registry = Registry::new();
        registry.add(fill_spec());
        let block = registry
            .build(
                "fill",
                params(&[
                    ("count", Pmt::U64(10)),
                    ("value", Pmt::F64(2.5)),
                    ("type", Pmt::from("f64")),
                ]),
            )
            .unwrap();
        let mut fg = Flowgraph::new();
        let id = fg.add_boxed("src", "fill", block);
        assert_eq!(fg.len(), 1);
        let any: &dyn std::any::Any = fg.blocks[id.0].block.as_ref();
        let fill = any.downcast_ref::<Fill<f64>>().expect("built for f64");
        assert_eq!((fill.value, fill.left), (2.5, 10));
    }

    #[test]
    fn an_alias_finds_its_block_and_never_shadows_one() {
        let mut registry = Registry::new();
        registry.add(fill_spec());
        registry
            .alias("gr_fill_x", "fill")
            .alias("gr_missing", "nothing");
        assert_eq!(registry.get("gr_fill_x").unwrap().name, "fill");
        assert_eq!(registry.alias_of("gr_fill_x"), Some("fill"));
        assert!(registry.get("gr_missing").is_err());
        registry.alias("fill", "fill");
        assert_eq!(registry.alias_of("fill"), None);
    }

    #[test]
    fn unknown_names_and_unsupported_types_are_errors_with_suggestions() {
        let mut registry = Registry::new();
        registry.add(fill_spec());
        let e = registry.get("fil").unwrap_err();
        assert_eq!(e.to_string(), "no block named `fil` (did you mean `fill`?)");
        let e = registry
            .build(
                "fill",
                params(&[("count", Pmt::U64(1)), ("type", Pmt::from("c32"))]),
            )
            .err()
            .unwrap();
        assert!(e.to_string().contains("not one of f32, f64, i16"), "{e}");
        assert_eq!(registry.specs().len(), 1);
    }

    #[test]
    #[should_panic(expected = "two blocks registered as `fill`")]
    fn a_name_is_registered_once() {
        let mut registry = Registry::new();
        registry.add(fill_spec()).add(fill_spec());
    }
}
