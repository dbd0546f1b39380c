//! The `chain` scheduler's partitioner: assigns blocks to cores.
//!
//! Rules, in order: (1) never cut a connected component (a pipe, a branch)
//! unless it alone costs clearly more than a core's share; (2) when a
//! component must be cut, cut it into contiguous pieces of its topological
//! order, so a linear chain is cut at as few edges as there are extra
//! pieces; (3) place pieces heaviest-first on the least-loaded core. Cost
//! per block starts equal and can be refined from measured time in `work`.

/// One block as the partitioner sees it.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Relative cost (e.g. measured nanoseconds in `work`; 1.0 by default).
    pub cost: f64,
    /// Blocks this block writes to (stream edges).
    pub downstream: Vec<usize>,
    /// Human-readable name, for explanations.
    pub name: String,
}

/// The result: which blocks run on which core, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    /// Blocks of each part, in topological order.
    pub parts: Vec<Vec<usize>>,
    /// Per part, one line per piece placed there.
    pub reasons: Vec<Vec<String>>,
    /// Stream edges whose ends are in different parts.
    pub cut_edges: usize,
}

impl Partition {
    /// The part of each block.
    pub fn part_of(&self, blocks: usize) -> Vec<usize> {
        let mut of = vec![usize::MAX; blocks];
        for (p, members) in self.parts.iter().enumerate() {
            for &b in members {
                of[b] = p;
            }
        }
        of
    }

