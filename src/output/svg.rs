//! The graph of `report --html` as inline SVG, drawn from a `layout::Layout` (docs/pictures.md;
//! ADR-0015): a box per record linking to its row, each edge along its route (curves in the
//! bands between ranks, straight through its slots in a rank), the full id and title on hover.

use super::graph::colours;
use super::layout::{self, Layout, NODE_H, NODE_W};
use super::markup::{anchor, cut, escape, plain};
use crate::model::{EdgeKind, Graph, NodeKind, Status};
use std::fmt::Write;

/// Characters of an id (bold) and of a title that fit a box's width.
const ID_CHARS: usize = 22;
const TITLE_CHARS: usize = 24;

/// The SVG of `graph` laid out as `at`; `view` names it (its markers' and title's ids), and
/// `caption` heads the grid of records with no relation drawn.
pub fn svg(graph: &Graph, at: &Layout, view: &str, caption: &str) -> String {
    let mut out = String::with_capacity(graph.nodes.len() * 480 + graph.edges.len() * 200 + 1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-labelledby=\"graph-title-{view}\">",
        w = at.width,
        h = at.height
    );
    let drawn = at.routes.iter().filter(|r| r.is_some()).count();
    let _ = writeln!(
        out,
        "<title id=\"graph-title-{view}\">{} records and {drawn} relations</title>",
        graph.nodes.len(),
    );
    out.push_str("<defs>");
    for k in [EdgeKind::Supersedes, EdgeKind::Amends, EdgeKind::Cites] {
        let _ = write!(
            out,
            "<marker id=\"arrow-{view}-{}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#455a64\"/></marker>",
            k.as_str()
        );
    }
    out.push_str("</defs>\n<g class=\"edges\">\n");
    for (e, route) in graph.edges.iter().zip(&at.routes) {
        let Some(points) = route else { continue };
        let _ = writeln!(
            out,
            "<path class=\"edge {k}\" d=\"{d}\" marker-end=\"url(#arrow-{view}-{k})\"><title>{} {k} {}</title></path>",
            escape(&e.from),
            escape(&e.to),
            k = e.kind.as_str(),
            d = path(points),
        );
    }
    out.push_str("</g>\n<g class=\"nodes\">\n");
    if let Some(top) = at.unrelated_top {
        let _ = writeln!(
            out,
            "<text class=\"caption\" x=\"{:.0}\" y=\"{:.0}\">{}</text>",
            layout::MARGIN,
            top + 12.0,
            escape(caption)
        );
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        if n.kind != NodeKind::Record {
            continue;
        }
        let (x, y) = at.at[i];
        let (fill, stroke) = colours(n.status);
        let status = n.status.map(Status::as_str).unwrap_or_default();
        let title = plain(&n.title);
        let _ = writeln!(
            out,
            "<a class=\"node\" href=\"#{anchor}\" data-id=\"{id}\"><title>{id}: {full} ({status})</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{NODE_W}\" height=\"{NODE_H}\" rx=\"6\" fill=\"{fill}\" stroke=\"{stroke}\"/><text class=\"id\" x=\"{tx:.1}\" y=\"{y1:.1}\">{short_id}</text><text x=\"{tx:.1}\" y=\"{y2:.1}\">{short}</text></a>",
            anchor = anchor(&n.id),
            id = escape(&n.id),
            full = escape(&title),
            short_id = escape(&cut(&n.id, ID_CHARS)),
            tx = x + 8.0,
            y1 = y + 18.0,
            y2 = y + 35.0,
            short = escape(&cut(&title, TITLE_CHARS)),
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// An SVG path along `points`: straight where two points share an x (a slot in a rank), else a
/// curve leaving and arriving vertically, its control points inside the rectangle the two
/// points span (so it stays in the band between two ranks).
fn path(points: &[(f64, f64)]) -> String {
    let mut d = String::with_capacity(points.len() * 40);
    let (x0, y0) = points[0];
    let _ = write!(d, "M{x0:.1},{y0:.1}");
    for w in points.windows(2) {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        if (ax - bx).abs() < 0.05 {
            let _ = write!(d, " L{bx:.1},{by:.1}");
        } else {
            let mid = (ay + by) / 2.0;
            let _ = write!(d, " C{ax:.1},{mid:.1} {bx:.1},{mid:.1} {bx:.1},{by:.1}");
        }
    }
    d
}
