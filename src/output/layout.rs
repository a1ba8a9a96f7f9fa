//! A layered (Sugiyama) layout of a `Graph` for `report --html`, our own (ADR-0015, amended
//! 2026-12-05: the Rust crates that lay a graph out return the boxes' places but not the
//! edges' bends, and a script would make the page need JavaScript).
//!
//! Ranks by the longest path to a record nothing further points to (so the older decisions,
//! which newer ones supersede, amend and cite, sit above), cycles broken by depth-first search,
//! at most [`ROW`] boxes a rank (a fuller rank moves a box down). An edge spanning several
//! ranks gets a thin slot of its own in each rank between (a dummy node), so it bends through
//! the gaps between boxes and never through one; each rank is ordered by the barycentre of its
//! neighbours (down and up sweeps), then placed near its neighbours. Between two ranks an edge
//! stays in the band between them, where no box is: no edge can pass through a box
//! (`route::crosses` proves it for each layout in the tests). The records with no relation sit
//! in a grid below.

use crate::model::{Edge, Graph};
use std::collections::HashMap;

pub const NODE_W: f64 = 184.0;
pub const NODE_H: f64 = 46.0;
pub const GAP_X: f64 = 20.0;
pub const GAP_Y: f64 = 56.0;
pub const MARGIN: f64 = 16.0;
/// The gap between two rows of the grid of unrelated boxes.
pub const GRID_GAP: f64 = 14.0;
/// The width of an edge's slot in a rank it passes through.
pub const LANE: f64 = 8.0;
/// Boxes in one rank (and one row of the grid) at most.
pub const ROW: usize = 6;
/// Slots for long edges at most: an edge that would need more is not drawn (and counted in
/// [`Layout::undrawn`]), so no graph makes the page grow without bound (ADR-0011).
const SLOTS: usize = 60_000;

/// Where each node's box goes (top-left corner, in the order of `graph.nodes`) and the path of
/// each edge drawn (in the order of `graph.edges`).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub at: Vec<(f64, f64)>,
    /// The top of the grid of unrelated nodes, when there are some.
    pub unrelated_top: Option<f64>,
    /// Per edge: the points from the source's box to the target's, or `None` when the edge is
    /// not drawn (not kept, a loop, an unknown end, or over the slot budget). Between two
    /// consecutive points the path stays in the rectangle they span.
    pub routes: Vec<Option<Vec<(f64, f64)>>>,
    /// Edges kept but not drawn (over the slot budget).
    pub undrawn: usize,
}

/// The layout of `graph` with every edge between two of its nodes.
pub fn layered(graph: &Graph) -> Layout {
    layered_with(graph, |_| true)
}

/// One thing in a rank: a node's box, or the slot of an edge passing through.
struct Item {
    node: Option<usize>,
    width: f64,
    /// Neighbours in the rank above and below (item indices).
    up: Vec<usize>,
    down: Vec<usize>,
    x: f64,
}

