//! `report --html`: one self-contained page (no network, no external file, readable without
//! JavaScript): the graph as inline SVG laid out by `layout`, the records table and the
//! findings grouped by code (docs/pictures.md; ADR-0015). The page, its style and its filtering
//! script are files under `templates/`, built into the binary as the hook scripts are.

use super::graph::colours;
use super::layout;
use super::markup::id_order;
use super::{svg, table};
use crate::model::{Edge, EdgeKind, FindingCode, Graph, Report, Severity, Status};
use std::fmt::Write;

const PAGE: &str = include_str!("../../templates/report.html");
const CSS: &str = include_str!("../../templates/report.css");
const JS: &str = include_str!("../../templates/report.js");

pub use super::markup::{anchor, escape};

/// The page for a full check's report and its picture (every record, `--all`).
pub fn report(report: &Report, graph: &Graph) -> String {
    let root_name = report
        .root
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    let title = format!("Decisions of {root_name}");
    fill(
        PAGE,
        &[
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("title", escape(&title)),
            ("css", CSS.to_string()),
            ("js", JS.to_string()),
            ("summary", summary(report, graph)),
            ("legend", legend()),
            ("graph", pictures(graph)),
            ("records", table::records(report)),
            ("findings", findings(report)),
        ],
    )
}

/// The graph drawn twice: supersessions and amendments only (shown first), and every relation
/// (shown when the reader ticks the box, with no script: CSS shows one view or the other).
/// A graph with no citation is drawn once.
fn pictures(graph: &Graph) -> String {
    // The records in id order: the layout starts each rank in that order.
    let mut nodes = graph.nodes.clone();
    nodes.sort_by(|a, b| id_order(&a.id, &b.id));
    let graph = Graph {
        nodes,
        edges: graph.edges.clone(),
    };
    let cites = graph
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Cites)
        .count();
    let all = layout::layered(&graph);
    let mut out = String::new();
    if cites == 0 {
        out.push_str("<div class=\"graph\">\n");
        out.push_str(&svg::svg(
            &graph,
            &all,
            "all",
            "Records with no relation to another",
        ));
        out.push_str("</div>\n");
        out.push_str(&undrawn(all.undrawn));
        out.push_str(&relations(&graph));
        return out;
    }
    let chains = layout::layered_with(&graph, |e: &Edge| e.kind != EdgeKind::Cites);
    let s = if cites == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "<input type=\"checkbox\" id=\"show-cites\" class=\"toggle\"><label for=\"show-cites\" class=\"toggle-label\">Show the {cites} citation{s} too (supersessions and amendments are drawn first)</label>"
    );
    out.push_str("<div class=\"graph view-chains\">\n");
    out.push_str(&svg::svg(
        &graph,
        &chains,
        "chains",
        "Records in no supersession or amendment",
    ));
    out.push_str("</div>\n<div class=\"graph view-all\">\n");
    out.push_str(&svg::svg(
        &graph,
        &all,
        "all",
        "Records with no relation to another",
    ));
    out.push_str("</div>\n");
    out.push_str(&undrawn(all.undrawn));
    out.push_str(&relations(&graph));
    out
}

/// Every relation as a line of text, supersessions first, each id linking to its row: the
/// graph read without looking at it (a screen reader, a phone).
fn relations(graph: &Graph) -> String {
    let ids: std::collections::HashSet<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    let link = |id: &str| {
        if ids.contains(id) {
            format!("<a href=\"#{}\">{}</a>", anchor(id), escape(id))
        } else {
            escape(id)
        }
    };
    let mut lines = Vec::new();
    for kind in [EdgeKind::Supersedes, EdgeKind::Amends, EdgeKind::Cites] {
        for e in graph.edges.iter().filter(|e| e.kind == kind) {
            lines.push(format!(
                "<li>{} {} {}</li>",
                link(&e.from),
                kind.as_str(),
                link(&e.to)
            ));
        }
    }
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "<details class=\"relations\"><summary>The {} relations as a list</summary>\n<ul>\n{}\n</ul></details>\n",
        lines.len(),
        lines.join("\n")
    )
}

/// A line saying how many relations the graph is too large to draw.
fn undrawn(count: usize) -> String {
    if count == 0 {
        return String::new();
    }
    format!("<p class=\"note\">{count} relations are too long to draw in a graph this large: <code>context-graph graph</code> prints them all.</p>\n")
}

