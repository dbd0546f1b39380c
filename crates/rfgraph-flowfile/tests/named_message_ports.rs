//! Message ports named per instance by a list parameter
//! (`BlockSpec::message_inputs_named_by`, `message_outputs_named_by`): the
//! builder checks message connections against the names each instance
//! lists, as against declared ports.

mod common;

use common::scratch;
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, Pmt, Ports};
use rfgraph_flowfile::build::{BuildOptions, build_file};

/// The parameters of the test block: its ports' names.
#[derive(rfgraph::ParamSet, Clone, Debug)]
struct Named {
    /// message inputs
    #[param(default = Pmt::List(Vec::new()))]
    ins: Pmt,
    /// message outputs
    #[param(default = Pmt::List(Vec::new()))]
    outs: Pmt,
}

/// Never built: the tests only check files.
struct Unbuilt;

impl Block for Unbuilt {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
    }
}

fn registry() -> rfgraph::registry::Registry {
    let mut registry = rfgraph_flowfile::standard::registry();
    registry.add(
        BlockSpec::of::<Named>("named", "Test", "Ports named by lists.", |_| {
            Ok(Box::new(Unbuilt))
        })
        .message_inputs_named_by("ins")
        .message_outputs_named_by("outs"),
    );
    registry
}

/// Checks a file with `connections` (in scratch folder `name`); its edges.
fn check(name: &str, connections: &str) -> Result<usize, String> {
    let dir = scratch(name);
    let text = format!(
        "format = 1\nconnections = [{connections}]\n\
         [blocks.burst]\nkind = \"message_burst\"\nmessage = 1\ncount = 1\n\
         [blocks.a]\nkind = \"named\"\nins = [\"'cmd'\", \"'data'\"]\nouts = [\"'ack'\"]\n\
         [blocks.snk]\nkind = \"message_sink\"\n"
    );
    let path = common::write(&dir, "named.toml", &text);
    let dry = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    build_file(&path, &registry(), &dry)
        .map(|b| b.edges.len())
        .map_err(|e| e.to_string())
}

#[test]
fn listed_names_are_message_ports_of_the_instance() {
    assert_eq!(
        check(
            "named_ok",
            "\"burst.out => a.cmd\", \"burst.out => a.data\", \"a.ack => snk.in\""
        ),
        Ok(3)
    );
}

#[test]
fn names_not_listed_are_refused_with_the_listed_ones() {
    let e = check("named_in", "\"burst.out => a.nope\"").unwrap_err();
    assert!(
        e.contains("nope") && e.contains("cmd") && e.contains("data"),
        "{e}"
    );
    let e = check("named_out", "\"a.cmd => snk.in\"").unwrap_err();
    assert!(e.contains("cmd") && e.contains("ack"), "{e}");
}
