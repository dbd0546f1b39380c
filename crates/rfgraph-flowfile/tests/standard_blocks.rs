//! Every block of the standard registry builds from its defaults for every
//! item type it accepts, declares exactly the settable parameters its
//! built block has, and names exactly the ports the built block has.

use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
use rfgraph::{Block, ItemType, Pmt};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A scratch directory for the files sources read and sinks write.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rfgraph-reg-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A SigMF recording of 16 zero samples of `datatype`, item size `bytes`.
fn sigmf(dir: &Scratch, name: &str, datatype: &str, bytes: usize) -> PathBuf {
    let meta = dir.path(&format!("{name}.sigmf-meta"));
    std::fs::write(
        &meta,
        format!(
            r#"{{"global": {{"core:datatype": "{datatype}", "core:version": "1.0.0", "core:sample_rate": 1000}},
               "captures": [{{"core:sample_start": 0}}], "annotations": []}}"#
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path(&format!("{name}.sigmf-data")),
        vec![0u8; 16 * bytes],
    )
    .unwrap();
    meta
}

/// A mono 16-bit WAV file of 8 zero frames at 8 kHz.
fn wav(path: &Path) {
    let data = 16u32;
    let mut b = Vec::new();
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&(36 + data).to_le_bytes());
    b.extend_from_slice(b"WAVEfmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes()); // PCM
    b.extend_from_slice(&1u16.to_le_bytes()); // mono
    b.extend_from_slice(&8000u32.to_le_bytes());
    b.extend_from_slice(&16000u32.to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&16u16.to_le_bytes());
    b.extend_from_slice(b"data");
    b.extend_from_slice(&data.to_le_bytes());
    b.extend_from_slice(&[0u8; 16]);
    std::fs::write(path, b).unwrap();
}

/// Values for the parameters that have no default, by block and type.
fn required(dir: &Scratch, spec: &BlockSpec, kind: Option<ItemKind>) -> BTreeMap<String, Pmt> {
    let mut given = BTreeMap::new();
    let path = |p: PathBuf| Pmt::from(p.to_string_lossy().into_owned());
    for param in spec.params.iter().filter(|p| p.default.is_none()) {
        let value = match (spec.name, param.name) {
            ("head", "items") => Pmt::U64(10),
            ("file_source", "path") => {
                let file = dir.path("source.raw");
                std::fs::write(&file, vec![0u8; 128]).unwrap();
                path(file)
            }
            ("sigmf_source", "path") => match kind {
                Some(ItemKind::F32) => path(sigmf(dir, "real", "rf32_le", 4)),
                _ => path(sigmf(dir, "complex", "cf32_le", 8)),
            },
            ("wavfile_source", "path") => {
                let file = dir.path("source.wav");
                wav(&file);
                path(file)
            }
            (_, "path") => path(dir.path(&format!(
                "{}-{}.out",
                spec.name,
                kind.map_or("any", ItemKind::name)
            ))),
            (block, name) => panic!("add a value for `{block}`'s required `{name}` to the test"),
        };
        given.insert(param.name.to_string(), value);
    }
    given
}

fn item_type(kind: ItemKind) -> ItemType {
    match kind {
        ItemKind::F32 => ItemType::of::<f32>(),
        ItemKind::C32 => ItemType::of::<Complex32>(),
        ItemKind::F64 => ItemType::of::<f64>(),
        ItemKind::I32 => ItemType::of::<i32>(),
        ItemKind::I16 => ItemType::of::<i16>(),
        ItemKind::I8 => ItemType::of::<i8>(),
        ItemKind::U8 => ItemType::of::<u8>(),
    }
}

/// Checks the built block's stream ports against `specs`: names (repeated
/// ports as `name0`, `name1`, ...) and item types.
fn check_ports(
    block: &BlockSpec,
    specs: &[PortSpec],
    names: &[String],
    types: &[ItemType],
    optional: &[bool],
    kind: Option<ItemKind>,
) {
    let mut at = 0;
    for spec in specs {
        let matching: Vec<usize> = match spec.count {
            None => (at..names.len().min(at + 1))
                .filter(|&i| names[i] == spec.name)
                .collect(),
            Some(_) => (at..names.len())
                .take_while(|&i| {
                    names[i]
                        .strip_prefix(spec.name)
                        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                })
                .collect(),
        };
        assert!(
            !matching.is_empty(),
            "`{}`: no port `{}` in {names:?}",
            block.name,
            spec.name
        );
        for i in &matching {
            let want = match &spec.item {
                PortItem::Fixed(k) => Some(item_type(*k)),
                PortItem::OfType => Some(item_type(kind.expect("a typed block has `type`"))),
                // Built from its defaults: the parameter's default names it.
                PortItem::OfParam(param) => {
                    match block.param_spec(param).and_then(|p| p.default.as_ref()) {
                        Some(Pmt::String(s)) => ItemKind::parse(s).map(item_type),
                        _ => None,
                    }
                }
                PortItem::Other(_) => None,
            };
            if let Some(want) = want {
                assert_eq!(types[*i], want, "`{}` port `{}`", block.name, names[*i]);
            }
            assert_eq!(
                optional[*i], spec.optional,
                "`{}` port `{}`: optional in the block vs the spec",
                block.name, names[*i]
            );
        }
        at += matching.len();
    }
    assert_eq!(
        at,
        names.len(),
        "`{}`: undeclared ports in {names:?}",
        block.name
    );
}