/// The template with each `{{name}}` replaced, in one pass: a value is never read again for
/// placeholders, so a title holding `{{graph}}` stays text.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    let size = template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>();
    let mut out = String::with_capacity(size);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}").and_then(|end| {
            let name = &after[..end];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (v, end))
        }) {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn summary(report: &Report, graph: &Graph) -> String {
    let current = report
        .records
        .iter()
        .filter(|r| r.status.is_current())
        .count();
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    let (problems, warnings) = (count(Severity::Problem), count(Severity::Warning));
    let relations = graph
        .edges
        .iter()
        .filter(|e| e.kind != EdgeKind::Governs)
        .count();
    let mut out = String::from("<ul class=\"summary\">\n");
    let _ = writeln!(out, "<li>{} records</li>", report.records.len());
    let _ = writeln!(out, "<li>{current} current</li>");
    let _ = writeln!(out, "<li>{relations} relations</li>");
    let class = if problems > 0 {
        " class=\"problems\""
    } else {
        ""
    };
    let _ = writeln!(out, "<li{class}>{problems} problems</li>");
    let _ = writeln!(out, "<li>{warnings} warnings</li>");
    out.push_str("</ul>\n");
    out
}

const STATUSES: [Status; 7] = [
    Status::Accepted,
    Status::Proposed,
    Status::Superseded,
    Status::Deprecated,
    Status::Rejected,
    Status::Unknown,
    Status::Unrecognised,
];

fn legend() -> String {
    let mut out = String::from("<ul class=\"legend\">\n");
    for s in STATUSES {
        let (fill, stroke) = colours(Some(s));
        let _ = writeln!(
            out,
            "<li><span class=\"swatch\" style=\"background:{fill};border-color:{stroke}\"></span>{}</li>",
            s.as_str()
        );
    }
    for k in [EdgeKind::Supersedes, EdgeKind::Amends, EdgeKind::Cites] {
        let _ = writeln!(
            out,
            "<li><span class=\"line {0}\"></span>{0}</li>",
            k.as_str()
        );
    }
    out.push_str("</ul>\n");
    out
}

fn findings(report: &Report) -> String {
    if report.findings.is_empty() {
        return "<p>No findings.</p>\n".to_string();
    }
    let ids: std::collections::HashSet<&str> =
        report.records.iter().map(|r| r.id.as_str()).collect();
    let mut out = String::new();
    for code in FindingCode::ALL {
        let of: Vec<_> = report.findings.iter().filter(|f| f.code == code).collect();
        if of.is_empty() {
            continue;
        }
        let sev = code.severity().as_str();
        let _ = writeln!(
            out,
            "<div class=\"findings-group\" id=\"finding-{code}\"><h3><code>{code}</code> <span class=\"sev {sev}\">{sev}</span> ({})</h3>\n<ul>",
            of.len()
        );
        for f in of {
            // A link to the record's row, when there is one (a dangling id has none).
            let record = if ids.contains(f.record.as_str()) {
                format!(
                    "<a href=\"#{}\">{}</a>",
                    anchor(&f.record),
                    escape(&f.record)
                )
            } else {
                escape(&f.record)
            };
            let _ = writeln!(
                out,
                "<li>{record}: {} <code>{}</code></li>",
                escape(&f.message),
                escape(&f.path)
            );
        }
        out.push_str("</ul></div>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Finding, NodeKind, Record};

    fn hostile() -> Report {
        let mut r = Record::bare(
            "ADR-0001",
            "<script>alert(1)</script> & \"quotes\" 'x' {{graph}}",
            Status::Accepted,
            "docs/adr/0001-<img src=x>.md",
        );
        r.governs = vec!["src/<b>/".into()];
        Report {
            root: "/tmp/repo".into(),
            records: vec![r],
            docs: vec![],
            findings: vec![Finding::new(
                FindingCode::StatusMissing,
                "ADR-0001",
                "docs/adr/\"x\".md",
                "message <i>with</i> markup".into(),
            )],
            notes: vec![],
            query: None,
            rules: vec![],
        }
    }

    #[test]
    fn every_title_path_and_message_is_escaped() {
        let report = hostile();
        let graph = Graph {
            nodes: vec![crate::model::Node {
                id: "ADR-0001".into(),
                title: report.records[0].title.clone(),
                status: Some(Status::Accepted),
                path: report.records[0].path.clone(),
                kind: NodeKind::Record,
            }],
            edges: vec![],
        };
        let page = super::report(&report, &graph);
        for raw in [
            "<script>alert",
            "<img src=x>",
            "<b>/",
            "<i>with</i>",
            "\"quotes\"",
        ] {
            assert!(!page.contains(raw), "{raw} reached the page unescaped");
        }
        assert!(page.contains(
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;x&#39; {{graph}}"
        ));
        // One <script> element, the page's own.
        assert_eq!(page.matches("<script").count(), 1);
        assert!(
            !page.contains("http://") || page.matches("http://").count() == 1,
            "only the SVG namespace"
        );
    }

    #[test]
    fn anchors_keep_ids_apart() {
        assert_eq!(anchor("ADR-0001"), "rec-ADR-0001");
        assert_ne!(anchor("a b"), anchor("a_b"));
        assert!(!anchor("x\"><script>").contains('"'));
    }
}
