//! Locality detection: the pass that makes every stream edge join ports of
//! one memory domain, inserting transfer blocks where domains differ.
//!
//! Runs once at start, before validation. Per output:
//! - readers in the writer's domain read the edge directly (two device
//!   blocks of one context pass device buffers, never host copies);
//! - a device writer with readers elsewhere gets one device→host transfer,
//!   shared by all of them;
//! - readers on a device that is not the writer's get one host→device
//!   transfer per distinct domain, shared by that domain's readers.
//!
//! Transfer blocks come from the device ports themselves
//! ([`StreamPort::transfer`](crate::port::StreamPort::transfer)), so this
//! crate stays free of any device API. They are added as ordinary blocks
//! whose statistics carry `transfer: true`.

use super::{BlockEntry, Flowgraph, StreamEdge, short_type_name};
use crate::buffer::MemoryDomain;
use crate::error::{GraphError, Mismatch};
use crate::item::ItemType;
use crate::port::Transfer;
use std::collections::BTreeMap;

/// Where one end of an edge lives, and its item type.
struct End {
    domain: MemoryDomain,
    item: ItemType,
}

fn output_end(fg: &mut Flowgraph, block: usize, port: usize) -> End {
    let ports = fg.blocks[block].block.ports();
    let p = &ports.outputs[port];
    End {
        domain: p.domain(),
        item: p.item_type(),
    }
}

fn input_end(fg: &mut Flowgraph, block: usize, port: usize) -> End {
    let ports = fg.blocks[block].block.ports();
    let p = &ports.inputs[port];
    End {
        domain: p.domain(),
        item: p.item_type(),
    }
}

fn no_transfer(
    fg: &mut Flowgraph,
    edge: usize,
    src: &MemoryDomain,
    dst: &MemoryDomain,
) -> GraphError {
    let e = fg.streams[edge].clone();
    let src_port = fg.blocks[e.src]
        .block
        .ports()
        .output_names()
        .swap_remove(e.src_port);
    let dst_port = fg.blocks[e.dst]
        .block
        .ports()
        .input_names()
        .swap_remove(e.dst_port);
    GraphError::DomainMismatch(Box::new(Mismatch {
        src_block: fg.blocks[e.src].name.clone(),
        src_port,
        src: src.to_string(),
        dst_block: fg.blocks[e.dst].name.clone(),
        dst_port,
        dst: dst.to_string(),
    }))
}

/// Adds `block` as a transfer and checks it has `in`/`out` ports of `item`.
fn add_transfer(
    fg: &mut Flowgraph,
    transfer: Transfer,
    item: ItemType,
    label: &str,
) -> Result<usize, GraphError> {
    let Transfer {
        mut block,
        type_name,
    } = transfer;
    let ports = block.ports();
    let fits = ports.inputs.len() == 1
        && ports.outputs.len() == 1
        && ports.inputs[0].item_type() == item
        && ports.outputs[0].item_type() == item;
    drop(ports);
    if !fits {
        return Err(GraphError::Buffer {
            block: label.to_string(),
            port: "in/out".to_string(),
            cause: format!(
                "a transfer block must have one input and one output of {}",
                item.name()
            ),
        });
    }
    fg.blocks.push(BlockEntry {
        name: format!(
            "{}#{}<{label}>",
            short_type_name(type_name),
            fg.blocks.len()
        ),
        type_name: type_name.to_string(),
        block,
        transfer: true,
        force_blocking: false,
    });
    Ok(fg.blocks.len() - 1)
}

/// Inserts the transfers every cross-domain edge needs.
pub(crate) fn insert(fg: &mut Flowgraph) -> Result<(), GraphError> {
    let mut by_output: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, e) in fg.streams.iter().enumerate() {
        by_output.entry((e.src, e.src_port)).or_default().push(i);
    }
    for ((src, src_port), edges) in by_output {
        let writer = output_end(fg, src, src_port);
        let foreign: Vec<(usize, MemoryDomain)> = edges
            .iter()
            .map(|&i| {
                let e = fg.streams[i].clone();
                (i, input_end(fg, e.dst, e.dst_port).domain)
            })
            .filter(|(_, d)| *d != writer.domain)
            .collect();
        if foreign.is_empty() {
            continue;
        }
        let min_bytes = foreign
            .iter()
            .filter_map(|&(i, _)| fg.streams[i].min_bytes)
            .max();
        let label = fg.blocks[src].name.clone();
        // Where host readers find the items.
        let host_src = if writer.domain == MemoryDomain::Host {
            src
        } else {
            let make = {
                let ports = fg.blocks[src].block.ports();
                ports.outputs[src_port].transfer()
            };
            let Some(block) = make else {
                let (i, d) = &foreign[0];
                return Err(no_transfer(fg, *i, &writer.domain, d));
            };
            let id = add_transfer(fg, block, writer.item, &format!("{label} to host"))?;
            fg.streams.push(StreamEdge {
                src,
                src_port,
                dst: id,
                dst_port: 0,
                min_bytes,
                planned_bytes: None,
            });
            id
        };
        let host_port = if host_src == src { src_port } else { 0 };
        let mut to_device: Vec<(MemoryDomain, usize)> = Vec::new();
        for (i, domain) in foreign {
            let from = if domain == MemoryDomain::Host {
                host_src
            } else if let Some(&(_, id)) = to_device.iter().find(|(d, _)| *d == domain) {
                id
            } else {
                let (dst, dst_port) = (fg.streams[i].dst, fg.streams[i].dst_port);
                let make = {
                    let ports = fg.blocks[dst].block.ports();
                    ports.inputs[dst_port].transfer()
                };
                let Some(block) = make else {
                    return Err(no_transfer(fg, i, &writer.domain, &domain));
                };
                let id = add_transfer(fg, block, writer.item, &format!("{label} to {domain}"))?;
                fg.streams.push(StreamEdge {
                    src: host_src,
                    src_port: host_port,
                    dst: id,
                    dst_port: 0,
                    min_bytes,
                    planned_bytes: None,
                });
                to_device.push((domain, id));
                id
            };
            let edge = &mut fg.streams[i];
            edge.src = from;
            edge.src_port = if from == host_src { host_port } else { 0 };
        }
    }
    Ok(())
}