/// The layout of `graph` with only the edges `keep` accepts (the others get no route and do
/// not place a node).
pub fn layered_with(graph: &Graph, keep: impl Fn(&Edge) -> bool) -> Layout {
    let n = graph.nodes.len();
    let index: HashMap<&str, usize> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| (node.id.as_str(), i))
        .collect();
    // The edges laid out: (edge index, from, to), one per ordered pair.
    let mut kept: Vec<(usize, usize, usize)> = Vec::new();
    let mut pairs = std::collections::HashSet::new();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, e) in graph.edges.iter().enumerate() {
        let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else {
            continue;
        };
        if a == b || !keep(e) || !pairs.insert((a, b)) {
            continue;
        }
        kept.push((k, a, b));
        out[a].push(b);
    }
    let mut related = vec![false; n];
    for &(_, a, b) in &kept {
        related[a] = true;
        related[b] = true;
    }
    let rank = ranks(&out, &related);
    let ranks_count = rank
        .iter()
        .zip(&related)
        .filter(|(_, r)| **r)
        .map(|(r, _)| r + 1)
        .max()
        .unwrap_or(0);

    // The items: every related node, then the slots of the long edges.
    let mut items: Vec<Item> = Vec::new();
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); ranks_count];
    let mut item_of = vec![usize::MAX; n];
    for i in (0..n).filter(|&i| related[i]) {
        item_of[i] = items.len();
        layers[rank[i]].push(items.len());
        items.push(Item {
            node: Some(i),
            width: NODE_W,
            up: Vec::new(),
            down: Vec::new(),
            x: 0.0,
        });
    }
    // Per kept edge: its chain of items from the upper end down to the lower one.
    let mut chains: Vec<(usize, Option<Vec<usize>>)> = Vec::with_capacity(kept.len());
    let mut slots = 0usize;
    let mut undrawn = 0usize;
    for &(k, a, b) in &kept {
        let (upper, lower) = if rank[a] < rank[b] { (a, b) } else { (b, a) };
        let span = rank[lower] - rank[upper];
        if slots + span - 1 > SLOTS {
            undrawn += 1;
            chains.push((k, None));
            continue;
        }
        slots += span - 1;
        let mut chain = vec![item_of[upper]];
        for layer in &mut layers[rank[upper] + 1..rank[lower]] {
            layer.push(items.len());
            items.push(Item {
                node: None,
                width: LANE,
                up: Vec::new(),
                down: Vec::new(),
                x: 0.0,
            });
            chain.push(items.len() - 1);
        }
        chain.push(item_of[lower]);
        for w in chain.windows(2) {
            items[w[0]].down.push(w[1]);
            items[w[1]].up.push(w[0]);
        }
        chains.push((k, Some(chain)));
    }
    order(&mut layers, &items);
    place(&layers, &mut items);

    let mut at = vec![(0.0, 0.0); n];
    let top = |r: usize| MARGIN + r as f64 * (NODE_H + GAP_Y);
    for (r, layer) in layers.iter().enumerate() {
        for &it in layer {
            if let Some(i) = items[it].node {
                at[i] = (items[it].x - NODE_W / 2.0, top(r));
            }
        }
    }
    let graph_width = items
        .iter()
        .map(|it| it.x + it.width / 2.0)
        .fold(0.0f64, f64::max);
    let row_width = |count: usize| count as f64 * (NODE_W + GAP_X) - GAP_X;
    let unrelated: Vec<usize> = (0..n).filter(|&i| !related[i]).collect();
    let width = (graph_width + MARGIN)
        .max(row_width(unrelated.len().clamp(1, ROW)) + 2.0 * MARGIN)
        .max(NODE_W + 2.0 * MARGIN);
    let mut y = top(ranks_count);
    let unrelated_top = (!unrelated.is_empty()).then(|| {
        let caption = y;
        y += 24.0; // room for the grid's caption
        for row in unrelated.chunks(ROW) {
            let left = (width - row_width(row.len())) / 2.0;
            for (k, &i) in row.iter().enumerate() {
                at[i] = (left + k as f64 * (NODE_W + GAP_X), y);
            }
            y += NODE_H + GRID_GAP;
        }
        y += GAP_Y - GRID_GAP;
        caption
    });
    let height = if n == 0 {
        NODE_H + 2.0 * MARGIN
    } else {
        y - GAP_Y + MARGIN
    };

    let mut routes = vec![None; graph.edges.len()];
    let ports = ports(&items);
    for (k, chain) in chains {
        let Some(chain) = chain else { continue };
        let mut points = Vec::with_capacity(chain.len() * 2);
        let first = chain[0];
        let last = chain[chain.len() - 1];
        points.push((
            ports[&(first, chain[1])],
            top(rank_of(&items, first, &rank)) + NODE_H,
        ));
        for (j, &it) in chain.iter().enumerate().skip(1).take(chain.len() - 2) {
            let r = rank[items[chain[0]].node.unwrap_or(0)] + j;
            points.push((items[it].x, top(r)));
            points.push((items[it].x, top(r) + NODE_H));
        }
        points.push((
            ports[&(last, chain[chain.len() - 2])],
            top(rank_of(&items, last, &rank)),
        ));
        // From the edge's source to its target.
        if items[first].node != index.get(graph.edges[k].from.as_str()).copied() {
            points.reverse();
        }
        routes[k] = Some(points);
    }
    Layout {
        width,
        height,
        at,
        unrelated_top,
        routes,
        undrawn,
    }
}

fn rank_of(items: &[Item], it: usize, rank: &[usize]) -> usize {
    items[it].node.map(|i| rank[i]).unwrap_or(0)
}

/// Where each connection leaves or enters a box: `(box item, neighbour item)` → x. A box's
/// connections above are spread along its top in the order of their neighbours, those below
/// along its bottom, so edges leave a box apart and without crossing each other there.
fn ports(items: &[Item]) -> HashMap<(usize, usize), f64> {
    let mut at = HashMap::new();
    for (it, item) in items.iter().enumerate().filter(|(_, i)| i.node.is_some()) {
        for side in [&item.up, &item.down] {
            let mut near: Vec<usize> = side.clone();
            near.sort_by(|a, b| items[*a].x.total_cmp(&items[*b].x));
            let m = near.len() as f64;
            let span = NODE_W * 0.8;
            for (k, &j) in near.iter().enumerate() {
                let x = item.x - span / 2.0 + span * (k as f64 + 1.0) / (m + 1.0);
                at.insert((it, j), x);
            }
        }
    }
    at
}

