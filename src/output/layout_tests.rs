use super::*;
use crate::model::{Edge, EdgeKind, Node, NodeKind, Status};

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

/// Every (edge, box) where the edge's path enters the inside of a box: between two consecutive
/// points the path stays in the rectangle they span (a straight line, or a curve whose control
/// points lie in it), so a rectangle meeting no box's inside is a path through no box. Every
/// box counts, the edge's own two too: a path may touch their border, never cross them.
fn crossings(graph: &Graph, l: &Layout) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (e, route) in graph.edges.iter().zip(&l.routes) {
        let Some(points) = route else { continue };
        for w in points.windows(2) {
            let (x0, x1) = (w[0].0.min(w[1].0), w[0].0.max(w[1].0));
            let (y0, y1) = (w[0].1.min(w[1].1), w[0].1.max(w[1].1));
            for (node, &(bx, by)) in graph.nodes.iter().zip(&l.at) {
                let inside_x = x1 > bx + 1e-6 && x0 < bx + NODE_W - 1e-6;
                let inside_y = y1 > by + 1e-6 && y0 < by + NODE_H - 1e-6;
                if inside_x && inside_y {
                    found.push((format!("{} -> {}", e.from, e.to), node.id.clone()));
                }
            }
        }
    }
    found
}

/// Every route starts on its source's box and ends on its target's.
fn ends_on_their_boxes(graph: &Graph, l: &Layout) {
    let at = |id: &str| {
        let i = graph.nodes.iter().position(|n| n.id == id).expect("a node");
        l.at[i]
    };
    for (e, route) in graph.edges.iter().zip(&l.routes) {
        let Some(points) = route else { continue };
        let on = |(x, y): (f64, f64), (bx, by): (f64, f64)| {
            x >= bx && x <= bx + NODE_W && ((y - by).abs() < 1e-6 || (y - by - NODE_H).abs() < 1e-6)
        };
        assert!(on(points[0], at(&e.from)), "{e:?} starts off its box");
        assert!(
            on(points[points.len() - 1], at(&e.to)),
            "{e:?} ends off its box"
        );
    }
}

/// A graph as `graph --format json --all` prints it.
fn from_json(text: &str) -> Graph {
    let doc: serde_json::Value = serde_json::from_str(text).expect("JSON");
    let status = |s: &str| Status::from_text(s);
    Graph {
        nodes: doc["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .map(|n| Node {
                id: n["id"].as_str().expect("id").into(),
                title: n["title"].as_str().expect("title").into(),
                status: n["status"].as_str().map(status),
                path: n["path"].as_str().expect("path").into(),
                kind: NodeKind::Record,
            })
            .collect(),
        edges: doc["edges"]
            .as_array()
            .expect("edges")
            .iter()
            .map(|e| Edge {
                from: e["from"].as_str().expect("from").into(),
                to: e["to"].as_str().expect("to").into(),
                kind: match e["kind"].as_str().expect("kind") {
                    "supersedes" => EdgeKind::Supersedes,
                    "amends" => EdgeKind::Amends,
                    _ => EdgeKind::Cites,
                },
            })
            .collect(),
    }
}

/// Four graphs shaped like whitehall's, adrkit's (149 edges), NixOS/rfcs' and vector's (74
/// records): their topology and id shapes, our own titles.
const SHAPES: [(&str, &str); 4] = [
    (
        "whitehall",
        include_str!("../../tests/it/pictures/graphs/whitehall.json"),
    ),
    (
        "adrkit",
        include_str!("../../tests/it/pictures/graphs/adrkit.json"),
    ),
    (
        "nixos-rfcs",
        include_str!("../../tests/it/pictures/graphs/nixos-rfcs.json"),
    ),
    (
        "vector",
        include_str!("../../tests/it/pictures/graphs/vector.json"),
    ),
];

