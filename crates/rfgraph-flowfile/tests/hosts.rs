//! Flowgraph files that span hosts: each host's part holds its own
//! blocks and one end of a link for every connection to another host,
//! with ports both ends derive alike; mistakes are errors at their place.

mod common;

use common::{scratch, write};
use rfgraph_flowfile::build::{BuildOptions, build_file};
use rfgraph_flowfile::hosts::part;
use rfgraph_flowfile::model::{ConnectionKind, Document, Value};
use rfgraph_flowfile::standard::registry;

const THREE_EDGES: &str = r#"format = 1
connections = ["src -> a", "src -> b", "back.out -> snk.in", "strobe.strobe => dbg.print"]

[hosts.radio]
address = "10.0.0.1"
port = 6000

[hosts.dsp]
address = "10.0.0.2"

[links]
on_loss = "reconnect"
peer_timeout = "1500ms"
window = 65536

[blocks.src]
kind = "null_source"
type = "c32"

[blocks.strobe]
kind = "message_strobe"
period = 100

[blocks.snk]
kind = "null_sink"
type = "f32"

[blocks.a]
kind = "null_sink"
type = "c32"
options = { host = "dsp" }

[blocks.b]
kind = "null_sink"
type = "c32"
options = { host = "dsp" }

[blocks.back]
kind = "null_source"
type = "f32"
options = { host = "dsp" }

[blocks.dbg]
kind = "message_debug"
options = { host = "dsp" }
"#;

fn load(text: &str) -> Document {
    let dir = scratch("hosts");
    rfgraph_flowfile::toml::load(&write(&dir, "graph.toml", text)).unwrap()
}

fn text_param(doc: &Document, block: &str, name: &str) -> Option<Value> {
    doc.block(block)?.param(name).map(|p| p.value.clone())
}

#[test]
fn each_host_gets_its_blocks_and_one_end_of_each_crossing_edge() {
    let doc = load(THREE_EDGES);
    let registry = registry();
    let radio = part(&doc, "radio", &registry).unwrap();
    let names: Vec<&str> = radio.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "src",
            "strobe",
            "snk",
            "link_to_dsp_0",
            "link_to_dsp_1",
            "link_from_dsp_0",
            "link_to_dsp_2"
        ]
    );
    let to_a = radio.block("link_to_dsp_0").unwrap();
    assert_eq!(to_a.kind, "host_link_sink");
    assert_eq!(
        text_param(&radio, "link_to_dsp_0", "address"),
        Some(Value::Text("tcp://10.0.0.1:6000".into()))
    );
    assert_eq!(
        text_param(&radio, "link_to_dsp_1", "address"),
        Some(Value::Text("tcp://10.0.0.1:6002".into()))
    );
    // The item type comes from the writer's declaration.
    assert_eq!(
        text_param(&radio, "link_to_dsp_0", "type"),
        Some(Value::Text("c32".into()))
    );
    assert_eq!(
        text_param(&radio, "link_to_dsp_0", "peer"),
        Some(Value::Text("dsp".into()))
    );
    assert_eq!(
        text_param(&radio, "link_to_dsp_0", "on_loss"),
        Some(Value::Text("reconnect".into()))
    );
    assert_eq!(
        text_param(&radio, "link_to_dsp_0", "peer_timeout"),
        Some(Value::Float(1.5))
    );
    assert_eq!(
        text_param(&radio, "link_to_dsp_0", "window"),
        Some(Value::Int(65536))
    );
    // The edge from dsp leaves dsp: dsp's default first port.
    assert_eq!(
        radio.block("link_from_dsp_0").unwrap().kind,
        "host_link_source"
    );
    assert_eq!(
        text_param(&radio, "link_from_dsp_0", "address"),
        Some(Value::Text("tcp://10.0.0.2:5600".into()))
    );
    // The message edge: a ZeroMQ message sink that binds.
    assert_eq!(
        radio.block("link_to_dsp_2").unwrap().kind,
        "zmq_push_msg_sink"
    );
    assert_eq!(
        text_param(&radio, "link_to_dsp_2", "bind"),
        Some(Value::Bool(true))
    );
    let message = radio
        .connections
        .iter()
        .find(|c| c.kind == ConnectionKind::Message)
        .unwrap();
    assert_eq!(message.to.block, "link_to_dsp_2");

    let dsp = part(&doc, "dsp", &registry).unwrap();
    let names: Vec<&str> = dsp.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "a",
            "b",
            "back",
            "dbg",
            "link_from_radio_0",
            "link_from_radio_1",
            "link_to_radio_0",
            "link_from_radio_2"
        ]
    );
    // Both ends of each link meet at the same address.
    for (mine, theirs) in [
        ("link_from_radio_0", "link_to_dsp_0"),
        ("link_from_radio_1", "link_to_dsp_1"),
        ("link_to_radio_0", "link_from_dsp_0"),
        ("link_from_radio_2", "link_to_dsp_2"),
    ] {
        assert_eq!(
            text_param(&dsp, mine, "address"),
            text_param(&radio, theirs, "address")
        );
    }
    assert_eq!(
        dsp.block("link_from_radio_2").unwrap().kind,
        "zmq_pull_msg_source"
    );
}