    /// A multi-line explanation naming blocks, cores and reasons.
    pub fn explain(&self, nodes: &[Node], cores: &[usize]) -> String {
        let mut text = format!(
            "chain scheduler: {} blocks on {} cores, {} stream edges cross cores\n",
            nodes.len(),
            self.parts.len(),
            self.cut_edges
        );
        for (p, members) in self.parts.iter().enumerate() {
            let cost: f64 = members.iter().map(|&b| nodes[b].cost).sum();
            text += &format!(
                "  core {} (cost {:.3}): {}\n",
                cores.get(p).copied().unwrap_or(p),
                cost,
                members
                    .iter()
                    .map(|&b| nodes[b].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for reason in &self.reasons[p] {
                text += &format!("    because: {reason}\n");
            }
        }
        text
    }
}

fn topological_order(nodes: &[Node]) -> Vec<usize> {
    let mut indegree = vec![0usize; nodes.len()];
    for n in nodes {
        for &d in &n.downstream {
            indegree[d] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..nodes.len())
        .rev()
        .filter(|&b| indegree[b] == 0)
        .collect();
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(b) = ready.pop() {
        order.push(b);
        for &d in nodes[b].downstream.iter().rev() {
            indegree[d] -= 1;
            if indegree[d] == 0 {
                ready.push(d);
            }
        }
    }
    order
}

/// The partitioner's view of `runners`: one node per runner, edges to
/// runners outside the list dropped, cost from `cost(block index)`.
pub fn nodes_of(runners: &[crate::runner::BlockRunner], cost: impl Fn(usize) -> f64) -> Vec<Node> {
    let slot_of: std::collections::HashMap<usize, usize> = runners
        .iter()
        .enumerate()
        .map(|(s, r)| (r.index(), s))
        .collect();
    runners
        .iter()
        .map(|r| Node {
            cost: cost(r.index()).max(1e-9),
            downstream: r
                .downstream()
                .filter_map(|b| slot_of.get(&b).copied())
                .collect(),
            name: r.name().to_string(),
        })
        .collect()
}

/// Splits `members` (in topological order) into their connected
/// components, keeping the order inside each.
pub fn group_by_component(nodes: &[Node], members: &[usize]) -> Vec<Vec<usize>> {
    let comp = components(nodes);
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for &b in members {
        match groups.iter_mut().find(|(c, _)| *c == comp[b]) {
            Some((_, g)) => g.push(b),
            None => groups.push((comp[b], vec![b])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

fn components(nodes: &[Node]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..nodes.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (b, n) in nodes.iter().enumerate() {
        for &d in &n.downstream {
            let (x, y) = (find(&mut parent, b), find(&mut parent, d));
            parent[x] = y;
        }
    }
    (0..nodes.len()).map(|b| find(&mut parent, b)).collect()
}

struct Piece {
    blocks: Vec<usize>,
    cost: f64,
    reason: String,
}

/// Splits `nodes` over `parts` cores.
pub fn partition(nodes: &[Node], parts: usize) -> Partition {
    let parts = parts.max(1);
    let order = topological_order(nodes);
    let comp = components(nodes);
    let total: f64 = nodes.iter().map(|n| n.cost).sum();
    let share = total / parts as f64;
    // Components in order of first appearance, blocks in topological order.
    let mut comps: Vec<(usize, Vec<usize>)> = Vec::new();
    for &b in &order {
        match comps.iter_mut().find(|(root, _)| *root == comp[b]) {
            Some((_, blocks)) => blocks.push(b),
            None => comps.push((comp[b], vec![b])),
        }
    }
    let mut pieces = Vec::new();
    for (_, blocks) in comps {
        let cost: f64 = blocks.iter().map(|&b| nodes[b].cost).sum();
        let k = if parts > 1 && blocks.len() > 1 && cost > share * 1.25 {
            ((cost / share).round() as usize).clamp(2, blocks.len().min(parts))
        } else {
            1
        };
        if k == 1 {
            pieces.push(Piece {
                reason: format!(
                    "a whole connected component of {} blocks (cost {cost:.3}), kept together",
                    blocks.len()
                ),
                blocks,
                cost,
            });
            continue;
        }
        // Contiguous slices of the topological order with near-equal cost.
        let target = cost / k as f64;
        let mut current = Vec::new();
        let mut acc = 0.0;
        let mut made = 0;
        let mut cut = |current: &mut Vec<usize>, made: &mut usize| {
            *made += 1;
            let c: f64 = current.iter().map(|&x| nodes[x].cost).sum();
            pieces.push(Piece {
                blocks: std::mem::take(current),
                cost: c,
                reason: format!(
                    "piece {made}/{k} of a component of {} blocks costing {cost:.3} (> 1.25 x a core's share {share:.3}), cut along its topological order",
                    blocks.len()
                ),
            });
        };
        for (i, &b) in blocks.iter().enumerate() {
            let c = nodes[b].cost;
            let goal = target * (made + 1) as f64;
            // Cut before `b` when that lands nearer the goal than after it
            // (an expensive block must not drag its piece far past it).
            if made + 1 < k && !current.is_empty() && acc + c > goal && goal - acc < acc + c - goal
            {
                cut(&mut current, &mut made);
            }
            current.push(b);
            acc += c;
            let left = blocks.len() - i - 1;
            let pieces_left = k - made - 1;
            if pieces_left > 0 && (acc >= target * (made + 1) as f64 - 1e-9 || left == pieces_left)
            {
                cut(&mut current, &mut made);
            }
        }
        let c: f64 = current.iter().map(|&x| nodes[x].cost).sum();
        pieces.push(Piece {
            blocks: current,
            cost: c,
            reason: format!(
                "piece {k}/{k} of a component of {} blocks costing {cost:.3}, cut along its topological order",
                blocks.len()
            ),
        });
    }
    pieces.sort_by(|a, b| b.cost.total_cmp(&a.cost));
    let mut load = vec![0.0f64; parts];
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); parts];
    let mut reasons: Vec<Vec<String>> = vec![Vec::new(); parts];
    for piece in pieces {
        let p = (0..parts)
            .min_by(|&a, &b| load[a].total_cmp(&load[b]))
            .unwrap_or(0);
        load[p] += piece.cost;
        members[p].extend(piece.blocks);
        reasons[p].push(piece.reason);
    }
    let position: Vec<usize> = {
        let mut pos = vec![0; nodes.len()];
        for (i, &b) in order.iter().enumerate() {
            pos[b] = i;
        }
        pos
    };
    for m in &mut members {
        m.sort_by_key(|&b| position[b]);
    }
    let mut result = Partition {
        parts: members,
        reasons,
        cut_edges: 0,
    };
    let of = result.part_of(nodes.len());
    result.cut_edges = nodes
        .iter()
        .enumerate()
        .flat_map(|(b, n)| n.downstream.iter().map(move |&d| (b, d)))
        .filter(|&(b, d)| of[b] != of[d])
        .count();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `branches` linear chains of `len` blocks each.
    fn branches(branches: usize, len: usize) -> Vec<Node> {
        let mut nodes = Vec::new();
        for br in 0..branches {
            for i in 0..len {
                let id = nodes.len();
                nodes.push(Node {
                    cost: 1.0,
                    downstream: if i + 1 < len { vec![id + 1] } else { vec![] },
                    name: format!("b{br}s{i}"),
                });
            }
        }
        nodes
    }

    #[test]
    fn four_branches_on_two_cores_keep_branches_whole() {
        let nodes = branches(4, 22);
        let p = partition(&nodes, 2);
        assert_eq!(p.cut_edges, 0);
        assert_eq!(p.parts.len(), 2);
        for part in &p.parts {
            assert_eq!(part.len(), 44, "two whole branches per core");
            // Every branch is entirely in one part.
            for br in 0..4 {
                let inside = part.iter().filter(|&&b| b / 22 == br).count();
                assert!(inside == 0 || inside == 22);
            }
        }
        assert!(p.explain(&nodes, &[0, 1]).contains("kept together"));
    }

    #[test]
    fn one_long_chain_is_cut_once_in_the_middle() {
        let nodes = branches(1, 14);
        let p = partition(&nodes, 2);
        assert_eq!(p.cut_edges, 1);
        assert_eq!(p.parts[0].len() + p.parts[1].len(), 14);
        assert!(p.parts.iter().all(|m| m.len() == 7));
        // Each part is a contiguous run of the chain.
        for m in &p.parts {
            assert!(m.windows(2).all(|w| w[1] == w[0] + 1));
        }
    }

    #[test]
    fn measured_costs_move_the_cut() {
        let mut nodes = branches(1, 10);
        nodes[0].cost = 9.0; // an expensive first block
        let p = partition(&nodes, 2);
        assert_eq!(p.cut_edges, 1);
        let with_first = p.parts.iter().find(|m| m.contains(&0)).unwrap();
        assert!(
            with_first.len() < 5,
            "the heavy block gets fewer neighbours: {with_first:?}"
        );
    }

    #[test]
    fn fan_out_and_fan_in_component_is_cut_across_cores() {
        // The conformance suite's graph: src → split → 2 × 12 copies → add → sink.
        let mut nodes: Vec<Node> = (0..28)
            .map(|i| Node {
                cost: 1.0,
                downstream: vec![],
                name: format!("n{i}"),
            })
            .collect();
        nodes[0].downstream = vec![1];
        nodes[1].downstream = vec![2, 14];
        for branch in [2usize, 14] {
            for (i, node) in nodes.iter_mut().enumerate().skip(branch).take(11) {
                node.downstream = vec![i + 1];
            }
            nodes[branch + 11].downstream = vec![26];
        }
        nodes[26].downstream = vec![27];
        let p = partition(&nodes, 2);
        assert!(p.cut_edges >= 2, "{p:?}");
        assert!(p.parts.iter().all(|m| !m.is_empty()));
    }

    #[test]
    fn topological_order_within_parts() {
        // A diamond: 0 → {1, 2} → 3.
        let nodes = vec![
            Node {
                cost: 1.0,
                downstream: vec![1, 2],
                name: "a".into(),
            },
            Node {
                cost: 1.0,
                downstream: vec![3],
                name: "b".into(),
            },
            Node {
                cost: 1.0,
                downstream: vec![3],
                name: "c".into(),
            },
            Node {
                cost: 1.0,
                downstream: vec![],
                name: "d".into(),
            },
        ];
        let p = partition(&nodes, 1);
        assert_eq!(p.parts[0].first(), Some(&0));
        assert_eq!(p.parts[0].last(), Some(&3));
    }
}