/// Checks one built block against its spec.
fn check_block(spec: &BlockSpec, block: &mut dyn Block, kind: Option<ItemKind>) {
    let name = spec.name;
    let settable: BTreeSet<&str> = spec
        .params
        .iter()
        .filter(|p| p.settable)
        .map(|p| p.name)
        .collect();
    let mut settings: BTreeSet<&str> = BTreeSet::new();
    if let Some(params) = block.params() {
        // The block reads the very declaration the registry lists.
        let described = params.describe();
        if !described.is_empty() {
            assert_eq!(
                described, spec.params,
                "`{name}`: the block's parameters vs the spec's"
            );
        }
        settings.extend(described.iter().filter(|p| p.settable).map(|p| p.name));
    }
    let declared_inputs: BTreeSet<&str> = spec.message_inputs.iter().copied().collect();
    assert!(
        settable.is_subset(&settings),
        "`{name}`: settable {settable:?} but the block's settings are {settings:?}"
    );
    let unlisted: Vec<&&str> = settings
        .iter()
        .filter(|s| !settable.contains(*s) && !declared_inputs.contains(*s))
        .collect();
    assert!(
        unlisted.is_empty(),
        "`{name}`: settings {unlisted:?} are neither settable parameters nor message inputs"
    );
    let ports = block.ports();
    check_ports(
        spec,
        &spec.inputs,
        &ports.input_names(),
        &ports.input_types(),
        &ports.input_optional(),
        kind,
    );
    check_ports(
        spec,
        &spec.outputs,
        &ports.output_names(),
        &ports.output_types(),
        &ports.output_optional(),
        kind,
    );
    let mut message_inputs: BTreeSet<&str> = ports.message_input_names().into_iter().collect();
    let message_outputs: Vec<String> = ports.message_output_names();
    drop(ports);
    if let Some(params) = block.params() {
        message_inputs.extend(
            rfgraph::params::setting_inputs(params)
                .into_iter()
                .map(|(i, _)| i),
        );
    }
    let aliases = spec
        .params
        .iter()
        .filter(|p| p.settable)
        .flat_map(|p| p.aliases.iter().copied());
    let expected: BTreeSet<&str> = settable
        .union(&declared_inputs)
        .copied()
        .chain(aliases)
        .collect();
    assert_eq!(message_inputs, expected, "`{name}`: message inputs");
    assert_eq!(
        message_outputs, spec.message_outputs,
        "`{name}`: message outputs"
    );
}

#[test]
fn every_block_builds_from_its_defaults_for_every_type() {
    let registry = rfgraph_flowfile::standard::registry();
    assert!(registry.len() >= 50, "only {} blocks", registry.len());
    let dir = Scratch::new("defaults");
    for spec in registry.specs() {
        assert!(
            !spec.summary.is_empty() && !spec.doc.is_empty(),
            "`{}` needs docs",
            spec.name
        );
        for param in &spec.params {
            assert!(
                !param.doc.is_empty(),
                "`{}`.`{}` needs a doc line",
                spec.name,
                param.name
            );
            if let Some(Pmt::String(d)) = &param.default
                && !param.choices.is_empty()
            {
                assert!(
                    param.choices.contains(&d.as_str()),
                    "`{}`.`{}`",
                    spec.name,
                    param.name
                );
            }
        }
        if spec.name == rfgraph_flowfile::python::BLOCK_KIND {
            // Documents files' Python blocks; the Python package puts the
            // block their object declares in its place before building.
            continue;
        }
        let kinds: Vec<Option<ItemKind>> = match spec.param_spec("type") {
            Some(t) => t.choices.iter().map(|c| ItemKind::parse(c)).collect(),
            None => vec![None],
        };
        for kind in kinds {
            let mut given = required(&dir, spec, kind);
            if let Some(k) = kind {
                given.insert("type".into(), Pmt::from(k.name()));
            }
            let mut block = spec
                .build(given)
                .unwrap_or_else(|e| panic!("`{}` ({kind:?}) does not build: {e}", spec.name));
            check_block(spec, block.as_mut(), kind);
        }
    }
}

#[test]
fn names_follow_the_conventions() {
    let registry = rfgraph_flowfile::standard::registry();
    for spec in registry.specs() {
        let snake = |s: &str| {
            s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        };
        assert!(snake(spec.name), "`{}` is not snake_case", spec.name);
        for p in &spec.params {
            assert!(
                snake(p.name),
                "`{}`.`{}` is not snake_case",
                spec.name,
                p.name
            );
        }
    }
    for name in [
        "low_pass_filter",
        "sig_source",
        "file_source",
        "head",
        "null_sink",
        "fft",
    ] {
        assert!(registry.get(name).is_ok(), "`{name}` is registered");
    }
    let e = registry.get("low_pas_filter").unwrap_err();
    assert_eq!(e.suggest.as_deref(), Some("low_pass_filter"));
}
