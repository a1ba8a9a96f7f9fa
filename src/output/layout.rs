//! A layered layout of a `Graph` for `report --html`, our own (no maintained Rust crate lays
//! out a graph as SVG without a C dependency; ADR-0015): ranks by the longest path to a record
//! nothing further points to (so the older decisions, which newer ones supersede, amend and
//! cite, sit above), cycles broken by depth-first search, each rank ordered by the barycentre
//! of its neighbours (three sweeps), long ranks wrapped, and the records with no relation in a
//! grid below.

use crate::model::Graph;
use std::collections::HashMap;

pub const NODE_W: f64 = 176.0;
pub const NODE_H: f64 = 46.0;
pub const GAP_X: f64 = 20.0;
pub const GAP_Y: f64 = 52.0;
pub const MARGIN: f64 = 16.0;
/// Nodes in one row at most: a wider rank wraps onto more rows.
pub const ROW: usize = 7;

/// Where each node's box goes (top-left corner), in the order of `graph.nodes`.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub at: Vec<(f64, f64)>,
    /// The top of the grid of unrelated nodes, when there are some.
    pub unrelated_top: Option<f64>,
}

pub fn layered(graph: &Graph) -> Layout {
    let n = graph.nodes.len();
    let index: HashMap<&str, usize> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| (node.id.as_str(), i))
        .collect();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &graph.edges {
        if let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) {
            if a != b {
                out[a].push(b);
                into[b].push(a);
            }
        }
    }
    let related: Vec<bool> = (0..n)
        .map(|i| !out[i].is_empty() || !into[i].is_empty())
        .collect();
    let rank = ranks(&out, &related);
    let top_rank = rank.iter().copied().max().unwrap_or(0);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); top_rank + 1];
    for i in (0..n).filter(|&i| related[i]) {
        layers[rank[i]].push(i);
    }
    order(&mut layers, &out, &into, n);

    let row_width = |count: usize| count as f64 * (NODE_W + GAP_X) - GAP_X;
    // As wide as the widest row: a chain of decisions is one box wide, not seven.
    let unrelated_count = related.iter().filter(|r| !**r).count();
    let widest = layers
        .iter()
        .map(Vec::len)
        .chain([unrelated_count])
        .max()
        .unwrap_or(0)
        .clamp(1, ROW);
    let width = row_width(widest) + 2.0 * MARGIN;
    let mut at = vec![(0.0, 0.0); n];
    let mut y = MARGIN;
    let place_rows = |members: &[usize], y: &mut f64, at: &mut Vec<(f64, f64)>| {
        for row in members.chunks(ROW) {
            let left = (width - row_width(row.len())) / 2.0;
            for (k, &i) in row.iter().enumerate() {
                at[i] = (left + k as f64 * (NODE_W + GAP_X), *y);
            }
            *y += NODE_H + GAP_Y;
        }
    };
    for layer in layers.iter().filter(|l| !l.is_empty()) {
        place_rows(layer, &mut y, &mut at);
    }
    let unrelated: Vec<usize> = (0..n).filter(|&i| !related[i]).collect();
    let unrelated_top = (!unrelated.is_empty()).then(|| {
        let top = y;
        y += 24.0; // room for the grid's caption
        place_rows(&unrelated, &mut y, &mut at);
        top
    });
    let height = if n == 0 {
        NODE_H + 2.0 * MARGIN
    } else {
        y - GAP_Y + MARGIN
    };
    Layout {
        width,
        height,
        at,
        unrelated_top,
    }
}

/// Each related node's rank: 0 for one with no edge out (or only edges closing a cycle), else
/// one more than the highest rank it points to. An iterative depth-first search, so a long
/// chain cannot overflow the stack.
fn ranks(out: &[Vec<usize>], related: &[bool]) -> Vec<usize> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let n = out.len();
    let mut state = vec![NEW; n];
    let mut rank = vec![0usize; n];
    for start in (0..n).filter(|&i| related[i]) {
        if state[start] != NEW {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = OPEN;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&t) = out[node].get(*next) {
                *next += 1;
                if state[t] == NEW {
                    state[t] = OPEN;
                    stack.push((t, 0));
                }
                continue;
            }
            rank[node] = out[node]
                .iter()
                .filter(|&&t| state[t] == DONE)
                .map(|&t| rank[t] + 1)
                .max()
                .unwrap_or(0);
            state[node] = DONE;
            stack.pop();
        }
    }
    rank
}

