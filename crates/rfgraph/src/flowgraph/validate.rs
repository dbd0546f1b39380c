//! Whole-graph checks run before anything starts: every required port is
//! connected, stream edges form no cycle, tag rates are positive, and no
//! two outputs of a block work in place of one input. Errors name blocks
//! and ports.

use super::Flowgraph;
use crate::TagPolicy;
use crate::error::{Direction, GraphError};

/// Names and optionality of one block's stream ports.
struct PortFacts {
    inputs: Vec<(String, bool)>,
    outputs: Vec<(String, bool)>,
}

fn port_facts(fg: &mut Flowgraph) -> Vec<PortFacts> {
    fg.blocks
        .iter_mut()
        .map(|entry| {
            let ports = entry.block.ports();
            PortFacts {
                inputs: ports
                    .inputs
                    .iter()
                    .map(|p| (p.name().to_string(), p.is_optional()))
                    .collect(),
                outputs: ports
                    .outputs
                    .iter()
                    .map(|p| (p.name().to_string(), p.is_optional()))
                    .collect(),
            }
        })
        .collect()
}

/// Rejects graphs that cannot run.
pub fn validate(fg: &mut Flowgraph) -> Result<(), GraphError> {
    let facts = port_facts(fg);
    check_connections(fg, &facts)?;
    check_acyclic(fg, &facts)?;
    check_tag_rates(fg)?;
    check_in_place(fg)
}

/// Each output's `in_place_of` names an input of its block, and no input
/// twice: the in-place pass would make both outputs views of one ring,
/// and the block would overwrite what the first one's readers still read.
fn check_in_place(fg: &mut Flowgraph) -> Result<(), GraphError> {
    for entry in fg.blocks.iter_mut() {
        let ports = entry.block.ports();
        let mut named = vec![None; ports.inputs.len()];
        for out in &ports.outputs {
            let Some(input) = out.in_place_of() else {
                continue;
            };
            let invalid = |cause: String| GraphError::InvalidInPlace {
                block: entry.name.clone(),
                output: out.name().to_string(),
                cause,
            };
            match named.get_mut(input) {
                None => {
                    return Err(invalid(format!(
                        "the block has no input number {input} (it has {})",
                        ports.inputs.len()
                    )));
                }
                Some(Some(first)) => {
                    return Err(invalid(format!(
                        "output `{first}` already works in place of input `{}`",
                        ports.inputs[input].name()
                    )));
                }
                Some(slot) => *slot = Some(out.name().to_string()),
            }
        }
    }
    Ok(())
}

/// A zero rate would divide by zero when the runtime scales a tag's index,
/// outside any block code, in the middle of a run.
fn check_tag_rates(fg: &Flowgraph) -> Result<(), GraphError> {
    for entry in &fg.blocks {
        if let TagPolicy::Propagate {
            interpolation,
            decimation,
        } = entry.block.tag_policy()
            && (interpolation == 0 || decimation == 0)
        {
            return Err(GraphError::InvalidTagRate {
                block: entry.name.clone(),
                interpolation,
                decimation,
            });
        }
    }
    Ok(())
}

fn check_connections(fg: &Flowgraph, facts: &[PortFacts]) -> Result<(), GraphError> {
    for (index, block) in facts.iter().enumerate() {
        let unconnected = |port: &str, direction| GraphError::Unconnected {
            block: fg.blocks[index].name.clone(),
            port: port.to_string(),
            direction,
        };
        for (port, (name, optional)) in block.inputs.iter().enumerate() {
            let connected = fg
                .streams
                .iter()
                .any(|e| e.dst == index && e.dst_port == port);
            if !connected && !optional {
                return Err(unconnected(name, Direction::StreamInput));
            }
        }
        for (port, (name, optional)) in block.outputs.iter().enumerate() {
            let connected = fg
                .streams
                .iter()
                .any(|e| e.src == index && e.src_port == port);
            if !connected && !optional {
                return Err(unconnected(name, Direction::StreamOutput));
            }
        }
    }
    Ok(())
}

fn check_acyclic(fg: &Flowgraph, facts: &[PortFacts]) -> Result<(), GraphError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let n = fg.blocks.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in fg.streams.iter().enumerate() {
        succ[e.src].push(i);
    }
    let mut mark = vec![Mark::New; n];
    for start in 0..n {
        if mark[start] != Mark::New {
            continue;
        }
        // Iterative DFS; `path` holds the edges leading to the top of `stack`.
        let mut stack = vec![(start, 0usize)];
        let mut path: Vec<usize> = Vec::new();
        mark[start] = Mark::OnPath;
        while let Some((block, next)) = stack.last_mut() {
            let block = *block;
            if let Some(&edge) = succ[block].get(*next) {
                *next += 1;
                let to = fg.streams[edge].dst;
                match mark[to] {
                    Mark::New => {
                        mark[to] = Mark::OnPath;
                        path.push(edge);
                        stack.push((to, 0));
                    }
                    Mark::OnPath => {
                        path.push(edge);
                        let first = path
                            .iter()
                            .position(|&e| fg.streams[e].src == to)
                            .unwrap_or(0);
                        return Err(GraphError::StreamCycle(describe(fg, facts, &path[first..])));
                    }
                    Mark::Done => {}
                }
            } else {
                mark[block] = Mark::Done;
                stack.pop();
                path.pop();
            }
        }
    }
    Ok(())
}

fn describe(fg: &Flowgraph, facts: &[PortFacts], edges: &[usize]) -> String {
    edges
        .iter()
        .map(|&e| {
            let e = &fg.streams[e];
            format!(
                "`{}`.{} -> `{}`.{}",
                fg.blocks[e.src].name,
                facts[e.src].outputs[e.src_port].0,
                fg.blocks[e.dst].name,
                facts[e.dst].inputs[e.dst_port].0
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}