#[test]
fn no_edge_passes_through_a_box_in_four_real_shapes_whole_or_chains_only() {
    for (name, text) in SHAPES {
        let g = from_json(text);
        let chains = |e: &Edge| e.kind != EdgeKind::Cites;
        for (view, l) in [("all", layered(&g)), ("chains", layered_with(&g, chains))] {
            let drawn = l.routes.iter().filter(|r| r.is_some()).count();
            let wanted = if view == "all" {
                g.edges.len()
            } else {
                g.edges.iter().filter(|e| chains(e)).count()
            };
            assert_eq!(drawn, wanted, "{name} {view}: every edge drawn");
            assert_eq!(crossings(&g, &l), vec![], "{name} {view}");
            assert!(!overlap(&l), "{name} {view}: boxes overlap");
            ends_on_their_boxes(&g, &l);
            for &(x, y) in &l.at {
                assert!(x >= 0.0 && x + NODE_W <= l.width + 1e-6 && y + NODE_H <= l.height);
            }
        }
    }
}

#[test]
fn the_old_layout_would_have_crossed_a_box_and_the_checker_sees_it() {
    // 2 -> 0 spans a rank; a straight line from 2 to 0 runs through 1 when 1 sits between.
    let g = graph(3, &[(2, 1), (1, 0), (2, 0)]);
    let mut l = layered(&g);
    assert_eq!(crossings(&g, &l), vec![]);
    let straight = |a: (f64, f64), b: (f64, f64)| {
        vec![
            (a.0 + NODE_W / 2.0, a.1),
            (b.0 + NODE_W / 2.0, b.1 + NODE_H),
        ]
    };
    l.at[1].0 = l.at[0].0; // one column, as a chain with a long edge beside it could be
    l.at[2].0 = l.at[0].0;
    l.routes[2] = Some(straight(l.at[2], l.at[0]));
    assert_eq!(
        crossings(&g, &l),
        vec![("N2 -> N0".to_string(), "N1".to_string())]
    );
}

#[test]
fn targets_sit_above_their_sources_and_no_boxes_overlap() {
    // 2 -> 1 -> 0, 3 -> 0, 4 alone, and a cycle 5 <-> 6.
    let g = graph(7, &[(2, 1), (1, 0), (3, 0), (5, 6), (6, 5)]);
    let l = layered(&g);
    assert!(l.at[0].1 < l.at[1].1 && l.at[1].1 < l.at[2].1, "{l:?}");
    assert!(l.at[0].1 < l.at[3].1, "{l:?}");
    assert!(
        l.at[4].1 >= l.unrelated_top.expect("4 is unrelated"),
        "{l:?}"
    );
    assert!(!overlap(&l), "{l:?}");
    assert_eq!(crossings(&g, &l), vec![]);
    ends_on_their_boxes(&g, &l);
}

#[test]
fn a_wide_rank_moves_down_and_a_long_chain_does_not_overflow_the_stack() {
    let star: Vec<(usize, usize)> = (1..30).map(|i| (i, 0)).collect();
    let g = graph(30, &star);
    let l = layered(&g);
    assert!(!overlap(&l));
    assert_eq!(crossings(&g, &l), vec![]);
    let mut rows: Vec<f64> = l.at.iter().map(|a| a.1).collect();
    rows.dedup();
    for y in &rows {
        assert!(l.at.iter().filter(|a| a.1 == *y).count() <= ROW);
    }
    let chain: Vec<(usize, usize)> = (1..20_000).map(|i| (i, i - 1)).collect();
    let l = layered(&graph(20_000, &chain));
    assert!(l.at[19_999].1 > l.at[0].1);
    // Every record of a long chain citing its first: the slots stop at the budget.
    let mut fan: Vec<(usize, usize)> = (1..3_000).map(|i| (i, i - 1)).collect();
    fan.extend((2..3_000).map(|i| (i, 0)));
    let l = layered(&graph(3_000, &fan));
    assert!(l.undrawn > 0 && l.routes.iter().filter(|r| r.is_some()).count() > 2_999);
}

#[test]
fn crossings_are_counted_and_the_sweeps_remove_a_needless_one() {
    let mut v = vec![3.0, 1.0, 2.0];
    assert_eq!(inversions(&mut v), 2);
    assert_eq!(v, [1.0, 2.0, 3.0]);
    // 2 -> 1, 3 -> 0 and 3 -> 1: in the order given (2 before 3) 2 -> 1 crosses 3 -> 0.
    let g = graph(4, &[(2, 1), (3, 0), (3, 1)]);
    let l = layered(&g);
    let centre = |i: usize| l.at[i].0;
    assert_eq!(
        centre(3) < centre(2),
        centre(0) < centre(1),
        "the edges do not cross: {l:?}"
    );
}