/// Orders each rank by the mean position of its neighbours in the rank above (down), then
/// below (up), then above again; a node with none keeps its place.
fn order(layers: &mut [Vec<usize>], out: &[Vec<usize>], into: &[Vec<usize>], n: usize) {
    let mut pos = vec![0.0f64; n];
    let set = |layers: &[Vec<usize>], pos: &mut Vec<f64>| {
        for layer in layers {
            for (k, &i) in layer.iter().enumerate() {
                pos[i] = (k as f64 + 0.5) / layer.len() as f64;
            }
        }
    };
    set(layers, &mut pos);
    let sweep = |layer: &mut Vec<usize>,
                 pos: &[f64],
                 nbrs: &[Vec<usize>],
                 rank_of: &dyn Fn(usize) -> bool| {
        let mut keyed: Vec<(f64, usize)> = layer
            .iter()
            .map(|&i| {
                let near: Vec<f64> = nbrs[i]
                    .iter()
                    .filter(|&&j| rank_of(j))
                    .map(|&j| pos[j])
                    .collect();
                let key = if near.is_empty() {
                    pos[i]
                } else {
                    near.iter().sum::<f64>() / near.len() as f64
                };
                (key, i)
            })
            .collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        *layer = keyed.into_iter().map(|(_, i)| i).collect();
    };
    let mut rank_of = vec![usize::MAX; n];
    for (r, layer) in layers.iter().enumerate() {
        for &i in layer {
            rank_of[i] = r;
        }
    }
    for pass in 0..3 {
        let down = pass % 2 == 0;
        let ranks: Vec<usize> = if down {
            (1..layers.len()).collect()
        } else {
            (0..layers.len().saturating_sub(1)).rev().collect()
        };
        for r in ranks {
            // Down: a node's targets sit above it; up: its sources sit below it.
            let nbrs = if down { out } else { into };
            let is_near = |j: usize| {
                if down {
                    rank_of[j] < r
                } else {
                    rank_of[j] > r && rank_of[j] != usize::MAX
                }
            };
            let mut layer = std::mem::take(&mut layers[r]);
            sweep(&mut layer, &pos, nbrs, &is_near);
            layers[r] = layer;
            set(&layers[r..=r], &mut pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, EdgeKind, Node, NodeKind};

    fn graph(n: usize, edges: &[(usize, usize)]) -> Graph {
        Graph {
            nodes: (0..n)
                .map(|i| Node {
                    id: format!("N{i}"),
                    title: String::new(),
                    status: None,
                    path: String::new(),
                    kind: NodeKind::Record,
                })
                .collect(),
            edges: edges
                .iter()
                .map(|&(a, b)| Edge {
                    from: format!("N{a}"),
                    to: format!("N{b}"),
                    kind: EdgeKind::Cites,
                })
                .collect(),
        }
    }

    fn overlap(l: &Layout) -> bool {
        l.at.iter().enumerate().any(|(i, a)| {
            l.at[i + 1..]
                .iter()
                .any(|b| (a.0 - b.0).abs() < NODE_W && (a.1 - b.1).abs() < NODE_H)
        })
    }

    #[test]
    fn targets_sit_above_their_sources_and_no_boxes_overlap() {
        // 2 -> 1 -> 0, 3 -> 0, 4 alone, and a cycle 5 <-> 6.
        let l = layered(&graph(7, &[(2, 1), (1, 0), (3, 0), (5, 6), (6, 5)]));
        assert!(l.at[0].1 < l.at[1].1 && l.at[1].1 < l.at[2].1, "{l:?}");
        assert!(l.at[0].1 < l.at[3].1, "{l:?}");
        assert!(
            l.at[4].1 >= l.unrelated_top.expect("4 is unrelated"),
            "{l:?}"
        );
        assert!(!overlap(&l), "{l:?}");
        for &(x, y) in &l.at {
            assert!(
                x >= 0.0 && x + NODE_W <= l.width && y + NODE_H <= l.height,
                "{l:?}"
            );
        }
    }

    #[test]
    fn a_wide_rank_wraps_and_a_long_chain_does_not_overflow_the_stack() {
        let star: Vec<(usize, usize)> = (1..30).map(|i| (i, 0)).collect();
        let l = layered(&graph(30, &star));
        assert!(!overlap(&l));
        assert!(l.width <= (ROW as f64) * (NODE_W + GAP_X) + 2.0 * MARGIN);
        let chain: Vec<(usize, usize)> = (1..20_000).map(|i| (i, i - 1)).collect();
        let l = layered(&graph(20_000, &chain));
        assert!(l.at[19_999].1 > l.at[0].1);
    }
}