/// Each related node's rank: 0 for one with no edge out (or only edges closing a cycle), else
/// one more than the highest rank it points to, moved down while its rank holds [`ROW`] nodes.
/// An iterative depth-first search, so a long chain cannot overflow the stack; a node is ranked
/// after everything it points to, so each edge still goes from a lower rank to a higher one
/// (or, closing a cycle, the other way), never within one.
fn ranks(out: &[Vec<usize>], related: &[bool]) -> Vec<usize> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let n = out.len();
    let mut state = vec![NEW; n];
    let mut rank = vec![0usize; n];
    let mut filled: Vec<usize> = Vec::new();
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
            let mut r = out[node]
                .iter()
                .filter(|&&t| state[t] == DONE)
                .map(|&t| rank[t] + 1)
                .max()
                .unwrap_or(0);
            while filled.get(r).copied().unwrap_or(0) >= ROW {
                r += 1;
            }
            if filled.len() <= r {
                filled.resize(r + 1, 0);
            }
            filled[r] += 1;
            rank[node] = r;
            state[node] = DONE;
            stack.pop();
        }
    }
    rank
}

/// Orders each rank by the mean position of its neighbours in the rank above (down sweeps) or
/// below (up sweeps); an item with none keeps its place.
fn order(layers: &mut [Vec<usize>], items: &[Item]) {
    let mut pos = vec![0.0f64; items.len()];
    for layer in layers.iter() {
        for (k, &it) in layer.iter().enumerate() {
            pos[it] = k as f64;
        }
    }
    for pass in 0..8 {
        let down = pass % 2 == 0;
        let ranks: Vec<usize> = if down {
            (1..layers.len()).collect()
        } else {
            (0..layers.len().saturating_sub(1)).rev().collect()
        };
        for r in ranks {
            let mut keyed: Vec<(f64, usize)> = layers[r]
                .iter()
                .map(|&it| {
                    let near = if down { &items[it].up } else { &items[it].down };
                    let key = if near.is_empty() {
                        pos[it]
                    } else {
                        near.iter().map(|&j| pos[j]).sum::<f64>() / near.len() as f64
                    };
                    (key, it)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            layers[r] = keyed.into_iter().map(|(_, it)| it).collect();
            for (k, &it) in layers[r].iter().enumerate() {
                pos[it] = k as f64;
            }
        }
    }
}

/// The least distance between the centres of two neighbours in a rank.
fn apart(a: &Item, b: &Item) -> f64 {
    let gap = if a.node.is_some() && b.node.is_some() {
        GAP_X
    } else {
        GAP_X / 2.0
    };
    (a.width + b.width) / 2.0 + gap
}

/// Each item's centre: packed first, then pulled toward the mean of its neighbours in the rank
/// before (down, then up, sweeps), keeping the order and the least distances: the mean of the
/// placement pushed from the left and the one pushed from the right keeps both.
fn place(layers: &[Vec<usize>], items: &mut [Item]) {
    for layer in layers {
        let mut x = MARGIN;
        for (k, &it) in layer.iter().enumerate() {
            if k > 0 {
                x += apart(&items[layer[k - 1]], &items[it]);
            } else {
                x += items[it].width / 2.0;
            }
            items[it].x = x;
        }
    }
    for pass in 0..6 {
        let down = pass % 2 == 0;
        let ranks: Vec<usize> = if down {
            (1..layers.len()).collect()
        } else {
            (0..layers.len().saturating_sub(1)).rev().collect()
        };
        for r in ranks {
            let layer = &layers[r];
            let want: Vec<f64> = layer
                .iter()
                .map(|&it| {
                    let near = if down { &items[it].up } else { &items[it].down };
                    if near.is_empty() {
                        items[it].x
                    } else {
                        near.iter().map(|&j| items[j].x).sum::<f64>() / near.len() as f64
                    }
                })
                .collect();
            let m = layer.len();
            let mut left = want.clone();
            for k in 1..m {
                let least = left[k - 1] + apart(&items[layer[k - 1]], &items[layer[k]]);
                left[k] = left[k].max(least);
            }
            let mut right = want;
            for k in (0..m.saturating_sub(1)).rev() {
                let most = right[k + 1] - apart(&items[layer[k]], &items[layer[k + 1]]);
                right[k] = right[k].min(most);
            }
            for k in 0..m {
                items[layer[k]].x = (left[k] + right[k]) / 2.0;
            }
        }
    }
    // Shifted so the leftmost edge is at the margin.
    let least = items
        .iter()
        .map(|it| it.x - it.width / 2.0)
        .fold(f64::INFINITY, f64::min);
    if least.is_finite() {
        for it in items.iter_mut() {
            it.x += MARGIN - least;
        }
    }
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
