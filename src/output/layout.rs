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
//! (the tests check it on four real graphs' shapes). Each connected part is laid out on its
//! own and the parts are packed in rows, so many short chains read as small pictures side by
//! side; the records with no relation sit in a grid below.

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
    // Each connected part laid out on its own, then the parts packed in rows (shelves): a
    // graph of many short chains reads as a page of small pictures, not one wide one.
    let comp = components(n, &kept);
    let rank = ranks(&out, &related, &comp);
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in (0..n).filter(|&i| related[i]) {
        members.entry(comp[i]).or_default().push(i);
    }
    let mut edges_of: HashMap<usize, Vec<(usize, usize, usize)>> = HashMap::new();
    for &e in &kept {
        edges_of.entry(comp[e.1]).or_default().push(e);
    }
    let mut parts: Vec<Vec<usize>> = members.into_values().collect();
    parts.sort_by_key(|p| p[0]);
    let mut budget = SLOTS;
    let mut undrawn = 0usize;
    let mut at = vec![(0.0, 0.0); n];
    let mut routes: Vec<Option<Vec<(f64, f64)>>> = vec![None; graph.edges.len()];
    let row_width = |count: usize| count as f64 * (NODE_W + GAP_X) - GAP_X;
    let laid: Vec<Part> = parts
        .iter()
        .map(|p| {
            let edges = edges_of.remove(&comp[p[0]]).unwrap_or_default();
            part(p, &edges, &rank, &mut budget, &mut undrawn)
        })
        .collect();
    let shelf = laid.iter().map(|p| p.width).fold(row_width(ROW), f64::max);
    let (mut x, mut y, mut tallest) = (MARGIN, MARGIN, 0.0f64);
    let mut right = 0.0f64;
    for p in laid {
        if x > MARGIN && x - MARGIN + p.width > shelf {
            y += tallest + GAP_Y;
            x = MARGIN;
            tallest = 0.0;
        }
        for (i, (px, py)) in p.at {
            at[i] = (x + px, y + py);
        }
        for (k, points) in p.routes {
            routes[k] = Some(
                points
                    .into_iter()
                    .map(|(px, py)| (x + px, y + py))
                    .collect(),
            );
        }
        right = right.max(x + p.width);
        tallest = tallest.max(p.height);
        x += p.width + 2.0 * GAP_X;
    }
    if tallest > 0.0 {
        y += tallest + GAP_Y;
    }
    let unrelated: Vec<usize> = (0..n).filter(|&i| !related[i]).collect();
    let width = (right + MARGIN)
        .max(row_width(unrelated.len().clamp(1, ROW)) + 2.0 * MARGIN)
        .max(NODE_W + 2.0 * MARGIN);
    let unrelated_top = (!unrelated.is_empty()).then(|| {
        let caption = y;
        y += 24.0; // room for the grid's caption
        for row in unrelated.chunks(ROW) {
            for (k, &i) in row.iter().enumerate() {
                at[i] = (MARGIN + k as f64 * (NODE_W + GAP_X), y);
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
    Layout {
        width,
        height,
        at,
        unrelated_top,
        routes,
        undrawn,
    }
}

/// One connected part laid out from (0, 0): its size, its nodes' boxes and its edges' routes.
struct Part {
    width: f64,
    height: f64,
    at: Vec<(usize, (f64, f64))>,
    routes: Vec<(usize, Vec<(f64, f64)>)>,
}

/// Which connected part each node is in (a node with no edge is a part of its own).
fn components(n: usize, kept: &[(usize, usize, usize)]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for &(_, a, b) in kept {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    (0..n).map(|i| root(&mut parent, i)).collect()
}

/// The layout of one connected part: `nodes` (in order) and its `edges` (edge index, from,
/// to), spending at most `budget` slots on long edges (an edge over it is counted in
/// `undrawn`).
fn part(
    nodes: &[usize],
    edges: &[(usize, usize, usize)],
    rank: &[usize],
    budget: &mut usize,
    undrawn: &mut usize,
) -> Part {
    let low = nodes.iter().map(|&i| rank[i]).min().unwrap_or(0);
    let r = |i: usize| rank[i] - low;
    let count = nodes.iter().map(|&i| r(i) + 1).max().unwrap_or(0);
    let mut items: Vec<Item> = Vec::new();
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut item_of: HashMap<usize, usize> = HashMap::new();
    for &i in nodes {
        item_of.insert(i, items.len());
        layers[r(i)].push(items.len());
        items.push(Item {
            node: Some(i),
            width: NODE_W,
            up: Vec::new(),
            down: Vec::new(),
            x: 0.0,
        });
    }
    // Per edge: its chain of items from the upper end down to the lower one.
    let mut chains: Vec<(usize, usize, Vec<usize>, bool)> = Vec::with_capacity(edges.len());
    for &(k, a, b) in edges {
        let (upper, lower) = if r(a) < r(b) { (a, b) } else { (b, a) };
        let span = r(lower) - r(upper);
        if span - 1 > *budget {
            *undrawn += 1;
            continue;
        }
        *budget -= span - 1;
        let mut chain = vec![item_of[&upper]];
        for layer in &mut layers[r(upper) + 1..r(lower)] {
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
        chain.push(item_of[&lower]);
        for w in chain.windows(2) {
            items[w[0]].down.push(w[1]);
            items[w[1]].up.push(w[0]);
        }
        chains.push((k, r(upper), chain, upper == a));
    }
    order(&mut layers, &items);
    place(&layers, &mut items);

    let top = |rank: usize| rank as f64 * (NODE_H + GAP_Y);
    let mut at = Vec::with_capacity(nodes.len());
    for (rank, layer) in layers.iter().enumerate() {
        for &it in layer {
            if let Some(i) = items[it].node {
                at.push((i, (items[it].x - NODE_W / 2.0, top(rank))));
            }
        }
    }
    let width = items
        .iter()
        .map(|it| it.x + it.width / 2.0)
        .fold(0.0f64, f64::max);
    let ports = ports(&items);
    let routes = chains
        .into_iter()
        .map(|(k, first_rank, chain, from_upper)| {
            let last = chain.len() - 1;
            let mut points = Vec::with_capacity(chain.len() * 2);
            points.push((ports[&(chain[0], chain[1])], top(first_rank) + NODE_H));
            for (j, &it) in chain.iter().enumerate().take(last).skip(1) {
                points.push((items[it].x, top(first_rank + j)));
                points.push((items[it].x, top(first_rank + j) + NODE_H));
            }
            points.push((
                ports[&(chain[last], chain[last - 1])],
                top(first_rank + last),
            ));
            // From the edge's source to its target.
            if !from_upper {
                points.reverse();
            }
            (k, points)
        })
        .collect();
    Part {
        width,
        height: top(count) - GAP_Y,
        at,
        routes,
    }
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
fn ranks(out: &[Vec<usize>], related: &[bool], comp: &[usize]) -> Vec<usize> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let n = out.len();
    let mut state = vec![NEW; n];
    let mut rank = vec![0usize; n];
    // Per connected part: how many nodes each rank holds.
    let mut filled: HashMap<usize, Vec<usize>> = HashMap::new();
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
            let filled = filled.entry(comp[node]).or_default();
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
/// below (up sweeps); an item with none keeps its place. Of the orders the sweeps pass
/// through, the one with the fewest crossings is kept.
fn order(layers: &mut [Vec<usize>], items: &[Item]) {
    let mut pos = vec![0.0f64; items.len()];
    for layer in layers.iter() {
        for (k, &it) in layer.iter().enumerate() {
            pos[it] = k as f64;
        }
    }
    let mut best = (crossings(layers, items, &pos), layers.to_vec());
    for pass in 0..SWEEPS {
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
        let now = crossings(layers, items, &pos);
        if now < best.0 {
            best = (now, layers.to_vec());
        }
        if best.0 == 0 {
            break;
        }
    }
    layers.clone_from_slice(&best.1);
}

/// Down and up sweeps of the ordering at most.
const SWEEPS: usize = 16;

/// How many pairs of edge segments cross between consecutive ranks, with items at `pos`: per
/// pair of ranks, the segments sorted by their upper end, then the inversions of their lower
/// ends (counted by merge sort).
fn crossings(layers: &[Vec<usize>], items: &[Item], pos: &[f64]) -> usize {
    let mut total = 0;
    for layer in layers {
        let mut segments: Vec<(f64, f64)> = layer
            .iter()
            .flat_map(|&u| items[u].down.iter().map(move |&v| (pos[u], pos[v])))
            .collect();
        segments.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut lower: Vec<f64> = segments.into_iter().map(|s| s.1).collect();
        total += inversions(&mut lower);
    }
    total
}

/// The pairs `i < j` with `v[i] > v[j]`, sorting `v`.
fn inversions(v: &mut [f64]) -> usize {
    if v.len() < 2 {
        return 0;
    }
    let mid = v.len() / 2;
    let mut count = inversions(&mut v[..mid]) + inversions(&mut v[mid..]);
    let mut merged = Vec::with_capacity(v.len());
    let (mut i, mut j) = (0, mid);
    while i < mid && j < v.len() {
        if v[j] < v[i] {
            count += mid - i;
            merged.push(v[j]);
            j += 1;
        } else {
            merged.push(v[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&v[i..mid]);
    merged.extend_from_slice(&v[j..]);
    v.copy_from_slice(&merged);
    count
}

/// The least distance between the centres of two neighbours in a rank.
fn apart(a: &Item, b: &Item) -> f64 {
    let gap = match (a.node.is_some(), b.node.is_some()) {
        (true, true) => GAP_X,
        (false, false) => LANE / 2.0,
        _ => LANE,
    };
    (a.width + b.width) / 2.0 + gap
}

/// Each item's centre: packed first, then pulled toward the mean of its neighbours in the rank
/// before (down, then up, sweeps), keeping the order and the least distances: the mean of the
/// placement pushed from the left and the one pushed from the right keeps both.
fn place(layers: &[Vec<usize>], items: &mut [Item]) {
    for layer in layers {
        let mut x = 0.0;
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
    // Shifted so the leftmost edge is at 0.
    let least = items
        .iter()
        .map(|it| it.x - it.width / 2.0)
        .fold(f64::INFINITY, f64::min);
    if least.is_finite() {
        for it in items.iter_mut() {
            it.x -= least;
        }
    }
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