#[test]
fn every_host_part_checks_and_builds() {
    let dir = scratch("hosts-build");
    let path = write(&dir, "graph.toml", THREE_EDGES);
    let registry = registry();
    let dry = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    build_file(&path, &registry, &dry).unwrap();
    for host in ["radio", "dsp"] {
        let options = BuildOptions {
            dry_run: true,
            host: Some(host.into()),
            ..BuildOptions::default()
        };
        let built = build_file(&path, &registry, &options).unwrap();
        assert!(
            built
                .notices
                .iter()
                .any(|n| n.contains(&format!("host `{host}`")))
        );
    }
}

#[test]
fn mistakes_are_errors_naming_the_hosts() {
    let dir = scratch("hosts-errors");
    let registry = registry();
    let path = write(&dir, "graph.toml", THREE_EDGES);
    let err = |options: BuildOptions| {
        build_file(&path, &registry, &options)
            .err()
            .unwrap()
            .to_string()
    };
    let e = err(BuildOptions::default());
    assert!(
        e.contains("spans hosts `radio`, `dsp`") && e.contains("--host"),
        "{e}"
    );
    let e = err(BuildOptions {
        host: Some("mast".into()),
        ..BuildOptions::default()
    });
    assert!(
        e.contains("no host `mast`") && e.contains("`radio`, `dsp`"),
        "{e}"
    );

    let unknown = THREE_EDGES.replace(
        r#"options = { host = "dsp" }"#,
        r#"options = { host = "rack" }"#,
    );
    let path = write(&dir, "unknown.toml", &unknown);
    let e = build_file(
        &path,
        &registry,
        &BuildOptions {
            host: Some("radio".into()),
            ..Default::default()
        },
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.contains("blocks.a.options.host") && e.contains("no host `rack`"),
        "{e}"
    );

    let single = write(
        &dir,
        "single.toml",
        "format = 1\n[blocks.s]\nkind = \"null_source\"\n",
    );
    let e = build_file(
        &single,
        &registry,
        &BuildOptions {
            host: Some("radio".into()),
            ..Default::default()
        },
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("names no hosts"), "{e}");

    let bad_loss = THREE_EDGES.replace("on_loss = \"reconnect\"", "on_loss = \"retry\"");
    let e = rfgraph_flowfile::toml::load(&write(&dir, "loss.toml", &bad_loss))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("links.on_loss"), "{e}");
    let no_address = THREE_EDGES.replace("address = \"10.0.0.2\"", "");
    let e = rfgraph_flowfile::toml::load(&write(&dir, "addr.toml", &no_address))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("hosts.dsp.address"), "{e}");
}
